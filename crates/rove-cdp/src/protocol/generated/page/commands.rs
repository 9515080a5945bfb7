//! The commands of the `Page` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Page.addScriptToEvaluateOnNewDocument`: Evaluates given script in every frame upon creation
/// (before loading frame's scripts).
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AddScriptToEvaluateOnNewDocument {
    /// source
    pub source: String,
    /// If specified, creates an isolated world with the given name and evaluates given script
    /// in it. This world name will be used as the ExecutionContextDescription::name when the
    /// corresponding event is emitted.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub world_name: Option<String>,
    /// Specifies whether command line API should be available to the script, defaults to false.
    ///
    /// Experimental.
    #[serde(
        rename = "includeCommandLineAPI",
        skip_serializing_if = "Option::is_none"
    )]
    pub include_command_line_api: Option<bool>,
    /// If true, runs the script immediately on existing execution contexts or worlds. Default:
    /// false.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_immediately: Option<bool>,
}

impl crate::protocol::Command for AddScriptToEvaluateOnNewDocument {
    const METHOD: &'static str = "Page.addScriptToEvaluateOnNewDocument";
    type Response = AddScriptToEvaluateOnNewDocumentResult;
}

/// The answer of [`AddScriptToEvaluateOnNewDocument`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AddScriptToEvaluateOnNewDocumentResult {
    /// Identifier of the added script.
    pub identifier: super::ScriptIdentifier,
}

/// `Page.captureScreenshot`: Capture page screenshot.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaptureScreenshot {
    /// Image compression format (defaults to png).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<super::CaptureScreenshotFormat>,
    /// Compression quality from range [0..100] (jpeg only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<i64>,
    /// Capture the screenshot of a given region only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clip: Option<super::Viewport>,
    /// Capture the screenshot from the surface, rather than the view. Defaults to true.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_surface: Option<bool>,
    /// Capture the screenshot beyond the viewport. Defaults to false.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture_beyond_viewport: Option<bool>,
    /// Optimize image encoding for speed, not for resulting size (defaults to false)
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimize_for_speed: Option<bool>,
}

impl crate::protocol::Command for CaptureScreenshot {
    const METHOD: &'static str = "Page.captureScreenshot";
    type Response = CaptureScreenshotResult;
}

/// The answer of [`CaptureScreenshot`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CaptureScreenshotResult {
    /// Base64-encoded image data. (Encoded as a base64 string when passed over JSON)
    pub data: String,
}

/// `Page.close`: Tries to close page, running its beforeunload hooks, if any.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Close {}

impl crate::protocol::Command for Close {
    const METHOD: &'static str = "Page.close";
    type Response = crate::protocol::Empty;
}

/// `Page.crash`: Crashes renderer on the IO thread, generates minidumps.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Crash {}

impl crate::protocol::Command for Crash {
    const METHOD: &'static str = "Page.crash";
    type Response = crate::protocol::Empty;
}

/// `Page.createIsolatedWorld`: Creates an isolated world for the given frame.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateIsolatedWorld {
    /// Id of the frame in which the isolated world should be created.
    pub frame_id: super::FrameId,
    /// An optional name which is reported in the Execution Context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub world_name: Option<String>,
    /// Whether or not universal access should be granted to the isolated world. This is a
    /// powerful option, use with caution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grant_univeral_access: Option<bool>,
    /// An optional content security policy to set for the isolated world. If omitted, any
    /// existing CSP for the world will be cleared. Note that clearing or updating the CSP does
    /// not immediately affect the active context in the same document because LocalDOMWindow
    /// caches the ContentSecurityPolicy object. The change takes effect on subsequent
    /// navigations when a new window context is created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_security_policy: Option<String>,
}

impl crate::protocol::Command for CreateIsolatedWorld {
    const METHOD: &'static str = "Page.createIsolatedWorld";
    type Response = CreateIsolatedWorldResult;
}

/// The answer of [`CreateIsolatedWorld`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CreateIsolatedWorldResult {
    /// Execution context of the isolated world.
    pub execution_context_id: crate::protocol::runtime::ExecutionContextId,
}

/// `Page.enable`: Enables page domain notifications.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enable {
    /// If true, the `Page.fileChooserOpened` event will be emitted regardless of the state set
    /// by `Page.setInterceptFileChooserDialog` command (default: false).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable_file_chooser_opened_event: Option<bool>,
}

impl crate::protocol::Command for Enable {
    const METHOD: &'static str = "Page.enable";
    type Response = crate::protocol::Empty;
}

/// `Page.getFrameTree`: Returns present frame tree structure.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetFrameTree {}

impl crate::protocol::Command for GetFrameTree {
    const METHOD: &'static str = "Page.getFrameTree";
    type Response = GetFrameTreeResult;
}

/// The answer of [`GetFrameTree`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetFrameTreeResult {
    /// Present frame tree structure.
    pub frame_tree: super::FrameTree,
}

/// `Page.getLayoutMetrics`: Returns metrics relating to the layouting of the page, such as
/// viewport bounds/scale.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetLayoutMetrics {}

