//! `rove-cdp`: a thin Chrome DevTools Protocol transport that never hangs.
//!
//! One WebSocket per browser, one reader task per socket, and flattened
//! sessions routed by `sessionId`. Every call has a deadline
//! ([`rove_base::limits::CDP_CALL`], or `ROVE_CDP_TIMEOUT_S`); a caller that gives
//! up leaves nothing behind; a closed socket fails every pending call at once;
//! a crashed or detached session fails fast; a bad frame is logged and skipped.
//! Events fan out to any number of subscribers per session on bounded channels,
//! and a subscriber that lags is told so without ever slowing the reader.
//!
//! This crate knows nothing of pages, refs or agents. Every command and
//! event rove uses has a typed definition in [`protocol`], generated from
//! Chromium's protocol definition; a method is sent by name only by the
//! transport's own tests ([`Session::call_untyped`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), rove_cdp::CdpError> {
//! use rove_cdp::{Connection, TransportConfig, protocol::browser::GetVersion};
//! let conn = Connection::connect("ws://127.0.0.1:9222/devtools/browser/…", TransportConfig::from_env()).await?;
//! let version = conn.browser().send(&GetVersion {}).await?;
//! assert!(version.product.contains("Chrome"));
//! # Ok(()) }
//! ```

#![forbid(unsafe_code)]

pub mod config;
mod connection;
pub mod endpoint;
mod error;
mod events;
mod frame_cap;
mod health;
pub mod lossy_json;
mod message;
pub mod meter;
pub mod protocol;
mod reader;
mod script;
mod session;
mod session_id;
pub mod wire_log;

pub use config::TransportConfig;
pub use connection::{CloseSignal, Connection, ConnectionStats, WeakConnection};
pub use endpoint::{Access, Endpoint};
pub use error::{CdpError, Refusal, classify_refusal};
pub use events::{EventStream, EventStreamError};
pub use message::Event;
pub use script::{RoveScript, ScriptAnswer, ScriptCall};
pub use session::Session;
pub use session_id::SessionId;
