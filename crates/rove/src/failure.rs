//! One shape for every failure the binary reports, built from any classified
//! library error, so CLI output and exit statuses follow the shared vocabulary.

use rove_errors::{ActionSent, Classify, ErrorCode, Retry};
use serde::Serialize;

/// A failure as the user sees it.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    pub code: ErrorCode,
    pub message: String,
    pub hint: String,
    pub retry: Retry,
    pub action_sent: ActionSent,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fresh_view: Option<String>,
}

impl Failure {
    pub fn from_error<E: Classify + std::fmt::Display>(error: &E) -> Self {
        Failure {
            code: error.code(),
            message: error.to_string(),
            hint: error.hint(),
            retry: error.retry(),
            action_sent: error.action_sent(),
            facts: None,
            fresh_view: None,
        }
    }

    /// A command's failure, with its facts and fresh view.
    pub fn from_command(error: &rove_commands::CommandError) -> Self {
        Failure {
            facts: error.facts(),
            fresh_view: error.fresh_view().map(str::to_owned),
            ..Failure::from_error(error)
        }
    }

    /// A failure of rove's own making, outside any library error.
    pub fn new(code: ErrorCode, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Failure {
            code,
            message: message.into(),
            hint: hint.into(),
            retry: code.default_retry(),
            action_sent: ActionSent::NotSent,
            facts: None,
            fresh_view: None,
        }
    }

    pub fn exit_status(&self) -> u8 {
        self.code.exit_status()
    }
}

impl<E: Classify + std::fmt::Display> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure::from_error(&error)
    }
}
