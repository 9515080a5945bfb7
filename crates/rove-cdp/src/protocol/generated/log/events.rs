//! The events of the `Log` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Log.entryAdded`: Issued when new message was logged.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EntryAdded {
    /// The entry.
    pub entry: super::LogEntry,
}

impl crate::protocol::EventType for EntryAdded {
    const METHOD: &'static str = "Log.entryAdded";
}
