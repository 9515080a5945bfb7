//! The events of the `Fetch` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Fetch.requestPaused`: Issued when the domain is enabled and the request URL matches the
/// specified filter. The request is paused until the client responds with one of
/// continueRequest, failRequest or fulfillRequest. The stage of the request can be determined
/// by presence of responseErrorReason and responseStatusCode -- the request is at the response
/// stage if either of these fields is present and in the request stage otherwise. Redirect
/// responses and subsequent requests are reported similarly to regular responses and requests.
/// Redirect responses may be distinguished by the value of `responseStatusCode` (which is one
/// of 301, 302, 303, 307, 308) along with presence of the `location` header. Requests resulting
/// from a redirect will have `redirectedRequestId` field set.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RequestPaused {
    /// Each request the page makes will have a unique id.
    pub request_id: super::RequestId,
    /// The details of the request.
    pub request: crate::protocol::network::Request,
    /// The id of the frame that initiated the request.
    pub frame_id: crate::protocol::page::FrameId,
    /// How the requested resource will be used.
    pub resource_type: crate::protocol::network::ResourceType,
    /// Response error if intercepted at response stage.
    pub response_error_reason: Option<crate::protocol::network::ErrorReason>,
    /// Response code if intercepted at response stage.
    pub response_status_code: Option<i64>,
    /// Response status text if intercepted at response stage.
    pub response_status_text: Option<String>,
    /// Response headers if intercepted at the response stage.
    pub response_headers: Option<Vec<super::HeaderEntry>>,
    /// If the intercepted request had a corresponding Network.requestWillBeSent event fired for
    /// it, then this networkId will be the same as the requestId present in the
    /// requestWillBeSent event.
    pub network_id: Option<crate::protocol::network::RequestId>,
    /// If the request is due to a redirect response from the server, the id of the request that
    /// has caused the redirect.
    ///
    /// Experimental.
    pub redirected_request_id: Option<super::RequestId>,
}

impl crate::protocol::EventType for RequestPaused {
    const METHOD: &'static str = "Fetch.requestPaused";
}
