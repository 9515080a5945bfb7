//! `rove-commands`: the one command vocabulary of rove.
//!
//! The CLI, the MCP server and the agent all turn their input into a
//! [`Command`] and run it on a [`Session`], which answers with an
//! [`Outcome`] (what happened, the view after it, any data) or a
//! [`CommandError`] (a code from rove's frozen vocabulary, a hint, a retry
//! class, whether the action reached the page, and facts). So the faces
//! cannot drift apart in behaviour or in errors: they only render.
//!
//! This crate composes the layers below it: navigation and tabs from
//! `rove-browser`, views and refs from `rove-page`, trusted input from
//! `rove-input`. It knows nothing of wire formats or of LLMs.

#![forbid(unsafe_code)]

// The folders depend on one another in one direction only:
// vocabulary ← answer ← call ← session ← commands, with trace (the files)
// beside answer. A module never imports from a folder after it in that list.
mod answer;
mod call;
mod commands;
mod private;
mod run;
mod session;
mod trace;
mod vocabulary;

pub use answer::{
    Answer, ClickKind, CommandError, Data, Download, ErrorReport, EvalStop, Fault, Happened, Image,
    MouseDid, NavigationFailure, Outcome, Recovery, Shot, SolverError, TabFault, Timing,
};
pub use commands::desktop::desktop_probe;
pub use commands::page::navigate::normalize_url;
pub use commands::page::solver;
pub use rove_browser::TabId;
pub use rove_page::{Located, Locator, NameMatch, PageError, Ref, Target};
pub use run::host::Host;
pub use session::interval_logs::{IntervalLogs, LogMarks};
pub use session::secrets::{Secret, Secrets};
pub use session::watchdog::HealthLimits;
pub use session::{Caller, Numbering, Session, SessionConfig, ViewAfter};
pub use trace::format as trace_format;
pub use trace::format::{SeenConsole, SeenRequest};
pub use trace::{
    FrameCaps, FrameCollector, SCREENSHOT_BUDGET, TraceId, TraceSummary, TraceWants, Traces,
    end_all_traces,
};
pub use vocabulary::*;
