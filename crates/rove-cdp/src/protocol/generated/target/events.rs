//! The events of the `Target` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Target.attachedToTarget`: Issued when attached to target because of auto-attach or
/// `attachToTarget` command.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AttachedToTarget {
    /// Identifier assigned to the session used to send/receive messages.
    pub session_id: super::SessionID,
    /// targetInfo
    pub target_info: super::TargetInfo,
    /// waitingForDebugger
    pub waiting_for_debugger: bool,
}

impl crate::protocol::EventType for AttachedToTarget {
    const METHOD: &'static str = "Target.attachedToTarget";
}

/// `Target.detachedFromTarget`: Issued when detached from target for any reason (including
/// `detachFromTarget` command). Can be issued multiple times per target if multiple sessions
/// have been attached to it.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DetachedFromTarget {
    /// Detached session identifier.
    pub session_id: super::SessionID,
    /// Deprecated.
    ///
    /// Deprecated.
    pub target_id: Option<super::TargetID>,
}

impl crate::protocol::EventType for DetachedFromTarget {
    const METHOD: &'static str = "Target.detachedFromTarget";
}

/// `Target.targetCrashed`: Issued when a target has crashed.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetCrashed {
    /// targetId
    pub target_id: super::TargetID,
    /// Termination status type.
    pub status: String,
    /// Termination error code.
    pub error_code: i64,
}

impl crate::protocol::EventType for TargetCrashed {
    const METHOD: &'static str = "Target.targetCrashed";
}

/// `Target.targetCreated`: Issued when a possible inspection target is created.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetCreated {
    /// targetInfo
    pub target_info: super::TargetInfo,
}

impl crate::protocol::EventType for TargetCreated {
    const METHOD: &'static str = "Target.targetCreated";
}

/// `Target.targetDestroyed`: Issued when a target is destroyed.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetDestroyed {
    /// targetId
    pub target_id: super::TargetID,
}

impl crate::protocol::EventType for TargetDestroyed {
    const METHOD: &'static str = "Target.targetDestroyed";
}

/// `Target.targetInfoChanged`: Issued when some information about a target has changed. This
/// only happens between `targetCreated` and `targetDestroyed`.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetInfoChanged {
    /// targetInfo
    pub target_info: super::TargetInfo,
}

impl crate::protocol::EventType for TargetInfoChanged {
    const METHOD: &'static str = "Target.targetInfoChanged";
}