impl crate::protocol::Command for GetLayoutMetrics {
    const METHOD: &'static str = "Page.getLayoutMetrics";
    type Response = GetLayoutMetricsResult;
}

/// The answer of [`GetLayoutMetrics`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetLayoutMetricsResult {
    /// Deprecated metrics relating to the layout viewport. Is in device pixels. Use
    /// `cssLayoutViewport` instead.
    ///
    /// Deprecated.
    pub layout_viewport: super::LayoutViewport,
    /// Deprecated metrics relating to the visual viewport. Is in device pixels. Use
    /// `cssVisualViewport` instead.
    ///
    /// Deprecated.
    pub visual_viewport: super::VisualViewport,
    /// Deprecated size of scrollable area. Is in DP. Use `cssContentSize` instead.
    ///
    /// Deprecated.
    pub content_size: crate::protocol::dom::Rect,
    /// Metrics relating to the layout viewport in CSS pixels.
    pub css_layout_viewport: super::LayoutViewport,
    /// Metrics relating to the visual viewport in CSS pixels.
    pub css_visual_viewport: super::VisualViewport,
    /// Size of scrollable area in CSS pixels.
    pub css_content_size: crate::protocol::dom::Rect,
}

/// `Page.getNavigationHistory`: Returns navigation history for the current page.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetNavigationHistory {}

impl crate::protocol::Command for GetNavigationHistory {
    const METHOD: &'static str = "Page.getNavigationHistory";
    type Response = GetNavigationHistoryResult;
}

/// The answer of [`GetNavigationHistory`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetNavigationHistoryResult {
    /// Index of the current navigation history entry.
    pub current_index: i64,
    /// Array of navigation history entries.
    pub entries: Vec<super::NavigationEntry>,
}

/// `Page.handleJavaScriptDialog`: Accepts or dismisses a JavaScript initiated dialog (alert,
/// confirm, prompt, or onbeforeunload).
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandleJavaScriptDialog {
    /// Whether to accept or dismiss the dialog.
    pub accept: bool,
    /// The text to enter into the dialog prompt before accepting. Used only if this is a prompt
    /// dialog.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_text: Option<String>,
}

impl crate::protocol::Command for HandleJavaScriptDialog {
    const METHOD: &'static str = "Page.handleJavaScriptDialog";
    type Response = crate::protocol::Empty;
}

/// `Page.navigate`: Navigates current page to the given URL.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Navigate {
    /// URL to navigate the page to.
    pub url: String,
    /// Referrer URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referrer: Option<String>,
    /// Intended transition type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transition_type: Option<serde_json::Value>,
    /// Frame id to navigate, if not specified navigates the top frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<super::FrameId>,
    /// Referrer-policy used for the navigation.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referrer_policy: Option<serde_json::Value>,
}

impl crate::protocol::Command for Navigate {
    const METHOD: &'static str = "Page.navigate";
    type Response = NavigateResult;
}

/// The answer of [`Navigate`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NavigateResult {
    /// Frame id that has navigated (or failed to navigate)
    pub frame_id: super::FrameId,
    /// Loader identifier. This is omitted in case of same-document navigation, as the
    /// previously committed loaderId would not change.
    pub loader_id: Option<crate::protocol::network::LoaderId>,
    /// User friendly error message, present if and only if navigation has failed.
    pub error_text: Option<String>,
    /// Whether the navigation resulted in a download.
    ///
    /// Experimental.
    pub is_download: Option<bool>,
}

/// `Page.navigateToHistoryEntry`: Navigates current page to the given history entry.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NavigateToHistoryEntry {
    /// Unique id of the entry to navigate to.
    pub entry_id: i64,
}

impl crate::protocol::Command for NavigateToHistoryEntry {
    const METHOD: &'static str = "Page.navigateToHistoryEntry";
    type Response = crate::protocol::Empty;
}

