//! The lines of an agent's run trace (`rove run --trace`, each `rove test`
//! attempt): its head, a line per step, its end with how the run ended and,
//! for an attempt, what came of it. rove-agent's and rove-eval's records
//! are turned into these by their writers (see the format's module doc).

use rove_errors::Report;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{SeenConsole, SeenRequest, TraceScreenshot, is_zero};
use crate::Timing;

/// The first line of an agent's run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunHead {
    /// [`super::TRACE_VERSION`].
    pub version: u32,
    /// The task the model was given.
    pub task: String,
    /// The task's name, for a `rove test` attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Which attempt of the task (1, 2, …), for a `rove test` attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt: Option<u32>,
    /// Where the run started (`null` without a start URL).
    pub start_url: Option<String>,
    /// The model, as `provider:model`.
    pub model: String,
}

/// Tokens of a model's calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TokenCounts {
    /// Prompt tokens, cached ones included.
    pub input: u64,
    /// Generated tokens.
    pub output: u64,
    /// Prompt tokens served from the provider's cache.
    pub cached: u64,
}

/// One step of an agent's run: what its history holds, with the
/// screenshots inlined, and what a traced step saw besides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TracedStep {
    /// 1, 2, …
    pub number: u32,
    /// The model's text.
    pub thought: String,
    /// What it did.
    pub actions: Vec<TracedAction>,
    /// Tokens of the step's model call.
    pub usage: TokenCounts,
    /// The screenshot the model saw, when it saw one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<TraceScreenshot>,
    /// How long the step took.
    pub ms: f64,
    /// Of which the model's answer.
    pub model_ms: f64,
    /// Why the step counts as failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<TracedFailure>,
    /// The text the model was shown at this step, redacted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observation: Option<String>,
    /// Console messages logged during the step, oldest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub console: Vec<SeenConsole>,
    /// Requests made during the step, oldest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub network: Vec<SeenRequest>,
    /// Console messages and requests of the step not kept.
    #[serde(skip_serializing_if = "is_zero")]
    pub left_out: usize,
    /// The screenshot after the step's actions, when the trace takes them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screenshot_after: Option<TraceScreenshot>,
}

/// One action of a step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TracedAction {
    /// The tool.
    pub tool: String,
    /// Its arguments, redacted.
    pub arguments: Value,
    /// The element its first element argument named, as the view showed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<TracedTarget>,
    /// The elements of its further element arguments (`null` where one was
    /// not a ref the view showed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_targets: Vec<Option<TracedTarget>>,
    /// The outcome's text, or the error report (its first line) and more.
    pub result: String,
    /// Whether it failed.
    pub failed: bool,
    /// Where the command's time went (none for a call that never ran).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
    /// Where it clicked or pressed, in CSS pixels of the viewport.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<[f64; 2]>,
    /// The tab in front when it ended (`t2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<String>,
    /// Fields a later writer added that this version does not know: kept so
    /// the page still shows them.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An element an action aimed at.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TracedTarget {
    /// Its role.
    pub role: String,
    /// Its name.
    pub name: String,
}

/// Why a step counts as failed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TracedFailure {
    /// Failed steps in a row, this one included.
    pub count: u32,
    /// How many in a row end the run.
    pub limit: u32,
    /// `model`, `actions` or `no_tool`.
    pub kind: String,
    /// What failed.
    pub why: String,
}

/// The last line of an agent's run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunEnd {
    /// How the run ended. (Required: it tells this end from a trace of
    /// commands'.)
    pub ending: RunEnding,
    /// How many steps it took.
    #[serde(default)]
    pub steps: usize,
    /// How long it took.
    #[serde(default)]
    pub seconds: f64,
    /// Tokens over the run.
    #[serde(default)]
    pub usage: TokenCounts,
    /// What came of a `rove test` attempt.
    #[serde(flatten)]
    pub attempt: Option<AttemptEnd>,
}

/// How an agent's run ended: the agent's own endings, and those of a run
/// stopped from outside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum RunEnding {
    /// The model called `done`.
    Done {
        /// Its final answer.
        #[serde(default)]
        text: String,
        /// Whether it says the task succeeded.
        #[serde(default)]
        success: bool,
    },
    /// The step limit was reached.
    MaxSteps,
    /// Too many steps in a row failed.
    Failures {
        /// Consecutive failed steps.
        #[serde(default)]
        failed: u32,
        /// The limit.
        #[serde(default)]
        limit: u32,
        /// The model's final answer, asked for once after the limit.
        #[serde(default)]
        answer: Option<String>,
    },
    /// Out of time: a step (older runs), or a `rove test` attempt's time.
    Timeout {
        /// The attempt's time limit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds: Option<f64>,
    },
    /// The model repeated the same actions on a page they did not change.
    Loop,
    /// A challenge (captcha, bot wall) blocked the page and nothing solved
    /// it.
    Challenge {
        /// Its ref.
        #[serde(default)]
        reference: String,
        /// Its kind.
        #[serde(default)]
        kind: String,
        /// Why it was left.
        #[serde(default)]
        why: String,
    },
    /// The run could not go on (the browser gone, the model unreachable).
    Error {
        /// What failed.
        error: RunFailure,
    },
    /// A signal stopped the run, or an interrupted `rove test`.
    Interrupted {
        /// The signal's number.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signal: Option<u8>,
    },
    /// An ending this version does not know.
    #[serde(other)]
    Other,
}

/// Why a run could not go on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RunFailure {
    /// The typed error (`rove run`).
    Report(Report),
    /// In words (a `rove test` attempt).
    Text(String),
}

/// What came of a `rove test` attempt, as results.json says it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttemptEnd {
    /// `passed`, `failed`, `skipped`, `self-reported`, `unjudged`, `error`.
    /// (Required: an end without it is not an attempt's.)
    pub status: String,
    /// Why it did not pass.
    #[serde(default)]
    pub reason: Option<String>,
    /// The agent's final answer.
    #[serde(default)]
    pub answer: Option<String>,
    /// Each verify check and what came of it.
    #[serde(default)]
    pub checks: Vec<AttemptCheck>,
    /// The judge's verdict, when there is a judge and the run ended.
    #[serde(default)]
    pub judge: Option<AttemptJudgement>,
    /// Whether the judge disagrees with the agent's report.
    #[serde(default)]
    pub divergence: bool,
}

/// One verify check of an attempt.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AttemptCheck {
    /// `url`, `text`, `js`, `http`, `file` or `answer`.
    pub check: String,
    /// Whether it held.
    pub passed: bool,
    /// What was expected and what was found.
    pub detail: String,
}

/// What the judge said of an attempt.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AttemptJudgement {
    /// `pass`, `fail` or `unjudged`.
    pub verdict: String,
    /// Why it decided so.
    pub reasoning: String,
    /// What went wrong, when it says fail.
    pub failure_reason: String,
    /// Whether the task could not be done as asked.
    pub impossible_task: bool,
    /// Whether a captcha or bot check stood in the agent's way.
    pub reached_captcha: bool,
    /// Why it is unjudged.
    pub error: Option<String>,
    /// The judge's model, as `provider:model`.
    pub model: String,
    /// How many screenshots it was shown.
    pub screenshots: usize,
    /// Tokens of its call.
    pub usage: TokenCounts,
    /// How long its call took.
    pub seconds: f64,
}
