//! The id of a flattened CDP session: what frames are routed by.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A flattened CDP session id, as returned by `Target.attachToTarget`
/// (empty in an answer that lacks it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SessionId(Arc<str>);

impl SessionId {
    /// Wraps a session id string.
    pub fn new(id: impl Into<Arc<str>>) -> Self {
        SessionId(id.into())
    }

    /// The id as sent on the wire.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

// Lets the session tables be searched with the `&str` of an incoming frame
// without allocating; `Arc<str>` hashes and compares exactly like `str`.
impl std::borrow::Borrow<str> for SessionId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
