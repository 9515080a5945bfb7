//! The events of the `Browser` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Browser.downloadProgress`: Fired when download makes progress. Last call has |done| ==
/// true.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DownloadProgress {
    /// Global unique identifier of the download.
    pub guid: String,
    /// Total expected bytes to download.
    pub total_bytes: f64,
    /// Total bytes received.
    pub received_bytes: f64,
    /// Download status.
    pub state: super::DownloadProgressState,
    /// If download is "completed", provides the path of the downloaded file. Depending on the
    /// platform, it is not guaranteed to be set, nor the file is guaranteed to exist.
    ///
    /// Experimental.
    pub file_path: Option<String>,
}

impl crate::protocol::EventType for DownloadProgress {
    const METHOD: &'static str = "Browser.downloadProgress";
}

/// `Browser.downloadWillBegin`: Fired when page is about to start a download.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DownloadWillBegin {
    /// Id of the frame that caused the download to begin.
    pub frame_id: crate::protocol::page::FrameId,
    /// Global unique identifier of the download.
    pub guid: String,
    /// URL of the resource being downloaded.
    pub url: String,
    /// Suggested file name of the resource (the actual name of the file saved on disk may
    /// differ).
    pub suggested_filename: String,
}

impl crate::protocol::EventType for DownloadWillBegin {
    const METHOD: &'static str = "Browser.downloadWillBegin";
}
