//! Why a command failed, and the one report every face renders.

use rove_browser::BrowserError;
use rove_errors::{ActionSent, Classify, ErrorCode, Retry};
use rove_input::InputError;
use rove_page::PageError;
use serde_json::{Value, json};

use crate::answer::fault::{EvalStop, Fault, Recovery, TabFault, seconds};

/// How a navigation failed: the three cases an agent treats differently.
#[derive(Debug, Clone, PartialEq)]
pub enum NavigationFailure {
    /// No response at all: DNS, refused, TLS, blocked by the browser.
    Network(String),
    /// The server answered with an error status; the page is shown.
    HttpStatus(u16),
    /// The navigation started but the page did not finish loading in time.
    NotLoaded {
        /// How long rove waited, in milliseconds.
        waited_ms: u64,
    },
    /// The page asked before being left (a `beforeunload` dialog), and the
    /// dialog holds it: the tab is still on the page it was on.
    HeldByDialog {
        /// The dialog's kind (`beforeunload`).
        kind: String,
        /// Its text.
        message: String,
    },
}

/// Why a command failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CommandError {
    /// An action failed (see [`InputError`]).
    #[error(transparent)]
    Input(#[from] InputError),
    /// Reading the page failed.
    #[error(transparent)]
    Page(#[from] PageError),
    /// The browser failed.
    #[error(transparent)]
    Browser(#[from] BrowserError),
    /// A desktop application's accessibility bus failed.
    #[error(transparent)]
    Desktop(#[from] rove_desktop::DesktopError),
    /// A navigation failed.
    #[error("opening {url} failed: {}", describe(failure))]
    Navigation {
        /// Where it tried to go.
        url: String,
        /// How it failed.
        failure: NavigationFailure,
        /// The page as it stands, when there is one to show.
        fresh_view: Option<String>,
    },
    /// The page is on its way to another document; input now would be lost
    /// with the old one.
    #[error("the page is navigating to {url}; nothing was sent")]
    NavigationInProgress {
        /// Where it is going.
        url: String,
    },
    /// The session's domain policy refused the URL (also a redirect's or a
    /// popup's).
    #[error("{url} was not opened: {reason} (allowed: {})", allowed.join(", "))]
    Blocked {
        /// The URL refused.
        url: String,
        /// Why (the scheme, the host outside the list, a blocked host).
        reason: String,
        /// The allowed domain patterns and schemes.
        allowed: Vec<String>,
    },
    /// A page of Chromium's own that crashes or hangs headless Chromium,
    /// refused even where the session allows `chrome:`.
    #[error("{url} was not opened: {reason}")]
    CrashingPage {
        /// The URL refused.
        url: String,
        /// Which page, and what it does.
        reason: String,
    },
    /// A wait ran out before its condition held.
    #[error("waited {waited_ms} ms, but {condition}")]
    WaitTimeout {
        /// What did not happen.
        condition: String,
        /// How long rove waited.
        waited_ms: u64,
    },
    /// An upload path lies outside the allowed roots (or does not exist).
    #[error("{path} cannot be uploaded: {reason}")]
    UploadDenied {
        /// The path as given.
        path: String,
        /// Why.
        reason: String,
        /// The roots uploads may come from.
        roots: Vec<String>,
    },
    /// A screenshot is larger than its byte budget even after shrinking.
    #[error("the screenshot takes {bytes} bytes, over the budget of {budget}")]
    ScreenshotBudget {
        /// The smallest size rove reached.
        bytes: usize,
        /// The budget.
        budget: usize,
    },
    /// The page shows a secret, or may, and rove could not paint it out of
    /// an image of the page: the image is not given.
    #[error(
        "the image of the page was not given: rove could not mask the secret it may show ({0})"
    )]
    Unmasked(String),
    /// The page's JavaScript threw.
    #[error("the script threw: {0}")]
    Evaluation(String),
    /// `eval`'s script ran (and may have changed the page), but the
    /// browser could not hand back what it returned (a cyclic object,
    /// `window`, a DOM node).
    #[error("the script ran, but its result could not be returned: {0}")]
    ResultLost(String),
    /// The command's own work opened a JavaScript dialog (a script that
    /// called `alert`), which stopped the page before the command finished.
    #[error(
        "{} dialog opened and stopped the page: {}",
        rove_errors::with_article(kind),
        crate::answer::quote_line(message)
    )]
    DialogOpened {
        /// `alert`, `confirm`, `prompt` or `beforeunload`.
        kind: String,
        /// Its text.
        message: String,
    },
    /// A tab stopped answering or crashed, and rove recovered it (see
    /// [`TabFault`]): before the command, which then was not run, or while
    /// it ran.
    #[error("{}", describe_tab_fault(fault, command, *during))]
    TabFault {
        /// What happened and what rove did.
        fault: TabFault,
        /// The command.
        command: &'static str,
        /// Whether the command was running (it may have acted) or had not
        /// started.
        during: bool,
        /// Whether the command acts on the page.
        acts: bool,
    },
    /// `eval` ran out of its deadline.
    #[error("{}", describe_eval_stop(stop, *after))]
    EvalTimeout {
        /// The deadline.
        after: std::time::Duration,
        /// What rove did about the script.
        stop: EvalStop,
    },
    /// The command ran out of its overall deadline.
    #[error("{command} did not finish within {}; rove stopped waiting for it", seconds(*after))]
    CommandTimeout {
        /// The command.
        command: &'static str,
        /// The deadline.
        after: std::time::Duration,
        /// Whether the command acts on the page.
        acts: bool,
    },
    /// Something rove did before the command failed (a tab it recovered),
    /// said first, then the failure itself.
    #[error("{}; then: {error}", notes.join("; "))]
    Noted {
        /// What happened first, one sentence each.
        notes: Vec<String>,
        /// The failure.
        error: Box<CommandError>,
    },
    /// `open` in a new tab (`tab new URL`) made the tab, which stays open
    /// and focused, and then failed: the tab is a change the caller must
    /// know of.
    #[error("opened tab {tab}, which stays open; then: {error}")]
    InNewTab {
        /// The tab made.
        tab: rove_browser::TabId,
        /// The failure after it.
        error: Box<CommandError>,
    },
    /// `fill-form` stopped at a field that failed: the fields before it
    /// were filled and keep their values; those after it were not touched.
    #[error(
        "fill-form stopped at field {position} ({failed}): {error}; filled: {}; not touched: {}",
        refs(filled),
        refs(not_touched)
    )]
    FormStopped {
        /// The fields filled, in order.
        filled: Vec<rove_page::Ref>,
        /// The field that failed.
        failed: rove_page::Ref,
        /// Its place in the list, from 1.
        position: usize,
        /// The fields after it.
        not_touched: Vec<rove_page::Ref>,
        /// Why it failed.
        error: Box<CommandError>,
    },
    /// The arguments make no sense.
    #[error("{0}")]
    Rejected(String),
    /// The command works only in a headless browser (Chromium prints to
    /// PDF only there), and this one shows windows.
    #[error("{command} works only in a headless browser; this one shows windows")]
    NeedsHeadless {
        /// The command refused.
        command: &'static str,
    },
    /// The tool exists but is in a capability group the face was not
    /// started with (see [`crate::Caps`]).
    #[error("{tool} is in the {capability} group, which was not enabled")]
    NotOffered {
        /// The tool asked for.
        tool: String,
        /// Its group.
        capability: crate::Capability,
    },
    /// Reading or writing a file (a screenshot, a download) failed.
    #[error("{message}: {error}")]
    Io {
        /// What rove was doing.
        message: String,
        /// The system's error.
        error: std::sync::Arc<std::io::Error>,
    },
    /// A private folder of rove's was refused (planted link, other owner).
    #[error(transparent)]
    PrivateDir(#[from] rove_browser::PrivateDirError),
    /// `solve` failed (see [`SolverError`]); boxed, as the largest of
    /// the errors, so every command's result stays small.
    #[error(transparent)]
    Solver(Box<crate::answer::solver_error::SolverError>),
}

