//! The CDP wire format: what rove writes and how it reads what comes back.
//!
//! Incoming frames are parsed once, shallowly: only `id`, `method`, `sessionId`
//! and `error` are decoded here, while `result` and `params` stay as raw JSON
//! text so a typed caller decodes them exactly once, and a 300 MB screenshot is
//! never turned into a `serde_json::Value` tree.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::{CdpError, SessionId};

/// One request frame.
#[derive(Serialize)]
pub(crate) struct Request<'a, P: Serialize + ?Sized> {
    pub id: u64,
    pub method: &'a str,
    #[serde(rename = "sessionId", skip_serializing_if = "Option::is_none")]
    pub session_id: Option<&'a str>,
    pub params: &'a P,
}

/// One incoming frame, decoded only as far as routing needs.
#[derive(Deserialize)]
pub(crate) struct Incoming<'a> {
    #[serde(default)]
    pub id: Option<u64>,
    #[serde(default, borrow)]
    pub method: Option<Cow<'a, str>>,
    #[serde(default, rename = "sessionId", borrow)]
    pub session_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub result: Option<&'a RawValue>,
    #[serde(default)]
    pub error: Option<ErrorBody>,
    #[serde(default, borrow)]
    pub params: Option<&'a RawValue>,
}

/// The `error` member of a failed response.
#[derive(Deserialize, Debug)]
pub(crate) struct ErrorBody {
    #[serde(default)]
    pub code: i64,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub data: Option<serde_json::Value>,
}

/// An event from the browser, shared by every subscriber of its session.
#[derive(Debug)]
pub struct Event {
    /// The CDP event name, such as `Page.loadEventFired`.
    pub method: String,
    /// The session it came from; `None` for browser-level events.
    pub session_id: Option<SessionId>,
    params: Box<RawValue>,
}

impl Event {
    pub(crate) fn new(
        method: String,
        session_id: Option<SessionId>,
        params: Box<RawValue>,
    ) -> Self {
        Event {
            method,
            session_id,
            params,
        }
    }

    /// The raw JSON text of the event's parameters.
    pub fn params_json(&self) -> &str {
        self.params.get()
    }

    /// Decodes the parameters into a typed event. Unknown fields are ignored.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, CdpError> {
        crate::lossy_json::from_json(self.params.get()).map_err(|e| CdpError::Decode {
            method: self.method.clone(),
            reason: e.to_string(),
        })
    }

    /// Decodes the parameters when this event is the typed event `E`.
    pub fn as_event<E: crate::protocol::EventType>(&self) -> Option<Result<E, CdpError>> {
        (self.method == E::METHOD).then(|| self.parse())
    }
}

/// An empty parameter object, for events that carry none.
pub(crate) fn empty_object() -> Box<RawValue> {
    // "{}" always parses; the default (`null`) is only a total fallback.
    RawValue::from_string("{}".to_owned()).unwrap_or_default()
}
