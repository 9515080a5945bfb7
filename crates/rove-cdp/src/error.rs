//! The transport's failures, each mapped onto rove's error vocabulary.

use std::time::Duration;

use rove_errors::{ActionSent, Classify, ErrorCode, Retry};

use crate::SessionId;

/// Why a CDP call, a connection or a subscription failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CdpError {
    /// The WebSocket handshake failed or did not finish in time.
    #[error("could not connect to the browser at {url}: {reason}")]
    Connect {
        /// The address that was tried.
        url: String,
        /// What the network or the handshake said.
        reason: String,
    },
    /// The endpoint refused the credentials (HTTP 401 or 403): a farm's
    /// token or key is missing or wrong. `url` has its credentials hidden.
    #[error("the browser endpoint {url} refused the credentials (HTTP {status})")]
    Refused {
        /// The address that was tried, credentials hidden.
        url: String,
        /// The HTTP status it answered.
        status: u16,
    },
    /// The endpoint has no browser free and said so (HTTP 429: a farm's
    /// queue is full). `url` has its credentials hidden.
    #[error("the browser endpoint {url} has no browser free (HTTP {status})")]
    Busy {
        /// The address that was tried, credentials hidden.
        url: String,
        /// The HTTP status it answered.
        status: u16,
    },
    /// No answer came before the call's deadline.
    #[error("{method} got no answer within {:.1} s", after.as_secs_f64())]
    Timeout {
        /// The CDP method that was called.
        method: String,
        /// The deadline that passed.
        after: Duration,
        /// Whether the request had been written to the socket.
        sent: bool,
    },
    /// The connection closed (the browser exited, crashed or dropped the socket).
    /// Every pending call fails with this at once.
    #[error("the connection to the browser closed: {reason}")]
    ConnectionClosed {
        /// What closed it.
        reason: String,
        /// Whether this call's request had been written before the close.
        sent: bool,
    },
    /// The tab's renderer process crashed; calls on its session fail fast.
    #[error("the tab crashed (session {session})")]
    TargetCrashed {
        /// The session of the crashed target.
        session: SessionId,
        /// Whether this call's request had been written before the crash.
        sent: bool,
    },
    /// The session was detached: its target was closed or navigated away into
    /// another process that needs a new session.
    #[error("the tab's session {session} is closed")]
    SessionClosed {
        /// The detached session.
        session: SessionId,
        /// Whether this call's request had been written before the detach.
        sent: bool,
    },
    /// The browser answered with a protocol error.
    #[error("{method} failed: {message} (CDP error {code}){}", data.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    Protocol {
        /// The CDP method that was called.
        method: String,
        /// The JSON-RPC error code.
        code: i64,
        /// The browser's message.
        message: String,
        /// Extra detail the browser attached, if any.
        data: Option<String>,
    },
    /// The parameters could not be encoded (a bug in the caller).
    #[error("could not encode the parameters of {method}: {reason}")]
    Encode {
        /// The CDP method.
        method: String,
        /// What serde said.
        reason: String,
    },
    /// The answer did not have the shape the typed command expects.
    #[error("the answer to {method} did not parse: {reason}")]
    Decode {
        /// The CDP method.
        method: String,
        /// What serde said.
        reason: String,
    },
    /// The answer was larger than rove takes from the browser
    /// ([`rove_base::limits::CDP_MESSAGE_BYTES`]): it was read past, not
    /// kept, and the connection goes on.
    #[error("the answer to {method} was {} MiB, over the {} MiB rove takes in one message", mib(*bytes), mib(*limit))]
    TooLarge {
        /// The CDP method that was called.
        method: String,
        /// The answer's size in bytes.
        bytes: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// One of rove's own scripts threw in the page (a bug in rove, or a page
    /// that broke a builtin the script relies on). Never a sign that the
    /// element or its document went away: those are protocol errors.
    #[error("rove's script {script} threw at line {line}, column {column}: {message}")]
    Script {
        /// The script's name, such as `actionable.js`.
        script: String,
        /// The exception, first line.
        message: String,
        /// Where it was thrown (1-based).
        line: i64,
        /// Where it was thrown (1-based).
        column: i64,
    },
}

/// Bytes in MiB, one decimal.
fn mib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / (1024.0 * 1024.0))
}

/// What a browser's refusal of a call means, read from Chromium's wording in
/// this one place so no other crate matches on its messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The node, object or execution context the call named went away with
    /// its document (a navigation or a re-render).
    DocumentGone,
    /// The target (tab, frame) or its session is gone.
    TargetGone,
    /// Anything else: the call's arguments were wrong for the browser.
    Other,
}

/// Chromium's words for a node, object or execution context that went away
/// with its document.
const DOCUMENT_GONE: [&str; 8] = [
    "Cannot find context with specified id",
    "Cannot find default execution context",
    "Could not find node with given id",
    "No node with given id found",
    "Could not find object with given id",
    "Cannot find object with given id",
    "Node is detached from document",
    "Execution context was destroyed",
];

/// Chromium's words for a target or session that is gone.
const TARGET_GONE: [&str; 4] = [
    "Target closed",
    "No target with given id",
    "Session with given id not found",
    "Not attached to an active page",
];

/// What Chromium's error `message` means (see [`Refusal`]).
pub fn classify_refusal(message: &str) -> Refusal {
    if DOCUMENT_GONE.iter().any(|w| message.contains(w)) {
        Refusal::DocumentGone
    } else if TARGET_GONE.iter().any(|w| message.contains(w)) {
        Refusal::TargetGone
    } else {
        Refusal::Other
    }
}