impl CommandError {
    /// A failed file operation.
    pub(crate) fn io(message: impl Into<String>, error: std::io::Error) -> CommandError {
        CommandError::Io {
            message: message.into(),
            error: std::sync::Arc::new(error),
        }
    }
}

/// Refs as a list, or "none".
fn refs(list: &[rove_page::Ref]) -> String {
    if list.is_empty() {
        return "none".into();
    }
    let names: Vec<String> = list.iter().map(ToString::to_string).collect();
    names.join(", ")
}

fn describe_tab_fault(fault: &TabFault, command: &str, during: bool) -> String {
    if during {
        format!("while {command} ran, {}", fault.describe())
    } else {
        format!("{}; {command} was not run", fault.describe())
    }
}

fn describe_eval_stop(stop: &EvalStop, after: std::time::Duration) -> String {
    let after = seconds(after);
    match stop {
        EvalStop::Stopped => format!(
            "the script ran for more than {after}; rove stopped it (Runtime.terminateExecution)"
        ),
        EvalStop::Pending => format!(
            "the script's promise did not settle within {after}; rove stopped waiting for it (the page itself answers)"
        ),
        EvalStop::Replaced(fault) => {
            format!("the script ran for more than {after}; {}", fault.describe())
        }
    }
}

fn describe(failure: &NavigationFailure) -> String {
    match failure {
        NavigationFailure::Network(reason) => format!("network error {reason}"),
        NavigationFailure::HttpStatus(status) => format!("the server answered HTTP {status}"),
        NavigationFailure::NotLoaded { waited_ms } => {
            format!("the page did not finish loading within {waited_ms} ms")
        }
        NavigationFailure::HeldByDialog { kind, message } => format!(
            "the tab did not navigate: the page it is on asks before it is left, and {} dialog holds it open ({message:?})",
            rove_errors::with_article(kind)
        ),
    }
}

