//! `rove-agent`: a model drives a session through the command vocabulary,
//! step by step, until it calls `done` or a limit ends the run.
//!
//! Each step shows the model the page (the view, then what its actions
//! changed), runs the tools it called in order (a call that navigates or
//! switches tabs ends the sequence, since later refs would be stale),
//! validates arguments by parsing them into the vocabulary (errors go back
//! to the model), and records the step; the same actions on a page they do
//! not change get a nudge, then end the run. Secrets are typed without the
//! model seeing them ([`Secrets`]). A model error or a step past its
//! deadline is one failed step ([`StepFailure`]); the run ends after
//! `max_failures` of them in a row, or at once when the browser is gone
//! ([`AgentError::Browser`]). A recorded run replays without a model
//! ([`replay`]), finding each target again by role and name. A second
//! model may judge a finished run ([`Judge`]): its verdict sits beside the
//! agent's own report, never in its place. [`run`] goes to the end;
//! [`Agent`] goes a step at a time, for an application that looks and
//! steers between steps.

#![forbid(unsafe_code)]

mod agent;
mod animation;
mod animation_text;
mod challenges;
mod compact;
mod finish;
mod judge;
mod log;
mod notes;
mod prompt;
mod record;
mod replay;
mod run;
mod screenshot;
mod seen;
mod step;
mod tools;
mod trace;
mod trace_line;

pub use agent::Agent;
pub use animation::{AnimationError, FontError, GifSummary, write_gif, write_run_gif};
pub use judge::{About, Evidence, Judge, JudgeConfig, Judgement, Verdict, judge, verdict_tool};
pub use prompt::PromptVariant;
pub use record::{
    ActionRecord, AgentConfig, ChallengeRecord, Ending, FailureKind, RunResult, StepFailure,
    StepRecord, Target, TellPerson, Vision, spend_of,
};
pub use replay::{ReplayError, Replayed, replay};
pub use rove_commands::{Secret, Secrets};
pub use rove_commands::{SeenConsole, SeenRequest};
pub use run::run;
pub use screenshot::Screenshot;
pub use seen::Seen;
pub use tools::{tool_specs, tool_specs_within};
pub use trace::{SCREENSHOT_BUDGET, Trace};

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The model could not be reached or answered wrongly.
    #[error(transparent)]
    Llm(#[from] rove_llm::LlmError),
    /// The browser is gone (it exited, was killed, or its connection was
    /// lost): no step could do anything.
    #[error("{0}")]
    Browser(Box<rove_commands::CommandError>),
}
