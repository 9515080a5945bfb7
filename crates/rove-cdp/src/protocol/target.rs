//! The `Target` domain: targets, browser contexts and flattened sessions.

use serde::{Deserialize, Serialize};

use super::{Command, Empty, EventType};
use crate::SessionId;

/// What CDP knows about a target (a tab, a worker, an iframe process …).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetInfo {
    /// The target's id.
    pub target_id: String,
    /// `page`, `iframe`, `service_worker`, `browser` …
    #[serde(rename = "type")]
    pub kind: String,
    /// The document title.
    pub title: String,
    /// The current URL.
    pub url: String,
    /// Whether some client is attached to it.
    pub attached: bool,
    /// The target that opened it (popups, `target=_blank`).
    pub opener_id: Option<String>,
    /// The browser context it lives in.
    pub browser_context_id: Option<String>,
}

/// `Target.setDiscoverTargets`: report targets as they come and go.
#[derive(Debug, Clone, Serialize)]
pub struct SetDiscoverTargets {
    /// Whether to discover.
    pub discover: bool,
}

impl Command for SetDiscoverTargets {
    const METHOD: &'static str = "Target.setDiscoverTargets";
    type Response = Empty;
}

/// `Target.getTargets`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GetTargets {}

impl Command for GetTargets {
    const METHOD: &'static str = "Target.getTargets";
    type Response = GetTargetsResult;
}

/// The answer of [`GetTargets`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetTargetsResult {
    /// Every target the browser knows.
    pub target_infos: Vec<TargetInfo>,
}

/// `Target.createBrowserContext`: an isolated profile-in-memory (cookies,
/// storage, cache) inside the running browser.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateBrowserContext {
    /// Dispose the context when the connection that created it closes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispose_on_detach: Option<bool>,
}

impl Command for CreateBrowserContext {
    const METHOD: &'static str = "Target.createBrowserContext";
    type Response = CreateBrowserContextResult;
}

/// The answer of [`CreateBrowserContext`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CreateBrowserContextResult {
    /// The new context's id.
    pub browser_context_id: String,
}

/// `Target.disposeBrowserContext`: closes every tab in the context and drops
/// its data.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DisposeBrowserContext {
    /// The context to dispose.
    pub browser_context_id: String,
}

impl Command for DisposeBrowserContext {
    const METHOD: &'static str = "Target.disposeBrowserContext";
    type Response = Empty;
}

/// `Target.createTarget`: opens a tab.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateTarget {
    /// The first URL.
    pub url: String,
    /// The context to open it in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_context_id: Option<String>,
    /// Open in the background (do not focus the window).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<bool>,
}

impl Command for CreateTarget {
    const METHOD: &'static str = "Target.createTarget";
    type Response = CreateTargetResult;
}

/// The answer of [`CreateTarget`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CreateTargetResult {
    /// The new target's id.
    pub target_id: String,
}

/// `Target.closeTarget`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseTarget {
    /// The target to close.
    pub target_id: String,
}

impl Command for CloseTarget {
    const METHOD: &'static str = "Target.closeTarget";
    type Response = Empty;
}

/// `Target.attachToTarget` in flattened mode: the answer is a session id to
/// put on later messages over the same socket.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachToTarget {
    /// The target to attach to.
    pub target_id: String,
    /// Always `true`: rove only speaks flattened sessions.
    pub flatten: bool,
}

impl AttachToTarget {
    /// A flattened attach to `target_id`.
    pub fn flat(target_id: impl Into<String>) -> Self {
        AttachToTarget {
            target_id: target_id.into(),
            flatten: true,
        }
    }
}

impl Command for AttachToTarget {
    const METHOD: &'static str = "Target.attachToTarget";
    type Response = AttachToTargetResult;
}

/// The answer of [`AttachToTarget`].
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachToTargetResult {
    /// The new session.
    pub session_id: SessionId,
}

/// `Target.activateTarget`: bring a tab to the front of its window.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivateTarget {
    /// The target to activate.
    pub target_id: String,
}

impl Command for ActivateTarget {
    const METHOD: &'static str = "Target.activateTarget";
    type Response = Empty;
}

/// `Target.targetCreated`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetCreated {
    /// The new target.
    pub target_info: TargetInfo,
}

impl EventType for TargetCreated {
    const METHOD: &'static str = "Target.targetCreated";
}

/// `Target.targetInfoChanged`: URL, title or attachment changed.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetInfoChanged {
    /// The target as it is now.
    pub target_info: TargetInfo,
}

impl EventType for TargetInfoChanged {
    const METHOD: &'static str = "Target.targetInfoChanged";
}

/// `Target.targetDestroyed`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetDestroyed {
    /// The target that is gone.
    pub target_id: String,
}

impl EventType for TargetDestroyed {
    const METHOD: &'static str = "Target.targetDestroyed";
}

/// `Target.targetCrashed`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetCrashed {
    /// The target whose renderer died.
    pub target_id: String,
    /// `crashed`, `killed`, `oom` …
    pub status: String,
    /// The exit code of the renderer.
    pub error_code: i64,
}

impl EventType for TargetCrashed {
    const METHOD: &'static str = "Target.targetCrashed";
}

/// `Target.attachedToTarget`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachedToTarget {
    /// The new session.
    pub session_id: SessionId,
    /// The target it is attached to.
    pub target_info: TargetInfo,
}

impl EventType for AttachedToTarget {
    const METHOD: &'static str = "Target.attachedToTarget";
}

/// `Target.detachedFromTarget`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DetachedFromTarget {
    /// The session that ended.
    pub session_id: SessionId,
}

impl EventType for DetachedFromTarget {
    const METHOD: &'static str = "Target.detachedFromTarget";
}
