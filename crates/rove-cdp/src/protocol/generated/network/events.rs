//! The events of the `Network` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Network.loadingFailed`: Fired when HTTP request has failed to load.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LoadingFailed {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
    /// Resource type.
    #[serde(rename = "type")]
    pub kind: super::ResourceType,
    /// Error message. List of network errors:
    /// https://cs.chromium.org/chromium/src/net/base/net_error_list.h
    pub error_text: String,
    /// True if loading was canceled.
    pub canceled: Option<bool>,
    /// The reason why loading was blocked, if any.
    #[serde(deserialize_with = "crate::protocol::null_is_a_value")]
    pub blocked_reason: Option<serde_json::Value>,
    /// The reason why loading was blocked by CORS, if any.
    #[serde(deserialize_with = "crate::protocol::null_is_a_value")]
    pub cors_error_status: Option<serde_json::Value>,
}

impl crate::protocol::EventType for LoadingFailed {
    const METHOD: &'static str = "Network.loadingFailed";
}

/// `Network.loadingFinished`: Fired when HTTP request has finished loading.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LoadingFinished {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
    /// Total number of bytes received for this request.
    pub encoded_data_length: f64,
}

impl crate::protocol::EventType for LoadingFinished {
    const METHOD: &'static str = "Network.loadingFinished";
}

/// `Network.requestWillBeSent`: Fired when page is about to send HTTP request.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RequestWillBeSent {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Loader identifier. Empty string if the request is fetched from worker.
    pub loader_id: super::LoaderId,
    /// URL of the document this request is loaded for.
    #[serde(rename = "documentURL")]
    pub document_url: String,
    /// Request data.
    pub request: super::Request,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
    /// Timestamp.
    pub wall_time: super::TimeSinceEpoch,
    /// Request initiator.
    pub initiator: serde_json::Value,
    /// In the case that redirectResponse is populated, this flag indicates whether
    /// requestWillBeSentExtraInfo and responseReceivedExtraInfo events will be or were emitted
    /// for the request which was just redirected.
    ///
    /// Experimental.
    pub redirect_has_extra_info: bool,
    /// Redirect response data.
    pub redirect_response: Option<super::Response>,
    /// Type of this resource.
    #[serde(rename = "type")]
    pub kind: Option<super::ResourceType>,
    /// Frame identifier.
    pub frame_id: Option<crate::protocol::page::FrameId>,
    /// Whether the request is initiated by a user gesture. Defaults to false.
    pub has_user_gesture: Option<bool>,
    /// The render-blocking behavior of the request.
    ///
    /// Experimental.
    #[serde(deserialize_with = "crate::protocol::null_is_a_value")]
    pub render_blocking_behavior: Option<serde_json::Value>,
}

impl crate::protocol::EventType for RequestWillBeSent {
    const METHOD: &'static str = "Network.requestWillBeSent";
}

/// `Network.responseReceived`: Fired when HTTP response is available.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResponseReceived {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Loader identifier. Empty string if the request is fetched from worker.
    pub loader_id: super::LoaderId,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
    /// Resource type.
    #[serde(rename = "type")]
    pub kind: super::ResourceType,
    /// Response data.
    pub response: super::Response,
    /// Indicates whether requestWillBeSentExtraInfo and responseReceivedExtraInfo events will
    /// be or were emitted for this request.
    ///
    /// Experimental.
    pub has_extra_info: bool,
    /// Frame identifier.
    pub frame_id: Option<crate::protocol::page::FrameId>,
}

impl crate::protocol::EventType for ResponseReceived {
    const METHOD: &'static str = "Network.responseReceived";
}