impl CommandError {
    /// Facts an agent can act on, beyond the message.
    pub fn facts(&self) -> Option<Value> {
        match self {
            CommandError::Navigation { failure, .. } => Some(match failure {
                NavigationFailure::Network(reason) => json!({"kind": "network", "reason": reason}),
                NavigationFailure::HttpStatus(status) => {
                    json!({"kind": "http_status", "status": status})
                }
                NavigationFailure::NotLoaded { waited_ms } => {
                    json!({"kind": "not_loaded", "waited_ms": waited_ms})
                }
                NavigationFailure::HeldByDialog { kind, message } => {
                    json!({"kind": "held_by_dialog", "dialog": kind, "text": message})
                }
            }),
            CommandError::Input(InputError::NotActionable {
                cover: Some(cover), ..
            }) => Some(json!({"cover": cover})),
            CommandError::Input(InputError::Page(PageError::DialogOpen { kind, message }))
            | CommandError::Page(PageError::DialogOpen { kind, message })
            | CommandError::DialogOpened { kind, message } => {
                Some(json!({"dialog": kind, "text": message}))
            }
            CommandError::UploadDenied { roots, .. } => Some(json!({"allowed_roots": roots})),
            CommandError::NavigationInProgress { url } => Some(json!({"url": url})),
            CommandError::Blocked { url, allowed, .. } => {
                Some(json!({"url": url, "allowed_domains": allowed}))
            }
            CommandError::CrashingPage { url, .. } => Some(json!({"url": url})),
            CommandError::ScreenshotBudget { bytes, budget } => {
                Some(json!({"bytes": bytes, "budget": budget}))
            }
            CommandError::TabFault { fault, .. }
            | CommandError::EvalTimeout {
                stop: EvalStop::Replaced(fault),
                ..
            } => Some(fault_facts(fault)),
            CommandError::NotOffered { tool, capability } => Some(
                json!({"tool": tool, "capability": capability.name(), "flag": format!("--caps {capability}")}),
            ),
            CommandError::Noted { error, .. } => error.facts(),
            CommandError::InNewTab { tab, error } => {
                let mut facts = json!({"new_tab": tab.to_string()});
                if let Some(cause) = error.facts() {
                    facts["cause"] = cause;
                }
                Some(facts)
            }
            CommandError::FormStopped {
                filled,
                failed,
                not_touched,
                error,
                ..
            } => {
                let names = |l: &[rove_page::Ref]| -> Vec<String> {
                    l.iter().map(ToString::to_string).collect()
                };
                let mut facts = json!({
                    "filled": names(filled),
                    "failed": failed.to_string(),
                    "not_touched": names(not_touched),
                });
                if let Some(cause) = error.facts() {
                    facts["cause"] = cause;
                }
                Some(facts)
            }
            CommandError::Browser(e) => Classify::facts(e),
            CommandError::Solver(e) => Classify::facts(e.as_ref()),
            _ => None,
        }
    }

