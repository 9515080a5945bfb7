//! One attempt's outcome, as `results.json` records it, and the one
//! redaction every outcome passes before anything shows it.

use rove_commands::Secrets;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::verify::CheckResult;

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The agent reported success, every check held, and the judge (when
    /// there is one) says pass.
    Passed,
    /// The agent did not report success, a check failed, the judge says
    /// fail, or it ran out of steps or time.
    Failed,
    /// It did not run (an unset variable or secret, or interrupted before
    /// it started). Never a pass.
    Skipped,
    /// The agent reported success and the task has no check: nobody
    /// confirmed it. Counted apart, never as a pass.
    SelfReported,
    /// The agent reported success and every check held, but the judge
    /// could not say (its call failed, timed out, or its answer lacked a
    /// field). Never a pass, never a fail.
    Unjudged,
    /// rove or the model's provider failed (no browser context, the model
    /// unreachable, interrupted while running).
    Error,
}

impl Status {
    /// As written in results.json.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
            Status::SelfReported => "self-reported",
            Status::Unjudged => "unjudged",
            Status::Error => "error",
        }
    }
}

/// One attempt of one task.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AttemptResult {
    /// The task's name.
    pub task: String,
    /// 1, 2, … within the task.
    pub attempt: u32,
    /// How it ended.
    pub status: Status,
    /// Why it did not pass (the failed check, the typed error, the step
    /// limit, the timeout, the skip reason); `None` when it passed.
    pub reason: Option<String>,
    /// The code of the typed error that made it an `error` (no browser,
    /// no context, the browser gone, a wait run out, the model failed …);
    /// `None` for every other status, and for an attempt interrupted by a
    /// signal.
    pub error_code: Option<rove_errors::ErrorCode>,
    /// How the agent's run ended (`done`, `max_steps`, `timeout` …), when
    /// it ran.
    pub ending: Option<String>,
    /// Whether the agent reported success.
    pub success_reported: bool,
    /// The agent's final answer.
    pub answer: Option<String>,
    /// Model calls made.
    pub steps: usize,
    /// Tokens sent.
    pub tokens_in: u64,
    /// Tokens received.
    pub tokens_out: u64,
    /// Dollars, when the model's price is known.
    pub cost: Option<f64>,
    /// Wall time of the attempt.
    pub seconds: f64,
    /// Each verify check and what came of it.
    pub checks: Vec<CheckResult>,
    /// The attempt's history file (as `rove run --history` writes), when
    /// results are written to a folder.
    pub history: Option<String>,
    /// The attempt's trace (JSON lines, as `rove run --trace` writes), when
    /// one was kept (see `--traces`).
    pub trace: Option<String>,
    /// The trace as a page (as `rove trace show` makes it), when one was
    /// written.
    pub trace_view: Option<String>,
    /// An animated GIF of the attempt (`rove test --video`), beside its
    /// trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub video: Option<String>,
    /// Which shared browser it ran in (0 for the one rove launched; the
    /// position in the pool otherwise); `null` with a browser of its own.
    pub browser_index: Option<usize>,
    /// The process id of its browser, when rove launched it.
    pub browser_pid: Option<u32>,
    /// What the judge said, when the suite has one and the agent's run
    /// ended (beside `success_reported`, never in its place).
    pub judge: Option<rove_agent::Judgement>,
    /// Whether the judge's verdict disagrees with the agent's report.
    pub divergence: bool,
    /// Dollars of the judge's call (its tokens are `judge.usage`), when its
    /// model's price is known; never in `cost`, which is the agent's.
    pub judge_cost: Option<f64>,
    /// The step before which the run first met a challenge (0: on the
    /// first page), as its views showed it; never the model's or the
    /// judge's opinion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reached_captcha: Option<u32>,
}

/// The status of an attempt whose agent reported success and whose checks
/// all held: the judge's word when there is a judge (a pass, a fail with
/// its reason, or unjudged); without one, passed, or self-reported when no
/// check confirmed anything.
pub(crate) fn judged_status(
    judge: Option<&rove_agent::Judgement>,
    unchecked: bool,
) -> (Status, Option<String>) {
    use rove_agent::Verdict;
    match judge {
        Some(j) => match j.verdict {
            Verdict::Pass => (Status::Passed, None),
            Verdict::Fail => (
                Status::Failed,
                Some(format!(
                    "judge: {}",
                    if j.failure_reason.is_empty() {
                        &j.reasoning
                    } else {
                        &j.failure_reason
                    }
                )),
            ),
            Verdict::Unjudged => (
                Status::Unjudged,
                Some(format!(
                    "unjudged: {}",
                    j.error.as_deref().unwrap_or("the judge could not say")
                )),
            ),
        },
        None if unchecked => (
            Status::SelfReported,
            Some("no verify check: only the agent says it succeeded".into()),
        ),
        None => (Status::Passed, None),
    }
}

