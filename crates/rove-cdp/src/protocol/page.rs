//! The `Page` domain.

use serde::{Deserialize, Serialize};

use super::{Command, Empty, EventType, unit_command};

unit_command!(
    /// `Page.enable`: start sending page events.
    Enable,
    "Page.enable",
    Empty
);

unit_command!(
    /// `Page.crash`: crash the renderer (for tests of crash handling).
    Crash,
    "Page.crash",
    Empty
);

/// `Page.navigate`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Navigate {
    /// Where to go.
    pub url: String,
}

impl Command for Navigate {
    const METHOD: &'static str = "Page.navigate";
    type Response = NavigateResult;
}

/// The answer of [`Navigate`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NavigateResult {
    /// The frame that navigated.
    pub frame_id: String,
    /// The loader of the new document; absent for same-document navigations.
    pub loader_id: Option<String>,
    /// Set when the navigation failed before a document arrived
    /// (`net::ERR_CONNECTION_REFUSED` …).
    pub error_text: Option<String>,
}

/// `Page.reload`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reload {
    /// Bypass the cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_cache: Option<bool>,
}

impl Command for Reload {
    const METHOD: &'static str = "Page.reload";
    type Response = Empty;
}

/// `Page.loadEventFired`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct LoadEventFired {
    /// Monotonic time of the event, in seconds.
    pub timestamp: f64,
}

impl EventType for LoadEventFired {
    const METHOD: &'static str = "Page.loadEventFired";
}

/// `Page.createIsolatedWorld`: an execution context of rove's own in a
/// frame, with its own JavaScript builtins the page cannot replace.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateIsolatedWorld {
    /// The frame.
    pub frame_id: String,
    /// The world's name (worlds of one name share nothing but the name).
    pub world_name: String,
    /// Whether the world may reach other origins (never, for rove).
    #[serde(
        skip_serializing_if = "Option::is_none",
        rename = "grantUniveralAccess"
    )]
    pub grant_universal_access: Option<bool>,
}

impl Command for CreateIsolatedWorld {
    const METHOD: &'static str = "Page.createIsolatedWorld";
    type Response = IsolatedWorld;
}

/// The answer of [`CreateIsolatedWorld`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct IsolatedWorld {
    /// The new context.
    pub execution_context_id: i64,
}
