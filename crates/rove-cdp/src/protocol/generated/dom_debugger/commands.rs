//! The commands of the `DOMDebugger` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `DOMDebugger.getEventListeners`: Returns event listeners of the given object.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetEventListeners {
    /// Identifier of the object to return listeners for.
    pub object_id: crate::protocol::runtime::RemoteObjectId,
    /// The maximum depth at which Node children should be retrieved, defaults to 1. Use -1 for
    /// the entire subtree or provide an integer larger than 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<i64>,
    /// Whether or not iframes and shadow roots should be traversed when returning the subtree
    /// (default is false). Reports listeners for all contexts if pierce is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pierce: Option<bool>,
}

impl crate::protocol::Command for GetEventListeners {
    const METHOD: &'static str = "DOMDebugger.getEventListeners";
    type Response = GetEventListenersResult;
}

/// The answer of [`GetEventListeners`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetEventListenersResult {
    /// Array of relevant listeners.
    pub listeners: Vec<super::EventListener>,
}
