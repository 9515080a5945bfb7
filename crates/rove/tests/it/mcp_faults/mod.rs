//! The MCP server against a hostile client: one test per fault, each named
//! for the behaviour it holds. `stdio.rs`: bad lines over stdio, stdout's
//! integrity, cancellation, quiet logs. `http.rs`: slow and many clients of
//! `rove mcp --http`, caps and expiry, the authorization answers.
//! `events.rs`: browser events on an HTTP session's event stream. Real
//! processes, real sockets, and real Chromium where a tool is called.

mod events;
mod http;
mod stdio;
mod support;