/// `Page.printToPDF`: Print page as PDF.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PrintToPDF {
    /// Paper orientation. Defaults to false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub landscape: Option<bool>,
    /// Display header and footer. Defaults to false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_header_footer: Option<bool>,
    /// Print background graphics. Defaults to false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub print_background: Option<bool>,
    /// Scale of the webpage rendering. Defaults to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<f64>,
    /// Paper width in inches. Defaults to 8.5 inches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paper_width: Option<f64>,
    /// Paper height in inches. Defaults to 11 inches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paper_height: Option<f64>,
    /// Top margin in inches. Defaults to 1cm (~0.4 inches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_top: Option<f64>,
    /// Bottom margin in inches. Defaults to 1cm (~0.4 inches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_bottom: Option<f64>,
    /// Left margin in inches. Defaults to 1cm (~0.4 inches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_left: Option<f64>,
    /// Right margin in inches. Defaults to 1cm (~0.4 inches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_right: Option<f64>,
    /// Paper ranges to print, one based, e.g., '1-5, 8, 11-13'. Pages are printed in the
    /// document order, not in the order specified, and no more than once. Defaults to empty
    /// string, which implies the entire document is printed. The page numbers are quietly
    /// capped to actual page count of the document, and ranges beyond the end of the document
    /// are ignored. If this results in no pages to print, an error is reported. It is an error
    /// to specify a range with start greater than end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_ranges: Option<String>,
    /// HTML template for the print header. Should be valid HTML markup with following classes
    /// used to inject printing values into them: - `date`: formatted print date - `title`:
    /// document title - `url`: document location - `pageNumber`: current page number -
    /// `totalPages`: total pages in the document
    ///
    /// For example, `<span class=title></span>` would generate span containing the title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header_template: Option<String>,
    /// HTML template for the print footer. Should use the same format as the `headerTemplate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub footer_template: Option<String>,
    /// Whether or not to prefer page size as defined by css. Defaults to false, in which case
    /// the content will be scaled to fit the paper size.
    #[serde(rename = "preferCSSPageSize", skip_serializing_if = "Option::is_none")]
    pub prefer_css_page_size: Option<bool>,
    /// return as stream
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transfer_mode: Option<super::PrintToPDFTransferMode>,
    /// Whether or not to generate tagged (accessible) PDF. Defaults to embedder choice.
    ///
    /// Experimental.
    #[serde(rename = "generateTaggedPDF", skip_serializing_if = "Option::is_none")]
    pub generate_tagged_pdf: Option<bool>,
    /// Whether or not to embed the document outline into the PDF.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generate_document_outline: Option<bool>,
}

impl crate::protocol::Command for PrintToPDF {
    const METHOD: &'static str = "Page.printToPDF";
    type Response = PrintToPDFResult;
}

/// The answer of [`PrintToPDF`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PrintToPDFResult {
    /// Base64-encoded pdf data. Empty if |returnAsStream| is specified. (Encoded as a base64
    /// string when passed over JSON)
    pub data: String,
    /// A handle of the stream that holds resulting PDF data.
    ///
    /// Experimental.
    pub stream: Option<crate::protocol::io::StreamHandle>,
}

/// `Page.reload`: Reloads given page optionally ignoring the cache.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reload {
    /// If true, browser cache is ignored (as if the user pressed Shift+refresh).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_cache: Option<bool>,
    /// If set, the script will be injected into all frames of the inspected page after reload.
    /// Argument will be ignored if reloading dataURL origin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script_to_evaluate_on_load: Option<String>,
    /// If set, an error will be thrown if the target page's main frame's loader id does not
    /// match the provided id. This prevents accidentally reloading an unintended target in case
    /// there's a racing navigation.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loader_id: Option<crate::protocol::network::LoaderId>,
}

impl crate::protocol::Command for Reload {
    const METHOD: &'static str = "Page.reload";
    type Response = crate::protocol::Empty;
}

/// `Page.screencastFrameAck`: Acknowledges that a screencast frame has been received by the
/// frontend.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScreencastFrameAck {
    /// Frame number.
    pub session_id: i64,
}

impl crate::protocol::Command for ScreencastFrameAck {
    const METHOD: &'static str = "Page.screencastFrameAck";
    type Response = crate::protocol::Empty;
}

/// `Page.setInterceptFileChooserDialog`: Intercept file chooser requests and transfer control
/// to protocol clients. When file chooser interception is enabled, native file chooser dialog
/// is not shown. Instead, a protocol event `Page.fileChooserOpened` is emitted.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetInterceptFileChooserDialog {
    /// enabled
    pub enabled: bool,
    /// If true, cancels the dialog by emitting relevant events (if any) in addition to not
    /// showing it if the interception is enabled (default: false).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancel: Option<bool>,
}

impl crate::protocol::Command for SetInterceptFileChooserDialog {
    const METHOD: &'static str = "Page.setInterceptFileChooserDialog";
    type Response = crate::protocol::Empty;
}

/// `Page.startScreencast`: Starts sending each frame using the `screencastFrame` event.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StartScreencast {
    /// Image compression format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<super::StartScreencastFormat>,
    /// Compression quality from range [0..100].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<i64>,
    /// Maximum screenshot width.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_width: Option<i64>,
    /// Maximum screenshot height.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_height: Option<i64>,
    /// Send every n-th frame. Must be a positive integer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub every_nth_frame: Option<i64>,
    /// Maximum number of frames sent until screencastFrameAck is required. Defaults to 3. Must
    /// be a positive integer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_frames_in_flight: Option<i64>,
    /// By default, after screencastFrameAck arrives, the next produced frame is sent. Passing
    /// this flag enables storing the last produced frame in memory, which is immediately sent
    /// upon screencastFrameAck. This way, overall performance is traded for a better latency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub send_last_frame: Option<bool>,
}

impl crate::protocol::Command for StartScreencast {
    const METHOD: &'static str = "Page.startScreencast";
    type Response = crate::protocol::Empty;
}

/// `Page.stopScreencast`: Stops sending each frame in the `screencastFrame`.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StopScreencast {}

impl crate::protocol::Command for StopScreencast {
    const METHOD: &'static str = "Page.stopScreencast";
    type Response = crate::protocol::Empty;
}
