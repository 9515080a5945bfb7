//! One shape for every failure the binary reports, built from any classified
//! library error, so CLI output and exit statuses follow the shared vocabulary.

use rove_errors::{Classify, ErrorCode, Report};
use serde::Serialize;

/// A failure as the user sees it: the vocabulary's report, plus the fresh
/// view some failures carry.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    #[serde(flatten)]
    pub report: Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fresh_view: Option<String>,
}

impl Failure {
    pub fn from_error<E: Classify + std::fmt::Display>(error: &E) -> Self {
        Failure {
            report: Report::of(error),
            fresh_view: None,
        }
    }

    /// A command's failure, with its facts and fresh view.
    pub fn from_command(error: &rove_commands::CommandError) -> Self {
        Failure {
            report: error.report(),
            fresh_view: error.fresh_view().map(str::to_owned),
        }
    }

    /// A failure of rove's own making, outside any library error.
    pub fn new(code: ErrorCode, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Failure {
            report: Report::new(code, message, hint),
            fresh_view: None,
        }
    }

    pub fn exit_status(&self) -> u8 {
        self.report.code.exit_status()
    }
}

impl<E: Classify + std::fmt::Display> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure::from_error(&error)
    }
}
