//! The daemon process: owns the browser and the session, serves one request
//! at a time on the session's socket, exits when idle or told to.

use std::os::fd::IntoRawFd;
use std::time::Duration;

use rove_base::limits::{DAEMON_COMMAND, DAEMON_READ, SESSION_CLOSE};
use rove_cdp::TransportConfig;
use rove_commands::shell::Printed;
use rove_commands::{Caller, Command, Host};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};

use super::lock::SessionLock;
use super::protocol::{Answer, Control, Greeting, InlineImage, PolicyAsked, Request, RunRequest};
use crate::acquire::acquire;
use crate::cli::GlobalArgs;

/// What a daemon keeps between requests.
#[derive(Default)]
pub(super) struct State {
    /// The browser and session, made on first use (and again when the
    /// browser died or the link to it was lost).
    host: Option<Host>,
    /// Tab ids and refs of the session, kept across browser restarts so an
    /// old `t1` or `e7` never names something new.
    numbering: rove_commands::Numbering,
    /// The traces the session's commands are recorded in, kept across
    /// browser restarts like the numbering.
    pub(super) traces: rove_commands::Traces,
    /// The session's own trace (`rove trace start`), while it runs.
    pub(super) session_trace: Option<rove_commands::TraceId>,
    /// A browser ran in this daemon at some point.
    had_browser: bool,
    /// The browser could not be had before any ever ran: the daemon holds
    /// nothing worth its idle time, so it ends after answering.
    no_browser: bool,
}

/// The connection that asked the daemon to close: answered once the
/// session is gone.
struct Farewell {
    stream: UnixStream,
}

/// Runs the daemon of `session` until it is idle for `idle` or closed.
/// Returns the exit status: 0, or [`super::LOCK_HELD_STATUS`] when another
/// daemon holds the session, or 6 when the daemon cannot run at all.
pub async fn serve(global: &GlobalArgs, session: &str, idle: Duration) -> u8 {
    let dir = match super::ensure_runtime_dir() {
        Ok(dir) => dir,
        Err(failure) => {
            tracing::error!(error = %failure.report.message, "no private folder for the daemon");
            return 6;
        }
    };
    let socket = match super::socket_path(&dir, session) {
        Ok(socket) => socket,
        Err(failure) => {
            tracing::error!(error = %failure.report.message, hint = %failure.report.hint, "no socket for the daemon");
            return 6;
        }
    };
    // One daemon per session: the lock is held from before it listens until
    // its browser ended, so a daemon started while another one starts or
    // ends exits here, and its client waits for the lock.
    let lock = match SessionLock::try_take(&super::lock_path(&dir, session)) {
        Ok(Some(lock)) => lock,
        Ok(None) => {
            tracing::debug!(session, "another daemon holds this session");
            return super::LOCK_HELD_STATUS as u8;
        }
        Err(e) => {
            tracing::error!(error = %e, "cannot take the session's lock");
            return 6;
        }
    };
    // Holding the lock, any socket left here is a crashed daemon's.
    let _ = std::fs::remove_file(&socket);
    let listener = match UnixListener::bind(&socket) {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(error = %e, socket = %socket.display(), "cannot listen");
            return 6;
        }
    };
    let _ = rove_base::private::make_owner_only(&socket);
    tracing::info!(session, pid = std::process::id(), "daemon listening");
    let transport = global.transport();
    let mut state = State::default();
    let farewell = loop {
        let accepted = match tokio::time::timeout(idle, listener.accept()).await {
            Err(_) => {
                tracing::info!(session, "idle; exiting");
                break None;
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "accept failed");
                continue;
            }
            Ok(Ok((stream, _))) => stream,
        };
        if let Some(farewell) = handle(accepted, global, &transport, &mut state).await {
            break Some(farewell);
        }
        if state.no_browser {
            tracing::info!(session, "no browser could be had; exiting");
            break None;
        }
    };
    // Leaving, in the order the next daemon needs: connections still
    // waiting are refused (their clients start a new daemon once the lock
    // is free), the socket goes while the lock still guards it, the browser
    // ends, and only then is the session free.
    drop(listener);
    let _ = std::fs::remove_file(&socket);
    let no_browser = state.no_browser;
    end(state, global, &transport).await;
    // The session leaves nothing behind: its log (kept when the browser
    // never came, as the place that says why), then its lock.
    if !no_browser {
        let _ = std::fs::remove_file(super::log_path(&dir, session));
    }
    lock.release_and_remove(&super::lock_path(&dir, session));
    let closed = Answer::Closed {
        remote: global
            .cdp_url
            .as_deref()
            .map(rove_base::redact::hide_endpoint_credentials),
    };
    if let Some(Farewell { mut stream }) = farewell {
        let _ = stream
            .write_all(format!("{}\n", closed.to_line()).as_bytes())
            .await;
        // Left open on purpose: the kernel closes it when this process is
        // gone, which is what `rove close` waits for.
        if let Ok(std) = stream.into_std() {
            let _ = std.into_raw_fd();
        }
    }
    0
}

