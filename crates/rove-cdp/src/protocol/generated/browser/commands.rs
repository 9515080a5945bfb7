//! The commands of the `Browser` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Browser.close`: Close browser gracefully.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Close {}

impl crate::protocol::Command for Close {
    const METHOD: &'static str = "Browser.close";
    type Response = crate::protocol::Empty;
}

/// `Browser.getVersion`: Returns version information.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetVersion {}

impl crate::protocol::Command for GetVersion {
    const METHOD: &'static str = "Browser.getVersion";
    type Response = GetVersionResult;
}

/// The answer of [`GetVersion`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetVersionResult {
    /// Protocol version.
    pub protocol_version: String,
    /// Product name.
    pub product: String,
    /// Product revision.
    pub revision: String,
    /// User-Agent.
    pub user_agent: String,
    /// V8 version.
    pub js_version: String,
}

/// `Browser.grantPermissions`: Grant specific permissions to the given origin and reject all
/// others. Deprecated. Use setPermission instead.
///
/// Deprecated.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrantPermissions {
    /// permissions
    pub permissions: Vec<super::PermissionType>,
    /// Origin the permission applies to, all origins if not specified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// BrowserContext to override permissions. When omitted, default browser context is used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_context_id: Option<super::BrowserContextID>,
}

impl crate::protocol::Command for GrantPermissions {
    const METHOD: &'static str = "Browser.grantPermissions";
    type Response = crate::protocol::Empty;
}

/// `Browser.setDownloadBehavior`: Set the behavior when downloading a file.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDownloadBehavior {
    /// Whether to allow all or deny all download requests, or use default Chrome behavior if
    /// available (otherwise deny). |allowAndName| allows download and names files according to
    /// their download guids.
    pub behavior: super::SetDownloadBehaviorBehavior,
    /// BrowserContext to set download behavior. When omitted, default browser context is used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_context_id: Option<super::BrowserContextID>,
    /// The default path to save downloaded files to. This is required if behavior is set to
    /// 'allow' or 'allowAndName'.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub download_path: Option<String>,
    /// Whether to emit download events (defaults to false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events_enabled: Option<bool>,
}

impl crate::protocol::Command for SetDownloadBehavior {
    const METHOD: &'static str = "Browser.setDownloadBehavior";
    type Response = crate::protocol::Empty;
}
