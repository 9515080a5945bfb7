//! The page model's failures, mapped onto rove's error vocabulary.

use rove_browser::BrowserError;
use rove_errors::{ActionSent, Classify, ErrorCode, Retry};

use crate::Ref;

/// Why a view, a find or a ref lookup failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PageError {
    /// The ref's node is gone (re-rendered, navigated away, frame closed), or
    /// the ref never existed in this tab. Never resolved to another element.
    #[error("{reference} is not on the page any more ({reason})")]
    RefNotFound {
        /// The ref that was asked for.
        reference: Ref,
        /// Why it cannot be found.
        reason: String,
        /// A fresh view of the page, so no extra call is needed.
        fresh_view: Option<String>,
    },
    /// A JavaScript dialog blocks the page; nothing can be read until it is
    /// answered.
    #[error(
        "{} dialog blocks the page: {message:?}",
        rove_errors::with_article(kind)
    )]
    DialogOpen {
        /// `alert`, `confirm`, `prompt` or `beforeunload`.
        kind: String,
        /// Its text.
        message: String,
    },
    /// The walker script failed in the page (a bug in rove, or a page that
    /// broke the DOM APIs it relies on).
    #[error("reading the page failed: {0}")]
    Script(String),
    /// The arguments make no sense (an unparsable ref, say).
    #[error("{0}")]
    Rejected(String),
    /// The browser layer failed.
    #[error(transparent)]
    Browser(#[from] BrowserError),
}

impl From<rove_cdp::CdpError> for PageError {
    fn from(e: rove_cdp::CdpError) -> Self {
        PageError::Browser(e.into())
    }
}

impl Classify for PageError {
    fn code(&self) -> ErrorCode {
        match self {
            PageError::RefNotFound { .. } => ErrorCode::RefNotFound,
            PageError::DialogOpen { .. } => ErrorCode::DialogOpen,
            PageError::Script(_) => ErrorCode::Internal,
            PageError::Rejected(_) => ErrorCode::CommandRejected,
            PageError::Browser(e) => e.code(),
        }
    }

    fn action_sent(&self) -> ActionSent {
        match self {
            PageError::Browser(e) => e.action_sent(),
            _ => ActionSent::NotSent,
        }
    }

    fn retry(&self) -> Retry {
        match self {
            PageError::Browser(e) => e.retry(),
            other => other.code().default_retry(),
        }
    }

    fn hint(&self) -> String {
        match self {
            PageError::RefNotFound { .. } => {
                "use a ref from the fresh view below (refs of removed elements are never reused)"
                    .into()
            }
            PageError::DialogOpen { .. } => {
                "answer the dialog first (dialog accept or dialog dismiss), or leave the page with open URL (a page that keeps opening dialogs is closed and the URL opened in a new tab)".into()
            }
            PageError::Script(_) => {
                "this is a bug in rove or a page that breaks the DOM; please report it".into()
            }
            PageError::Rejected(_) => "refs look like e7 (or @e7)".into(),
            PageError::Browser(e) => e.hint(),
        }
    }
}