/// Ends the browser (for a remote one: disposes the session's contexts,
/// and those a lost link left behind, when it can be reached).
async fn end(state: State, global: &GlobalArgs, transport: &TransportConfig) {
    // A trace still running is closed properly: its last line says why.
    state.traces.stop_all("the session ended");
    let Some(mut host) = state.host else {
        return;
    };
    let reach = || async { Ok(acquire(global, transport).await?) };
    let remote = global.cdp_url.is_some().then_some((reach, SESSION_CLOSE));
    host.end(remote).await;
}

/// Serves one connection: a greeting, one request line, one answer line.
/// Returns the connection when it asked the daemon to close.
async fn handle(
    mut stream: UnixStream,
    global: &GlobalArgs,
    transport: &TransportConfig,
    state: &mut State,
) -> Option<Farewell> {
    // The greeting tells the client a live daemon took its connection.
    let greeting = Greeting {
        ready: true,
        pid: std::process::id(),
    };
    let greeting = serde_json::to_string(&greeting).unwrap_or_default();
    if stream
        .write_all(format!("{greeting}\n").as_bytes())
        .await
        .is_err()
    {
        return None;
    }
    let mut line = String::new();
    {
        let mut reader = BufReader::new(&mut stream);
        match tokio::time::timeout(DAEMON_READ, reader.read_line(&mut line)).await {
            Ok(Ok(n)) if n > 0 => {}
            _ => return None,
        }
    }
    let answer = match Request::from_line(&line) {
        Err(message) => rejected(&message),
        Ok(Request::Control {
            control: Control::Ping,
        }) => Answer::Pong {
            pid: std::process::id(),
            browser_pid: state.host.as_ref().and_then(Host::browser_pid),
        },
        Ok(Request::Control {
            control: Control::Close,
        }) => return Some(Farewell { stream }),
        Ok(Request::Tracing { tracing }) => {
            super::tracing::control(tracing, global, &mut state.traces, &mut state.session_trace)
        }
        Ok(Request::Run(request)) => {
            match same_policy(&request, global).and_then(|()| same_browser(&request, global)) {
                Err(answer) => answer,
                Ok(()) => {
                    let caller = request.caller.clone().unwrap_or_default();
                    // A trace of this one command only.
                    let once = match &request.trace {
                        Some(ask) => {
                            match super::tracing::start_once(ask, global, &mut state.traces) {
                                Ok(id) => Some(id),
                                Err(answer) => return respond(stream, answer).await,
                            }
                        }
                        None => None,
                    };
                    // A caller that hangs up (Ctrl-C at the shell, an MCP
                    // call cancelled in a shared session) wants nothing more:
                    // its command is stopped by dropping it, so the next
                    // caller does not wait for work nobody reads.
                    let ran = tokio::select! {
                        answer = run(&request.command, caller, global, transport, state) => Some(answer),
                        () = caller_gone(&mut stream) => None,
                    };
                    if let Some(id) = once {
                        let why = match ran {
                            Some(_) => "the command ended",
                            None => "the command's caller went away",
                        };
                        state.traces.stop(id, why);
                    }
                    match ran {
                        Some(answer) => answer,
                        None => {
                            tracing::info!(
                                command = request.command.name(),
                                "its caller went away; stopped the command"
                            );
                            return None;
                        }
                    }
                }
            }
        }
    };
    respond(stream, answer).await
}

/// Resolves when the client's end of the connection closes (or fails).
/// A client sends nothing after its request line, so any read that does
/// not return bytes means it went away; stray bytes are ignored.
async fn caller_gone(stream: &mut UnixStream) {
    let mut buffer = [0u8; 256];
    loop {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
    }
}

/// Writes the answer and hangs up.
async fn respond(mut stream: UnixStream, answer: Answer) -> Option<Farewell> {
    let _ = stream
        .write_all(format!("{}\n", answer.to_line()).as_bytes())
        .await;
    let _ = stream.shutdown().await;
    None
}

/// Refuses a request that asks for a domain policy other than the
/// session's (fixed when the daemon started, from the flags of the command
/// that started it).
fn same_policy(request: &RunRequest, global: &GlobalArgs) -> Result<(), Answer> {
    let Some(asked) = &request.policy else {
        return Ok(());
    };
    let ours = global.policy().map_err(|e| rejected(&e.to_string()))?;
    let mine = PolicyAsked {
        allowed: ours.allowed(),
        blocked: ours.blocked(),
    };
    if *asked == mine {
        return Ok(());
    }
    Err(Answer::rejected(
        &format!(
            "session {} runs with allowed domains {:?} and blocked domains {:?}, not the ones this command gives",
            global.session, mine.allowed, mine.blocked
        ),
        "run it without --allowed-domains/--blocked-domains, or end the session first (rove close) and start it with the flags you want",
    ))
}

