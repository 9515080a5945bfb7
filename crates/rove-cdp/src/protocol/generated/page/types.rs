//! The types of the `Page` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Unique frame identifier.
pub type FrameId = String;

/// Unique script identifier.
pub type ScriptIdentifier = String;

/// The values of `format` in `CaptureScreenshot`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum CaptureScreenshotFormat {
    /// `jpeg`.
    #[serde(rename = "jpeg")]
    Jpeg,
    /// `png`.
    #[serde(rename = "png")]
    Png,
    /// `webp`.
    #[serde(rename = "webp")]
    Webp,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl CaptureScreenshotFormat {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Jpeg => "jpeg",
            Self::Png => "png",
            Self::Webp => "webp",
            Self::Unrecognized => "",
        }
    }
}

/// Experimental.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum ClientNavigationDisposition {
    /// `currentTab`.
    #[serde(rename = "currentTab")]
    CurrentTab,
    /// `newTab`.
    #[serde(rename = "newTab")]
    NewTab,
    /// `newWindow`.
    #[serde(rename = "newWindow")]
    NewWindow,
    /// `download`.
    #[serde(rename = "download")]
    Download,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl ClientNavigationDisposition {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::CurrentTab => "currentTab",
            Self::NewTab => "newTab",
            Self::NewWindow => "newWindow",
            Self::Download => "download",
            Self::Unrecognized => "",
        }
    }
}

/// Javascript dialog type.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum DialogType {
    /// `alert`.
    #[serde(rename = "alert")]
    Alert,
    /// `confirm`.
    #[serde(rename = "confirm")]
    Confirm,
    /// `prompt`.
    #[serde(rename = "prompt")]
    Prompt,
    /// `beforeunload`.
    #[serde(rename = "beforeunload")]
    Beforeunload,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl DialogType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Alert => "alert",
            Self::Confirm => "confirm",
            Self::Prompt => "prompt",
            Self::Beforeunload => "beforeunload",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `mode` in `FileChooserOpened`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum FileChooserOpenedMode {
    /// `selectSingle`.
    #[serde(rename = "selectSingle")]
    SelectSingle,
    /// `selectMultiple`.
    #[serde(rename = "selectMultiple")]
    SelectMultiple,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl FileChooserOpenedMode {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SelectSingle => "selectSingle",
            Self::SelectMultiple => "selectMultiple",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `reason` in `FrameDetached`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum FrameDetachedReason {
    /// `remove`.
    #[serde(rename = "remove")]
    Remove,
    /// `swap`.
    #[serde(rename = "swap")]
    Swap,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl FrameDetachedReason {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Remove => "remove",
            Self::Swap => "swap",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `navigationType` in `FrameStartedNavigating`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum FrameStartedNavigatingNavigationType {
    /// `reload`.
    #[serde(rename = "reload")]
    Reload,
    /// `reloadBypassingCache`.
    #[serde(rename = "reloadBypassingCache")]
    ReloadBypassingCache,
    /// `restore`.
    #[serde(rename = "restore")]
    Restore,
    /// `restoreWithPost`.
    #[serde(rename = "restoreWithPost")]
    RestoreWithPost,
    /// `historySameDocument`.
    #[serde(rename = "historySameDocument")]
    HistorySameDocument,
    /// `historyDifferentDocument`.
    #[serde(rename = "historyDifferentDocument")]
    HistoryDifferentDocument,
    /// `sameDocument`.
    #[serde(rename = "sameDocument")]
    SameDocument,
    /// `differentDocument`.
    #[serde(rename = "differentDocument")]
    DifferentDocument,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl FrameStartedNavigatingNavigationType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Reload => "reload",
            Self::ReloadBypassingCache => "reloadBypassingCache",
            Self::Restore => "restore",
            Self::RestoreWithPost => "restoreWithPost",
            Self::HistorySameDocument => "historySameDocument",
            Self::HistoryDifferentDocument => "historyDifferentDocument",
            Self::SameDocument => "sameDocument",
            Self::DifferentDocument => "differentDocument",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `navigationType` in `NavigatedWithinDocument`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum NavigatedWithinDocumentNavigationType {
    /// `fragment`.
    #[serde(rename = "fragment")]
    Fragment,
    /// `historyApi`.
    #[serde(rename = "historyApi")]
    HistoryApi,
    /// `other`.
    #[serde(rename = "other")]
    Other,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl NavigatedWithinDocumentNavigationType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fragment => "fragment",
            Self::HistoryApi => "historyApi",
            Self::Other => "other",
            Self::Unrecognized => "",
        }
    }
}

/// The type of a frameNavigated event.
///
/// Experimental.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum NavigationType {
    /// `Navigation`.
    #[serde(rename = "Navigation")]
    Navigation,
    /// `BackForwardCacheRestore`.
    #[serde(rename = "BackForwardCacheRestore")]
    BackForwardCacheRestore,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl NavigationType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Navigation => "Navigation",
            Self::BackForwardCacheRestore => "BackForwardCacheRestore",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `transferMode` in `PrintToPDF`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum PrintToPDFTransferMode {
    /// `ReturnAsBase64`.
    #[serde(rename = "ReturnAsBase64")]
    ReturnAsBase64,
    /// `ReturnAsStream`.
    #[serde(rename = "ReturnAsStream")]
    ReturnAsStream,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl PrintToPDFTransferMode {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReturnAsBase64 => "ReturnAsBase64",
            Self::ReturnAsStream => "ReturnAsStream",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `format` in `StartScreencast`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum StartScreencastFormat {
    /// `jpeg`.
    #[serde(rename = "jpeg")]
    Jpeg,
    /// `png`.
    #[serde(rename = "png")]
    Png,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl StartScreencastFormat {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Jpeg => "jpeg",
            Self::Png => "png",
            Self::Unrecognized => "",
        }
    }
}

/// Information about the Frame on the page.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Frame {
    /// Frame unique identifier.
    pub id: super::FrameId,
    /// Parent frame identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<super::FrameId>,
    /// Identifier of the loader associated with this frame.
    pub loader_id: crate::protocol::network::LoaderId,
    /// Frame's name as specified in the tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Frame document's URL without fragment.
    pub url: String,
    /// Frame document's URL fragment including the '#'.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url_fragment: Option<String>,
    /// Frame document's registered domain, taking the public suffixes list into account.
    /// Extracted from the Frame's url. Example URLs: http://www.google.com/file.html ->
    /// "google.com" http://a.b.co.uk/file.html -> "b.co.uk"
    ///
    /// Experimental.
    pub domain_and_registry: String,
    /// Frame document's security origin.
    pub security_origin: String,
    /// Additional details about the frame document's security origin.
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub security_origin_details: Option<serde_json::Value>,
    /// Frame document's mimeType as determined by the browser.
    pub mime_type: String,
    /// If the frame failed to load, this contains the URL that could not be loaded. Note that
    /// unlike url above, this URL may contain a fragment.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreachable_url: Option<String>,
    /// Indicates whether this frame was tagged as an ad and why.
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub ad_frame_status: Option<serde_json::Value>,
    /// Indicates whether the main document is a secure context and explains why that is the
    /// case.
    ///
    /// Experimental.
    pub secure_context_type: serde_json::Value,
    /// Indicates whether this is a cross origin isolated context.
    ///
    /// Experimental.
    pub cross_origin_isolated_context_type: serde_json::Value,
    /// Indicated which gated APIs / features are available.
    ///
    /// Experimental.
    #[serde(rename = "gatedAPIFeatures")]
    pub gated_api_features: Vec<serde_json::Value>,
}

/// Information about the Frame hierarchy.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FrameTree {
    /// Frame information for this tree item.
    pub frame: super::Frame,
    /// Child frames.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_frames: Option<Vec<super::FrameTree>>,
}

/// Layout viewport position and dimensions.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LayoutViewport {
    /// Horizontal offset relative to the document (CSS pixels).
    pub page_x: i64,
    /// Vertical offset relative to the document (CSS pixels).
    pub page_y: i64,
    /// Width (CSS pixels), excludes scrollbar if present.
    pub client_width: i64,
    /// Height (CSS pixels), excludes scrollbar if present.
    pub client_height: i64,
}

/// Navigation history entry.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NavigationEntry {
    /// Unique id of the navigation history entry.
    pub id: i64,
    /// URL of the navigation history entry.
    pub url: String,
    /// URL that the user typed in the url bar.
    #[serde(rename = "userTypedURL")]
    pub user_typed_url: String,
    /// Title of the navigation history entry.
    pub title: String,
    /// Transition type.
    pub transition_type: serde_json::Value,
}

