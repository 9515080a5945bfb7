//! The MCP server against a hostile client, where no tool is called and so
//! no browser starts: `stdio.rs`, bad lines over stdio, stdout's integrity,
//! quiet logs; `http.rs`, slow and many clients of `rove mcp --http`, caps
//! and expiry, the authorization answers. The faults that call a tool are
//! in `crate::mcp_faults`, with the support both share.

mod http;
mod stdio;