    /// A fresh view of the page, when the error carries one (a stale ref, an
    /// HTTP error page).
    pub fn fresh_view(&self) -> Option<&str> {
        match self {
            CommandError::Page(PageError::RefNotFound { fresh_view, .. })
            | CommandError::Page(PageError::NoMatch { fresh_view, .. })
            | CommandError::Input(InputError::Page(PageError::RefNotFound {
                fresh_view, ..
            }))
            | CommandError::Navigation { fresh_view, .. } => fresh_view.as_deref(),
            CommandError::Noted { error, .. } | CommandError::InNewTab { error, .. } => {
                error.fresh_view()
            }
            _ => None,
        }
    }

    /// The ref a `REF_NOT_FOUND` is about.
    pub fn missing_ref(&self) -> Option<rove_page::Ref> {
        match self {
            CommandError::Page(PageError::RefNotFound { reference, .. })
            | CommandError::Input(InputError::Page(PageError::RefNotFound { reference, .. })) => {
                Some(*reference)
            }
            _ => None,
        }
    }

    /// The same `REF_NOT_FOUND` with another reason; any other error as it
    /// is.
    pub(crate) fn with_ref_reason(self, why: String) -> CommandError {
        match self {
            CommandError::Page(PageError::RefNotFound {
                reference,
                fresh_view,
                ..
            })
            | CommandError::Input(InputError::Page(PageError::RefNotFound {
                reference,
                fresh_view,
                ..
            })) => CommandError::Page(PageError::RefNotFound {
                reference,
                reason: why,
                fresh_view,
            }),
            other => other,
        }
    }

    /// The report every face renders.
    pub fn report(&self) -> ErrorReport {
        ErrorReport {
            facts: self.facts(),
            ..ErrorReport::of(self)
        }
    }
}

impl From<crate::answer::solver_error::SolverError> for CommandError {
    fn from(e: crate::answer::solver_error::SolverError) -> Self {
        CommandError::Solver(Box::new(e))
    }
}

impl From<rove_cdp::CdpError> for CommandError {
    fn from(e: rove_cdp::CdpError) -> Self {
        CommandError::Browser(e.into())
    }
}

