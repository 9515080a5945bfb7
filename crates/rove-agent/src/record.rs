//! What a run is given and what it leaves: its bounds ([`AgentConfig`]),
//! each step as recorded ([`StepRecord`], the history's and the trace's
//! source), and how it ended ([`RunResult`]).

use std::time::Duration;

use rove_base::limits;
use rove_llm::{LlmError, Spend, Usage};
use serde::Serialize;
use serde_json::Value;

use crate::screenshot::Screenshot;
use crate::seen::Seen;

/// A way to tell the person at the browser's window something: a line of
/// text, already redacted.
#[derive(Clone)]
pub struct TellPerson(pub std::sync::Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for TellPerson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TellPerson(..)")
    }
}

/// How a run is bounded.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    /// The most steps (model calls).
    pub max_steps: u32,
    /// The most tool calls run from one answer.
    pub max_actions_per_step: usize,
    /// The deadline of one step: the model's answer (its retries and the
    /// fallback included, within three quarters of it) and its actions.
    pub step_timeout: Duration,
    /// Consecutive failed steps that end the run.
    pub max_failures: u32,
    /// The most tokens one answer may take.
    pub max_tokens: u32,
    /// Roughly how many tokens of history each request may carry; above
    /// it, older tool results shrink to their first line.
    pub history_budget: usize,
    /// Whether each step also shows the model a screenshot.
    pub vision: Vision,
    /// Where to keep the screenshots the model saw (`step-N.jpg`), for the
    /// history; `None` keeps none.
    pub screenshot_dir: Option<std::path::PathBuf>,
    /// How many of the last screenshots the model saw the result keeps in
    /// memory (for a judge); 0 keeps none.
    pub keep_screenshots: usize,
    /// Whether each step records what a trace shows of it ([`Seen`]): the
    /// text the model was shown, and the console messages and requests of
    /// the step.
    pub trace: bool,
    /// Whether a traced step also takes a screenshot after its actions
    /// (`step-N-after.jpg` in `screenshot_dir`; none without one).
    pub trace_screenshots: bool,
    /// The system prompt in place of rove's (which is chosen by the
    /// model's name: see [`crate::PromptVariant`]).
    pub system_prompt: Option<String>,
    /// Text added after the system prompt (rove's or `system_prompt`).
    pub extend_system_prompt: Option<String>,
    /// The browser shows a window: a challenge no plugin solves is handed
    /// to the person at it.
    pub headed: bool,
    /// How long a person gets to solve a challenge (`--captcha-wait`).
    pub captcha_wait: Duration,
    /// Where the one line asking a person at the window to solve a
    /// challenge is told (the CLI: its stderr, in every output mode);
    /// without it, the `agent` log only.
    pub tell_person: Option<TellPerson>,
}

/// Whether the model sees screenshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Vision {
    /// For hosted models; not for local ones (Ollama), which often cannot
    /// read images.
    #[default]
    Auto,
    /// Every step.
    On,
    /// Never.
    Off,
}

impl Default for AgentConfig {
    fn default() -> Self {
        AgentConfig {
            max_steps: 30,
            max_actions_per_step: 5,
            step_timeout: limits::STEP,
            max_failures: 5,
            max_tokens: 4_096,
            history_budget: 60_000,
            vision: Vision::Auto,
            screenshot_dir: None,
            keep_screenshots: 0,
            trace: false,
            trace_screenshots: false,
            system_prompt: None,
            extend_system_prompt: None,
            headed: false,
            captcha_wait: limits::CAPTCHA_WAIT,
            tell_person: None,
        }
    }
}

/// Why a run ended.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Ending {
    /// The model called `done`.
    Done {
        /// Its final answer.
        text: String,
        /// Whether it says the task succeeded.
        success: bool,
    },
    /// The step limit was reached.
    MaxSteps {
        /// The model's best answer, asked for once at the limit (or its
        /// last plain-text answer); none in histories written before it
        /// was asked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answer: Option<String>,
    },
    /// Too many steps in a row failed.
    Failures {
        /// Consecutive failed steps.
        failed: u32,
        /// The limit.
        limit: u32,
        /// The model's final answer, asked for once after the limit (or its
        /// last plain-text answer).
        answer: Option<String>,
    },
    /// A step did not finish in time. (Not produced any more: such a step
    /// is a failed one; kept so older histories still read.)
    Timeout,
    /// The model repeated the same actions on a page they did not change,
    /// after being told so.
    Loop,
    /// A challenge (captcha, bot wall) blocks the page and nothing could
    /// solve it: no solver plugin answered and no person could (a headless
    /// browser, or none within `captcha_wait`). No model step was spent on
    /// it.
    Challenge {
        /// Its ref.
        reference: String,
        /// Its kind.
        kind: String,
        /// The step it stopped.
        step: u32,
        /// Why it is left.
        why: String,
    },
}

