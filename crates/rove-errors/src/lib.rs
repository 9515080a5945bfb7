//! The one vocabulary of failure that every rove layer speaks.
//!
//! Every error rove reports, whether from the CDP transport, the browser layer, a
//! command, the CLI or the MCP server, is classified by an [`ErrorCode`] from this
//! module. The set is frozen here so that the docs (`docs/errors.md`), the CLI's
//! exit statuses and MCP results cannot drift apart: adding a code means adding
//! it here, documenting it, and giving it an exit status, all in one change (a
//! test in this crate checks the docs).
//!
//! Two more facts travel with each failure so an agent knows what to do next:
//! [`Retry`], the class of recovery that makes sense, and [`ActionSent`], whether
//! the action may already have reached the page. An agent must never blindly
//! repeat a click that is `possibly_sent`.

#![forbid(unsafe_code)]

use serde::{Deserialize, Serialize};

/// What went wrong, as a stable machine-readable code.
///
/// The serialized form is SCREAMING_SNAKE_CASE (`REF_NOT_FOUND`), which is what
/// the docs, the CLI's `--json` output and MCP results show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The ref's node is gone (re-render, navigation, closed frame).
    RefNotFound,
    /// The page changed under the action.
    StaleState,
    /// The element is hidden, disabled, covered or not editable.
    NotActionable,
    /// A JavaScript dialog blocks the page until it is answered.
    DialogOpen,
    /// The page is navigating; try again when it settles.
    NavigationInProgress,
    /// The navigation failed: DNS, connection refused, HTTP error page.
    NavigationFailed,
    /// The domain policy refused the URL.
    NavigationBlocked,
    /// A deadline passed; `action_sent` says whether it may have happened.
    Timeout,
    /// The tab's renderer process died.
    TargetCrashed,
    /// The tab is gone.
    NoTab,
    /// No browser executable was found.
    NoBrowser,
    /// The browser was found but did not start.
    LaunchFailed,
    /// The connection to the browser was lost and could not be restored.
    BrowserDisconnected,
    /// The call itself is wrong: bad arguments, unknown method.
    CommandRejected,
    /// A screenshot would exceed its byte budget.
    ScreenshotBudgetExceeded,
    /// An upload path lies outside the allowed roots.
    UploadDenied,
    /// The page's JavaScript threw.
    EvaluationFailed,
    /// The language model failed: rate limit, key, provider error, or an
    /// answer cut at its output limit.
    ModelFailed,
    /// A bug in rove.
    Internal,
    /// No solver plugin is installed for a challenge.
    NoSolver,
    /// The solver plugin failed without saying why in its own words (it
    /// hung, printed no answer, or its answer did not solve the page).
    SolverFailed,
    /// No accessibility bus or no display to reach desktop applications on.
    DesktopUnavailable,
    /// The platform must grant rove accessibility access first.
    DesktopPermissionRequired,
    /// A solver plugin's own code (`LICENSE_INVALID`), passed through as the
    /// plugin wrote it: rove's vocabulary does not own it (see [`solver_code`]).
    Solver(SolverCode),
}

/// A solver plugin's code, kept once per process (see [`solver_code`]): a
/// number, so an error code stays as small as the enum of rove's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SolverCode(u16);

/// The plugin codes this process met, each kept once for its life.
static SOLVER_CODES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());

impl SolverCode {
    /// The code as the plugin wrote it.
    pub fn as_str(self) -> &'static str {
        let known = SOLVER_CODES.lock().unwrap_or_else(|p| p.into_inner());
        known
            .get(usize::from(self.0))
            .copied()
            .unwrap_or("SOLVER_FAILED")
    }
}

impl ErrorCode {
    /// Every code, in documentation order.
    pub const ALL: [ErrorCode; 23] = [
        ErrorCode::RefNotFound,
        ErrorCode::StaleState,
        ErrorCode::NotActionable,
        ErrorCode::DialogOpen,
        ErrorCode::NavigationInProgress,
        ErrorCode::NavigationFailed,
        ErrorCode::NavigationBlocked,
        ErrorCode::Timeout,
        ErrorCode::TargetCrashed,
        ErrorCode::NoTab,
        ErrorCode::NoBrowser,
        ErrorCode::LaunchFailed,
        ErrorCode::BrowserDisconnected,
        ErrorCode::CommandRejected,
        ErrorCode::ScreenshotBudgetExceeded,
        ErrorCode::UploadDenied,
        ErrorCode::EvaluationFailed,
        ErrorCode::ModelFailed,
        ErrorCode::Internal,
        ErrorCode::NoSolver,
        ErrorCode::SolverFailed,
        ErrorCode::DesktopUnavailable,
        ErrorCode::DesktopPermissionRequired,
    ];

