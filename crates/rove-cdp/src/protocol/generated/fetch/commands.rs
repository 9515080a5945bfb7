//! The commands of the `Fetch` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Fetch.continueRequest`: Continues the request, optionally modifying some of its parameters.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContinueRequest {
    /// An id the client received in requestPaused event.
    pub request_id: super::RequestId,
    /// If set, the request url will be modified in a way that's not observable by page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// If set, the request method is overridden.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// If set, overrides the post data in the request. (Encoded as a base64 string when passed
    /// over JSON)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post_data: Option<String>,
    /// If set, overrides the request headers. Note that the overrides do not extend to
    /// subsequent redirect hops, if a redirect happens. Another override may be applied to a
    /// different request produced by a redirect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers: Option<Vec<super::HeaderEntry>>,
    /// If set, overrides response interception behavior for this request.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intercept_response: Option<bool>,
}

impl crate::protocol::Command for ContinueRequest {
    const METHOD: &'static str = "Fetch.continueRequest";
    type Response = crate::protocol::Empty;
}

/// `Fetch.disable`: Disables the fetch domain.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Disable {}

impl crate::protocol::Command for Disable {
    const METHOD: &'static str = "Fetch.disable";
    type Response = crate::protocol::Empty;
}

/// `Fetch.enable`: Enables issuing of requestPaused events. A request will be paused until
/// client calls one of failRequest, fulfillRequest or continueRequest/continueWithAuth.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enable {
    /// If specified, only requests matching any of these patterns will produce fetchRequested
    /// event and will be paused until clients response. If not set, all requests will be
    /// affected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patterns: Option<Vec<super::RequestPattern>>,
    /// If true, authRequired events will be issued and requests will be paused expecting a call
    /// to continueWithAuth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handle_auth_requests: Option<bool>,
}

impl crate::protocol::Command for Enable {
    const METHOD: &'static str = "Fetch.enable";
    type Response = crate::protocol::Empty;
}

/// `Fetch.failRequest`: Causes the request to fail with specified reason.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FailRequest {
    /// An id the client received in requestPaused event.
    pub request_id: super::RequestId,
    /// Causes the request to fail with the given reason.
    pub error_reason: crate::protocol::network::ErrorReason,
}

impl crate::protocol::Command for FailRequest {
    const METHOD: &'static str = "Fetch.failRequest";
    type Response = crate::protocol::Empty;
}

/// `Fetch.fulfillRequest`: Provides response to the request.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FulfillRequest {
    /// An id the client received in requestPaused event.
    pub request_id: super::RequestId,
    /// An HTTP response code.
    pub response_code: i64,
    /// Response headers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_headers: Option<Vec<super::HeaderEntry>>,
    /// Alternative way of specifying response headers as a \0-separated series of name: value
    /// pairs. Prefer the above method unless you need to represent some non-UTF8 values that
    /// can't be transmitted over the protocol as text. (Encoded as a base64 string when passed
    /// over JSON)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary_response_headers: Option<String>,
    /// A response body. If absent, original response body will be used if the request is
    /// intercepted at the response stage and empty body will be used if the request is
    /// intercepted at the request stage. (Encoded as a base64 string when passed over JSON)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// A textual representation of responseCode. If absent, a standard phrase matching
    /// responseCode is used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_phrase: Option<String>,
}

impl crate::protocol::Command for FulfillRequest {
    const METHOD: &'static str = "Fetch.fulfillRequest";
    type Response = crate::protocol::Empty;
}
