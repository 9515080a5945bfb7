//! The browser layer's failures, each mapped onto rove's error vocabulary.

use rove_cdp::CdpError;
use rove_errors::{ActionSent, Classify, ErrorCode, Retry};

/// Why launching, connecting to or using a browser failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BrowserError {
    /// No browser executable was found.
    #[error("no Chromium-based browser found (tried {})", tried.join(", "))]
    NoBrowser {
        /// Every name and path that was looked at, in order.
        tried: Vec<String>,
    },
    /// The browser was found but did not come up.
    #[error("{executable} did not start: {reason}{}", stderr_block(stderr_tail))]
    LaunchFailed {
        /// The executable that was started.
        executable: String,
        /// What went wrong.
        reason: String,
        /// The last lines the browser wrote to stderr.
        stderr_tail: String,
    },
    /// The profile asked for (`--profile`) is in use by another browser;
    /// nothing was started and nothing in the folder was touched.
    #[error("the profile {dir} is in use: {holder}")]
    ProfileLocked {
        /// The profile folder.
        dir: String,
        /// Who holds it.
        holder: String,
    },
    /// The connection to the browser was lost and could not be restored.
    #[error("the browser is disconnected: {reason}")]
    Disconnected {
        /// Why.
        reason: String,
        /// Whether the call in progress may have reached the browser.
        sent: bool,
    },
    /// The tab is gone.
    #[error("no tab {tab}: {reason}")]
    NoTab {
        /// The tab that was asked for.
        tab: String,
        /// Why it is gone.
        reason: String,
    },
    /// The tab's renderer crashed.
    #[error("tab {tab} crashed")]
    TargetCrashed {
        /// The crashed tab.
        tab: String,
        /// Whether the call in progress may have reached the page.
        sent: bool,
    },
    /// The arguments make no sense (a malformed `--cdp-url`, say).
    #[error("{0}")]
    Rejected(String),
    /// A navigation failed before or while loading.
    #[error("could not open {url}: {reason}")]
    NavigationFailed {
        /// Where it tried to go.
        url: String,
        /// `net::ERR_CONNECTION_REFUSED`, a timeout …
        reason: String,
    },
    /// The page's JavaScript threw.
    #[error("the script threw: {0}")]
    Evaluation(String),
    /// Any other transport failure.
    #[error(transparent)]
    Cdp(CdpError),
}

fn stderr_block(tail: &str) -> String {
    let tail = tail.trim();
    if tail.is_empty() {
        String::new()
    } else {
        format!("\n--- end of the browser's stderr ---\n{tail}")
    }
}

impl BrowserError {
    /// The link to the browser is gone for `reason`, and nothing of the
    /// call in progress was sent.
    pub fn lost(reason: impl Into<String>) -> BrowserError {
        BrowserError::Disconnected {
            reason: reason.into(),
            sent: false,
        }
    }
}

impl From<CdpError> for BrowserError {
    fn from(e: CdpError) -> Self {
        match e {
            CdpError::ConnectionClosed { reason, sent } => {
                BrowserError::Disconnected { reason, sent }
            }
            other => BrowserError::Cdp(other),
        }
    }
}

impl Classify for BrowserError {
    fn code(&self) -> ErrorCode {
        match self {
            BrowserError::NoBrowser { .. } => ErrorCode::NoBrowser,
            BrowserError::LaunchFailed { .. } | BrowserError::ProfileLocked { .. } => {
                ErrorCode::LaunchFailed
            }
            BrowserError::Disconnected { .. } => ErrorCode::BrowserDisconnected,
            BrowserError::NoTab { .. } => ErrorCode::NoTab,
            BrowserError::TargetCrashed { .. } => ErrorCode::TargetCrashed,
            BrowserError::Rejected(_) => ErrorCode::CommandRejected,
            BrowserError::NavigationFailed { .. } => ErrorCode::NavigationFailed,
            BrowserError::Evaluation(_) => ErrorCode::EvaluationFailed,
            BrowserError::Cdp(e) => e.code(),
        }
    }

    fn action_sent(&self) -> ActionSent {
        match self {
            BrowserError::Disconnected { sent: true, .. }
            | BrowserError::TargetCrashed { sent: true, .. } => ActionSent::PossiblySent,
            BrowserError::NavigationFailed { .. } | BrowserError::Evaluation(_) => ActionSent::Sent,
            BrowserError::Cdp(e) => e.action_sent(),
            _ => ActionSent::NotSent,
        }
    }

    fn retry(&self) -> Retry {
        match self {
            BrowserError::Cdp(e) => e.retry(),
            other => other.code().default_retry(),
        }
    }

    fn facts(&self) -> Option<serde_json::Value> {
        match self {
            BrowserError::Cdp(e) => e.facts(),
            _ => None,
        }
    }

    fn hint(&self) -> String {
        match self {
            BrowserError::NoBrowser { .. } => {
                "install Chromium (Debian: apt-get install -y chromium) or set ROVE_BROWSER to its path".into()
            }
            BrowserError::LaunchFailed { .. } => {
                "read the browser's stderr above; `rove doctor` checks the whole setup".into()
            }
            BrowserError::ProfileLocked { .. } => {
                "close the browser that uses the profile, or give another --profile (or none: a fresh private one)".into()
            }
            BrowserError::Disconnected { .. } => {
                "the browser is gone or unreachable: run the command again, which starts a new one (or, with --cdp-url, connects again); rove doctor checks the address".into()
            }
            BrowserError::NoTab { .. } => "list the tabs or open a new one".into(),
            BrowserError::TargetCrashed { .. } => {
                "the tab crashed; close it and open the page in a new tab".into()
            }
            BrowserError::Rejected(_) => "fix the arguments and try again".into(),
            BrowserError::NavigationFailed { .. } => {
                "check the URL and that the site is reachable".into()
            }
            BrowserError::Evaluation(_) => "fix the script; the page's state is unchanged by rove".into(),
            BrowserError::Cdp(e) => e.hint(),
        }
    }
}
