//! Why an action failed, in rove's error vocabulary, with `action_sent`.

use rove_browser::BrowserError;
use rove_errors::{ActionSent, Classify, ErrorCode, Retry};
use rove_page::PageError;

/// Why an action failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum InputError {
    /// The element cannot take the action: hidden, disabled, covered, moving.
    /// Nothing was sent.
    #[error("{target} is not actionable: {reason}")]
    NotActionable {
        /// The ref acted on.
        target: String,
        /// Why, naming the cover when one intercepts the pointer.
        reason: String,
        /// The element that would receive the click instead, if any.
        cover: Option<String>,
    },
    /// Keys were sent but the field does not hold what was typed: the page
    /// rejected, reformatted or reverted the edit.
    #[error("{target} did not take the text: it holds {holds:?}, not {wanted:?}")]
    Ignored {
        /// The ref edited.
        target: String,
        /// The text sent.
        wanted: String,
        /// What the field holds now.
        holds: String,
    },
    /// Text typed into a combobox that takes only its options named none of
    /// them: committed, the box went back to what it held.
    #[error(
        "{target} takes one of its options, and {wanted:?} is none of them: when it lost the focus it went back to {holds:?}"
    )]
    NotAnOption {
        /// The ref filled.
        target: String,
        /// The text typed.
        wanted: String,
        /// What the box holds now.
        holds: String,
        /// The options its list showed.
        options: Vec<String>,
    },
    /// Keys sent to a slider or spinbutton did not bring it to the value:
    /// it ignored them, moved away from the value, or wrapped around (a
    /// control's own wording, not a text field's: nothing was typed).
    #[error(
        "{target} did not move to {wanted}: its keys left it at {holds} (it ignored them, moved away from the value, or wrapped around)"
    )]
    KeysIgnored {
        /// The ref filled.
        target: String,
        /// The value asked for.
        wanted: String,
        /// What the control holds now.
        holds: String,
    },
    /// Keys moved a slider or spinbutton past the value: it moves in steps
    /// that skip it. The control holds `holds` now.
    #[error(
        "{target} cannot take {wanted}: it moves in steps, and the nearest values it takes are {below} and {above}; it holds {holds} now"
    )]
    OffSteps {
        /// The ref filled.
        target: String,
        /// The value asked for.
        wanted: String,
        /// The nearest value below it that the control took.
        below: String,
        /// The nearest value above it that the control took.
        above: String,
        /// What the control holds now.
        holds: String,
    },
    /// Typing ran out of time: the first `typed` characters reached the
    /// field, the rest were not sent.
    #[error("typing into {target} ran out of time after {typed} of {total} characters")]
    TypingTimedOut {
        /// The ref typed into.
        target: String,
        /// Characters the page handled.
        typed: usize,
        /// Characters asked for.
        total: usize,
    },
    /// The page changed under the action (its document was replaced while
    /// the element was being acted on); the element exists again.
    #[error("the page changed while acting on {target}")]
    PageChanged {
        /// The ref acted on.
        target: String,
        /// Whether input had been dispatched.
        sent: bool,
    },
    /// The value is not one the input can hold (a date not in ISO form, a
    /// day that does not exist, a range value off its steps). Nothing was
    /// sent.
    #[error("{target} is a {kind} input; it takes {form}, not {wanted:?}")]
    Format {
        /// The ref filled.
        target: String,
        /// The input's type.
        kind: String,
        /// The value asked for.
        wanted: String,
        /// The form it takes, with an example.
        form: String,
    },
    /// A point given for pointer input lies outside the viewport (or is
    /// negative, or not a number). Nothing was sent.
    #[error("({x}, {y}) is outside the viewport, which is {width} × {height} CSS pixels")]
    OutOfViewport {
        /// The point's x.
        x: f64,
        /// The point's y.
        y: f64,
        /// The viewport's width.
        width: f64,
        /// The viewport's height.
        height: f64,
    },
    /// The arguments make no sense (an unknown key name, say).
    #[error("{0}")]
    Rejected(String),
    /// The page model failed (a stale ref is `REF_NOT_FOUND`).
    #[error(transparent)]
    Page(#[from] PageError),
    /// The browser failed. `sent` says whether input had been dispatched.
    #[error("{error}")]
    Browser {
        /// The failure.
        error: BrowserError,
        /// Whether input events had already been dispatched.
        sent: bool,
    },
}

impl InputError {
    /// A browser failure, before or after input was dispatched.
    pub(crate) fn browser(error: impl Into<BrowserError>, sent: bool) -> Self {
        InputError::Browser {
            error: error.into(),
            sent,
        }
    }
}

impl InputError {
    /// The element's document or node went away under the action: the
    /// browser no longer knows the context, node or object rove held.
    pub(crate) fn element_gone(&self) -> bool {
        if let InputError::NotActionable { reason, .. } = self {
            return reason == "detached";
        }
        let InputError::Browser { error, .. } = self else {
            return false;
        };
        document_gone(error)
    }

