//! The types of the `Accessibility` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Unique accessibility node identifier.
pub type AXNodeId = String;

/// A node in the accessibility tree.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AXNode {
    /// Unique identifier for this node.
    pub node_id: super::AXNodeId,
    /// Whether this node is ignored for accessibility
    pub ignored: bool,
    /// Collection of reasons why this node is hidden.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored_reasons: Option<Vec<serde_json::Value>>,
    /// This `Node`'s role, whether explicit or implicit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<super::AXValue>,
    /// This `Node`'s Chrome raw role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chrome_role: Option<super::AXValue>,
    /// The accessible name for this `Node`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<super::AXValue>,
    /// The accessible description for this `Node`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<super::AXValue>,
    /// The value for this `Node`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<super::AXValue>,
    /// All other properties
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<Vec<serde_json::Value>>,
    /// ID for this node's parent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<super::AXNodeId>,
    /// IDs for each of this node's child nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_ids: Option<Vec<super::AXNodeId>>,
    /// The backend ID for the associated DOM node, if any.
    #[serde(rename = "backendDOMNodeId", skip_serializing_if = "Option::is_none")]
    pub backend_dom_node_id: Option<crate::protocol::dom::BackendNodeId>,
    /// The frame ID for the frame associated with this nodes document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<crate::protocol::page::FrameId>,
}

/// A single computed AX property.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AXValue {
    /// The type of this value.
    #[serde(rename = "type")]
    pub kind: serde_json::Value,
    /// The computed value of this property.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub value: Option<serde_json::Value>,
    /// One or more related nodes, if applicable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub related_nodes: Option<Vec<serde_json::Value>>,
    /// The sources which contributed to the computation of this property.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<serde_json::Value>>,
}
