//! The types of the `Fetch` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Unique request identifier. Note that this does not identify individual HTTP requests that
/// are part of a network request.
pub type RequestId = String;

/// Stages of the request to handle. Request will intercept before the request is sent. Response
/// will intercept after the response is received (but before response body is received).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum RequestStage {
    /// `Request`.
    #[serde(rename = "Request")]
    Request,
    /// `Response`.
    #[serde(rename = "Response")]
    Response,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl RequestStage {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Request => "Request",
            Self::Response => "Response",
            Self::Unrecognized => "",
        }
    }
}

/// Response HTTP header entry
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct HeaderEntry {
    /// name
    pub name: String,
    /// value
    pub value: String,
}

/// RequestPattern
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RequestPattern {
    /// Wildcards (`'*'` -> zero or more, `'?'` -> exactly one) are allowed. Escape character is
    /// backslash. Omitting is equivalent to `"*"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url_pattern: Option<String>,
    /// If set, only requests for matching resource types will be intercepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_type: Option<crate::protocol::network::ResourceType>,
    /// Stage at which to begin intercepting requests. Default is Request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_stage: Option<super::RequestStage>,
}
