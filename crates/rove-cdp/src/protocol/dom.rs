//! The `DOM` domain: the node lookups and geometry rove's input and page
//! model use on every action.

use serde::{Deserialize, Serialize};

use super::runtime::RemoteObject;
use super::{Command, Empty};

/// `DOM.resolveNode`: a node as an object of an execution context.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolveNode {
    /// The node, by its backend id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<i64>,
    /// The context the object should belong to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_context_id: Option<i64>,
    /// The object group of the result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
}

impl Command for ResolveNode {
    const METHOD: &'static str = "DOM.resolveNode";
    type Response = ResolveNodeResult;
}

/// The answer of [`ResolveNode`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ResolveNodeResult {
    /// The node as an object.
    pub object: RemoteObject,
}

/// `DOM.describeNode` of an object, without its children.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DescribeNode {
    /// The node, as an object.
    pub object_id: String,
    /// How deep to describe children (0: none).
    pub depth: i32,
}

impl DescribeNode {
    /// The node `object_id` names, without children.
    pub fn of(object_id: impl Into<String>) -> Self {
        DescribeNode {
            object_id: object_id.into(),
            depth: 0,
        }
    }
}

impl Command for DescribeNode {
    const METHOD: &'static str = "DOM.describeNode";
    type Response = DescribeNodeResult;
}

/// The answer of [`DescribeNode`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct DescribeNodeResult {
    /// The node.
    pub node: Node,
}

/// A node as `DOM.describeNode` tells it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Node {
    /// Its backend id, stable for the node's life.
    pub backend_node_id: i64,
    /// For an iframe element: the frame it shows.
    pub frame_id: Option<String>,
    /// Its shadow roots.
    pub shadow_roots: Vec<ShadowRoot>,
}

/// A shadow root of a [`Node`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ShadowRoot {
    /// Its backend id.
    pub backend_node_id: i64,
    /// `open`, `closed` or `user-agent`.
    pub shadow_root_type: String,
}

/// `DOM.getContentQuads`: the boxes of an element, in viewport pixels of its
/// own frame.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetContentQuads {
    /// The element, as an object.
    pub object_id: String,
}

impl Command for GetContentQuads {
    const METHOD: &'static str = "DOM.getContentQuads";
    type Response = ContentQuads;
}

/// The answer of [`GetContentQuads`]: each quad is 8 numbers, x and y of its
/// four corners clockwise.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ContentQuads {
    /// The quads.
    pub quads: Vec<Vec<f64>>,
}

/// `DOM.scrollIntoViewIfNeeded`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrollIntoViewIfNeeded {
    /// The element, as an object.
    pub object_id: String,
}

impl Command for ScrollIntoViewIfNeeded {
    const METHOD: &'static str = "DOM.scrollIntoViewIfNeeded";
    type Response = Empty;
}

/// `DOM.focus`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Focus {
    /// The element, as an object.
    pub object_id: String,
}

impl Command for Focus {
    const METHOD: &'static str = "DOM.focus";
    type Response = Empty;
}

/// `DOM.getFrameOwner`: the iframe element that shows a frame.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetFrameOwner {
    /// The frame.
    pub frame_id: String,
}

impl Command for GetFrameOwner {
    const METHOD: &'static str = "DOM.getFrameOwner";
    type Response = FrameOwner;
}

/// The answer of [`GetFrameOwner`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FrameOwner {
    /// The iframe element's backend id.
    pub backend_node_id: Option<i64>,
}

/// `DOM.getBoxModel` of a node by backend id.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetBoxModel {
    /// The node.
    pub backend_node_id: i64,
}

impl Command for GetBoxModel {
    const METHOD: &'static str = "DOM.getBoxModel";
    type Response = BoxModelResult;
}

/// The answer of [`GetBoxModel`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct BoxModelResult {
    /// The box model.
    pub model: BoxModel,
}

/// A node's boxes, each a quad of 8 numbers.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct BoxModel {
    /// The content box.
    pub content: Vec<f64>,
}
