//! The page model's failures, mapped onto rove's error vocabulary.

use rove_browser::BrowserError;
use rove_errors::{ActionSent, Classify, ErrorCode, Retry};

use crate::Ref;

/// The ways to name an element, for the messages of a call that got one
/// wrong. Kept with the messages rather than with the parser: the hints
/// below name them too, and the parser only reports in these words.
pub const LOCATOR_FORMS: &str = "e7, css=SELECTOR, role=ROLE, role=ROLE[name=\"Exact\"], role=ROLE[name*=\"part\"], text=part or text=\"Exact\"";

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
    /// A locator (`css=`, `role=`, `text=`) matched no element: the page
    /// may not show it yet, or the locator is wrong.
    #[error("{locator} matches no element on the page{}", note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default())]
    NoMatch {
        /// The locator as given.
        locator: String,
        /// What else the caller should know (a closed shadow root css
        /// cannot reach).
        note: Option<String>,
        /// A fresh view of the page, so no extra call is needed.
        fresh_view: Option<String>,
    },
    /// A locator matched several elements the view shows: rove does not
    /// pick one.
    #[error("{locator} matches {}{count} elements, and a locator must name one: {}{}", if *capped { "at least " } else { "" }, candidates.join(", "), if *count > candidates.len() as u64 { ", …" } else { "" })]
    Ambiguous {
        /// The locator as given.
        locator: String,
        /// How many shown elements it matched.
        count: u64,
        /// Counting stopped at its bound: `count` is a lower bound.
        capped: bool,
        /// The first few, each as `e7 button "Save"`.
        candidates: Vec<String>,
    },
    /// A locator matched only elements the view does not show (hidden,
    /// inert, outside an open modal dialog).
    #[error("{locator} matches {element}, which the view does not show: {reason}")]
    NotShown {
        /// The locator as given.
        locator: String,
        /// The element, as `<button#delete> "Delete"`.
        element: String,
        /// Why it is not shown.
        reason: String,
    },
    /// A CSS selector the browser cannot parse; nothing was run.
    #[error("{locator} is not a valid CSS selector: {reason}")]
    BadSelector {
        /// The locator as given.
        locator: String,
        /// The browser's words.
        reason: String,
    },
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
            PageError::NoMatch { .. } => ErrorCode::RefNotFound,
            PageError::Ambiguous { .. } | PageError::BadSelector { .. } => {
                ErrorCode::CommandRejected
            }
            PageError::NotShown { .. } => ErrorCode::NotActionable,
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
                "answer the dialog first (dialog(accept=true) or dialog(accept=false)), or leave the page with open(url=URL) (a page that keeps opening dialogs is closed and the URL opened in a new tab)".into()
            }
            PageError::Script(_) => {
                "this is a bug in rove or a page that breaks the DOM; please report it".into()
            }
            PageError::Rejected(_) => "refs look like e7 (or @e7)".into(),
            PageError::NoMatch { .. } => format!(
                "look at the fresh view below (or find TEXT) and aim again: {}",
                LOCATOR_FORMS
            ),
            PageError::Ambiguous { .. } => {
                "use one of these refs, or a narrower locator (role=ROLE[name=\"Exact\"], text=\"Exact\", a more precise css=)".into()
            }
            PageError::NotShown { .. } => {
                "reveal it first (close the modal dialog, open its menu or section), take a snapshot, then aim again".into()
            }
            PageError::BadSelector { .. } => format!(
                "fix the selector (the browser's querySelectorAll syntax); an element is named by {}",
                LOCATOR_FORMS
            ),
            PageError::Browser(e) => e.hint(),
        }
    }
}