    /// The code as it appears on the wire and in the docs.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::RefNotFound => "REF_NOT_FOUND",
            ErrorCode::StaleState => "STALE_STATE",
            ErrorCode::NotActionable => "NOT_ACTIONABLE",
            ErrorCode::DialogOpen => "DIALOG_OPEN",
            ErrorCode::NavigationInProgress => "NAVIGATION_IN_PROGRESS",
            ErrorCode::NavigationFailed => "NAVIGATION_FAILED",
            ErrorCode::NavigationBlocked => "NAVIGATION_BLOCKED",
            ErrorCode::Timeout => "TIMEOUT",
            ErrorCode::TargetCrashed => "TARGET_CRASHED",
            ErrorCode::NoTab => "NO_TAB",
            ErrorCode::NoBrowser => "NO_BROWSER",
            ErrorCode::LaunchFailed => "LAUNCH_FAILED",
            ErrorCode::BrowserDisconnected => "BROWSER_DISCONNECTED",
            ErrorCode::CommandRejected => "COMMAND_REJECTED",
            ErrorCode::ScreenshotBudgetExceeded => "SCREENSHOT_BUDGET_EXCEEDED",
            ErrorCode::UploadDenied => "UPLOAD_DENIED",
            ErrorCode::EvaluationFailed => "EVALUATION_FAILED",
            ErrorCode::ModelFailed => "MODEL_FAILED",
            ErrorCode::Internal => "INTERNAL",
            ErrorCode::NoSolver => "NO_SOLVER",
            ErrorCode::SolverFailed => "SOLVER_FAILED",
            ErrorCode::DesktopUnavailable => "DESKTOP_UNAVAILABLE",
            ErrorCode::DesktopPermissionRequired => "DESKTOP_PERMISSION_REQUIRED",
            ErrorCode::Solver(code) => code.as_str(),
        }
    }

    /// The recovery that usually makes sense for this code. A concrete error may
    /// refine it (a `TIMEOUT` before anything was sent is always safe to retry).
    pub const fn default_retry(self) -> Retry {
        match self {
            ErrorCode::RefNotFound
            | ErrorCode::StaleState
            | ErrorCode::NotActionable
            | ErrorCode::TargetCrashed => Retry::Reobserve,
            ErrorCode::NavigationInProgress
            | ErrorCode::Timeout
            | ErrorCode::LaunchFailed
            | ErrorCode::BrowserDisconnected
            | ErrorCode::ModelFailed
            | ErrorCode::SolverFailed => Retry::Retry,
            ErrorCode::DialogOpen
            | ErrorCode::NavigationFailed
            | ErrorCode::NavigationBlocked
            | ErrorCode::NoTab
            | ErrorCode::NoBrowser
            | ErrorCode::CommandRejected
            | ErrorCode::ScreenshotBudgetExceeded
            | ErrorCode::UploadDenied
            | ErrorCode::EvaluationFailed
            | ErrorCode::Internal
            | ErrorCode::NoSolver
            | ErrorCode::DesktopUnavailable
            | ErrorCode::DesktopPermissionRequired
            | ErrorCode::Solver(_) => Retry::Never,
        }
    }

    /// The process exit status the CLI uses for this code. Grouped by class so a
    /// shell script can branch on the class without knowing every code:
    /// 2 bad input, 3 page state, 4 navigation, 5 timeout, 6 environment,
    /// 7 the model, 70 bug.
    pub const fn exit_status(self) -> u8 {
        match self {
            ErrorCode::CommandRejected | ErrorCode::UploadDenied => 2,
            ErrorCode::RefNotFound
            | ErrorCode::StaleState
            | ErrorCode::NotActionable
            | ErrorCode::DialogOpen
            | ErrorCode::ScreenshotBudgetExceeded
            | ErrorCode::EvaluationFailed => 3,
            ErrorCode::NavigationInProgress
            | ErrorCode::NavigationFailed
            | ErrorCode::NavigationBlocked => 4,
            ErrorCode::Timeout => 5,
            ErrorCode::TargetCrashed
            | ErrorCode::NoTab
            | ErrorCode::NoBrowser
            | ErrorCode::LaunchFailed
            | ErrorCode::BrowserDisconnected
            | ErrorCode::NoSolver
            | ErrorCode::SolverFailed
            | ErrorCode::DesktopUnavailable
            | ErrorCode::DesktopPermissionRequired
            | ErrorCode::Solver(_) => 6,
            ErrorCode::ModelFailed => 7,
            ErrorCode::Internal => 70,
        }
    }
}

