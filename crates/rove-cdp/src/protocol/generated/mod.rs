//! Chromium's DevTools protocol, as far as rove uses it: one module per domain.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

pub mod accessibility;
pub mod browser;
pub mod dom;
pub mod dom_debugger;
pub mod emulation;
pub mod fetch;
pub mod input;
pub mod inspector;
pub mod io;
pub mod log;
pub mod network;
pub mod page;
pub mod runtime;
pub mod storage;
pub mod target;
