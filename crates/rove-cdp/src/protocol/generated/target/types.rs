//! The types of the `Target` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Unique identifier of attached debugging session.
pub type SessionID = crate::SessionId;

/// The entries in TargetFilter are matched sequentially against targets and the first entry
/// that matches determines if the target is included or not, depending on the value of
/// `exclude` field in the entry. If filter is not specified, the one assumed is [{type:
/// "browser", exclude: true}, {type: "tab", exclude: true}, {}] (i.e. include everything but
/// `browser` and `tab`).
///
/// Experimental.
pub type TargetFilter = Vec<super::FilterEntry>;

/// TargetID
pub type TargetID = String;

/// A filter used by target query/discovery/auto-attach operations.
///
/// Experimental.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FilterEntry {
    /// If set, causes exclusion of matching targets from the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude: Option<bool>,
    /// If not present, matches any type.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// TargetInfo
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetInfo {
    /// targetId
    pub target_id: super::TargetID,
    /// List of types:
    /// https://source.chromium.org/chromium/chromium/src/+/main:content/browser/devtools/devtools_agent_host_impl.cc?ss=chromium&q=f:devtools%20-f:out%20%22::kTypeTab%5B%5D%22
    #[serde(rename = "type")]
    pub kind: String,
    /// title
    pub title: String,
    /// url
    pub url: String,
    /// Whether the target has an attached client.
    pub attached: bool,
    /// Id of the parent target, if any. For example, "iframe" target may have a "page" parent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<super::TargetID>,
    /// Opener target Id
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opener_id: Option<super::TargetID>,
    /// Whether the target has access to the originating window.
    ///
    /// Experimental.
    pub can_access_opener: bool,
    /// Frame id of originating window (is only set if target has an opener).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opener_frame_id: Option<crate::protocol::page::FrameId>,
    /// Id of the parent frame, present for "iframe" and "worker" targets. For nested workers,
    /// this is the "ancestor" frame that created the first worker in the nested chain.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_frame_id: Option<crate::protocol::page::FrameId>,
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_context_id: Option<crate::protocol::browser::BrowserContextID>,
    /// Provides additional details for specific target types. For example, for the type of
    /// "page", this may be set to "prerender".
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtype: Option<String>,
    /// Embedder-specific target metadata. This is only set for targets of type "tab".
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub embedder_data: Option<serde_json::Value>,
}
