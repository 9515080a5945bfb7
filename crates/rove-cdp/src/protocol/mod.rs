//! Typed CDP commands and events, written by hand for the methods rove uses.
//!
//! Responses and events tolerate unknown fields (ignored) and missing ones
//! (defaulted), so a newer or older browser does not break decoding. Anything
//! not covered here goes through [`crate::Session::call`].

pub mod browser;
pub mod dom;
pub mod input;
pub mod page;
pub mod runtime;
pub mod target;

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

/// The answer of commands that return nothing useful.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct Empty {}

/// Declares a command with no parameters.
macro_rules! unit_command {
    ($(#[$doc:meta])* $name:ident, $method:literal, $response:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Default, serde::Serialize)]
        pub struct $name {}
        impl $crate::protocol::Command for $name {
            const METHOD: &'static str = $method;
            type Response = $response;
        }
    };
}
pub(crate) use unit_command;
