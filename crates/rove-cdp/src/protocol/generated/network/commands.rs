//! The commands of the `Network` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Network.deleteCookies`: Deletes browser cookies with matching name and url or
/// domain/path/partitionKey pair.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeleteCookies {
    /// Name of the cookies to remove.
    pub name: String,
    /// If specified, deletes all the cookies with the given name where domain and path match
    /// provided URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// If specified, deletes only cookies with the exact domain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// If specified, deletes only cookies with the exact path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// If specified, deletes only cookies with the the given name and partitionKey where all
    /// partition key attributes match the cookie partition key attribute.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition_key: Option<serde_json::Value>,
}

impl crate::protocol::Command for DeleteCookies {
    const METHOD: &'static str = "Network.deleteCookies";
    type Response = crate::protocol::Empty;
}

/// `Network.emulateNetworkConditions`: Activates emulation of network conditions. This command
/// is deprecated in favor of the emulateNetworkConditionsByRule and overrideNetworkState
/// commands, which can be used together to the same effect.
///
/// Deprecated.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EmulateNetworkConditions {
    /// True to emulate internet disconnection.
    pub offline: bool,
    /// Minimum latency from request sent to response headers received (ms).
    pub latency: f64,
    /// Maximal aggregated download throughput (bytes/sec). -1 disables download throttling.
    pub download_throughput: f64,
    /// Maximal aggregated upload throughput (bytes/sec). -1 disables upload throttling.
    pub upload_throughput: f64,
    /// Connection type if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connection_type: Option<serde_json::Value>,
    /// WebRTC packet loss (percent, 0-100). 0 disables packet loss emulation, 100 drops all the
    /// packets.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet_loss: Option<f64>,
    /// WebRTC packet queue length (packet). 0 removes any queue length limitations.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet_queue_length: Option<i64>,
    /// WebRTC packetReordering feature.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet_reordering: Option<bool>,
}

impl crate::protocol::Command for EmulateNetworkConditions {
    const METHOD: &'static str = "Network.emulateNetworkConditions";
    type Response = crate::protocol::Empty;
}

/// `Network.enable`: Enables network tracking, network events will now be delivered to the
/// client.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enable {
    /// Buffer size in bytes to use when preserving network payloads (XHRs, etc). This is the
    /// maximum number of bytes that will be collected by this DevTools session.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_total_buffer_size: Option<i64>,
    /// Per-resource buffer size in bytes to use when preserving network payloads (XHRs, etc).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_resource_buffer_size: Option<i64>,
    /// Longest post body size (in bytes) that would be included in requestWillBeSent
    /// notification
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_post_data_size: Option<i64>,
    /// Whether DirectSocket chunk send/receive events should be reported.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_direct_socket_traffic: Option<bool>,
    /// Enable storing response bodies outside of renderer, so that these survive a
    /// cross-process navigation. Requires maxTotalBufferSize to be set. Currently defaults to
    /// false. This field is being deprecated in favor of the dedicated configureDurableMessages
    /// command, due to the possibility of deadlocks when awaiting Network.enable before issuing
    /// Runtime.runIfWaitingForDebugger.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable_durable_messages: Option<bool>,
}

impl crate::protocol::Command for Enable {
    const METHOD: &'static str = "Network.enable";
    type Response = crate::protocol::Empty;
}

/// `Network.getCookies`: Returns all browser cookies for the current URL. Depending on the
/// backend support, will return detailed cookie information in the `cookies` field.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetCookies {
    /// The list of URLs for which applicable cookies will be fetched. If not specified, it's
    /// assumed to be set to the list containing the URLs of the page and all of its subframes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub urls: Option<Vec<String>>,
}

impl crate::protocol::Command for GetCookies {
    const METHOD: &'static str = "Network.getCookies";
    type Response = GetCookiesResult;
}

/// The answer of [`GetCookies`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetCookiesResult {
    /// Array of cookie objects.
    pub cookies: Vec<serde_json::Value>,
}

/// `Network.getRequestPostData`: Returns post data sent with the request. Returns an error when
/// no data was sent with the request.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetRequestPostData {
    /// Identifier of the network request to get content for.
    pub request_id: super::RequestId,
}

impl crate::protocol::Command for GetRequestPostData {
    const METHOD: &'static str = "Network.getRequestPostData";
    type Response = GetRequestPostDataResult;
}

/// The answer of [`GetRequestPostData`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetRequestPostDataResult {
    /// Request body string, omitting files from multipart requests
    pub post_data: String,
    /// True, if content was sent as base64.
    pub base64_encoded: bool,
}

/// `Network.getResponseBody`: Returns content served for the given request.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetResponseBody {
    /// Identifier of the network request to get content for.
    pub request_id: super::RequestId,
}

impl crate::protocol::Command for GetResponseBody {
    const METHOD: &'static str = "Network.getResponseBody";
    type Response = GetResponseBodyResult;
}

/// The answer of [`GetResponseBody`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetResponseBodyResult {
    /// Response body.
    pub body: String,
    /// True, if content was sent as base64.
    pub base64_encoded: bool,
}

/// `Network.setExtraHTTPHeaders`: Specifies whether to always send extra HTTP headers with the
/// requests from this page.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetExtraHTTPHeaders {
    /// Map with extra HTTP headers.
    pub headers: super::Headers,
}

impl crate::protocol::Command for SetExtraHTTPHeaders {
    const METHOD: &'static str = "Network.setExtraHTTPHeaders";
    type Response = crate::protocol::Empty;
}