impl Classify for CommandError {
    fn code(&self) -> ErrorCode {
        match self {
            CommandError::Input(e) => e.code(),
            CommandError::Page(e) => e.code(),
            CommandError::Desktop(e) => e.code(),
            CommandError::Browser(e) => e.code(),
            CommandError::Navigation {
                failure: NavigationFailure::NotLoaded { .. },
                ..
            }
            | CommandError::WaitTimeout { .. } => ErrorCode::Timeout,
            CommandError::Navigation {
                failure: NavigationFailure::HeldByDialog { .. },
                ..
            } => ErrorCode::DialogOpen,
            CommandError::Navigation { .. } => ErrorCode::NavigationFailed,
            CommandError::Blocked { .. } | CommandError::CrashingPage { .. } => {
                ErrorCode::NavigationBlocked
            }
            CommandError::NavigationInProgress { .. } => ErrorCode::NavigationInProgress,
            CommandError::UploadDenied { .. } => ErrorCode::UploadDenied,
            CommandError::ScreenshotBudget { .. } => ErrorCode::ScreenshotBudgetExceeded,
            CommandError::Unmasked(_) => ErrorCode::Internal,
            CommandError::Evaluation(_) | CommandError::ResultLost(_) => {
                ErrorCode::EvaluationFailed
            }
            CommandError::DialogOpened { .. } => ErrorCode::DialogOpen,
            CommandError::Rejected(_)
            | CommandError::NotOffered { .. }
            | CommandError::NeedsHeadless { .. } => ErrorCode::CommandRejected,
            // Bad data from the browser is a bug to report; any other file
            // error is about the path or the disk the caller chose.
            CommandError::Io { error, .. } if error.kind() == std::io::ErrorKind::InvalidData => {
                ErrorCode::Internal
            }
            CommandError::Io { .. } => ErrorCode::CommandRejected,
            CommandError::PrivateDir(e) => e.code(),
            CommandError::Solver(e) => e.code(),
            CommandError::TabFault { fault, .. } => match fault.fault {
                Fault::Hung { .. } => ErrorCode::Timeout,
                Fault::Crashed => ErrorCode::TargetCrashed,
            },
            CommandError::EvalTimeout { .. } | CommandError::CommandTimeout { .. } => {
                ErrorCode::Timeout
            }
            CommandError::Noted { error, .. }
            | CommandError::FormStopped { error, .. }
            | CommandError::InNewTab { error, .. } => error.code(),
        }
    }

    fn action_sent(&self) -> ActionSent {
        match self {
            CommandError::Input(e) => e.action_sent(),
            CommandError::Page(e) => e.action_sent(),
            CommandError::Desktop(e) => e.action_sent(),
            CommandError::Browser(e) => e.action_sent(),
            CommandError::Solver(e) => e.action_sent(),
            // The navigation happened; what failed is its result.
            CommandError::Navigation {
                failure: NavigationFailure::HttpStatus(_) | NavigationFailure::NotLoaded { .. },
                ..
            } => ActionSent::Sent,
            // A script that threw ran up to the throw; one that opened a
            // dialog ran up to it.
            CommandError::Evaluation(_)
            | CommandError::ResultLost(_)
            | CommandError::DialogOpened { .. }
            | CommandError::EvalTimeout { .. } => ActionSent::Sent,
            // Cut off while acting: the action may have happened.
            CommandError::TabFault {
                during: true,
                acts: true,
                ..
            }
            | CommandError::CommandTimeout { acts: true, .. } => ActionSent::PossiblySent,
            CommandError::Noted { error, .. } => error.action_sent(),
            // The tab was made, whatever came after.
            CommandError::InNewTab { .. } => ActionSent::Sent,
            // The fields before the failure were filled.
            CommandError::FormStopped { filled, .. } if !filled.is_empty() => ActionSent::Sent,
            CommandError::FormStopped { error, .. } => error.action_sent(),
            _ => ActionSent::NotSent,
        }
    }

    fn retry(&self) -> Retry {
        // A deadline that passed after the action may have reached the page:
        // look before repeating it (a second click could order twice).
        if self.code() == ErrorCode::Timeout && self.action_sent() != ActionSent::NotSent {
            return match self {
                // The same script would run out of time again.
                CommandError::EvalTimeout { .. } => Retry::Never,
                _ => Retry::Reobserve,
            };
        }
        match self {
            // Repeating it would make another tab: look first.
            CommandError::TabFault { .. } | CommandError::InNewTab { .. } => Retry::Reobserve,
            CommandError::CommandTimeout { .. } => Retry::Retry,
            CommandError::Noted { error, .. } | CommandError::FormStopped { error, .. } => {
                error.retry()
            }
            CommandError::Input(e) => e.retry(),
            CommandError::Page(e) => e.retry(),
            CommandError::Desktop(e) => e.retry(),
            CommandError::Browser(e) => e.retry(),
            CommandError::Solver(e) => e.retry(),
            CommandError::Navigation {
                failure: NavigationFailure::NotLoaded { .. },
                ..
            } => Retry::Reobserve,
            other => other.code().default_retry(),
        }
    }

