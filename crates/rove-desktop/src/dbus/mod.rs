//! A small D-Bus client: enough of the protocol to call methods on the
//! accessibility bus and read their replies, with a deadline on every call.
//!
//! Why rove has its own (docs/architecture.md, docs/desktop.md): rove only
//! calls methods and reads replies. The `atspi` crate on `zbus` would add
//! some 45 crates (an async-io executor beside tokio among them) and about
//! 50 s of CPU to a clean debug build on this project's machines; the part
//! of D-Bus rove needs is the message format and the EXTERNAL handshake.
//!
//! Calls are blocking on a Unix socket whose every read and write has the
//! time left to the call's deadline; callers in async code run them on
//! tokio's blocking pool ([`crate::Desktop`] does). Many calls can be sent
//! before their replies are read ([`Connection::call_many`]), so reading a
//! tree costs a round trip per level, not one per property.

mod connection;
pub mod wire;

pub use connection::{Call, Connection};
pub use wire::{Arg, Value};

/// What can go wrong speaking D-Bus.
#[derive(Debug, thiserror::Error)]
pub enum DbusError {
    /// No bus address, or nothing listening there.
    #[error("cannot reach the bus at {address}: {reason}")]
    Unreachable { address: String, reason: String },
    /// The bus refused rove's credentials.
    #[error("the bus refused authentication: {0}")]
    AuthRefused(String),
    /// The deadline passed before the reply came.
    #[error("no reply within {0:?}")]
    Timeout(std::time::Duration),
    /// The connection ended.
    #[error("the bus closed the connection")]
    Closed,
    /// A message that is not valid D-Bus.
    #[error("a malformed D-Bus message")]
    Malformed,
    /// A message larger than rove sends or accepts.
    #[error("a D-Bus message over the size limit")]
    TooLarge,
    /// The method answered with an error.
    #[error("{name}: {message}")]
    Remote { name: String, message: String },
    /// A reply of another shape than the method's.
    #[error("unexpected reply to {0}")]
    Unexpected(String),
}

impl DbusError {
    /// The error name of a remote error (`org.freedesktop.DBus.Error.UnknownObject`).
    pub fn remote_name(&self) -> Option<&str> {
        match self {
            DbusError::Remote { name, .. } => Some(name),
            _ => None,
        }
    }
}
