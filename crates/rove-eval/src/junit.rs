//! JUnit XML, which CI systems show as test results: one test case per
//! attempt. A self-reported attempt is shown as skipped, not passed, since
//! nothing confirmed it. An attempt's video (`--video`) is attached as
//! CI systems read attachments: `[[ATTACHMENT|path]]` in its output.

use rove_base::text::xml_escaped as escape;

use crate::attempt::Status;
use crate::results::SuiteResults;

/// The results as a JUnit XML document.
pub fn junit_xml(results: &SuiteResults) -> String {
    let s = &results.suite;
    let skipped = s.skipped + s.self_reported;
    // An unjudged attempt is not a failure of the task: like an error, it
    // says nothing either way.
    let errors = s.error + s.unjudged;
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites name=\"rove test\" tests=\"{}\" failures=\"{}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{:.3}\">\n",
        s.attempts, s.failed, results.seconds
    ));
    xml.push_str(&format!(
        "  <testsuite name=\"rove test\" tests=\"{}\" failures=\"{}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{:.3}\">\n",
        s.attempts, s.failed, results.seconds
    ));
    for a in &results.attempts {
        let file = results
            .tasks
            .iter()
            .find(|t| t.name == a.task)
            .map(|t| t.file.as_str())
            .unwrap_or_default();
        xml.push_str(&format!(
            "    <testcase name=\"{} #{}\" classname=\"{}\" time=\"{:.3}\"",
            escape(&a.task),
            a.attempt,
            escape(file),
            a.seconds
        ));
        let reason = escape(a.reason.as_deref().unwrap_or_default());
        let inner = match a.status {
            Status::Passed => None,
            Status::Failed => Some(format!("<failure message=\"{reason}\">{reason}</failure>")),
            Status::Error | Status::Unjudged => {
                // The typed error's code, where CI tools show an error's type.
                let kind = a
                    .error_code
                    .map(|c| format!(" type=\"{}\"", c.as_str()))
                    .unwrap_or_default();
                Some(format!(
                    "<error{kind} message=\"{reason}\">{reason}</error>"
                ))
            }
            Status::Skipped | Status::SelfReported => Some(format!(
                "<skipped message=\"{}: {reason}\"/>",
                a.status.as_str()
            )),
        };
        // A video of the attempt, as CI systems take attachments: a
        // `[[ATTACHMENT|path]]` line in the case's output.
        let attached = a
            .video
            .as_deref()
            .map(|video| format!("<system-out>[[ATTACHMENT|{}]]</system-out>", escape(video)));
        match (inner, attached) {
            (None, None) => xml.push_str("/>\n"),
            (inner, attached) => {
                xml.push_str(">\n");
                for part in [inner, attached].into_iter().flatten() {
                    xml.push_str(&format!("      {part}\n"));
                }
                xml.push_str("    </testcase>\n");
            }
        }
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}
