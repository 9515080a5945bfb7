//! The daemon's side of command traces: `rove trace start|stop` (the
//! session's trace, until stopped or until the session ends) and
//! `rove --trace FILE <command>` (one command). The session records the
//! lines (`rove_commands::Traces`); this only opens and closes the files.

use std::path::Path;

use rove_commands::trace_format::TraceOrigin;
use rove_commands::{TraceId, Traces};
use serde_json::json;

use super::protocol::{Answer, TraceAsk, TraceControl};
use crate::cli::GlobalArgs;

/// Starts or stops the session's trace (`session_trace`, one of `traces`).
pub(super) fn control(
    tracing: TraceControl,
    global: &GlobalArgs,
    traces: &mut Traces,
    session_trace: &mut Option<TraceId>,
) -> Answer {
    match tracing {
        TraceControl::Start(ask) => {
            if let Some(path) = session_trace.and_then(|id| traces.path_of(id)) {
                return Answer::rejected(
                    &format!(
                        "session {} is already traced to {}",
                        global.session,
                        path.display()
                    ),
                    "stop that trace first: rove trace stop",
                );
            }
            match start(&ask, global, traces, "session") {
                Ok(id) => {
                    *session_trace = Some(id);
                    done(
                        format!(
                            "tracing session {} to {} until rove trace stop",
                            global.session, ask.path
                        ),
                        json!({"trace": ask.path, "screenshots": ask.screenshots, "screencast": ask.screencast}),
                    )
                }
                Err(answer) => answer,
            }
        }
        TraceControl::Stop => {
            let Some(summary) = session_trace
                .take()
                .and_then(|id| traces.stop(id, "stopped"))
            else {
                return Answer::rejected(
                    &format!("session {} is not being traced", global.session),
                    "start a trace with: rove trace start FILE",
                );
            };
            let path = summary.path.display().to_string();
            done(
                format!(
                    "stopped the trace: {} commands in {path} (rove trace show {path})",
                    summary.commands
                ),
                json!({"trace": path, "commands": summary.commands}),
            )
        }
    }
}

/// Starts the trace of one command.
pub(super) fn start_once(
    ask: &TraceAsk,
    global: &GlobalArgs,
    traces: &mut Traces,
) -> Result<TraceId, Answer> {
    start(ask, global, traces, "command")
}

fn start(
    ask: &TraceAsk,
    global: &GlobalArgs,
    traces: &mut Traces,
    scope: &str,
) -> Result<TraceId, Answer> {
    let path = Path::new(&ask.path);
    if !path.is_absolute() {
        return Err(Answer::rejected(
            "the trace's path must be absolute",
            "fix the request",
        ));
    }
    let origin = TraceOrigin {
        face: "cli".into(),
        scope: Some(scope.to_owned()),
        session: Some(global.session.clone()),
    };
    let wants = rove_commands::TraceWants {
        screenshots: ask.screenshots,
        budget: rove_commands::SCREENSHOT_BUDGET,
        screencast: ask.screencast.then(rove_commands::FrameCaps::default),
    };
    traces.start_with(path, wants, origin).map_err(|e| {
        Answer::rejected(
            &format!("cannot write the trace {}: {e}", ask.path),
            "choose a file in a folder you can write to",
        )
    })
}

fn done(text: String, outcome: serde_json::Value) -> Answer {
    Answer::Done {
        outcome,
        text: format!("{text}\n"),
        ms: 0.0,
        image: None,
    }
}
