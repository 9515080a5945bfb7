//! The commands of the `DOM` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `DOM.describeNode`: Describes node given its id, does not require domain to be enabled. Does
/// not start tracking any objects, can be used for automation.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DescribeNode {
    /// Identifier of the node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<super::NodeId>,
    /// Identifier of the backend node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<super::BackendNodeId>,
    /// JavaScript object id of the node wrapper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<crate::protocol::runtime::RemoteObjectId>,
    /// The maximum depth at which children should be retrieved, defaults to 1. Use -1 for the
    /// entire subtree or provide an integer larger than 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<i64>,
    /// Whether or not iframes and shadow roots should be traversed when returning the subtree
    /// (default is false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pierce: Option<bool>,
}

impl crate::protocol::Command for DescribeNode {
    const METHOD: &'static str = "DOM.describeNode";
    type Response = DescribeNodeResult;
}

/// The answer of [`DescribeNode`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DescribeNodeResult {
    /// Node description.
    pub node: super::Node,
}

/// `DOM.focus`: Focuses the given element.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Focus {
    /// Identifier of the node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<super::NodeId>,
    /// Identifier of the backend node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<super::BackendNodeId>,
    /// JavaScript object id of the node wrapper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<crate::protocol::runtime::RemoteObjectId>,
}

impl crate::protocol::Command for Focus {
    const METHOD: &'static str = "DOM.focus";
    type Response = crate::protocol::Empty;
}

/// `DOM.getBoxModel`: Returns boxes for the given node.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetBoxModel {
    /// Identifier of the node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<super::NodeId>,
    /// Identifier of the backend node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<super::BackendNodeId>,
    /// JavaScript object id of the node wrapper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<crate::protocol::runtime::RemoteObjectId>,
}

impl crate::protocol::Command for GetBoxModel {
    const METHOD: &'static str = "DOM.getBoxModel";
    type Response = GetBoxModelResult;
}

/// The answer of [`GetBoxModel`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetBoxModelResult {
    /// Box model for the node.
    pub model: super::BoxModel,
}

/// `DOM.getContentQuads`: Returns quads that describe node position on the page. This method
/// might return multiple quads for inline nodes.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetContentQuads {
    /// Identifier of the node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<super::NodeId>,
    /// Identifier of the backend node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<super::BackendNodeId>,
    /// JavaScript object id of the node wrapper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<crate::protocol::runtime::RemoteObjectId>,
}

impl crate::protocol::Command for GetContentQuads {
    const METHOD: &'static str = "DOM.getContentQuads";
    type Response = GetContentQuadsResult;
}

/// The answer of [`GetContentQuads`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetContentQuadsResult {
    /// Quads that describe node layout relative to viewport.
    pub quads: Vec<super::Quad>,
}

/// `DOM.getFrameOwner`: Returns iframe node that owns iframe with the given domain.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetFrameOwner {
    /// frameId
    pub frame_id: crate::protocol::page::FrameId,
}

impl crate::protocol::Command for GetFrameOwner {
    const METHOD: &'static str = "DOM.getFrameOwner";
    type Response = GetFrameOwnerResult;
}

/// The answer of [`GetFrameOwner`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetFrameOwnerResult {
    /// Resulting node.
    pub backend_node_id: super::BackendNodeId,
    /// Id of the node at given coordinates, only when enabled and requested document.
    pub node_id: Option<super::NodeId>,
}

/// `DOM.resolveNode`: Resolves the JavaScript node object for a given NodeId or BackendNodeId.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolveNode {
    /// Id of the node to resolve.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<super::NodeId>,
    /// Backend identifier of the node to resolve.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<super::BackendNodeId>,
    /// Symbolic group name that can be used to release multiple objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
    /// Execution context in which to resolve the node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_context_id: Option<crate::protocol::runtime::ExecutionContextId>,
}

impl crate::protocol::Command for ResolveNode {
    const METHOD: &'static str = "DOM.resolveNode";
    type Response = ResolveNodeResult;
}

/// The answer of [`ResolveNode`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResolveNodeResult {
    /// JavaScript object wrapper for given node.
    pub object: crate::protocol::runtime::RemoteObject,
}

/// `DOM.scrollIntoViewIfNeeded`: Scrolls the specified rect of the given node into view if not
/// already visible. Note: exactly one between nodeId, backendNodeId and objectId should be
/// passed to identify the node.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrollIntoViewIfNeeded {
    /// Identifier of the node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<super::NodeId>,
    /// Identifier of the backend node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<super::BackendNodeId>,
    /// JavaScript object id of the node wrapper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<crate::protocol::runtime::RemoteObjectId>,
    /// The rect to be scrolled into view, relative to the node's border box, in CSS pixels.
    /// When omitted, center of the node will be used, similar to Element.scrollIntoView.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rect: Option<super::Rect>,
}

impl crate::protocol::Command for ScrollIntoViewIfNeeded {
    const METHOD: &'static str = "DOM.scrollIntoViewIfNeeded";
    type Response = crate::protocol::Empty;
}

/// `DOM.setFileInputFiles`: Sets files for the given file input element.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetFileInputFiles {
    /// Array of file paths to set.
    pub files: Vec<String>,
    /// Identifier of the node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<super::NodeId>,
    /// Identifier of the backend node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<super::BackendNodeId>,
    /// JavaScript object id of the node wrapper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<crate::protocol::runtime::RemoteObjectId>,
}

impl crate::protocol::Command for SetFileInputFiles {
    const METHOD: &'static str = "DOM.setFileInputFiles";
    type Response = crate::protocol::Empty;
}
