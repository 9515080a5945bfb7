//! The lines of a trace of commands (`rove --trace FILE <command>`, `rove
//! trace start`, `rove mcp --trace`): its head, a line per command, its end.

use rove_errors::Report;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{SeenConsole, SeenRequest, TraceScreenshot, is_zero};
use crate::Timing;

/// The first line of a trace of commands.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TraceHead {
    /// [`super::TRACE_VERSION`].
    pub version: u32,
    /// When it started, in seconds since the Unix epoch.
    pub started: f64,
    /// Whether acting commands are recorded with screenshots.
    pub screenshots: bool,
    /// Whether the page's screencast is recorded (`frame` lines).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub screencast: bool,
    /// Which face started it, and for what.
    #[serde(flatten)]
    pub origin: TraceOrigin,
}

/// Which face started a trace of commands, and for what.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TraceOrigin {
    /// `cli` or `mcp`.
    pub face: String,
    /// `command` (one command's trace), `session` (`rove trace start`) or
    /// `server` (`rove mcp --trace`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The session's name, for the CLI's daemon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
}

/// Who ran a command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallerKind {
    /// A model, or a program acting for one.
    #[default]
    Model,
    /// The person at the shell.
    Person,
}

/// One command a session ran, as its trace records it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TracedCommand {
    /// 1, 2, … within the trace.
    pub seq: u64,
    /// The command's name.
    pub name: String,
    /// Its arguments, redacted.
    pub args: Value,
    /// Who ran it.
    pub caller: CallerKind,
    /// When it started, in seconds since the Unix epoch.
    pub started: f64,
    /// How long it took.
    pub ms: f64,
    /// Where the time went.
    pub timing: Timing,
    /// Whether it succeeded.
    pub ok: bool,
    /// The tab it ended on (the focused one when it failed; `null` when
    /// there was none).
    pub tab: Option<String>,
    /// What happened, a line each (when it succeeded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub happened: Option<Vec<String>>,
    /// The text it answered (cut), or the fresh view of a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The page's URL after it, when a view followed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Where it clicked or pressed, in CSS pixels of the viewport.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<[f64; 2]>,
    /// The page's title after it, when a view followed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its typed error, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Report>,
    /// Console messages of every tab during it, oldest first.
    pub console: Vec<SeenConsole>,
    /// Requests of every tab during it, oldest first.
    pub network: Vec<SeenRequest>,
    /// Console messages and requests not kept.
    #[serde(skip_serializing_if = "is_zero")]
    pub left_out: usize,
    /// The screenshots before and after an acting command, when the trace
    /// takes them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screenshots: Option<CommandScreenshots>,
}

/// The screenshots around an acting command.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CommandScreenshots {
    /// Before it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<TraceScreenshot>,
    /// After it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<TraceScreenshot>,
}

/// The last line of a trace of commands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandsEnd {
    /// Why it ended (`stopped`, the session ended, a signal).
    #[serde(default)]
    pub reason: String,
    /// How many commands it records. (Required: it tells this end from a
    /// run's.)
    pub commands: u64,
    /// When it ended, in seconds since the Unix epoch.
    #[serde(default)]
    pub ended: f64,
}