    /// The same failure, met after input had reached the page: a browser
    /// failure then may have left some of it there.
    pub(crate) fn after_input(self) -> InputError {
        match self {
            InputError::Browser { error, .. } => InputError::Browser { error, sent: true },
            other => other,
        }
    }

    /// Whether input had been dispatched when this failure happened.
    pub(crate) fn was_sent(&self) -> bool {
        matches!(
            self,
            InputError::Browser { sent: true, .. } | InputError::PageChanged { sent: true, .. }
        )
    }
}

/// Whether the browser refused a call because the node, object or context
/// it named went away with its document (rove-cdp reads Chromium's words).
pub(crate) fn document_gone(error: &BrowserError) -> bool {
    matches!(error, BrowserError::Cdp(e) if e.document_gone())
}

impl From<BrowserError> for InputError {
    fn from(error: BrowserError) -> Self {
        InputError::Browser { error, sent: false }
    }
}

impl From<rove_cdp::CdpError> for InputError {
    fn from(error: rove_cdp::CdpError) -> Self {
        InputError::Browser {
            error: error.into(),
            sent: false,
        }
    }
}

impl Classify for InputError {
    fn code(&self) -> ErrorCode {
        match self {
            InputError::NotActionable { .. }
            | InputError::Ignored { .. }
            | InputError::KeysIgnored { .. }
            | InputError::NotAnOption { .. }
            | InputError::OffSteps { .. } => ErrorCode::NotActionable,
            InputError::PageChanged { .. } => ErrorCode::StaleState,
            InputError::TypingTimedOut { .. } => ErrorCode::Timeout,
            InputError::Rejected(_)
            | InputError::Format { .. }
            | InputError::OutOfViewport { .. } => ErrorCode::CommandRejected,
            InputError::Page(e) => e.code(),
            InputError::Browser { error, .. } => error.code(),
        }
    }

    fn action_sent(&self) -> ActionSent {
        match self {
            InputError::Browser { sent: true, .. } | InputError::PageChanged { sent: true, .. } => {
                ActionSent::PossiblySent
            }
            InputError::Browser { error, sent: false } => error.action_sent(),
            InputError::Page(e) => e.action_sent(),
            InputError::Ignored { .. }
            | InputError::KeysIgnored { .. }
            | InputError::NotAnOption { .. }
            | InputError::OffSteps { .. } => ActionSent::Sent,
            // Keys had been sent (the deadline is checked between keys).
            InputError::TypingTimedOut { typed: 0, .. } => ActionSent::PossiblySent,
            InputError::TypingTimedOut { .. } => ActionSent::Sent,
            _ => ActionSent::NotSent,
        }
    }

    fn retry(&self) -> Retry {
        match self {
            InputError::Page(e) => e.retry(),
            InputError::Browser { sent: true, .. } => Retry::Reobserve,
            // Typing the same text again would append it twice.
            InputError::TypingTimedOut { .. } => Retry::Reobserve,
            InputError::Browser { error, .. } => error.retry(),
            other => other.code().default_retry(),
        }
    }

    fn hint(&self) -> String {
        match self {
            InputError::NotActionable {
                cover: Some(cover), ..
            } => {
                format!("{cover} covers it: close or answer that first, then take a fresh view")
            }
            InputError::NotActionable { .. } => {
                "take a fresh view; act on a visible, enabled element".into()
            }
            InputError::Ignored { .. } => {
                "the page rejected or changed the text; take a fresh view and read its rules (a mask, a length limit)"
                    .into()
            }
            InputError::KeysIgnored { .. } => {
                "the control does not move by its keys toward that value: take a fresh view; give a value it reaches (its minimum or maximum), or drag it with mouse"
                    .into()
            }
            InputError::OffSteps {
                target,
                below,
                above,
                ..
            } => format!("fill {target} with {below} or {above}"),
            InputError::NotAnOption {
                target, options, ..
            } => format!(
                "fill {target} with one of its options: {}",
                options
                    .iter()
                    .map(|o| format!("{o:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            InputError::Rejected(_) => "fix the arguments and try again".into(),
            InputError::OutOfViewport { width, height, .. } => format!(
                "give x from 0 to {} and y from 0 to {}: CSS pixels of the viewport, as in a screenshot of it at scale 1 (scroll to reach the rest of the page)",
                (width - 1.0).max(0.0),
                (height - 1.0).max(0.0)
            ),
            InputError::Format { target, .. } => {
                format!("fill {target} again with a value in that form")
            }
            InputError::TypingTimedOut {
                target,
                typed,
                total,
            } => format!(
                "the field holds what was typed; set a long text at once with fill {target} (it replaces the value), or type the remaining {} characters",
                total - typed
            ),
            InputError::PageChanged { .. } => {
                "take a fresh view; the page changed while rove was acting".into()
            }
            InputError::Page(e) => e.hint(),
            InputError::Browser { sent: true, .. } => {
                "the input may have reached the page; take a fresh view before repeating it".into()
            }
            InputError::Browser { error, .. } => error.hint(),
        }
    }
}
