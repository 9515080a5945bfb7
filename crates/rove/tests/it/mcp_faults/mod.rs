//! The MCP server against a hostile client where a tool is called, so real
//! Chromium runs: one test per fault, each named for the behaviour it
//! holds. `stdio.rs`: cancellation. `http.rs`: an HTTP session's thread,
//! started by its first tool call. `events.rs`: browser events on an HTTP
//! session's event stream. The faults that call no tool are in
//! `crate::fast::mcp_faults`; `support.rs` serves both.

mod events;
pub(crate) mod http;
pub(crate) mod stdio;
pub(crate) mod support;
