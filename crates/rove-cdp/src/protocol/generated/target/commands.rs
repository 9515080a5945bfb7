//! The commands of the `Target` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Target.activateTarget`: Activates (focuses) the target.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivateTarget {
    /// targetId
    pub target_id: super::TargetID,
}

impl crate::protocol::Command for ActivateTarget {
    const METHOD: &'static str = "Target.activateTarget";
    type Response = crate::protocol::Empty;
}

/// `Target.attachToTarget`: Attaches to the target with given id.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachToTarget {
    /// targetId
    pub target_id: super::TargetID,
    /// Enables "flat" access to the session via specifying sessionId attribute in the commands.
    /// We plan to make this the default, deprecate non-flattened mode, and eventually retire
    /// it. See crbug.com/991325.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flatten: Option<bool>,
}

impl crate::protocol::Command for AttachToTarget {
    const METHOD: &'static str = "Target.attachToTarget";
    type Response = AttachToTargetResult;
}

/// The answer of [`AttachToTarget`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AttachToTargetResult {
    /// Id assigned to the session.
    pub session_id: super::SessionID,
}

/// `Target.closeTarget`: Closes the target. If the target is a page that gets closed too.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseTarget {
    /// targetId
    pub target_id: super::TargetID,
}

impl crate::protocol::Command for CloseTarget {
    const METHOD: &'static str = "Target.closeTarget";
    type Response = CloseTargetResult;
}

/// The answer of [`CloseTarget`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CloseTargetResult {
    /// Always set to true. If an error occurs, the response indicates protocol error.
    ///
    /// Deprecated.
    pub success: bool,
}

/// `Target.createBrowserContext`: Creates a new empty BrowserContext. Similar to an incognito
/// profile but you can have more than one.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateBrowserContext {
    /// If specified, disposes this context when debugging session disconnects.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispose_on_detach: Option<bool>,
    /// Proxy server, similar to the one passed to --proxy-server
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy_server: Option<String>,
    /// Proxy bypass list, similar to the one passed to --proxy-bypass-list
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy_bypass_list: Option<String>,
    /// An optional list of origins to grant unlimited cross-origin access to. Parts of the URL
    /// other than those constituting origin are ignored.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origins_with_universal_network_access: Option<Vec<String>>,
}

impl crate::protocol::Command for CreateBrowserContext {
    const METHOD: &'static str = "Target.createBrowserContext";
    type Response = CreateBrowserContextResult;
}

/// The answer of [`CreateBrowserContext`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CreateBrowserContextResult {
    /// The id of the context created.
    pub browser_context_id: crate::protocol::browser::BrowserContextID,
}

/// `Target.createTarget`: Creates a new page.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateTarget {
    /// The initial URL the page will be navigated to. An empty string indicates about:blank.
    pub url: String,
    /// Frame left origin in DIP (requires newWindow to be true or headless shell).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<i64>,
    /// Frame top origin in DIP (requires newWindow to be true or headless shell).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top: Option<i64>,
    /// Frame width in DIP (requires newWindow to be true or headless shell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<i64>,
    /// Frame height in DIP (requires newWindow to be true or headless shell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<i64>,
    /// Frame window state (requires newWindow to be true or headless shell). Default is normal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_state: Option<serde_json::Value>,
    /// The browser context to create the page in.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_context_id: Option<crate::protocol::browser::BrowserContextID>,
    /// Whether BeginFrames for this target will be controlled via DevTools (headless shell
    /// only, not supported on MacOS yet, false by default).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable_begin_frame_control: Option<bool>,
    /// Whether to create a new Window or Tab (false by default, not supported by headless
    /// shell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_window: Option<bool>,
    /// Whether to create the target in background or foreground (false by default, not
    /// supported by headless shell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<bool>,
    /// Whether to create the target of type "tab".
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub for_tab: Option<bool>,
    /// Whether to create a hidden target. The hidden target is observable via protocol, but not
    /// present in the tab UI strip. Cannot be created with `forTab: true`, `newWindow: true` or
    /// `background: false`. The life-time of the tab is limited to the life-time of the
    /// session.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// If specified, determines whether the new target should be focused. By default, the focus
    /// behavior depends on the `background` parameter: - If `background` is false (default) and
    /// `focus` is omitted, the new target is focused and the browser window is brought to the
    /// foreground. - If `background` is false and `focus` is false, the target is opened but
    /// the browser window's focus remains unchanged (e.g., if the window was in the background,
    /// it stays there). - If `background` is true, setting `focus` to true is not supported and
    /// will result in an error.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub focus: Option<bool>,
}