impl CdpError {
    /// Whether the request reached the browser before the failure.
    pub fn was_sent(&self) -> bool {
        match self {
            CdpError::Timeout { sent, .. }
            | CdpError::ConnectionClosed { sent, .. }
            | CdpError::TargetCrashed { sent, .. }
            | CdpError::SessionClosed { sent, .. } => *sent,
            CdpError::Protocol { .. }
            | CdpError::Decode { .. }
            | CdpError::Script { .. }
            | CdpError::TooLarge { .. } => true,
            CdpError::Connect { .. }
            | CdpError::Refused { .. }
            | CdpError::Busy { .. }
            | CdpError::Encode { .. } => false,
        }
    }

    /// What the browser's refusal means; `None` for failures that are not a
    /// refusal (timeouts, closed connections, rove's own script errors).
    pub fn refusal(&self) -> Option<Refusal> {
        match self {
            CdpError::Protocol { message, .. } => Some(classify_refusal(message)),
            _ => None,
        }
    }

    /// Whether the node, object or context the call named went away with
    /// its document.
    pub fn document_gone(&self) -> bool {
        self.refusal() == Some(Refusal::DocumentGone)
    }

    /// True for failures that mean the whole connection is gone.
    pub fn is_connection_lost(&self) -> bool {
        matches!(self, CdpError::ConnectionClosed { .. })
    }
}

impl Classify for CdpError {
    fn code(&self) -> ErrorCode {
        match self {
            CdpError::Connect { .. }
            | CdpError::Busy { .. }
            | CdpError::ConnectionClosed { .. } => ErrorCode::BrowserDisconnected,
            CdpError::Refused { .. } => ErrorCode::LaunchFailed,
            CdpError::Timeout { .. } => ErrorCode::Timeout,
            CdpError::TargetCrashed { .. } => ErrorCode::TargetCrashed,
            CdpError::SessionClosed { .. } => ErrorCode::NoTab,
            CdpError::Protocol { .. } | CdpError::TooLarge { .. } => ErrorCode::CommandRejected,
            CdpError::Encode { .. } | CdpError::Decode { .. } | CdpError::Script { .. } => {
                ErrorCode::Internal
            }
        }
    }

    fn action_sent(&self) -> ActionSent {
        match self {
            // A protocol error is the browser refusing the call: nothing happened.
            CdpError::Protocol { .. }
            | CdpError::Connect { .. }
            | CdpError::Refused { .. }
            | CdpError::Busy { .. }
            | CdpError::Encode { .. } => ActionSent::NotSent,
            CdpError::Decode { .. } | CdpError::TooLarge { .. } => ActionSent::Sent,
            // The script ran, perhaps part way.
            CdpError::Script { .. } => ActionSent::PossiblySent,
            other if other.was_sent() => ActionSent::PossiblySent,
            _ => ActionSent::NotSent,
        }
    }

    fn retry(&self) -> Retry {
        match self {
            // Nothing left rove: repeating cannot do anything twice.
            CdpError::Timeout { sent: false, .. } => Retry::Retry,
            // The same credentials are refused again, the same answer is as large.
            CdpError::Refused { .. } | CdpError::TooLarge { .. } => Retry::Never,
            other => other.code().default_retry(),
        }
    }

    fn facts(&self) -> Option<serde_json::Value> {
        match self {
            CdpError::Refused { status, .. } => {
                Some(serde_json::json!({"cause": "auth", "status": status}))
            }
            CdpError::Busy { status, .. } => {
                Some(serde_json::json!({"cause": "capacity", "status": status}))
            }
            _ => None,
        }
    }

    fn hint(&self) -> String {
        match self {
            CdpError::Connect { .. } => {
                "check that the browser is running and its DevTools address is right".into()
            }
            CdpError::Refused { .. } => {
                // No `?token=…` here: the scrubber every hint passes takes
                // a `?token=` and what follows it for a key.
                "the endpoint wants valid credentials: check the token or key in --cdp-url (its token= parameter, or its user@) or the --cdp-header you send".into()
            }
            CdpError::Busy { .. } => {
                "the farm's queue is full: try again later, or ask for fewer browsers at once (rove test waits within --connect-wait)".into()
            }
            CdpError::Timeout { .. } => {
                "the browser is slow or stuck; take a fresh view before repeating the action".into()
            }
            CdpError::ConnectionClosed { .. } => {
                "the browser is gone; start a new session (rove restarts a browser it launched)"
                    .into()
            }
            CdpError::TargetCrashed { .. } => {
                "the tab crashed; close it and open the page in a new tab".into()
            }
            CdpError::SessionClosed { .. } => "the tab is gone; list tabs or open a new one".into(),
            CdpError::Protocol { .. } => "the browser refused the call; fix its arguments".into(),
            CdpError::TooLarge { .. } => {
                "ask for less at once (a smaller area or a JPEG for a screenshot, a part of the page)"
                    .into()
            }
            CdpError::Encode { .. } | CdpError::Decode { .. } => {
                "this is a bug in rove; please report it with the message".into()
            }
            CdpError::Script { .. } => {
                "a script of rove's failed in this page (the page may have replaced a builtin it uses); this is a bug in rove; please report it with the message and the page".into()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rove_errors::Classify;

    use super::CdpError;

    #[test]
    fn the_refusals_hint_survives_the_scrubber_whole() {
        let hint = CdpError::Refused {
            url: "ws://h/".into(),
            status: 401,
        }
        .hint();
        assert_eq!(rove_base::redact::scrub(&hint), hint);
        assert!(hint.ends_with("you send"), "{hint}");
    }
}
