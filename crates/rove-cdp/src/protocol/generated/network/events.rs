//! The events of the `Network` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Network.dataReceived`: Fired when data chunk was received over the network.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DataReceived {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
    /// Data chunk length.
    pub data_length: i64,
    /// Actual bytes received (might be less than dataLength for compressed encodings).
    pub encoded_data_length: i64,
    /// Data that was received. (Encoded as a base64 string when passed over JSON)
    ///
    /// Experimental.
    pub data: Option<String>,
}

impl crate::protocol::EventType for DataReceived {
    const METHOD: &'static str = "Network.dataReceived";
}

/// `Network.eventSourceMessageReceived`: Fired when EventSource message is received.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EventSourceMessageReceived {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
    /// Message type.
    pub event_name: String,
    /// Message identifier.
    pub event_id: String,
    /// Message content.
    pub data: String,
}

impl crate::protocol::EventType for EventSourceMessageReceived {
    const METHOD: &'static str = "Network.eventSourceMessageReceived";
}

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

/// `Network.requestServedFromCache`: Fired if request ended up loading from cache.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RequestServedFromCache {
    /// Request identifier.
    pub request_id: super::RequestId,
}

impl crate::protocol::EventType for RequestServedFromCache {
    const METHOD: &'static str = "Network.requestServedFromCache";
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

/// `Network.webSocketClosed`: Fired when WebSocket is closed.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WebSocketClosed {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
}

impl crate::protocol::EventType for WebSocketClosed {
    const METHOD: &'static str = "Network.webSocketClosed";
}

/// `Network.webSocketCreated`: Fired upon WebSocket creation.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WebSocketCreated {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// WebSocket request URL.
    pub url: String,
    /// Request initiator.
    #[serde(deserialize_with = "crate::protocol::null_is_a_value")]
    pub initiator: Option<serde_json::Value>,
}

impl crate::protocol::EventType for WebSocketCreated {
    const METHOD: &'static str = "Network.webSocketCreated";
}

/// `Network.webSocketFrameReceived`: Fired when WebSocket message is received.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WebSocketFrameReceived {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
    /// WebSocket response data.
    pub response: serde_json::Value,
}

impl crate::protocol::EventType for WebSocketFrameReceived {
    const METHOD: &'static str = "Network.webSocketFrameReceived";
}

/// `Network.webSocketFrameSent`: Fired when WebSocket message is sent.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WebSocketFrameSent {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
    /// WebSocket response data.
    pub response: serde_json::Value,
}

impl crate::protocol::EventType for WebSocketFrameSent {
    const METHOD: &'static str = "Network.webSocketFrameSent";
}

/// `Network.webSocketHandshakeResponseReceived`: Fired when WebSocket handshake response
/// becomes available.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WebSocketHandshakeResponseReceived {
    /// Request identifier.
    pub request_id: super::RequestId,
    /// Timestamp.
    pub timestamp: super::MonotonicTime,
    /// WebSocket response data.
    pub response: serde_json::Value,
}

impl crate::protocol::EventType for WebSocketHandshakeResponseReceived {
    const METHOD: &'static str = "Network.webSocketHandshakeResponseReceived";
}
