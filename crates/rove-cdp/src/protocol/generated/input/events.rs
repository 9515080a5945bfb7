//! The events of the `Input` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Input.dragIntercepted`: Emitted only when `Input.setInterceptDrags` is enabled. Use this
/// data with `Input.dispatchDragEvent` to restore normal drag and drop behavior.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DragIntercepted {
    /// data
    pub data: super::DragData,
}

impl crate::protocol::EventType for DragIntercepted {
    const METHOD: &'static str = "Input.dragIntercepted";
}
