//! The `agent` log layer: a run's steps, model calls, decisions and
//! failures as tracing events with the target `agent`.
//!
//! `info` tells the story (a step began, the model answered with these
//! calls, an action's result, a failure, the ending); `debug` adds the
//! model's text and each action's arguments; `trace` each result in full.
//! Everything here is already redacted by the caller (the run's secrets);
//! the log's writer scrubs again for what was registered process-wide.

use rove_llm::{Completion, Endpoint, LlmError};

use crate::record::{ActionRecord, Ending, StepRecord};

/// The first line of a text, for a one-line summary.
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

pub(crate) fn run_started(task: &str, endpoint: &Endpoint, max_steps: u32) {
    tracing::info!(target: "agent", model = %format!("{}:{}", endpoint.provider, endpoint.model), max_steps, task, "run started");
}

pub(crate) fn step_started(number: u32) {
    tracing::info!(target: "agent", step = number, "step started");
}

pub(crate) fn model_answered(number: u32, answer: &Completion, ms: f64, thought: &str) {
    let calls: Vec<&str> = answer.tool_calls.iter().map(|c| c.name.as_str()).collect();
    tracing::info!(
        target: "agent",
        step = number,
        model = %answer.model,
        ms = ms.round(),
        tokens_in = answer.usage.input,
        tokens_out = answer.usage.output,
        calls = %calls.join(","),
        "model answered"
    );
    if !thought.is_empty() {
        tracing::debug!(target: "agent", step = number, thought, "model text");
    }
}

pub(crate) fn model_failed(number: u32, error: &LlmError, ms: f64) {
    tracing::warn!(target: "agent", step = number, ms = ms.round(), error = %error, "model call failed");
}

pub(crate) fn action(number: u32, action: &ActionRecord) {
    if tracing::enabled!(target: "agent", tracing::Level::DEBUG) {
        tracing::debug!(target: "agent", step = number, tool = %action.tool, arguments = %action.arguments, "action arguments");
    }
    tracing::info!(
        target: "agent",
        step = number,
        tool = %action.tool,
        failed = action.failed,
        result = first_line(&action.result),
        "action"
    );
    tracing::trace!(target: "agent", step = number, result = %action.result, "action result");
}

pub(crate) fn step_ended(step: &StepRecord) {
    match &step.failure {
        Some(failure) => {
            tracing::warn!(target: "agent", step = step.number, ms = step.ms.round(), failure = %failure, "step failed")
        }
        None => {
            tracing::info!(target: "agent", step = step.number, ms = step.ms.round(), "step ended")
        }
    }
}

pub(crate) fn run_ended(ending: &Ending, steps: usize) {
    let ending = serde_json::to_string(ending).unwrap_or_default();
    tracing::info!(target: "agent", steps, ending = %ending, "run ended");
}

pub(crate) fn run_failed(error: &crate::AgentError) {
    tracing::error!(target: "agent", error = %error, "run stopped");
}

/// The one line asking the person at a browser's window to solve a
/// challenge (a warning, so it shows at rove's default level).
/// The line asking the person at the window to solve a challenge: logged,
/// and returned for the run's own way of telling a person.
pub(crate) fn ask_person(reference: &str, kind: &str, wait: std::time::Duration) -> String {
    let line = format!(
        "a {kind} challenge ({reference}) blocks the page: please solve it in the browser window; rove waits up to {} s",
        wait.as_secs()
    );
    tracing::warn!(target: "agent", "{line}");
    line
}

pub(crate) fn challenge_left(reference: &str, kind: &str, reason: &str) {
    tracing::info!(target: "agent", reference, kind, reason, "a challenge ends the run");
}
