//! A handle scoped to one flattened session (or to the browser itself).

use std::time::Duration;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::events::EventStream;
use crate::protocol::Command;
use crate::{CdpError, Connection, SessionId};

/// Calls and events of one session. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Session {
    conn: Connection,
    id: Option<SessionId>,
}

// A session is made from its connection, here beside what it is, so
// that the connection knows nothing of sessions.
impl Connection {
    /// A handle for browser-level calls (no session id).
    pub fn browser(&self) -> Session {
        Session {
            conn: self.clone(),
            id: None,
        }
    }

    /// A handle for calls on a flattened session.
    pub fn session(&self, id: SessionId) -> Session {
        Session {
            conn: self.clone(),
            id: Some(id),
        }
    }
}

impl Session {
    /// The session id; `None` for the browser-level handle.
    pub fn id(&self) -> Option<&SessionId> {
        self.id.as_ref()
    }

    /// The connection this session lives on.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Sends a typed command with the connection's default deadline.
    pub async fn send<C: Command>(&self, command: &C) -> Result<C::Response, CdpError> {
        self.conn.send(self.id.as_ref(), command, None).await
    }

    /// Sends a typed command with its own deadline.
    pub async fn send_within<C: Command>(
        &self,
        command: &C,
        timeout: Duration,
    ) -> Result<C::Response, CdpError> {
        self.conn
            .send(self.id.as_ref(), command, Some(timeout))
            .await
    }

    /// Sends a typed command and returns its answer as raw JSON text, for a
    /// caller that decodes it into a shape of its own (a script's large
    /// answer, without a `serde_json::Value` tree in between).
    pub async fn send_raw<C: Command>(
        &self,
        command: &C,
        timeout: Option<Duration>,
    ) -> Result<Box<RawValue>, CdpError> {
        self.conn
            .call_raw(self.id.as_ref(), C::METHOD, command, timeout)
            .await
    }

    /// Any method by name, parameters and answer as JSON values: only for
    /// tests of the transport and of methods no typed command covers.
    /// `clippy.toml` refuses it everywhere else; rove's code sends typed
    /// commands ([`Session::send`]).
    pub async fn call_untyped(
        &self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, CdpError> {
        #[allow(clippy::disallowed_methods)] // One escape hatch built on the other.
        let raw = self.call_untyped_raw(method, &params, None).await?;
        crate::connection::decode(method, &raw)
    }

    /// [`Session::call_untyped`] with the answer as raw JSON text and a
    /// deadline of its own; for tests only, like it.
    pub async fn call_untyped_raw<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: &P,
        timeout: Option<Duration>,
    ) -> Result<Box<RawValue>, CdpError> {
        self.conn
            .call_raw(self.id.as_ref(), method, params, timeout)
            .await
    }

    /// Subscribes to this session's events (see [`Connection::subscribe`]).
    pub fn subscribe(&self) -> EventStream {
        self.conn.subscribe(self.id.as_ref())
    }
}
