//! What a trace records of one command (see `trace.rs` for the file): its
//! name and arguments, who ran it, the text it answered or its typed
//! error, the time split, the console messages and requests of every tab
//! of the session that came during it, and, when asked, a screenshot
//! before and after an acting command.

use serde_json::{Value, json};

use crate::{Caller, Command, CommandError, LogMarks, Outcome, Session, Timing};

/// The most characters of the answer's text a line keeps.
const TEXT_KEPT: usize = 256 * 1024;
/// JPEG quality of a trace's screenshots: enough to see the page, small.
const SHOT_QUALITY: u8 = 40;
/// What is noted before a command runs.
pub(crate) struct Begun {
    started: f64,
    /// Where each tab's console and network logs stood.
    marks: LogMarks,
    /// The screenshot before an acting command (base64 JPEG), when asked.
    before: Option<Option<String>>,
}

impl Session {
    /// Notes where each tab's logs stand, and takes the screenshot before
    /// an acting command when a trace wants one.
    pub(crate) async fn trace_begins(&mut self, command: &Command) -> Begun {
        // A tab without a log yet has no mark: what its log collects later
        // is all of this command's.
        let marks = self.log_marks().await;
        let before = self.trace_shot_for(command).await;
        Begun {
            started: crate::trace::unix_seconds(),
            marks,
            before,
        }
    }

    /// Writes the command's line to the session's traces.
    pub(crate) async fn trace_ends(
        &mut self,
        command: &Command,
        caller: &Caller,
        begun: Begun,
        timing: Timing,
        result: &Result<Outcome, CommandError>,
    ) {
        let mut line = json!({
            "kind": "command",
            "name": command.name(),
            "args": self.config().secrets.redact_json(&command.tool_arguments()),
            "caller": match caller {
                Caller::Model => "model",
                Caller::Person { .. } => "person",
            },
            "started": begun.started,
            "ms": timing.total_ms,
            "timing": timing,
        });
        match result {
            Ok(outcome) => {
                line["ok"] = json!(true);
                line["tab"] = json!(outcome.tab.to_string());
                line["happened"] = json!(outcome.happened_lines());
                line["text"] = json!(cut(&outcome.text()));
                if let Some(view) = &outcome.view {
                    line["url"] = json!(view.url);
                    line["title"] = json!(view.title);
                }
            }
            Err(error) => {
                line["ok"] = json!(false);
                line["tab"] = json!(self.focused_id().map(|t| t.to_string()));
                line["error"] = serde_json::to_value(error.report()).unwrap_or(Value::Null);
                if let Some(view) = error.fresh_view() {
                    line["text"] = json!(cut(view));
                }
            }
        }
        let logs = self.logs_since(&begun.marks).await;
        line["console"] = json!(logs.console);
        line["network"] = json!(logs.network);
        if logs.left_out > 0 {
            line["left_out"] = json!(logs.left_out);
        }
        let after = match begun.before.is_some() {
            true => self.trace_shot_for(command).await,
            false => None,
        };
        let mut shots = Vec::new();
        if let Some(before) = &begun.before {
            shots.push(("before", before.as_deref()));
        }
        if let Some(after) = &after {
            shots.push(("after", after.as_deref()));
        }
        self.config().traces.record(&line, &shots);
    }

    /// The screenshot of an acting command when a trace wants one: taken
    /// while some trace has budget for it, `Some(None)` when none has
    /// (its line says it was left out), `None` when no trace wants any.
    async fn trace_shot_for(&self, command: &Command) -> Option<Option<String>> {
        let (wanted, budget) = self.config().traces.wants_screenshots();
        if !wanted || !command.acts() {
            return None;
        }
        Some(match budget {
            true => self.trace_shot().await,
            false => None,
        })
    }

    /// The focused tab's viewport as a small JPEG (base64), or `None` when
    /// it cannot be taken in time (a dialog, a hung page, no tab).
    async fn trace_shot(&self) -> Option<String> {
        let tab = self.focused().ok()?;
        let params = rove_cdp::protocol::page::CaptureScreenshot {
            format: Some(rove_cdp::protocol::page::CaptureScreenshotFormat::Jpeg),
            quality: Some(i64::from(SHOT_QUALITY)),
            ..Default::default()
        };
        let shot = tokio::time::timeout(rove_base::limits::TRACE_SCREENSHOT, tab.send(&params))
            .await
            .ok()?
            .ok()?;
        Some(shot.data).filter(|d| !d.is_empty())
    }
}

/// `text`, cut to [`TEXT_KEPT`] characters with a note.
fn cut(text: &str) -> String {
    let kept = rove_base::text::char_prefix(text, TEXT_KEPT);
    if kept.len() == text.len() {
        return text.to_owned();
    }
    format!("{kept}\n… (cut at {TEXT_KEPT} characters)")
}