    fn facts(&self) -> Option<Value> {
        // The inherent one, which knows every variant.
        CommandError::facts(self)
    }

    fn hint(&self) -> String {
        match self {
            CommandError::Input(e) => e.hint(),
            CommandError::Page(e) => e.hint(),
            CommandError::Desktop(e) => e.hint(),
            CommandError::Browser(e) => e.hint(),
            CommandError::Solver(e) => e.hint(),
            CommandError::Navigation { failure, .. } => match failure {
                NavigationFailure::Network(reason) => network_hint(reason).into(),
                NavigationFailure::HttpStatus(_) => {
                    "the page is open and shows the server's error; read it, or open another URL"
                        .into()
                }
                NavigationFailure::NotLoaded { .. } => {
                    "the page is open but still loading: take a snapshot, or wait(load=load)"
                        .into()
                }
                NavigationFailure::HeldByDialog { .. } => {
                    "dialog(accept=true) leaves the page (the navigation goes on), dialog(accept=false) stays on it; open the URL again to leave it in a fresh tab"
                        .into()
                }
            },
            CommandError::WaitTimeout { .. } => {
                "take a snapshot to see the page as it is, then wait longer or for something else"
                    .into()
            }
            CommandError::NavigationInProgress { .. } => {
                "wait for it with wait(load=load), then act on the new page's view".into()
            }
            CommandError::Blocked { .. } => {
                "stay within the allowed domains and schemes; the session's policy (--allowed-domains, --blocked-domains) decides what it may load".into()
            }
            CommandError::CrashingPage { .. } => {
                "open another page: chrome://version, chrome://gpu and most of Chromium's pages are safe; the ones that crash headless Chromium are refused whatever --allowed-domains says".into()
            }
            // The roots this caller may use, by name: a model has no
            // working directory to put a file in.
            CommandError::UploadDenied { roots, .. } => format!(
                "give a file under {}; another folder must be allowed when the session starts (--upload-root FOLDER)",
                roots.join(" or ")
            ),
            CommandError::ScreenshotBudget { .. } => {
                "ask for an element or a clip, or JPEG at a lower quality".into()
            }
            CommandError::Unmasked(_) => {
                "try again once the page is idle; a view (snapshot) shows the page as text, secrets hidden".into()
            }
            CommandError::Evaluation(_) => "fix the script; the page threw while running it".into(),
            CommandError::ResultLost(_) => {
                "the script ran, so look at the page before running it again; return plain data (JSON.stringify(…), or the fields you need) instead of an object that refers to itself, window or a node".into()
            }
            CommandError::DialogOpened { .. } => {
                "answer the dialog (dialog(accept=true) or dialog(accept=false)), or leave the page with open(url=URL); what the command was waiting for is lost"
                    .into()
            }
            CommandError::Rejected(_) => "fix the arguments and try again".into(),
            CommandError::NeedsHeadless { command } => format!(
                "start the session without --headed (or connect to a headless browser) to use {command}"
            ),
            CommandError::NotOffered { capability, .. } => format!(
                "start rove with --caps {capability} (or --caps all) to enable it; until then use the tools offered"
            ),
            CommandError::Io { .. } => {
                "check the path (does its folder exist, may rove write there?) and the disk, then try again".into()
            }
            CommandError::PrivateDir(e) => e.hint(),
            CommandError::TabFault { fault, .. } => fault.hint(),
            CommandError::EvalTimeout { stop, .. } => match stop {
                EvalStop::Replaced(fault) => fault.hint(),
                _ => "make the script finish sooner (eval gives a script 10 s by default, and never more than one CDP call's deadline, ROVE_CDP_TIMEOUT_S), or wait for the page with wait(text=…) or wait(load=load) instead".into(),
            },
            CommandError::CommandTimeout { acts: true, .. } => {
                "take a snapshot before repeating it: the action may have happened; rove checks the tab before the next command".into()
            }
            CommandError::CommandTimeout { .. } => {
                "try again, or take a snapshot; rove checks the tab before the next command".into()
            }
            CommandError::Noted { error, .. } => error.hint(),
            CommandError::InNewTab { tab, error } => format!(
                "tab {tab} is open and focused (tab(action=close, tab={tab}) closes it); {}",
                error.hint()
            ),
            CommandError::FormStopped { failed, error, .. } => format!(
                "the fields filled keep their values; {}, then call fill-form again with {failed} and the fields after it",
                error.hint()
            ),
        }
    }
}

