//! The daemon process: owns the browser and the session, serves one request
//! at a time on the session's socket, exits when idle or told to.

use std::os::fd::IntoRawFd;
use std::time::Duration;

use rove_browser::Browser;
use rove_cdp::TransportConfig;
use rove_commands::{Caller, Command, Session};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};

use super::lock::SessionLock;
use crate::acquire::acquire;
use crate::cli::GlobalArgs;

/// How long a client may take to send its request.
const READ_DEADLINE: Duration = Duration::from_secs(10);
/// The outermost deadline of one command (wider than any command's own).
const COMMAND_DEADLINE: Duration = Duration::from_secs(330);
/// How long a closing daemon waits for its session's context to be disposed.
const SESSION_CLOSE_DEADLINE: Duration = Duration::from_secs(5);
/// How long a closing daemon tries to reach a remote browser to dispose the
/// contexts of a link it lost.
const ORPHAN_DEADLINE: Duration = Duration::from_secs(5);

/// The browser and session a daemon owns, made on first use and made again
/// when the browser died.
struct Owned {
    browser: Browser,
    session: Session,
}

/// What a daemon keeps between requests.
#[derive(Default)]
struct State {
    owned: Option<Owned>,
    /// Contexts of a remote browser whose link was lost that could not be
    /// disposed yet: the next link to that browser (or the daemon's exit)
    /// disposes them, so their tabs do not stay open there.
    orphans: Vec<String>,
    /// Tab ids and refs of the session, kept across browser restarts so an
    /// old `t1` or `e7` never names something new.
    numbering: rove_commands::Numbering,
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
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o600));
    }
    tracing::info!(session, pid = std::process::id(), "daemon listening");
    let transport = TransportConfig::from_env();
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
    };
    // Leaving, in the order the next daemon needs: connections still
    // waiting are refused (their clients start a new daemon once the lock
    // is free), the socket goes while the lock still guards it, the browser
    // ends, and only then is the session free.
    drop(listener);
    let _ = std::fs::remove_file(&socket);
    end(state, global, &transport).await;
    drop(lock);
    if let Some(Farewell { mut stream }) = farewell {
        let _ = stream
            .write_all(format!("{}\n", json!({"ok": true, "closed": true})).as_bytes())
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
async fn end(mut state: State, global: &GlobalArgs, transport: &TransportConfig) {
    if let Some(owned) = state.owned.take() {
        // Disposing the context is a courtesy to a remote browser (closing
        // the browser disposes it too): bounded tighter than a CDP call.
        let _ = tokio::time::timeout(SESSION_CLOSE_DEADLINE, owned.session.close()).await;
        owned.browser.close().await;
        state.orphans.extend(owned.browser.undisposed_contexts());
    }
    if state.orphans.is_empty() || global.cdp_url.is_none() {
        return;
    }
    let last_try = async {
        if let Ok(browser) = acquire(global, transport).await {
            browser
                .adopt_contexts(std::mem::take(&mut state.orphans))
                .await;
            browser.close().await;
        }
    };
    if tokio::time::timeout(ORPHAN_DEADLINE, last_try)
        .await
        .is_err()
    {
        tracing::warn!(
            "the remote browser could not be reached to dispose the contexts of a lost link"
        );
    }
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
    let greeting = json!({"ready": true, "pid": std::process::id()});
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
        match tokio::time::timeout(READ_DEADLINE, reader.read_line(&mut line)).await {
            Ok(Ok(n)) if n > 0 => {}
            _ => return None,
        }
    }
    let answer = match serde_json::from_str::<Value>(&line) {
        Err(e) => rejected(&format!("the request is not JSON: {e}")),
        Ok(request) => match request["control"].as_str() {
            Some("ping") => {
                let browser_pid = state.owned.as_ref().and_then(|o| o.browser.pid());
                json!({"ok": true, "pid": std::process::id(), "browser_pid": browser_pid})
            }
            Some("close") => return Some(Farewell { stream }),
            Some(other) => rejected(&format!("unknown control {other:?}")),
            None => match parse_request(&request, global) {
                Err(answer) => answer,
                Ok((command, caller)) => run(&command, caller, global, transport, state).await,
            },
        },
    };
    let _ = stream.write_all(format!("{answer}\n").as_bytes()).await;
    let _ = stream.shutdown().await;
    None
}

