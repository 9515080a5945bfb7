//! The types of the `DOM` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Unique DOM node identifier used to reference a node that may not have been pushed to the
/// front-end.
pub type BackendNodeId = i64;

/// Unique DOM node identifier.
pub type NodeId = i64;

/// An array of quad vertices, x immediately followed by y for each point, points clock-wise.
pub type Quad = Vec<f64>;

/// Unique identifier for a CSS stylesheet.
pub type StyleSheetId = String;

/// Shadow root type.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum ShadowRootType {
    /// `user-agent`.
    #[serde(rename = "user-agent")]
    UserAgent,
    /// `open`.
    #[serde(rename = "open")]
    Open,
    /// `closed`.
    #[serde(rename = "closed")]
    Closed,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl ShadowRootType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UserAgent => "user-agent",
            Self::Open => "open",
            Self::Closed => "closed",
            Self::Unrecognized => "",
        }
    }
}

/// Backend node with a friendly name.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BackendNode {
    /// `Node`'s nodeType.
    pub node_type: i64,
    /// `Node`'s nodeName.
    pub node_name: String,
    /// backendNodeId
    pub backend_node_id: super::BackendNodeId,
}

/// Box model.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BoxModel {
    /// Content box
    pub content: super::Quad,
    /// Padding box
    pub padding: super::Quad,
    /// Border box
    pub border: super::Quad,
    /// Margin box
    pub margin: super::Quad,
    /// Node width
    pub width: i64,
    /// Node height
    pub height: i64,
    /// Shape outside coordinates
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub shape_outside: Option<serde_json::Value>,
}

/// DOM interaction is implemented in terms of mirror objects that represent the actual DOM
/// nodes. DOMNode is a base node mirror type.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Node {
    /// Node identifier that is passed into the rest of the DOM messages as the `nodeId`.
    /// Backend will only push node with given `id` once. It is aware of all requested nodes and
    /// will only fire DOM events for nodes known to the client.
    pub node_id: super::NodeId,
    /// The id of the parent node if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<super::NodeId>,
    /// The BackendNodeId for this node.
    pub backend_node_id: super::BackendNodeId,
    /// `Node`'s nodeType.
    pub node_type: i64,
    /// `Node`'s nodeName.
    pub node_name: String,
    /// `Node`'s localName.
    pub local_name: String,
    /// `Node`'s nodeValue.
    pub node_value: String,
    /// Child count for `Container` nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_node_count: Option<i64>,
    /// Child nodes of this node when requested with children.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<super::Node>>,
    /// Attributes of the `Element` node in the form of flat array `[name1, value1, name2,
    /// value2]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributes: Option<Vec<String>>,
    /// Document URL that `Document` or `FrameOwner` node points to.
    #[serde(rename = "documentURL", skip_serializing_if = "Option::is_none")]
    pub document_url: Option<String>,
    /// Base URL that `Document` or `FrameOwner` node uses for URL completion.
    #[serde(rename = "baseURL", skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// `DocumentType`'s publicId.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_id: Option<String>,
    /// `DocumentType`'s systemId.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_id: Option<String>,
    /// `DocumentType`'s internalSubset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_subset: Option<String>,
    /// `Document`'s XML version in case of XML documents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xml_version: Option<String>,
    /// `Attr`'s name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `Attr`'s value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Pseudo element type for this node.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub pseudo_type: Option<serde_json::Value>,
    /// Pseudo element identifier for this node. Only present if there is a valid pseudoType.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pseudo_identifier: Option<String>,
    /// Shadow root type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shadow_root_type: Option<super::ShadowRootType>,
    /// Frame ID for frame owner elements.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<crate::protocol::page::FrameId>,
    /// Content document for frame owner elements.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_document: Option<Box<super::Node>>,
    /// Shadow root list for given element host.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shadow_roots: Option<Vec<super::Node>>,
    /// Content document fragment for template elements.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_content: Option<Box<super::Node>>,
    /// Pseudo elements associated with this node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pseudo_elements: Option<Vec<super::Node>>,
    /// Deprecated, as the HTML Imports API has been removed (crbug.com/937746). This property
    /// used to return the imported document for the HTMLImport links. The property is always
    /// undefined now.
    ///
    /// Deprecated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imported_document: Option<Box<super::Node>>,
    /// Distributed nodes for given insertion point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distributed_nodes: Option<Vec<super::BackendNode>>,
    /// Whether the node is SVG.
    #[serde(rename = "isSVG", skip_serializing_if = "Option::is_none")]
    pub is_svg: Option<bool>,
    /// compatibilityMode
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub compatibility_mode: Option<serde_json::Value>,
    /// assignedSlot
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_slot: Option<super::BackendNode>,
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_scrollable: Option<bool>,
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affected_by_starting_styles: Option<bool>,
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adopted_style_sheets: Option<Vec<super::StyleSheetId>>,
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub ad_provenance: Option<serde_json::Value>,
}

/// Rectangle.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Rect {
    /// X coordinate
    pub x: f64,
    /// Y coordinate
    pub y: f64,
    /// Rectangle width
    pub width: f64,
    /// Rectangle height
    pub height: f64,
}
