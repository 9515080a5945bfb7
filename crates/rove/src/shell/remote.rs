//! Session commands from the shell: the command line turned into a command
//! of the vocabulary, sent to the session's daemon, and its answer printed.

use rove_commands as rc;
use rove_errors::ErrorCode;
use rove_mcp::SharedAnswer;
use serde_json::json;

use crate::cli::GlobalArgs;
use crate::daemon::client;
use crate::daemon::protocol::{
    Answer, BrowserAsked, PolicyAsked, Request, RunRequest, TraceAsk, TraceControl,
};
use crate::failure::Failure;
use crate::output::Output;
use crate::shell::hint::for_shell;

/// Runs a session command; returns the exit status. `trace` asks for a
/// trace of it (`rove --trace FILE <command>`).
pub async fn run(
    global: &GlobalArgs,
    command: rc::Command,
    trace: &crate::cli::side::CommandTraceArgs,
    out: Output,
) -> u8 {
    // The session ends with its daemon, which the client stops.
    if command == rc::Command::Close {
        return close(global, out).await;
    }
    let request = RunRequest {
        command,
        // The person at the shell: their own paths, their folder's files.
        caller: Some(rc::Caller::Person {
            cwd: std::env::current_dir().ok(),
        }),
        policy: None,
        trace: trace.trace.as_deref().map(|path| TraceAsk {
            path: crate::shell::call::absolute(path),
            screenshots: trace.trace_screenshots,
            screencast: false,
        }),
        browser: None,
    };
    let request = match with_policy(global, request) {
        Ok(request) => request,
        Err(failure) => {
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    let answer = match client::send(global, &Request::Run(request), true).await {
        Ok(answer) => answer,
        Err(failure) => {
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    render(answer, out)
}

/// `rove trace start|stop`: the session's trace, kept by its daemon.
pub async fn trace_control(global: &GlobalArgs, tracing: TraceControl, out: Output) -> u8 {
    // Stopping a trace of a session that is not running starts nothing.
    let start = matches!(tracing, TraceControl::Start(_));
    match client::send(global, &Request::Tracing { tracing }, start).await {
        Ok(answer) => render(answer, out),
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

/// The trace asked for by `rove trace start`, as the daemon must see it.
pub fn trace_start(args: &crate::cli::side::TraceStartArgs) -> TraceControl {
    TraceControl::Start(TraceAsk {
        path: crate::shell::call::absolute(&args.file),
        screenshots: args.screenshots,
        screencast: args.screencast,
    })
}

/// Adds the domain policy and the browser the flags ask for to a request,
/// so the daemon can refuse to serve it under another one (a session's
/// policy and browser are fixed when it starts). Nothing is added for what
/// no flag gave.
pub fn with_policy(global: &GlobalArgs, mut request: RunRequest) -> Result<RunRequest, Failure> {
    if global.policy_given() {
        let policy = global.policy()?;
        request.policy = Some(PolicyAsked {
            allowed: policy.allowed(),
            blocked: policy.blocked(),
        });
    }
    let browser = browser_asked(global);
    if browser != BrowserAsked::default() {
        request.browser = Some(Box::new(browser));
    }
    Ok(request)
}

/// The browser `global`'s flags name, its paths made absolute as the
/// daemon's were when it started.
pub fn browser_asked(global: &GlobalArgs) -> BrowserAsked {
    let cwd = std::env::current_dir().unwrap_or_default();
    BrowserAsked {
        cdp_url: global.cdp_url.clone(),
        cdp_headers: global.cdp_headers.clone(),
        browser: global.browser.as_ref().map(|path| cwd.join(path)),
        headed: global.headed,
    }
}

/// Sends MCP tool calls to the session's daemon (started when needed), so an
/// MCP host and the shell share one named session. They run as a model's
/// (see `rove_commands::Caller`): no free output paths, no uploads from the
/// shell's folder.
pub fn forwarder(global: GlobalArgs) -> rove_mcp::Forwarder {
    let global = std::sync::Arc::new(global);
    rove_mcp::Forwarder(std::sync::Arc::new(move |command: rc::Command| {
        let global = global.clone();
        Box::pin(async move {
            let failed = |failure: Failure| SharedAnswer::Failed {
                error: failure.report,
                fresh_view: failure.fresh_view,
            };
            if command == rc::Command::Close {
                // The shared session ends as `rove close` ends it; the next
                // call starts its daemon again.
                return match client::close(&global).await {
                    Ok(_) => SharedAnswer::Done {
                        text: format!(
                            "closed session {}; the next call starts it again",
                            global.session
                        ),
                        image: None,
                    },
                    Err(failure) => failed(failure),
                };
            }
            let request = RunRequest {
                command,
                caller: Some(rc::Caller::Model),
                policy: None,
                trace: None,
                browser: None,
            };
            let request = match with_policy(&global, request) {
                Ok(request) => request,
                Err(failure) => return failed(failure),
            };
            match client::send(&global, &Request::Run(request), true).await {
                Ok(Answer::Done { text, image, .. }) => SharedAnswer::Done {
                    text,
                    image: image.map(|i| (i.mime, i.data)),
                },
                Ok(Answer::Failed { error, fresh_view }) => {
                    SharedAnswer::Failed { error, fresh_view }
                }
                Ok(other) => failed(unexpected(&other)),
                Err(failure) => failed(failure),
            }
        })
    }))
}

/// A daemon that answered a command with something other than its outcome.
fn unexpected(answer: &Answer) -> Failure {
    Failure::new(
        ErrorCode::Internal,
        format!("the session daemon answered a command with {answer:?}"),
        "report this as a bug",
    )
}

/// Prints a daemon's answer; returns the exit status.
fn render(answer: Answer, out: Output) -> u8 {
    let failure = match answer {
        Answer::Done {
            text,
            mut outcome,
            ms,
            ..
        } => {
            out.line(&notes_for_shell(text.trim_end()));
            if let Some(fields) = outcome.as_object_mut() {
                fields.insert("ms".into(), json!(ms));
            }
            out.success(outcome);
            return 0;
        }
        Answer::Failed {
            mut error,
            fresh_view,
        } => {
            error.hint = for_shell(&error.hint);
            Failure {
                report: error,
                fresh_view,
            }
        }
        other => unexpected(&other),
    };
    out.failure(&failure, None);
    failure.exit_status()
}

/// rove's own notes in an answer (lines that start with `…`, after the
/// page's text; a followed popup's way back; a blocking dialog's way out)
/// in the shell's words; the page's text stays as it is (a view's page
/// text never starts a line with these words).
fn notes_for_shell(text: &str) -> String {
    text.split('\n')
        .map(|line| {
            if line.starts_with('…')
                || line.starts_with("switched to ")
                || line.starts_with("answer it with dialog(")
            {
                for_shell(line)
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `rove close`: returns once the session is gone (its daemon exited, its
/// browser ended, its lock free), so the next command starts afresh.
async fn close(global: &GlobalArgs, out: Output) -> u8 {
    match client::close(global).await {
        Ok(client::Closed::Session { remote: None }) => {
            out.line(&format!("closed session {}", global.session));
            out.success(json!({"closed": global.session}));
            0
        }
        Ok(client::Closed::Session {
            remote: Some(remote),
        }) => {
            out.line(&format!(
                "closed session {}: rove disposed its browser context; the browser at {remote} is not rove's, and its owner (the farm) ends it",
                global.session
            ));
            out.success(json!({"closed": global.session, "remote": remote}));
            0
        }
        // Nothing to close is what was asked for.
        Ok(client::Closed::Nothing { log }) => {
            let left = log
                .map(|log| {
                    format!(
                        " (its last daemon ended without closing; its log is {})",
                        log.display()
                    )
                })
                .unwrap_or_default();
            out.line(&format!("no session {} was running{left}", global.session));
            out.success(json!({"closed": serde_json::Value::Null}));
            0
        }
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}
