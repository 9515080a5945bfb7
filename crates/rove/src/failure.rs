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
}

impl Failure {
    pub fn from_error<E: Classify + std::fmt::Display>(error: &E) -> Self {
        Failure {
            code: error.code(),
            message: error.to_string(),
            hint: error.hint(),
            retry: error.retry(),
            action_sent: error.action_sent(),
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