/// Refuses a request whose flags name another browser than the session's
/// (`--cdp-url`, `--cdp-header`, `--browser`, `--headed`): the session's
/// browser was chosen when it started, and a command that asked for
/// another one must not run, silently, on this one. The message names the
/// session's own, credentials hidden (a header by its name alone).
fn same_browser(request: &RunRequest, global: &GlobalArgs) -> Result<(), Answer> {
    let Some(asked) = &request.browser else {
        return Ok(());
    };
    let mut differs: Vec<String> = Vec::new();
    if asked.cdp_url.is_some() && asked.cdp_url != global.cdp_url {
        differs.push(match &global.cdp_url {
            Some(url) => format!(
                "the browser at {}",
                rove_base::redact::hide_endpoint_credentials(url)
            ),
            None => "a browser it launched itself (no --cdp-url)".to_owned(),
        });
    }
    if !asked.cdp_headers.is_empty() && asked.cdp_headers != global.cdp_headers {
        let names: Vec<&str> = global
            .cdp_headers
            .iter()
            .map(|h| h.split(':').next().unwrap_or_default().trim())
            .collect();
        differs.push(match names.is_empty() {
            true => "no --cdp-header".to_owned(),
            false => format!("the --cdp-header {} (values not shown)", names.join(", ")),
        });
    }
    if asked.browser.is_some() && asked.browser != global.browser {
        differs.push(match &global.browser {
            Some(path) => format!("the browser {}", path.display()),
            None => "the browser rove found itself (no --browser)".to_owned(),
        });
    }
    if asked.headed && !global.headed {
        differs.push("a headless browser (no --headed)".to_owned());
    }
    if differs.is_empty() {
        return Ok(());
    }
    Err(Answer::rejected(
        &format!(
            "session {} runs with {}, not the browser this command asks for",
            global.session,
            differs.join(", ")
        ),
        "run it without --cdp-url/--cdp-header/--browser/--headed, or end the session first (rove close) and start it with the flags you want, or give it another --session",
    ))
}

/// Runs a command on the session, starting (or restarting) the browser
/// first when needed.
async fn run(
    command: &Command,
    caller: Caller,
    global: &GlobalArgs,
    transport: &TransportConfig,
    state: &mut State,
) -> Answer {
    let host = match &mut state.host {
        Some(host) => host,
        None => match global.session_config() {
            Ok(config) => state.host.insert(Host::new(rove_commands::SessionConfig {
                numbering: state.numbering.clone(),
                traces: state.traces.clone(),
                ..config
            })),
            Err(e) => return rejected(&e.to_string()),
        },
    };
    tracing::info!(command = command.name(), "running");
    let started = std::time::Instant::now();
    let acquire = || async { Ok(acquire(global, transport).await?) };
    let ran = host.execute(command, caller, acquire, |_| {});
    let ran = tokio::time::timeout(DAEMON_COMMAND, ran)
        .await
        .map(|(result, notes)| result.map(|outcome| (outcome, notes)));
    if host.session().is_some() {
        state.had_browser = true;
    } else if let Ok(Err(e)) = &ran {
        use rove_errors::{Classify, ErrorCode};
        let never_came = matches!(e.code(), ErrorCode::LaunchFailed | ErrorCode::NoBrowser);
        state.no_browser = never_came && !state.had_browser;
    }
    match ran {
        Err(_) => Answer::Failed {
            error: rove_errors::Report::new(
                rove_errors::ErrorCode::Timeout,
                format!(
                    "{} did not finish within {} s",
                    command.name(),
                    DAEMON_COMMAND.as_secs()
                ),
                "take a snapshot to see where the page is",
            ),
            fresh_view: None,
        },
        Ok(Err(e)) => failure(&e),
        Ok(Ok((outcome, notes))) => {
            let mut text = String::new();
            for note in &notes {
                text.push_str(note);
                text.push('\n');
            }
            // A shell asking eval or get for a value wants the value first.
            match command.entry().shell.printed {
                Printed::ValueFirst => text.push_str(&outcome.text_value_first()),
                Printed::Outcome => text.push_str(&outcome.text()),
            }
            let mut body = outcome.to_json();
            if !notes.is_empty() {
                body["notes"] = json!(notes);
            }
            // The time the command took in the daemon: what the CLI adds
            // on top is its own overhead (docs/benchmarks.md).
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            // An image returned inline (to an MCP host sharing the session).
            let image = outcome.image.as_ref().map(|image| {
                use base64::Engine;
                InlineImage {
                    mime: image.mime.to_owned(),
                    data: base64::engine::general_purpose::STANDARD.encode(&image.bytes),
                }
            });
            Answer::Done {
                outcome: body,
                text,
                ms,
                image,
            }
        }
    }
}

fn failure(e: &rove_commands::CommandError) -> Answer {
    Answer::Failed {
        error: e.report(),
        fresh_view: e.fresh_view().map(str::to_owned),
    }
}

pub(super) fn rejected(message: &str) -> Answer {
    Answer::rejected(message, "fix the request")
}