/// The command of a request and who it runs for; refused when the request
/// asks for a domain policy other than the session's (fixed when the daemon
/// started, from the flags of the command that started it).
fn parse_request(request: &Value, global: &GlobalArgs) -> Result<(Command, Caller), Value> {
    let command = serde_json::from_value::<Command>(request["command"].clone())
        .map_err(|e| rejected(&format!("not a command: {e}")))?;
    let caller = match request.get("caller") {
        None => Caller::Model,
        Some(c) => serde_json::from_value(c.clone())
            .map_err(|e| rejected(&format!("not a caller: {e}")))?,
    };
    if let Some(asked) = request.get("policy") {
        let ours = global.policy().map_err(|e| rejected(&e.to_string()))?;
        let mine = json!({"allowed": ours.allowed(), "blocked": ours.blocked()});
        if *asked != mine {
            return Err(json!({"ok": false, "error": rove_errors::Report::new(
                rove_errors::ErrorCode::CommandRejected,
                format!(
                    "session {} runs with allowed domains {} and blocked domains {}, not the ones this command gives",
                    global.session, mine["allowed"], mine["blocked"]
                ),
                "run it without --allowed-domains/--blocked-domains, or end the session first (rove close) and start it with the flags you want",
            )}));
        }
    }
    Ok((command, caller))
}

/// Runs a command on the session, starting (or restarting) the browser
/// first when needed.
async fn run(
    command: &Command,
    caller: Caller,
    global: &GlobalArgs,
    transport: &TransportConfig,
    state: &mut State,
) -> Value {
    let mut notes = Vec::new();
    let alive = match &state.owned {
        Some(o) => o.browser.is_alive().await,
        None => false,
    };
    if !alive {
        if let Some(dead) = state.owned.take() {
            // A remote browser reachable again gets the old contexts
            // disposed here; one still unreachable leaves them as orphans.
            dead.browser.close().await;
            state.orphans.extend(dead.browser.undisposed_contexts());
            notes.push(if dead.browser.is_launched() {
                "the browser had died; started a new one (its tabs are gone; new tabs and refs go on from the old numbers, so an old one never names something new)"
            } else {
                "the link to the browser was lost; connected again in a new context (its tabs are gone; new tabs and refs go on from the old numbers)"
            });
        }
        match start(global, transport, &state.numbering).await {
            Ok(o) => {
                if !state.orphans.is_empty() {
                    o.browser
                        .adopt_contexts(std::mem::take(&mut state.orphans))
                        .await;
                }
                state.owned = Some(o);
            }
            Err(e) => return failure(&e),
        }
    }
    let Some(o) = &mut state.owned else {
        return rejected("no session");
    };
    tracing::info!(command = command.name(), "running");
    let started = std::time::Instant::now();
    match tokio::time::timeout(COMMAND_DEADLINE, o.session.execute_for(command, caller)).await {
        Err(_) => json!({"ok": false, "error": rove_errors::Report::new(
            rove_errors::ErrorCode::Timeout,
            format!("{} did not finish within {} s", command.name(), COMMAND_DEADLINE.as_secs()),
            "take a snapshot to see where the page is",
        )}),
        Ok(Err(e)) => failure(&e),
        Ok(Ok(outcome)) => {
            let mut text = String::new();
            for note in &notes {
                text.push_str(note);
                text.push('\n');
            }
            text.push_str(&outcome.text());
            let mut body = outcome.to_json();
            if !notes.is_empty() {
                body["notes"] = json!(notes);
            }
            // The time the command took in the daemon: what the CLI adds
            // on top is its own overhead (docs/benchmarks.md).
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            let mut answer = json!({"ok": true, "outcome": body, "text": text, "ms": ms});
            // An image returned inline (to an MCP host sharing the session).
            if let Some(image) = &outcome.image {
                use base64::Engine;
                let data = base64::engine::general_purpose::STANDARD.encode(&image.bytes);
                answer["image"] = json!({"mime": image.mime, "data": data});
            }
            answer
        }
    }
}

async fn start(
    global: &GlobalArgs,
    transport: &TransportConfig,
    numbering: &rove_commands::Numbering,
) -> Result<Owned, rove_commands::CommandError> {
    let config = rove_commands::SessionConfig {
        numbering: numbering.clone(),
        ..global
            .session_config()
            .map_err(|e| rove_commands::CommandError::Rejected(e.to_string()))?
    };
    let browser = acquire(global, transport).await?;
    let session = match Session::start(&browser, config).await {
        Ok(s) => s,
        Err(e) => {
            browser.close().await;
            return Err(e);
        }
    };
    Ok(Owned { browser, session })
}

fn failure(e: &rove_commands::CommandError) -> Value {
    json!({"ok": false, "error": e.report(), "fresh_view": e.fresh_view()})
}

fn rejected(message: &str) -> Value {
    json!({"ok": false, "error": rove_errors::Report::new(
        rove_errors::ErrorCode::CommandRejected,
        message,
        "fix the request",
    )})
}