impl ErrorCode {
    /// The code named `name`: one of rove's, else a solver plugin's.
    pub fn parse(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL
            .into_iter()
            .find(|c| c.as_str() == name)
            .or_else(|| solver_code(name))
    }
}

/// How many distinct plugin codes a process keeps; past it, a new one reads
/// as `SOLVER_FAILED` (each kept code is a few bytes held for the process's
/// life, so a plugin inventing a code per call cannot grow memory).
const SOLVER_CODES_MAX: usize = 256;

/// A solver plugin's code as a code rove reports: 2 to 40 of `A-Z`, `0-9`
/// and `_`, starting with a letter; `None` otherwise. A plugin's code that
/// is one of rove's own is that code.
pub fn solver_code(name: &str) -> Option<ErrorCode> {
    let well_formed = (2..=40).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if !well_formed {
        return None;
    }
    if let Some(own) = ErrorCode::ALL.into_iter().find(|c| c.as_str() == name) {
        return Some(own);
    }
    let mut known = SOLVER_CODES.lock().unwrap_or_else(|p| p.into_inner());
    let at = match known.iter().position(|k| *k == name) {
        Some(at) => at,
        None if known.len() >= SOLVER_CODES_MAX => return Some(ErrorCode::SolverFailed),
        None => {
            known.push(Box::leak(name.to_owned().into_boxed_str()));
            known.len() - 1
        }
    };
    Some(
        u16::try_from(at)
            .map(|n| ErrorCode::Solver(SolverCode(n)))
            .unwrap_or(ErrorCode::SolverFailed),
    )
}

impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        ErrorCode::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown error code {name:?}")))
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The recovery an agent should attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Retry {
    /// Take a fresh view of the page first; the old one no longer holds.
    Reobserve,
    /// The same call may succeed if repeated (mind `action_sent`).
    Retry,
    /// Repeating the call will fail the same way; change the call.
    Never,
}

/// Whether the failed action may have reached the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionSent {
    /// The action reached the page, then something failed.
    Sent,
    /// The request left rove but no answer came back: it may have happened.
    PossiblySent,
    /// Nothing reached the browser; repeating is safe.
    NotSent,
}

/// Whether the failed call may have changed anything, in one word: what an
/// agent checks before it repeats a call. Follows from [`ActionSent`]:
/// nothing sent, no side effect; anything else, uncertain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideEffect {
    /// Nothing reached the page; the state is as it was.
    None,
    /// Something reached the page; what it changed is not known.
    Uncertain,
}

impl From<ActionSent> for SideEffect {
    fn from(sent: ActionSent) -> Self {
        match sent {
            ActionSent::NotSent => SideEffect::None,
            ActionSent::Sent | ActionSent::PossiblySent => SideEffect::Uncertain,
        }
    }
}

/// A failure as every face shows it: `{"code", "message", "hint", "retry",
/// "action_sent", "side_effect", "facts"}`. The CLI's `--json`, MCP's error results and the
/// agent's history all carry this shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The vocabulary code.
    pub code: ErrorCode,
    /// What happened.
    pub message: String,
    /// The next call to make.
    pub hint: String,
    /// The recovery class.
    pub retry: Retry,
    /// Whether the action may have reached the page.
    pub action_sent: ActionSent,
    /// Whether the failed call may have changed anything (follows from
    /// `action_sent`; see [`Report::sent`]).
    pub side_effect: SideEffect,
    /// Facts beyond the message (a cover, a status, a dialog).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<serde_json::Value>,
}

