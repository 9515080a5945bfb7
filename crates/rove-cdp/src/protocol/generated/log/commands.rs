//! The commands of the `Log` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Log.enable`: Enables log domain, sends the entries collected so far to the client by means
/// of the `entryAdded` notification.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enable {}

impl crate::protocol::Command for Enable {
    const METHOD: &'static str = "Log.enable";
    type Response = crate::protocol::Empty;
}