/// What an action aimed at, as the view showed it: enough to find it again
/// when refs differ.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Target {
    /// Its role.
    pub role: String,
    /// Its name.
    pub name: String,
}

/// One action of a step, as recorded.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ActionRecord {
    /// The tool.
    pub tool: String,
    /// Its arguments.
    pub arguments: Value,
    /// The element its first element argument named (`ref`, drag's
    /// `from`, fill-form's first field), when that was a ref the view
    /// showed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    /// The elements of its further element arguments (drag's `to`,
    /// fill-form's later fields), in order; `null` where one was not a ref
    /// the view showed. A replay finds each again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_targets: Vec<Option<Target>>,
    /// What came of it: the outcome's text, or the error report.
    pub result: String,
    /// Whether it failed.
    pub failed: bool,
    /// Whether it succeeded and changed nothing visible (for the loop
    /// check; not recorded).
    #[serde(skip)]
    pub unchanged: bool,
    /// Where the command's time went (none for a call that never ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<rove_commands::Timing>,
    /// Where it clicked or pressed, in CSS pixels of the viewport.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<[f64; 2]>,
    /// The tab in front when it ended (`t2`): the tab it acted on, or the
    /// one a tab action brought to the front, so a history shows where
    /// side research happened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<String>,
}

/// One step, as recorded.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct StepRecord {
    /// 1, 2, …
    pub number: u32,
    /// The model's text, if any.
    pub thought: String,
    /// What it did.
    pub actions: Vec<ActionRecord>,
    /// Tokens of this step's model call.
    pub usage: Usage,
    /// The model that answered it (`provider:model`): the fallback's name
    /// once it took over. None when no model answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The screenshot the model saw, when one was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<String>,
    /// How long the step took.
    pub ms: f64,
    /// Of which the model's answer (its retries and fallback included);
    /// the rest is rove and the browser.
    #[serde(default)]
    pub model_ms: f64,
    /// Why the step counts as failed (the model's error, its deadline,
    /// every action failed, no action), with the count so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<StepFailure>,
    /// What a trace shows of the step besides the above (empty unless the
    /// run is traced).
    #[serde(flatten)]
    pub seen: Seen,
}

/// A failed step: the `k` of `failure k/N` and why.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct StepFailure {
    /// Failed steps in a row, this one included.
    pub count: u32,
    /// How many in a row end the run.
    pub limit: u32,
    /// What kind of failure.
    pub kind: FailureKind,
    /// What failed.
    pub why: String,
}

/// What made a step fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The model gave no answer: its error (after retries and the fallback)
    /// or its share of the step's deadline.
    Model,
    /// Every action it asked for failed (or ran past the step's deadline).
    Actions,
    /// It answered without calling a tool.
    NoTool,
}

impl std::fmt::Display for StepFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "failure {}/{}: {}", self.count, self.limit, self.why)
    }
}

/// A finished run.
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    /// Why it ended.
    pub ending: Ending,
    /// Every step.
    pub steps: Vec<StepRecord>,
    /// Tokens over the run.
    pub usage: Usage,
    /// The same tokens per model that spent them, for the run's price.
    #[serde(skip)]
    pub spend: Spend,
    /// When the run ended on failures and the last was the model's, its
    /// error (for a caller to report as the model's failure).
    #[serde(skip)]
    pub model_error: Option<LlmError>,
    /// The last screenshots the model saw (up to
    /// [`AgentConfig::keep_screenshots`]), oldest first.
    #[serde(skip)]
    pub screenshots: Vec<Screenshot>,
    /// Every challenge the run met, who solved it and how long it took.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub challenges: Vec<ChallengeRecord>,
}

/// The tokens `steps` spent, per model that answered them: what a run
/// cut short (an error, a signal) is priced by.
pub fn spend_of(steps: &[StepRecord]) -> Spend {
    let mut spend = Spend::default();
    for step in steps {
        if let Some(model) = &step.model {
            spend.add(model, step.usage);
        }
    }
    spend
}

impl RunResult {
    /// Whether the model reported success.
    pub fn succeeded(&self) -> bool {
        matches!(self.ending, Ending::Done { success: true, .. })
    }
}

/// One challenge the run met.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct ChallengeRecord {
    /// Its ref (`e12`).
    pub reference: String,
    /// Its kind (`recaptcha-v2`).
    pub kind: String,
    /// The step before which it was met (0: on the first page).
    pub step: u32,
    /// Who solved it: `plugin NAME`, `person`, `page` (it went away or was
    /// solved by the page itself); none while unsolved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solved_by: Option<String>,
    /// From the watchdog taking it up to the page saying solved.
    #[serde(default)]
    pub seconds: f64,
    /// What became of it, in one line.
    pub outcome: String,
}
