//! The types of the `Network` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Request / response headers as keys / values of JSON object.
pub type Headers = serde_json::Value;

/// Unique loader identifier.
pub type LoaderId = String;

/// Monotonically increasing time in seconds since an arbitrary point in the past.
pub type MonotonicTime = f64;

/// Unique network request identifier. Note that this does not identify individual HTTP requests
/// that are part of a network request.
pub type RequestId = String;

/// UTC time in seconds, counted from January 1, 1970.
pub type TimeSinceEpoch = f64;

/// Network level fetch failure reason.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum ErrorReason {
    /// `Failed`.
    #[serde(rename = "Failed")]
    Failed,
    /// `Aborted`.
    #[serde(rename = "Aborted")]
    Aborted,
    /// `TimedOut`.
    #[serde(rename = "TimedOut")]
    TimedOut,
    /// `AccessDenied`.
    #[serde(rename = "AccessDenied")]
    AccessDenied,
    /// `ConnectionClosed`.
    #[serde(rename = "ConnectionClosed")]
    ConnectionClosed,
    /// `ConnectionReset`.
    #[serde(rename = "ConnectionReset")]
    ConnectionReset,
    /// `ConnectionRefused`.
    #[serde(rename = "ConnectionRefused")]
    ConnectionRefused,
    /// `ConnectionAborted`.
    #[serde(rename = "ConnectionAborted")]
    ConnectionAborted,
    /// `ConnectionFailed`.
    #[serde(rename = "ConnectionFailed")]
    ConnectionFailed,
    /// `NameNotResolved`.
    #[serde(rename = "NameNotResolved")]
    NameNotResolved,
    /// `InternetDisconnected`.
    #[serde(rename = "InternetDisconnected")]
    InternetDisconnected,
    /// `AddressUnreachable`.
    #[serde(rename = "AddressUnreachable")]
    AddressUnreachable,
    /// `BlockedByClient`.
    #[serde(rename = "BlockedByClient")]
    BlockedByClient,
    /// `BlockedByResponse`.
    #[serde(rename = "BlockedByResponse")]
    BlockedByResponse,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl ErrorReason {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Failed => "Failed",
            Self::Aborted => "Aborted",
            Self::TimedOut => "TimedOut",
            Self::AccessDenied => "AccessDenied",
            Self::ConnectionClosed => "ConnectionClosed",
            Self::ConnectionReset => "ConnectionReset",
            Self::ConnectionRefused => "ConnectionRefused",
            Self::ConnectionAborted => "ConnectionAborted",
            Self::ConnectionFailed => "ConnectionFailed",
            Self::NameNotResolved => "NameNotResolved",
            Self::InternetDisconnected => "InternetDisconnected",
            Self::AddressUnreachable => "AddressUnreachable",
            Self::BlockedByClient => "BlockedByClient",
            Self::BlockedByResponse => "BlockedByResponse",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `referrerPolicy` in `Request`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum RequestReferrerPolicy {
    /// `unsafe-url`.
    #[serde(rename = "unsafe-url")]
    UnsafeUrl,
    /// `no-referrer-when-downgrade`.
    #[serde(rename = "no-referrer-when-downgrade")]
    NoReferrerWhenDowngrade,
    /// `no-referrer`.
    #[serde(rename = "no-referrer")]
    NoReferrer,
    /// `origin`.
    #[serde(rename = "origin")]
    Origin,
    /// `origin-when-cross-origin`.
    #[serde(rename = "origin-when-cross-origin")]
    OriginWhenCrossOrigin,
    /// `same-origin`.
    #[serde(rename = "same-origin")]
    SameOrigin,
    /// `strict-origin`.
    #[serde(rename = "strict-origin")]
    StrictOrigin,
    /// `strict-origin-when-cross-origin`.
    #[serde(rename = "strict-origin-when-cross-origin")]
    StrictOriginWhenCrossOrigin,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl RequestReferrerPolicy {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UnsafeUrl => "unsafe-url",
            Self::NoReferrerWhenDowngrade => "no-referrer-when-downgrade",
            Self::NoReferrer => "no-referrer",
            Self::Origin => "origin",
            Self::OriginWhenCrossOrigin => "origin-when-cross-origin",
            Self::SameOrigin => "same-origin",
            Self::StrictOrigin => "strict-origin",
            Self::StrictOriginWhenCrossOrigin => "strict-origin-when-cross-origin",
            Self::Unrecognized => "",
        }
    }
}

