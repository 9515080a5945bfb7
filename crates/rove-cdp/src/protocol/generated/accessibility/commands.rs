//! The commands of the `Accessibility` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Accessibility.disable`: Disables the accessibility domain.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Disable {}

impl crate::protocol::Command for Disable {
    const METHOD: &'static str = "Accessibility.disable";
    type Response = crate::protocol::Empty;
}

/// `Accessibility.enable`: Enables the accessibility domain which causes `AXNodeId`s to remain
/// consistent between method calls. This turns on accessibility for the page, which can impact
/// performance until accessibility is disabled.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enable {}

impl crate::protocol::Command for Enable {
    const METHOD: &'static str = "Accessibility.enable";
    type Response = crate::protocol::Empty;
}

/// `Accessibility.getRootAXNode`: Fetches the root node. Requires `enable()` to have been
/// called previously.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetRootAXNode {
    /// The frame in whose document the node resides. If omitted, the root frame is used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<crate::protocol::page::FrameId>,
}

impl crate::protocol::Command for GetRootAXNode {
    const METHOD: &'static str = "Accessibility.getRootAXNode";
    type Response = GetRootAXNodeResult;
}

/// The answer of [`GetRootAXNode`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetRootAXNodeResult {
    /// node
    pub node: super::AXNode,
}