/// A tab fault as facts: `{"tab", "url", "fault", "recovery", "new_tab"}`.
fn fault_facts(fault: &TabFault) -> Value {
    let mut facts = json!({
        "tab": fault.tab.to_string(),
        "url": fault.url,
        "fault": match fault.fault {
            Fault::Hung { .. } => "hung",
            Fault::Crashed => "crashed",
        },
        "recovery": match fault.recovery {
            Recovery::Stopped => "script_stopped",
            Recovery::Replaced { .. } => "tab_replaced",
        },
    });
    if let Recovery::Replaced { by } = fault.recovery {
        facts["new_tab"] = json!(by.to_string());
    }
    facts
}

/// What to do about a network error, by Chromium's reason.
fn network_hint(reason: &str) -> &'static str {
    match reason {
        r if r.contains("ERR_NAME_NOT_RESOLVED") || r.contains("ERR_NAME_RESOLUTION_FAILED") => {
            "the host name did not resolve: check its spelling, or the machine's DNS and network"
        }
        r if r.contains("ERR_INTERNET_DISCONNECTED") || r.contains("ERR_NETWORK_") => {
            "the machine has no network: connect it, or open a page served locally"
        }
        r if r.contains("ERR_CONNECTION_REFUSED") => {
            "nothing listens at that address: check the port, or start the server"
        }
        r if r.contains("ERR_CERT") || r.contains("ERR_SSL") => {
            "the site's TLS certificate or handshake was refused: check the host, or use its http:// address if it has one"
        }
        r if r.contains("ERR_TIMED_OUT") || r.contains("ERR_CONNECTION_TIMED_OUT") => {
            "the site did not answer in time: try again, or check the host and the network"
        }
        r if r.contains("ERR_UNSAFE_PORT") => {
            "Chromium never opens this port (it is on its list of unsafe ports, such as 6000 or 6667): serve the page on another port"
        }
        r if r.contains("ERR_ADDRESS_INVALID") || r.contains("ERR_ADDRESS_UNREACHABLE") => {
            "the address cannot be reached from this machine: check the host and port"
        }
        _ => "check the URL (scheme, host, port); the site did not answer",
    }
}

/// The report every face renders (defined with the vocabulary).
pub use rove_errors::Report as ErrorReport;

#[cfg(test)]
mod tests {
    use super::network_hint;

    #[test]
    fn a_network_error_says_which_part_failed() {
        assert!(network_hint("net::ERR_NAME_NOT_RESOLVED").contains("did not resolve"));
        assert!(network_hint("net::ERR_CONNECTION_REFUSED").contains("nothing listens"));
        assert!(network_hint("net::ERR_INTERNET_DISCONNECTED").contains("no network"));
        assert!(network_hint("net::ERR_CERT_DATE_INVALID").contains("certificate"));
        assert!(network_hint("net::ERR_UNSAFE_PORT").contains("unsafe ports"));
        assert!(network_hint("net::ERR_ADDRESS_UNREACHABLE").contains("cannot be reached"));
        assert!(network_hint("net::ERR_SOMETHING").contains("check the URL"));
    }
}
