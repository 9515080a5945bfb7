//! The types of the `DOMDebugger` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Object event listener.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EventListener {
    /// `EventListener`'s type.
    #[serde(rename = "type")]
    pub kind: String,
    /// `EventListener`'s useCapture.
    pub use_capture: bool,
    /// `EventListener`'s passive flag.
    pub passive: bool,
    /// `EventListener`'s once flag.
    pub once: bool,
    /// Script id of the handler code.
    pub script_id: crate::protocol::runtime::ScriptId,
    /// Line number in the script (0-based).
    pub line_number: i64,
    /// Column number in the script (0-based).
    pub column_number: i64,
    /// Event handler function value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handler: Option<crate::protocol::runtime::RemoteObject>,
    /// Event original handler function value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_handler: Option<crate::protocol::runtime::RemoteObject>,
    /// Node the listener is added to (if any).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<crate::protocol::dom::BackendNodeId>,
}
