//! Running commands: a session started with its stored state
//! (`execute.rs`), each command under its deadline and the tab health
//! guard (`guard.rs`), dispatched to its implementation and followed by
//! the view of what changed (`dispatch.rs`), recorded in the session's
//! traces (`traced.rs`); and `Host`, the session hosting the daemon and the
//! MCP server share (`host.rs`).

mod dispatch;
mod execute;
mod guard;
pub(crate) mod host;
mod screencast;
mod traced;
