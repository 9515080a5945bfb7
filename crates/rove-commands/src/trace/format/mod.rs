//! The trace file format: one [`TraceLine`] a line, as every trace writer
//! writes it and `rove trace show` reads it back.
//!
//! Two writers share it: the session's command traces (`trace/mod.rs` and
//! `run/traced.rs`: a `trace` line, a `command` line per command, an `end`
//! line) and rove-agent's run traces (`rove run --trace`, each `rove test`
//! attempt: a `run` line, a `step` line per step, an `end` line). The type
//! lives here, in the lowest crate both writers import, and needs nothing
//! above it: the agent's parts ([`RunHead`], [`TracedStep`], [`RunEnd`])
//! are plain data (token counts are numbers, a verdict is a word), and
//! rove-agent and rove-eval turn their records into them field by field,
//! so a field added to a record fails to compile there until the trace
//! says what to do with it. The viewer (the binary) only deserializes.
//!
//! The format is read tolerantly, so old and future files still show: a
//! field a line lacks takes its default, a field the type does not know is
//! ignored (an action's are kept, [`TracedAction::extra`], and shown), a
//! kind it does not know is [`TraceLine::Unknown`]. A line that is not
//! JSON is a [`TraceLineError`]. What a writer omits is omitted here too
//! (`skip_serializing_if`), so a line written through these types is the
//! line that was written before they existed.

mod commands;
mod run;

pub use commands::*;
pub use run::*;

use serde::{Deserialize, Serialize};

/// The version the first line (`trace` or `run`) states.
pub const TRACE_VERSION: u32 = 1;

/// One line of a trace file, told apart by its `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TraceLine {
    /// The first line of a trace of commands.
    Trace(TraceHead),
    /// One command a session ran.
    Command(Box<TracedCommand>),
    /// The first line of an agent's run.
    Run(RunHead),
    /// One step of an agent's run.
    Step(Box<TracedStep>),
    /// One screencast frame (a trace started with `--screencast`).
    Frame(TracedFrame),
    /// The last line of either: a trace cut short by a crash has none.
    End(TraceEnd),
    /// A kind this version does not know (a later rove wrote it).
    #[serde(other)]
    Unknown,
}

/// The last line of a trace: a trace of commands ends with what it holds,
/// an agent's run with how it ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TraceEnd {
    /// The end of a trace of commands.
    Commands(CommandsEnd),
    /// The end of an agent's run.
    Run(Box<RunEnd>),
}

/// A screenshot in a trace: inlined as a data URL, or why it is not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TraceScreenshot {
    /// `data:image/jpeg;base64,…`
    Inlined(String),
    /// Not inlined (the trace's budget is spent, it could not be taken).
    LeftOut {
        /// Why.
        left_out: String,
    },
}

/// One frame of the page's screencast, as the browser painted it: written
/// among the lines of the commands it came with, as it is taken (a frame
/// may follow the line of a command that began after it: `at` orders them).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TracedFrame {
    /// When the browser painted it, in seconds since the Unix epoch.
    pub at: f64,
    /// The tab it shows (`t1`).
    pub tab: String,
    /// The image (a JPEG data URL), or why it is not kept: the trace's
    /// cap on frames was reached, the browser has no screencast. A frame
    /// left out says so once; later ones are dropped without a line.
    pub image: Option<TraceScreenshot>,
    /// The viewport it shows, in CSS pixels (width, height): a point of the
    /// page maps onto the image by this.
    pub view: [f64; 2],
    /// How many boxes that showed a secret were painted over.
    #[serde(skip_serializing_if = "is_zero")]
    pub masked: usize,
}

/// One console message of an interval (a command, an agent's step).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeenConsole {
    /// The tab (`t1`).
    pub tab: String,
    /// `log`, `info`, `warning`, `error`, `debug`.
    pub level: String,
    /// `console`, `exception`, or the browser's source.
    pub source: String,
    /// The message, on one line.
    pub text: String,
    /// `url:line:column`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
}

/// One request of an interval (no headers, no bodies: a trace shows what
/// was asked and what came of it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeenRequest {
    /// The tab (`t1`).
    pub tab: String,
    /// `GET`, `POST` …
    pub method: String,
    /// The URL, redacted.
    pub url: String,
    /// `Document`, `Fetch`, `Script` …
    pub resource_type: String,
    /// The HTTP status, once a response came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// `pending`, `finished`, `redirected`, or `failed: reason`.
    pub state: String,
    /// How long it took, once it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<f64>,
}

/// Why a line of a trace file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TraceLineError {
    /// The line is not JSON (a line cut by a crash, another file).
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    /// The line is JSON but not a trace line of a known shape (a field of
    /// the wrong type, no `kind`).
    #[error("not a trace line: {0}")]
    NotALine(serde_json::Error),
}

impl TraceLine {
    /// Reads one line of a trace file.
    pub fn parse(text: &str) -> Result<TraceLine, TraceLineError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(TraceLineError::NotJson)?;
        serde_json::from_value(value).map_err(TraceLineError::NotALine)
    }

    /// The line as written: one JSON object, no newline.
    pub fn to_json(&self) -> String {
        // Serializing these types cannot fail: every map key is a string.
        serde_json::to_string(self).unwrap_or_default()
    }
}

pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}