impl AttemptResult {
    /// An attempt that never ran.
    pub fn not_run(task: &str, attempt: u32, status: Status, reason: String) -> AttemptResult {
        AttemptResult {
            task: task.to_owned(),
            attempt,
            status,
            reason: Some(reason),
            error_code: None,
            ending: None,
            success_reported: false,
            answer: None,
            steps: 0,
            tokens_in: 0,
            tokens_out: 0,
            cost: None,
            seconds: 0.0,
            checks: Vec::new(),
            history: None,
            trace: None,
            trace_view: None,
            video: None,
            browser_index: None,
            browser_pid: None,
            judge: None,
            divergence: false,
            judge_cost: None,
            reached_captcha: None,
        }
    }

    /// An attempt that ended in the typed error `code`, before or while it
    /// ran.
    pub fn error(
        task: &str,
        attempt: u32,
        code: rove_errors::ErrorCode,
        reason: String,
    ) -> AttemptResult {
        AttemptResult {
            error_code: Some(code),
            ..AttemptResult::not_run(task, attempt, Status::Error, reason)
        }
    }
}

/// `text` as rove may show or write it: the session's secrets in every
/// disguise, and whatever the process hides (every session's secrets, the
/// model's key, the credentials of URLs: `rove_base::redact`), replaced
/// by their placeholders.
pub(crate) fn hidden(secrets: &Secrets, text: &str) -> String {
    secrets.redact(&rove_base::redact::scrub(text))
}

/// `value` with [`hidden`] applied to every string in it, keys included
/// (`rove_base::redact::scrub_json_with`, the one walker).
pub(crate) fn hidden_json(secrets: &Secrets, value: &mut Value) {
    *value = rove_base::redact::scrub_json_with(value, |s| hidden(secrets, s));
}

/// `value` with [`hidden`] applied to every string of its serialized
/// form, read back; `None` when it does not read back (then nothing of it
/// may be shown).
pub(crate) fn redacted_as<T: Serialize + serde::de::DeserializeOwned>(
    secrets: &Secrets,
    value: &T,
) -> Option<T> {
    let mut json = serde_json::to_value(value).ok()?;
    hidden_json(secrets, &mut json);
    serde_json::from_value(json).ok()
}

impl AttemptResult {
    /// The result with every text in it redacted ([`hidden`]): what a page
    /// echoed into a check's detail, an error, a reason, the judge's words.
    /// Every field is reached through its serialized form, so a field added
    /// later is redacted too. The one place an attempt's result passes
    /// before stdout, results.json, the reports, its history and its trace
    /// see it.
    pub(crate) fn redacted(self, secrets: &Secrets) -> AttemptResult {
        redacted_as(secrets, &self).unwrap_or_else(|| {
            // Its texts are left out rather than shown.
            tracing::error!(task = %self.task, attempt = self.attempt, "an attempt's result could not be redacted");
            AttemptResult::not_run(
                &hidden(secrets, &self.task),
                self.attempt,
                self.status,
                "its details were left out: they could not be redacted".into(),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rove_commands::Secret;

    #[test]
    fn every_text_of_a_result_is_redacted() {
        let value = "Hunter2-Zq9x";
        let secrets = Secrets(vec![Secret {
            name: "PW".into(),
            value: value.into(),
            domain: None,
        }]);
        let letters: Vec<String> = value.chars().map(String::from).collect();
        let spaced = letters.join("\u{200B}");
        let echo = format!("page said {spaced} and {}", value.to_lowercase());
        let mut result = AttemptResult::not_run("login", 1, Status::Failed, echo.clone());
        result.answer = Some(echo.clone());
        result.ending = Some(echo.clone());
        result.checks = vec![CheckResult {
            check: "url".into(),
            passed: false,
            detail: format!("the final URL http://x.test/?echo={value} does not match"),
        }];
        let mut judge = rove_agent::Judgement::unjudged("openai:judge".into(), echo.clone());
        judge.reasoning = echo.clone();
        judge.failure_reason = echo.clone();
        result.judge = Some(judge);
        let shown = serde_json::to_string(&result.redacted(&secrets)).expect("JSON");
        assert!(
            !shown.to_lowercase().contains(&value.to_lowercase()),
            "{shown}"
        );
        assert!(!shown.contains('\u{200B}'), "{shown}");
        assert!(shown.contains("<secret>PW</secret>"), "{shown}");
        assert!(shown.contains("\"status\":\"failed\""), "{shown}");
    }

    #[test]
    fn a_secret_is_hidden_in_a_key_as_in_a_value() {
        let secrets = Secrets(vec![Secret {
            name: "PW".into(),
            value: "Hunter2-Zq9x".into(),
            domain: None,
        }]);
        let mut history = serde_json::json!({
            "steps": [{"headers": {"Hunter2-Zq9x": "Hunter2-Zq9x"}}],
        });
        hidden_json(&secrets, &mut history);
        let shown = history.to_string();
        assert!(!shown.contains("Hunter2-Zq9x"), "{shown}");
        assert!(shown.contains("\"steps\""), "{shown}");
    }
}