impl Report {
    /// The report of any classified error, with its facts.
    pub fn of<E: Classify + std::fmt::Display + ?Sized>(error: &E) -> Report {
        Report {
            code: error.code(),
            message: error.to_string(),
            hint: error.hint(),
            retry: error.retry(),
            action_sent: error.action_sent(),
            side_effect: error.action_sent().into(),
            facts: error.facts(),
        }
    }

    /// The same report with `action_sent` (and so `side_effect`) replaced.
    pub fn sent(mut self, action_sent: ActionSent) -> Report {
        self.action_sent = action_sent;
        self.side_effect = action_sent.into();
        self
    }

    /// A failure of the caller's own making, outside any library error.
    pub fn new(code: ErrorCode, message: impl Into<String>, hint: impl Into<String>) -> Report {
        Report {
            code,
            message: message.into(),
            hint: hint.into(),
            retry: code.default_retry(),
            action_sent: ActionSent::NotSent,
            side_effect: SideEffect::None,
            facts: None,
        }
    }
}

/// `"an alert"`, `"a confirm"`: a dialog kind with its article, for
/// messages that name dialogs.
pub fn with_article(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// Implemented by every error type in rove's library crates, so that the faces
/// can render any of them the same way.
pub trait Classify {
    /// The vocabulary code.
    fn code(&self) -> ErrorCode;
    /// Whether the action may have reached the page.
    fn action_sent(&self) -> ActionSent;
    /// The recovery to attempt; defaults to the code's usual class.
    fn retry(&self) -> Retry {
        self.code().default_retry()
    }
    /// The next call an agent or user should make, in one sentence.
    fn hint(&self) -> String;
    /// Facts beyond the message (an HTTP status, a cover), if any.
    fn facts(&self) -> Option<serde_json::Value> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_serialize_as_documented() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            assert!(seen.insert(code.as_str()), "duplicate code {code}");
            let json = serde_json::to_string(&code).expect("serializes");
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }

    #[test]
    fn a_plugin_code_passes_through_and_a_malformed_one_does_not() {
        let code = ErrorCode::parse("LICENSE_INVALID").expect("well formed");
        assert_eq!(code.as_str(), "LICENSE_INVALID");
        assert_eq!(ErrorCode::parse("LICENSE_INVALID"), Some(code), "kept once");
        assert_eq!(std::mem::size_of::<ErrorCode>(), 4);
        assert_eq!(code.default_retry(), Retry::Never);
        let json = serde_json::to_string(&code).expect("serializes");
        assert_eq!(json, "\"LICENSE_INVALID\"");
        let back: ErrorCode = serde_json::from_str(&json).expect("deserializes");
        assert_eq!(back, code);
        assert_eq!(ErrorCode::parse("TIMEOUT"), Some(ErrorCode::Timeout));
        for bad in ["", "x", "license invalid", "A\nB", &"A".repeat(41)] {
            assert_eq!(solver_code(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn side_effect_follows_action_sent() {
        let report = Report::new(ErrorCode::Timeout, "m", "h");
        assert_eq!(report.side_effect, SideEffect::None);
        let sent = report.sent(ActionSent::PossiblySent);
        assert_eq!(sent.side_effect, SideEffect::Uncertain);
        let json = serde_json::to_value(&sent).expect("serializes");
        assert_eq!(json["side_effect"], "uncertain");
        assert_eq!(json["action_sent"], "possibly_sent");
    }

    #[test]
    fn every_code_is_documented_in_errors_md() {
        let doc = include_str!("../../../docs/errors.md");
        for code in ErrorCode::ALL {
            let heading = format!("### `{}`", code.as_str());
            assert!(doc.contains(&heading), "docs/errors.md lacks {heading}");
            let section = doc
                .split(&heading)
                .nth(1)
                .and_then(|rest| rest.split("\n### ").next())
                .unwrap_or_default();
            // Compare with line breaks folded, as a reader sees the text.
            let section = section.split_whitespace().collect::<Vec<_>>().join(" ");
            let retry = serde_json::to_string(&code.default_retry()).expect("serializes");
            for fact in [
                format!("exit status {}", code.exit_status()),
                format!("Retry class `{}`", retry.trim_matches('"')),
            ] {
                assert!(
                    section.contains(&fact),
                    "docs/errors.md section for {code} does not say `{fact}`"
                );
            }
        }
    }
}
