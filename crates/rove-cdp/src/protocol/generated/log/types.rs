//! The types of the `Log` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// The values of `category` in `LogEntry`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum LogEntryCategory {
    /// `cors`.
    #[serde(rename = "cors")]
    Cors,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl LogEntryCategory {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cors => "cors",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `level` in `LogEntry`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum LogEntryLevel {
    /// `verbose`.
    #[serde(rename = "verbose")]
    Verbose,
    /// `info`.
    #[serde(rename = "info")]
    Info,
    /// `warning`.
    #[serde(rename = "warning")]
    Warning,
    /// `error`.
    #[serde(rename = "error")]
    Error,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl LogEntryLevel {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Verbose => "verbose",
            Self::Info => "info",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `source` in `LogEntry`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum LogEntrySource {
    /// `xml`.
    #[serde(rename = "xml")]
    Xml,
    /// `javascript`.
    #[serde(rename = "javascript")]
    Javascript,
    /// `network`.
    #[serde(rename = "network")]
    Network,
    /// `storage`.
    #[serde(rename = "storage")]
    Storage,
    /// `appcache`.
    #[serde(rename = "appcache")]
    Appcache,
    /// `rendering`.
    #[serde(rename = "rendering")]
    Rendering,
    /// `security`.
    #[serde(rename = "security")]
    Security,
    /// `deprecation`.
    #[serde(rename = "deprecation")]
    Deprecation,
    /// `worker`.
    #[serde(rename = "worker")]
    Worker,
    /// `violation`.
    #[serde(rename = "violation")]
    Violation,
    /// `intervention`.
    #[serde(rename = "intervention")]
    Intervention,
    /// `recommendation`.
    #[serde(rename = "recommendation")]
    Recommendation,
    /// `other`.
    #[serde(rename = "other")]
    Other,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl LogEntrySource {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Xml => "xml",
            Self::Javascript => "javascript",
            Self::Network => "network",
            Self::Storage => "storage",
            Self::Appcache => "appcache",
            Self::Rendering => "rendering",
            Self::Security => "security",
            Self::Deprecation => "deprecation",
            Self::Worker => "worker",
            Self::Violation => "violation",
            Self::Intervention => "intervention",
            Self::Recommendation => "recommendation",
            Self::Other => "other",
            Self::Unrecognized => "",
        }
    }
}

/// Log entry.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LogEntry {
    /// Log entry source.
    pub source: super::LogEntrySource,
    /// Log entry severity.
    pub level: super::LogEntryLevel,
    /// Logged text.
    pub text: String,
    /// category
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<super::LogEntryCategory>,
    /// Timestamp when this entry was added.
    pub timestamp: crate::protocol::runtime::Timestamp,
    /// URL of the resource if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Line number in the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_number: Option<i64>,
    /// JavaScript stack trace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack_trace: Option<crate::protocol::runtime::StackTrace>,
    /// Identifier of the network request associated with this entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network_request_id: Option<crate::protocol::network::RequestId>,
    /// Identifier of the worker associated with this entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worker_id: Option<String>,
    /// Call arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<crate::protocol::runtime::RemoteObject>>,
}
