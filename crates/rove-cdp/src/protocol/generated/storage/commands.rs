//! The commands of the `Storage` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Storage.clearCookies`: Clears cookies.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClearCookies {
    /// Browser context to use when called on the browser endpoint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_context_id: Option<crate::protocol::browser::BrowserContextID>,
}

impl crate::protocol::Command for ClearCookies {
    const METHOD: &'static str = "Storage.clearCookies";
    type Response = crate::protocol::Empty;
}

/// `Storage.getCookies`: Returns all browser cookies.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetCookies {
    /// Browser context to use when called on the browser endpoint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_context_id: Option<crate::protocol::browser::BrowserContextID>,
}

impl crate::protocol::Command for GetCookies {
    const METHOD: &'static str = "Storage.getCookies";
    type Response = GetCookiesResult;
}

/// The answer of [`GetCookies`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetCookiesResult {
    /// Array of cookie objects.
    pub cookies: Vec<serde_json::Value>,
}

/// `Storage.setCookies`: Sets given cookies.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetCookies {
    /// Cookies to be set.
    pub cookies: Vec<serde_json::Value>,
    /// Browser context to use when called on the browser endpoint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_context_id: Option<crate::protocol::browser::BrowserContextID>,
}

impl crate::protocol::Command for SetCookies {
    const METHOD: &'static str = "Storage.setCookies";
    type Response = crate::protocol::Empty;
}
