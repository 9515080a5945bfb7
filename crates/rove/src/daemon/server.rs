//! The daemon process: owns the browser and the session, serves one request
//! at a time on the session's socket, exits when idle or told to.

use std::os::fd::AsRawFd;
use std::time::Duration;

use rove_browser::Browser;
use rove_cdp::TransportConfig;
use rove_commands::{Caller, Command, Session};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};

use crate::acquire::acquire;
use crate::cli::GlobalArgs;

/// How long a client may take to send its request.
const READ_DEADLINE: Duration = Duration::from_secs(10);
/// The outermost deadline of one command (wider than any command's own).
const COMMAND_DEADLINE: Duration = Duration::from_secs(330);

/// The browser and session a daemon owns, made on first use and made again
/// when the browser died.
struct Owned {
    browser: Browser,
    session: Session,
}

/// Runs the daemon of `session` until it is idle for `idle` or closed.
/// Returns the exit status.
pub async fn serve(global: &GlobalArgs, session: &str, idle: Duration) -> u8 {
    let dir = match super::ensure_runtime_dir() {
        Ok(dir) => dir,
        Err(e) => {
            tracing::error!(error = %e, "no private folder for the daemon");
            return 6;
        }
    };
    // One daemon per session: the lock is held for the daemon's life, so a
    // second one started by a racing client exits here.
    let lock_path = dir.join(format!("{session}.lock"));
    let Some(_lock) = take_lock(&lock_path) else {
        tracing::debug!(session, "another daemon serves this session");
        return 0;
    };
    let socket = super::socket_path(&dir, session);
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
    let mut owned: Option<Owned> = None;
    loop {
        let accepted = match tokio::time::timeout(idle, listener.accept()).await {
            Err(_) => {
                tracing::info!(session, "idle; exiting");
                break;
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "accept failed");
                continue;
            }
            Ok(Ok((stream, _))) => stream,
        };
        let close = handle(accepted, global, &transport, &mut owned, &socket).await;
        if close {
            break;
        }
    }
    let _ = std::fs::remove_file(&socket);
    if let Some(owned) = owned.take() {
        let _ = owned.session.close().await;
        owned.browser.close().await;
    }
    0
}

/// Serves one connection: one request line, one answer line. Returns whether
/// the daemon should exit.
async fn handle(
    stream: UnixStream,
    global: &GlobalArgs,
    transport: &TransportConfig,
    owned: &mut Option<Owned>,
    socket: &std::path::Path,
) -> bool {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let line = match tokio::time::timeout(READ_DEADLINE, lines.next_line()).await {
        Ok(Ok(Some(line))) => line,
        _ => return false,
    };
    let (answer, close) = match serde_json::from_str::<Value>(&line) {
        Err(e) => (rejected(&format!("the request is not JSON: {e}")), false),
        Ok(request) => match request["control"].as_str() {
            Some("ping") => {
                let browser_pid = owned.as_ref().and_then(|o| o.browser.pid());
                (
                    json!({"ok": true, "pid": std::process::id(), "browser_pid": browser_pid}),
                    false,
                )
            }
            Some("close") => {
                // Gone from the folder before the answer: a command that
                // follows `rove close` starts a new daemon.
                let _ = std::fs::remove_file(socket);
                (json!({"ok": true, "closed": true}), true)
            }
            Some(other) => (rejected(&format!("unknown control {other:?}")), false),
            None => match parse_request(&request, global) {
                Err(answer) => (answer, false),
                Ok((command, caller)) => {
                    (run(&command, caller, global, transport, owned).await, false)
                }
            },
        },
    };
    let _ = write.write_all(format!("{answer}\n").as_bytes()).await;
    let _ = write.shutdown().await;
    close
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
    owned: &mut Option<Owned>,
) -> Value {
    let mut notes = Vec::new();
    let alive = match owned {
        Some(o) => o.browser.is_alive().await,
        None => false,
    };
    if !alive {
        if let Some(dead) = owned.take() {
            dead.browser.close().await;
            notes.push("the browser had died; started a new one (tabs and refs start over)");
        }
        match start(global, transport).await {
            Ok(o) => *owned = Some(o),
            Err(e) => return failure(&e),
        }
    }
    let Some(o) = owned else {
        return rejected("no session");
    };
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
) -> Result<Owned, rove_commands::CommandError> {
    let config = global
        .session_config()
        .map_err(|e| rove_commands::CommandError::Rejected(e.to_string()))?;
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

/// An exclusive `flock` on `path`, held while the returned file lives.
fn take_lock(path: &std::path::Path) -> Option<std::fs::File> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .ok()?;
    // SAFETY: flock on a descriptor this function owns; no memory involved.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
    locked.then_some(file)
}
