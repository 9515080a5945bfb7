//! `rove-mcp`: rove as an MCP server, on the official Rust SDK (`rmcp`),
//! which stays inside this crate.
//!
//! Tools are the CLI's command names with the same argument names (`open`,
//! `snapshot`, `click`, `fill`, `press`, `eval` …); each call becomes a
//! [`rove_commands::Command`] run on the connection's own session, so MCP,
//! the CLI and the agent cannot drift apart. A tool returns the view or diff
//! as text; a failure is a tool result with `isError: true`, the typed error
//! as JSON in the first content block and the fresh view, when there is one,
//! in the second.
//!
//! A client that sends `logging/setLevel` also gets its session's browser
//! events (navigations, dialogs, downloads, crashes …) as
//! `notifications/message` (`events.rs`).
//!
//! Over stdio every line gets an answer (`stdio.rs`); over HTTP slow and
//! many clients are bounded ([`HttpLimits`]).

#![forbid(unsafe_code)]

mod events;
mod http;
mod http_auth;
mod http_conns;
mod http_sessions;
mod server;
mod session;
mod source;
mod stdio;
mod tools;

pub use http::{HttpLimits, HttpServer, serve_http, serve_http_with};
pub use server::{McpError, RoveMcp};
pub use source::{BrowserSource, Forwarder, SharedAnswer};
pub use stdio::MAX_MESSAGE_BYTES;

/// The tools as `tools/list` shows them by default (the core group), as
/// JSON (for docs and tests).
pub fn tools_json() -> serde_json::Value {
    tools_json_within(rove_commands::Caps::default())
}

/// The tools as `tools/list` shows them to a server started with `caps`.
pub fn tools_json_within(caps: rove_commands::Caps) -> serde_json::Value {
    serde_json::json!({ "tools": tools::within(caps) })
}