impl crate::protocol::Command for CreateTarget {
    const METHOD: &'static str = "Target.createTarget";
    type Response = CreateTargetResult;
}

/// The answer of [`CreateTarget`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CreateTargetResult {
    /// The id of the page opened.
    pub target_id: super::TargetID,
}

/// `Target.detachFromTarget`: Detaches session with given id.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DetachFromTarget {
    /// Session to detach.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<super::SessionID>,
    /// Deprecated.
    ///
    /// Deprecated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_id: Option<super::TargetID>,
}

impl crate::protocol::Command for DetachFromTarget {
    const METHOD: &'static str = "Target.detachFromTarget";
    type Response = crate::protocol::Empty;
}

/// `Target.disposeBrowserContext`: Deletes a BrowserContext. All the belonging pages will be
/// closed without calling their beforeunload hooks.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DisposeBrowserContext {
    /// browserContextId
    pub browser_context_id: crate::protocol::browser::BrowserContextID,
}

impl crate::protocol::Command for DisposeBrowserContext {
    const METHOD: &'static str = "Target.disposeBrowserContext";
    type Response = crate::protocol::Empty;
}

/// `Target.getBrowserContexts`: Returns all browser contexts created with
/// `Target.createBrowserContext` method.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetBrowserContexts {}

impl crate::protocol::Command for GetBrowserContexts {
    const METHOD: &'static str = "Target.getBrowserContexts";
    type Response = GetBrowserContextsResult;
}

/// The answer of [`GetBrowserContexts`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetBrowserContextsResult {
    /// An array of browser context ids.
    pub browser_context_ids: Vec<crate::protocol::browser::BrowserContextID>,
    /// The id of the default browser context if available.
    ///
    /// Experimental.
    pub default_browser_context_id: Option<crate::protocol::browser::BrowserContextID>,
}

/// `Target.getTargets`: Retrieves a list of available targets.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetTargets {
    /// Only targets matching filter will be reported. If filter is not specified and target
    /// discovery is currently enabled, a filter used for target discovery is used for
    /// consistency.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<super::TargetFilter>,
}

impl crate::protocol::Command for GetTargets {
    const METHOD: &'static str = "Target.getTargets";
    type Response = GetTargetsResult;
}

/// The answer of [`GetTargets`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetTargetsResult {
    /// The list of targets.
    pub target_infos: Vec<super::TargetInfo>,
}

/// `Target.setAutoAttach`: Controls whether to automatically attach to new targets which are
/// considered to be directly related to this one (for example, iframes or workers). When turned
/// on, attaches to all existing related targets as well. When turned off, automatically
/// detaches from all currently attached targets. This also clears all targets added by
/// `autoAttachRelated` from the list of targets to watch for creation of related targets. You
/// might want to call this recursively for auto-attached targets to attach to all available
/// targets.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetAutoAttach {
    /// Whether to auto-attach to related targets.
    pub auto_attach: bool,
    /// Whether to pause new targets when attaching to them. Use
    /// `Runtime.runIfWaitingForDebugger` to run paused targets.
    pub wait_for_debugger_on_start: bool,
    /// Enables "flat" access to the session via specifying sessionId attribute in the commands.
    /// We plan to make this the default, deprecate non-flattened mode, and eventually retire
    /// it. See crbug.com/991325.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flatten: Option<bool>,
    /// Only targets matching filter will be attached.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<super::TargetFilter>,
}

impl crate::protocol::Command for SetAutoAttach {
    const METHOD: &'static str = "Target.setAutoAttach";
    type Response = crate::protocol::Empty;
}

/// `Target.setDiscoverTargets`: Controls whether to discover available targets and notify via
/// `targetCreated/targetInfoChanged/targetDestroyed` events.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDiscoverTargets {
    /// Whether to discover available targets.
    pub discover: bool,
    /// Only targets matching filter will be attached. If `discover` is false, `filter` must be
    /// omitted or empty.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<super::TargetFilter>,
}

impl crate::protocol::Command for SetDiscoverTargets {
    const METHOD: &'static str = "Target.setDiscoverTargets";
    type Response = crate::protocol::Empty;
}
