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

mod act;
mod args;
mod args_pointer;
mod args_tools;
mod call;
mod caps;
mod catalog;
mod command;
mod console;
mod downloads;
mod emulate;
mod error;
mod eval;
mod fault;
mod files;
mod fill_form;
mod guard;
mod happened;
mod har;
mod host;
mod inspect;
mod interval_logs;
mod locate;
mod mouse;
mod navigate;
mod network;
mod observe;
mod outcome;
mod pdf;
mod pointer;
mod screenshot;
mod secrets;
mod session;
mod state;
mod state_file;
mod state_tab;
mod tabs;
mod trace;
mod trace_record;
mod wait;
mod watchdog;

pub use caps::{Capability, Caps, UnknownCapability};
pub use catalog::{Annotations, ToolDescription, tool, tools, tools_within};
pub use command::*;
pub use error::{CommandError, ErrorReport, NavigationFailure};
pub use fault::{EvalStop, Fault, Recovery, TabFault};
pub use files::create_private;
pub use happened::{Answer, ClickKind, Happened, Shot};
pub use host::Host;
pub use interval_logs::{IntervalLogs, LogMarks, SeenConsole, SeenRequest};
pub use mouse::MouseDid;
pub use navigate::normalize_url;
pub use outcome::{Download, Image, Outcome, Timing};
pub use rove_browser::TabId;
pub use rove_page::{Located, Locator, NameMatch, PageError, Ref, Target};
pub use secrets::{Secret, Secrets};
pub use session::{Caller, Numbering, Session, SessionConfig, ViewAfter};
pub use trace::{SCREENSHOT_BUDGET, TraceId, TraceSummary, Traces, end_all_traces};
pub use watchdog::HealthLimits;
