//! Typed CDP commands and events: one module per domain, generated from
//! Chromium's protocol definition for the methods rove uses (see
//! `crates/rove-cdp/protocol/uses.txt` and [`codegen`](self) below), and the
//! traits that tie a command to its method name and answer.
//!
//! Answers and events tolerate unknown fields (ignored) and missing ones
//! (defaulted; an enum value the definition does not know decodes as
//! `Unrecognized`), so a newer or older browser does not break decoding.
//! Every call rove makes goes through these types: the string API is the
//! transport's own ([`crate::Session::call_untyped`] is for tests of odd
//! methods only, and clippy refuses it elsewhere).

mod generated;
mod helpers;

pub use generated::*;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A CDP command: its method name, its parameters (the implementing type) and
/// the shape of its answer.
pub trait Command: Serialize {
    /// The CDP method, such as `Runtime.evaluate`.
    const METHOD: &'static str;
    /// The decoded `result`.
    type Response: DeserializeOwned;
}

/// A CDP event with typed parameters.
pub trait EventType: DeserializeOwned {
    /// The CDP event name, such as `Page.loadEventFired`.
    const METHOD: &'static str;
}

/// Reads an optional JSON value so that an explicit `null` is `Some(Null)`
/// and only a missing field is `None` (the generated code's `any` fields:
/// a script's result may be JavaScript's `null`).
pub fn null_is_a_value<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    <serde_json::Value as serde::Deserialize>::deserialize(deserializer).map(Some)
}

/// The answer of commands that return nothing.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct Empty {}

#[cfg(test)]
mod codegen;
