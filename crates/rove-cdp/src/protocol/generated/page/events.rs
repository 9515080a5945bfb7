//! The events of the `Page` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Page.downloadWillBegin`: Fired when page is about to start a download. Deprecated. Use
/// Browser.downloadWillBegin instead.
///
/// Deprecated.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DownloadWillBegin {
    /// Id of the frame that caused download to begin.
    pub frame_id: super::FrameId,
    /// Global unique identifier of the download.
    pub guid: String,
    /// URL of the resource being downloaded.
    pub url: String,
    /// Suggested file name of the resource (the actual name of the file saved on disk may
    /// differ).
    pub suggested_filename: String,
}

impl crate::protocol::EventType for DownloadWillBegin {
    const METHOD: &'static str = "Page.downloadWillBegin";
}

/// `Page.fileChooserOpened`: Emitted only when `page.interceptFileChooser` is enabled.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FileChooserOpened {
    /// Id of the frame containing input node.
    ///
    /// Experimental.
    pub frame_id: super::FrameId,
    /// Input mode.
    pub mode: super::FileChooserOpenedMode,
    /// Input node id. Only present for file choosers opened via an `<input type="file">`
    /// element.
    ///
    /// Experimental.
    pub backend_node_id: Option<crate::protocol::dom::BackendNodeId>,
}

impl crate::protocol::EventType for FileChooserOpened {
    const METHOD: &'static str = "Page.fileChooserOpened";
}

/// `Page.frameDetached`: Fired when frame has been detached from its parent.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FrameDetached {
    /// Id of the frame that has been detached.
    pub frame_id: super::FrameId,
    /// Experimental.
    pub reason: super::FrameDetachedReason,
}

impl crate::protocol::EventType for FrameDetached {
    const METHOD: &'static str = "Page.frameDetached";
}

/// `Page.frameNavigated`: Fired once navigation of the frame has completed. Frame is now
/// associated with the new loader.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FrameNavigated {
    /// Frame object.
    pub frame: super::Frame,
    /// Experimental.
    #[serde(rename = "type")]
    pub kind: super::NavigationType,
}

impl crate::protocol::EventType for FrameNavigated {
    const METHOD: &'static str = "Page.frameNavigated";
}

/// `Page.frameRequestedNavigation`: Fired when a renderer-initiated navigation is requested.
/// Navigation may still be cancelled after the event is issued.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FrameRequestedNavigation {
    /// Id of the frame that is being navigated.
    pub frame_id: super::FrameId,
    /// The reason for the navigation.
    pub reason: serde_json::Value,
    /// The destination URL for the requested navigation.
    pub url: String,
    /// The disposition for the navigation.
    pub disposition: super::ClientNavigationDisposition,
}

impl crate::protocol::EventType for FrameRequestedNavigation {
    const METHOD: &'static str = "Page.frameRequestedNavigation";
}

/// `Page.frameStartedNavigating`: Fired when a navigation starts. This event is fired for both
/// renderer-initiated and browser-initiated navigations. For renderer-initiated navigations,
/// the event is fired after `frameRequestedNavigation`. Navigation may still be cancelled after
/// the event is issued. Multiple events can be fired for a single navigation, for example, when
/// a same-document navigation becomes a cross-document navigation (such as in the case of a
/// frameset).
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FrameStartedNavigating {
    /// ID of the frame that is being navigated.
    pub frame_id: super::FrameId,
    /// The URL the navigation started with. The final URL can be different.
    pub url: String,
    /// Loader identifier. Even though it is present in case of same-document navigation, the
    /// previously committed loaderId would not change unless the navigation changes from a
    /// same-document to a cross-document navigation.
    pub loader_id: crate::protocol::network::LoaderId,
    /// navigationType
    pub navigation_type: super::FrameStartedNavigatingNavigationType,
}

impl crate::protocol::EventType for FrameStartedNavigating {
    const METHOD: &'static str = "Page.frameStartedNavigating";
}

/// `Page.frameStoppedLoading`: Fired when frame has stopped loading.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FrameStoppedLoading {
    /// Id of the frame that has stopped loading.
    pub frame_id: super::FrameId,
}

impl crate::protocol::EventType for FrameStoppedLoading {
    const METHOD: &'static str = "Page.frameStoppedLoading";
}

/// `Page.javascriptDialogClosed`: Fired when a JavaScript initiated dialog (alert, confirm,
/// prompt, or onbeforeunload) has been closed.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct JavascriptDialogClosed {
    /// Frame id.
    ///
    /// Experimental.
    pub frame_id: super::FrameId,
    /// Whether dialog was confirmed.
    pub result: bool,
    /// User input in case of prompt.
    pub user_input: String,
}

impl crate::protocol::EventType for JavascriptDialogClosed {
    const METHOD: &'static str = "Page.javascriptDialogClosed";
}

/// `Page.javascriptDialogOpening`: Fired when a JavaScript initiated dialog (alert, confirm,
/// prompt, or onbeforeunload) is about to open.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct JavascriptDialogOpening {
    /// Frame url.
    pub url: String,
    /// Frame id.
    ///
    /// Experimental.
    pub frame_id: super::FrameId,
    /// Message that will be displayed by the dialog.
    pub message: String,
    /// Dialog type.
    #[serde(rename = "type")]
    pub kind: super::DialogType,
    /// True iff browser is capable showing or acting on the given dialog. When browser has no
    /// dialog handler for given target, calling alert while Page domain is engaged will stall
    /// the page execution. Execution can be resumed via calling Page.handleJavaScriptDialog.
    pub has_browser_handler: bool,
    /// Default dialog prompt.
    pub default_prompt: Option<String>,
}

impl crate::protocol::EventType for JavascriptDialogOpening {
    const METHOD: &'static str = "Page.javascriptDialogOpening";
}

/// `Page.loadEventFired`.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LoadEventFired {
    /// timestamp
    pub timestamp: crate::protocol::network::MonotonicTime,
}

impl crate::protocol::EventType for LoadEventFired {
    const METHOD: &'static str = "Page.loadEventFired";
}

/// `Page.navigatedWithinDocument`: Fired when same-document navigation happens, e.g. due to
/// history API usage or anchor navigation.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NavigatedWithinDocument {
    /// Id of the frame.
    pub frame_id: super::FrameId,
    /// Frame's new url.
    pub url: String,
    /// Navigation type
    pub navigation_type: super::NavigatedWithinDocumentNavigationType,
}

impl crate::protocol::EventType for NavigatedWithinDocument {
    const METHOD: &'static str = "Page.navigatedWithinDocument";
}

/// `Page.screencastFrame`: Compressed image data requested by the `startScreencast`.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScreencastFrame {
    /// Base64-encoded compressed image. (Encoded as a base64 string when passed over JSON)
    pub data: String,
    /// Screencast frame metadata.
    pub metadata: super::ScreencastFrameMetadata,
    /// Frame number.
    pub session_id: i64,
}

impl crate::protocol::EventType for ScreencastFrame {
    const METHOD: &'static str = "Page.screencastFrame";
}