/// Screencast frame metadata.
///
/// Experimental.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScreencastFrameMetadata {
    /// Top offset in DIP.
    pub offset_top: f64,
    /// Page scale factor.
    pub page_scale_factor: f64,
    /// Device screen width in DIP.
    pub device_width: f64,
    /// Device screen height in DIP.
    pub device_height: f64,
    /// Position of horizontal scroll in CSS pixels.
    pub scroll_offset_x: f64,
    /// Position of vertical scroll in CSS pixels.
    pub scroll_offset_y: f64,
    /// Frame swap timestamp.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<crate::protocol::network::TimeSinceEpoch>,
    /// Frame swap timestamp as monotonic time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monotonic_timestamp: Option<crate::protocol::network::MonotonicTime>,
}

/// Viewport for capturing screenshot.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Viewport {
    /// X offset in device independent pixels (dip).
    pub x: f64,
    /// Y offset in device independent pixels (dip).
    pub y: f64,
    /// Rectangle width in device independent pixels (dip).
    pub width: f64,
    /// Rectangle height in device independent pixels (dip).
    pub height: f64,
    /// Page scale factor.
    pub scale: f64,
}

/// Visual viewport position, dimensions, and scale.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct VisualViewport {
    /// Horizontal offset relative to the layout viewport (CSS pixels).
    pub offset_x: f64,
    /// Vertical offset relative to the layout viewport (CSS pixels).
    pub offset_y: f64,
    /// Horizontal offset relative to the document (CSS pixels).
    pub page_x: f64,
    /// Vertical offset relative to the document (CSS pixels).
    pub page_y: f64,
    /// Width (CSS pixels), excludes scrollbar if present.
    pub client_width: f64,
    /// Height (CSS pixels), excludes scrollbar if present.
    pub client_height: f64,
    /// Scale relative to the ideal viewport (size at width=device-width).
    pub scale: f64,
    /// Page zoom factor (CSS to device independent pixels ratio).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zoom: Option<f64>,
}
