//! The `DOM` domain: This domain exposes DOM read/write operations. Each DOM Node is
//! represented with its mirror object that has an `id`. This `id` can be used to get additional
//! information on the Node, resolve it into the JavaScript object wrapper, etc. It is important
//! that client receives DOM events only for the nodes that are known to the client. Backend
//! keeps track of the nodes that were sent to the client and never sends the same node twice.
//! It is client's responsibility to collect information about the nodes that were sent to the
//! client. Note that `iframe` owner elements will return corresponding document elements as
//! their child nodes.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

mod commands;
mod types;

pub use commands::*;
pub use types::*;
