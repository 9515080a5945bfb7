//! The MCP server against a hostile client: one test per fault, each named
//! for the behaviour it holds. `stdio.rs`: bad lines over stdio, stdout's
//! integrity, cancellation, quiet logs. `http.rs`: slow and many clients of
//! `rove mcp --http`, caps and expiry, the authorization answers. Real
//! processes, real sockets, and real Chromium where a tool is called.

mod http;
mod stdio;
mod support;