/// Resource type as it was perceived by the rendering engine.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum ResourceType {
    /// `Document`.
    #[serde(rename = "Document")]
    Document,
    /// `Stylesheet`.
    #[serde(rename = "Stylesheet")]
    Stylesheet,
    /// `Image`.
    #[serde(rename = "Image")]
    Image,
    /// `Media`.
    #[serde(rename = "Media")]
    Media,
    /// `Font`.
    #[serde(rename = "Font")]
    Font,
    /// `Script`.
    #[serde(rename = "Script")]
    Script,
    /// `TextTrack`.
    #[serde(rename = "TextTrack")]
    TextTrack,
    /// `XHR`.
    #[serde(rename = "XHR")]
    Xhr,
    /// `Fetch`.
    #[serde(rename = "Fetch")]
    Fetch,
    /// `Prefetch`.
    #[serde(rename = "Prefetch")]
    Prefetch,
    /// `EventSource`.
    #[serde(rename = "EventSource")]
    EventSource,
    /// `WebSocket`.
    #[serde(rename = "WebSocket")]
    WebSocket,
    /// `Manifest`.
    #[serde(rename = "Manifest")]
    Manifest,
    /// `SignedExchange`.
    #[serde(rename = "SignedExchange")]
    SignedExchange,
    /// `Ping`.
    #[serde(rename = "Ping")]
    Ping,
    /// `CSPViolationReport`.
    #[serde(rename = "CSPViolationReport")]
    CSPViolationReport,
    /// `Preflight`.
    #[serde(rename = "Preflight")]
    Preflight,
    /// `FedCM`.
    #[serde(rename = "FedCM")]
    FedCM,
    /// `Other`.
    #[serde(rename = "Other")]
    Other,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl ResourceType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Document => "Document",
            Self::Stylesheet => "Stylesheet",
            Self::Image => "Image",
            Self::Media => "Media",
            Self::Font => "Font",
            Self::Script => "Script",
            Self::TextTrack => "TextTrack",
            Self::Xhr => "XHR",
            Self::Fetch => "Fetch",
            Self::Prefetch => "Prefetch",
            Self::EventSource => "EventSource",
            Self::WebSocket => "WebSocket",
            Self::Manifest => "Manifest",
            Self::SignedExchange => "SignedExchange",
            Self::Ping => "Ping",
            Self::CSPViolationReport => "CSPViolationReport",
            Self::Preflight => "Preflight",
            Self::FedCM => "FedCM",
            Self::Other => "Other",
            Self::Unrecognized => "",
        }
    }
}

/// HTTP request data.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Request {
    /// Request URL (without fragment).
    pub url: String,
    /// Fragment of the requested URL starting with hash, if present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url_fragment: Option<String>,
    /// HTTP request method.
    pub method: String,
    /// HTTP request headers.
    pub headers: super::Headers,
    /// HTTP POST request data. Use postDataEntries instead.
    ///
    /// Deprecated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post_data: Option<String>,
    /// True when the request has POST data. Note that postData might still be omitted when this
    /// flag is true when the data is too long.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_post_data: Option<bool>,
    /// Request body elements (post data broken into individual entries).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post_data_entries: Option<Vec<serde_json::Value>>,
    /// The mixed content type of the request.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub mixed_content_type: Option<serde_json::Value>,
    /// Priority of the resource request at the time request is sent.
    pub initial_priority: serde_json::Value,
    /// The referrer policy of the request, as defined in https://www.w3.org/TR/referrer-policy/
    pub referrer_policy: super::RequestReferrerPolicy,
    /// Whether is loaded via link preload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_link_preload: Option<bool>,
    /// Set for requests when the TrustToken API is used. Contains the parameters passed by the
    /// developer (e.g. via "fetch") as understood by the backend.
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub trust_token_params: Option<serde_json::Value>,
    /// True if this resource request is considered to be the 'same site' as the request
    /// corresponding to the main frame.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_same_site: Option<bool>,
    /// True when the resource request is ad-related.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_ad_related: Option<bool>,
}

/// HTTP response data.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Response {
    /// Response URL. This URL can be different from CachedResource.url in case of redirect.
    pub url: String,
    /// HTTP response status code.
    pub status: i64,
    /// HTTP response status text.
    pub status_text: String,
    /// HTTP response headers.
    pub headers: super::Headers,
    /// HTTP response headers text. This has been replaced by the headers in
    /// Network.responseReceivedExtraInfo.
    ///
    /// Deprecated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers_text: Option<String>,
    /// Resource mimeType as determined by the browser.
    pub mime_type: String,
    /// Resource charset as determined by the browser (if applicable).
    pub charset: String,
    /// Refined HTTP request headers that were actually transmitted over the network.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_headers: Option<super::Headers>,
    /// HTTP request headers text. This has been replaced by the headers in
    /// Network.requestWillBeSentExtraInfo.
    ///
    /// Deprecated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_headers_text: Option<String>,
    /// Specifies whether physical connection was actually reused for this request.
    pub connection_reused: bool,
    /// Physical connection id that was actually used for this request.
    pub connection_id: f64,
    /// Remote IP address.
    #[serde(rename = "remoteIPAddress", skip_serializing_if = "Option::is_none")]
    pub remote_ip_address: Option<String>,
    /// Remote port.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remote_port: Option<i64>,
    /// Specifies that the request was served from the disk cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_disk_cache: Option<bool>,
    /// Specifies that the request was served from the ServiceWorker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_service_worker: Option<bool>,
    /// Specifies that the request was served from the prefetch cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_prefetch_cache: Option<bool>,
    /// Specifies that the request was served from the prefetch cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_early_hints: Option<bool>,
    /// Information about how ServiceWorker Static Router API was used. If this field is set
    /// with `matchedSourceType` field, a matching rule is found. If this field is set without
    /// `matchedSource`, no matching rule is found. Otherwise, the API is not used.
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub service_worker_router_info: Option<serde_json::Value>,
    /// Total number of bytes received for this request so far.
    pub encoded_data_length: f64,
    /// Timing information for the given request.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub timing: Option<serde_json::Value>,
    /// Response source of response from ServiceWorker.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub service_worker_response_source: Option<serde_json::Value>,
    /// The time at which the returned response was generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_time: Option<super::TimeSinceEpoch>,
    /// Cache Storage Cache Name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_storage_cache_name: Option<String>,
    /// Protocol used to fetch this request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The reason why Chrome uses a specific transport protocol for HTTP semantics.
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub alternate_protocol_usage: Option<serde_json::Value>,
    /// Security state of the request resource.
    pub security_state: serde_json::Value,
    /// Security details for the request.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub security_details: Option<serde_json::Value>,
}
