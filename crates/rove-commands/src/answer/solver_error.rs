//! Why `solve` failed: no plugin, a plugin that failed in its own words
//! (its code, hint and retry class passed through), one that failed without
//! any (hung, garbage), or an answer the page did not take.

use std::time::Duration;

use rove_errors::{ActionSent, Classify, ErrorCode, Retry};
use serde_json::{Value, json};

use crate::answer::fault::seconds;

/// Why `solve` failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SolverError {
    /// The plugins folder holds no executable.
    #[error("no solver plugin is installed (none in {folder})")]
    NoSolver {
        /// Where rove looked.
        folder: String,
    },
    /// The plugin could not be started.
    #[error("the solver plugin {plugin} could not be started: {reason}")]
    Start {
        /// Its file name.
        plugin: String,
        /// The system's reason.
        reason: String,
    },
    /// The plugin did not answer in time; rove killed it.
    #[error("the solver plugin {plugin} did not answer within {}; rove killed it", seconds(*after))]
    Hung {
        /// Its file name.
        plugin: String,
        /// Its deadline.
        after: Duration,
    },
    /// The plugin printed no answer rove can read.
    #[error("the solver plugin {plugin} {what}")]
    Garbage {
        /// Its file name.
        plugin: String,
        /// What it did instead.
        what: String,
    },
    /// The plugin's own error, as it wrote it.
    #[error("the solver plugin {plugin} failed: {message}")]
    Plugin {
        /// Its file name.
        plugin: String,
        /// Its code (`LICENSE_INVALID`).
        code: ErrorCode,
        /// Its words.
        message: String,
        /// Its advice.
        hint: String,
        /// Its retry class.
        retry: Retry,
    },
    /// The answer was applied and the widget does not say solved.
    #[error("{plugin}'s answer was applied, but {reference} still reads state={state}")]
    NotSolved {
        /// Its file name.
        plugin: String,
        /// The widget.
        reference: rove_page::Ref,
        /// What the widget says now.
        state: String,
    },
}

/// Where a plugin comes from, for every hint that says how to get one.
const INSTALL: &str = "install a solver plugin (an executable speaking rove's JSON protocol, docs/captcha.md) in the plugins folder, or name one with --plugins DIR or ROVE_PLUGINS; `rove doctor` lists the plugins found; or ask a person to solve the challenge in the browser's window";

impl Classify for SolverError {
    fn code(&self) -> ErrorCode {
        match self {
            SolverError::NoSolver { .. } => ErrorCode::NoSolver,
            SolverError::Plugin { code, .. } => *code,
            SolverError::Start { .. }
            | SolverError::Hung { .. }
            | SolverError::Garbage { .. }
            | SolverError::NotSolved { .. } => ErrorCode::SolverFailed,
        }
    }

    fn action_sent(&self) -> ActionSent {
        match self {
            SolverError::NotSolved { .. } => ActionSent::Sent,
            _ => ActionSent::NotSent,
        }
    }

    fn retry(&self) -> Retry {
        match self {
            SolverError::Plugin { retry, .. } => *retry,
            SolverError::NoSolver { .. } | SolverError::Start { .. } => Retry::Never,
            SolverError::NotSolved { .. } => Retry::Reobserve,
            SolverError::Hung { .. } | SolverError::Garbage { .. } => Retry::Retry,
        }
    }

    fn hint(&self) -> String {
        match self {
            SolverError::NoSolver { .. } | SolverError::Start { .. } => INSTALL.to_owned(),
            SolverError::Plugin { hint, .. } => hint.clone(),
            SolverError::Hung { .. } | SolverError::Garbage { .. } => {
                "solve() again, or check the plugin (`rove doctor` lists it)".to_owned()
            }
            SolverError::NotSolved { reference, .. } => {
                format!(
                    "take a snapshot to see the challenge as it stands, then solve(ref={reference}) again"
                )
            }
        }
    }

    fn facts(&self) -> Option<Value> {
        match self {
            SolverError::NoSolver { folder } => Some(json!({"plugins_folder": folder})),
            SolverError::Start { plugin, .. }
            | SolverError::Hung { plugin, .. }
            | SolverError::Garbage { plugin, .. }
            | SolverError::Plugin { plugin, .. } => Some(json!({"plugin": plugin})),
            SolverError::NotSolved {
                plugin,
                reference,
                state,
            } => Some(json!({"plugin": plugin, "ref": reference.to_string(), "state": state})),
        }
    }
}
