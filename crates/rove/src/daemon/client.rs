//! The CLI's side: reach the session's daemon (starting it when there is
//! none, after waiting for a previous one to let go of the session), send one
//! request, read one answer; and `close`, which returns only once the
//! session is gone.

use std::path::Path;
use std::time::{Duration, Instant};

use rove_base::limits::{
    DAEMON_ANSWER, DAEMON_EXIT, DAEMON_EXIT_POLL, DAEMON_START, DAEMON_START_POLL,
};
use rove_errors::{ActionSent, ErrorCode};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::UnixStream;
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};

use super::lock;
use super::protocol::{Answer, Control, Greeting, Request};
use crate::cli::GlobalArgs;
use crate::failure::Failure;

/// A connection a live daemon took: it greeted, so it serves this request.
struct Greeted {
    lines: Lines<BufReader<OwnedReadHalf>>,
    write: OwnedWriteHalf,
    pid: Option<u64>,
    /// What the answer must say first when this daemon was started in
    /// place of one that ended without closing: the session was lost.
    lost: Option<String>,
}

/// Where a session's daemon lives; refuses bad names, unsafe folders and
/// socket paths the kernel cannot hold.
fn locate(global: &GlobalArgs) -> Result<(std::path::PathBuf, std::path::PathBuf), Failure> {
    let session = &global.session;
    if !super::valid_session(session) {
        return Err(Failure::new(
            ErrorCode::CommandRejected,
            format!("{session:?} is not a session name"),
            "use letters, digits, '-', '_' and '.', at most 64",
        ));
    }
    let dir = super::ensure_runtime_dir()?;
    let socket = super::socket_path(&dir, session)?;
    Ok((dir, socket))
}

/// Sends `request` to the daemon of the session; starts the daemon first
/// when `start` is set and none serves the session.
pub async fn send(global: &GlobalArgs, request: &Request, start: bool) -> Result<Answer, Failure> {
    let (dir, socket) = locate(global)?;
    tell_settings(global, &dir);
    let Some(greeted) = reach(global, &dir, &socket, start).await? else {
        return Err(Failure::new(
            ErrorCode::NoTab,
            format!("no session {:?} is running", global.session),
            "open a page first: rove open URL",
        ));
    };
    let lost = greeted.lost.clone();
    let answer = exchange(greeted, request).await?;
    Ok(match lost {
        Some(note) => said_first(answer, &note),
        None => answer,
    })
}

/// `answer` with `note` said before anything else: first of its notes
/// (text and `--json`), or before its error's message.
fn said_first(answer: Answer, note: &str) -> Answer {
    match answer {
        Answer::Done {
            mut outcome,
            text,
            ms,
            image,
        } => {
            if let Some(fields) = outcome.as_object_mut() {
                let mut notes = vec![serde_json::Value::String(note.to_owned())];
                if let Some(serde_json::Value::Array(old)) = fields.remove("notes") {
                    notes.extend(old);
                }
                fields.insert("notes".into(), serde_json::Value::Array(notes));
            }
            Answer::Done {
                outcome,
                text: format!("{note}\n{text}"),
                ms,
                image,
            }
        }
        Answer::Failed {
            mut error,
            fresh_view,
        } => {
            error.message = format!("{note}; then: {}", error.message);
            Answer::Failed { error, fresh_view }
        }
        other => other,
    }
}

/// The note for a session whose daemon ended without closing (killed, or
/// crashed): what went with it, and where its log is.
fn session_lost(session: &str, log: &Path) -> String {
    format!(
        "session {session} was lost: its daemon ended without closing (killed or crashed; its log is {}), and its browser with it: its tabs and their pages, history, cookies and storage, its refs, its network rules and settings are gone; this command ran in a new session",
        log.display()
    )
}

/// What the person at the shell must hear from this process, since the
/// work happens in the daemon, whose stderr is its log: a bad
/// `ROVE_CDP_TIMEOUT_S` (the daemon ignores it too), and with `-v`, where
/// the daemon's log is. Once per process (an MCP server sharing a session
/// sends many requests).
fn tell_settings(global: &GlobalArgs, dir: &Path) {
    static TOLD: std::sync::Once = std::sync::Once::new();
    TOLD.call_once(|| {
        let raw = std::env::var(rove_cdp::config::TIMEOUT_ENV).ok();
        if let Some(warning) = rove_cdp::config::parse_timeout(raw.as_deref()).warning {
            tracing::warn!("{warning}");
        }
        let log = super::log_path(dir, &global.session);
        tracing::debug!(
            "session {} runs in a daemon; its log is {}",
            global.session,
            log.display()
        );
    });
}

/// What `close` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Closed {
    /// No daemon held the session. `log` is the log of one that ended
    /// without closing (killed, or crashed): its socket and lock were
    /// swept, its log kept as the place that says why.
    Nothing { log: Option<std::path::PathBuf> },
    /// The session ended; `remote` is the `--cdp-url` (credentials hidden)
    /// of a browser rove did not start, which its owner ends.
    Session { remote: Option<String> },
}

/// What a daemon that ended without closing left of a session nobody holds
/// now: its socket and lock go (taken first, so a daemon starting this
/// moment is left alone); the log stays, and is returned when there is one.
fn sweep(dir: &Path, socket: &Path, session: &str) -> Option<std::path::PathBuf> {
    let lock_file = super::lock_path(dir, session);
    let had = socket.exists() || lock_file.exists();
    let lock = lock::SessionLock::try_take(&lock_file).ok()??;
    let _ = std::fs::remove_file(socket);
    lock.release_and_remove(&lock_file);
    let log = super::log_path(dir, session);
    (had && log.exists()).then_some(log)
}

/// Ends the session: the daemon closes its browser (for a browser given
/// with `--cdp-url`, disposes its contexts), lets go of the session's lock,
/// answers, and exits; this returns after all of that.
pub async fn close(global: &GlobalArgs) -> Result<Closed, Failure> {
    let (dir, socket) = locate(global)?;
    let Some(mut greeted) = reach(global, &dir, &socket, false).await? else {
        return Ok(Closed::Nothing {
            log: sweep(&dir, &socket, &global.session),
        });
    };
    let pid = greeted.pid;
    let lock_file = super::lock_path(&dir, &global.session);
    let lost = |why: String| {
        Failure::new(
            ErrorCode::BrowserDisconnected,
            format!(
                "the session daemon ended before it confirmed the close ({why}), and the session is still held"
            ),
            "run rove close again; it waits for the session to be free",
        )
    };
    let close = Request::Control {
        control: Control::Close,
    };
    let line = serde_json::to_string(&close).unwrap_or_default() + "\n";
    let asked = greeted.write.write_all(line.as_bytes()).await;
    let answer = match asked {
        Err(e) => Err(e.to_string()),
        Ok(()) => match tokio::time::timeout(DAEMON_ANSWER, greeted.lines.next_line()).await {
            Err(_) => return Err(waited_too_long(None)),
            Ok(Err(e)) => Err(e.to_string()),
            Ok(Ok(None)) => Err("it closed the connection".to_owned()),
            Ok(Ok(Some(line))) => Ok(line),
        },
    };
    let answer = match answer {
        Ok(line) => line,
        // It died on the way out: the session is gone once its lock is free.
        Err(why) => {
            if wait_free(&lock_file, DAEMON_EXIT).await {
                return Ok(Closed::Session { remote: None });
            }
            return Err(lost(why));
        }
    };
    let confirmed: Answer = serde_json::from_str(&answer).map_err(|e| not_json(&e, &answer))?;
    let Answer::Closed { remote } = confirmed else {
        return Err(Failure::new(
            ErrorCode::Internal,
            format!("the daemon did not confirm the close: {answer}"),
            "report this as a bug",
        ));
    };
    // The daemon answers once its browser ended and the lock is free; the
    // connection ends when its process is gone.
    let exited = tokio::time::timeout(DAEMON_EXIT, async {
        while let Ok(Some(_)) = greeted.lines.next_line().await {}
    })
    .await;
    // Its files are released as it exits; the process itself ends a moment
    // later.
    let exited = match (exited, pid) {
        (Ok(()), Some(pid)) => tokio::time::timeout(DAEMON_EXIT, process_ended(pid)).await,
        (exited, _) => exited,
    };
    if exited.is_err() {
        return Err(Failure::new(
            ErrorCode::Timeout,
            format!(
                "the session daemon{} closed its browser but did not exit within {} s",
                pid.map(|p| format!(" (pid {p})")).unwrap_or_default(),
                DAEMON_EXIT.as_secs()
            ),
            "the session is free for a new daemon already; report this as a bug",
        ));
    }
    Ok(Closed::Session { remote })
}

/// Resolves once process `pid` is gone or a zombie (it exited and only
/// waits to be reaped).
async fn process_ended(pid: u64) {
    let mut delay = DAEMON_EXIT_POLL.first;
    loop {
        let running = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
        });
        if !running {
            return;
        }
        tokio::time::sleep(delay).await;
        delay = DAEMON_EXIT_POLL.next(delay);
    }
}

/// Waits up to `limit` for the session's lock to be free.
async fn wait_free(lock_file: &Path, limit: Duration) -> bool {
    let began = Instant::now();
    let mut delay = DAEMON_START_POLL.first;
    loop {
        if lock::is_free(lock_file).unwrap_or(false) {
            return true;
        }
        if began.elapsed() > limit {
            return false;
        }
        tokio::time::sleep(delay).await;
        delay = DAEMON_START_POLL.next(delay);
    }
}

/// Connects to the session's daemon. When nothing takes the connection:
/// with `start`, starts a daemon once the session's lock is free (waiting
/// for a previous daemon to let go of it) and connects to it; without,
/// `Ok(None)` once the lock is free (no daemon holds the session). Bounded
/// by [`DAEMON_START`].
async fn reach(
    global: &GlobalArgs,
    dir: &Path,
    socket: &Path,
    start: bool,
) -> Result<Option<Greeted>, Failure> {
    let session = &global.session;
    let lock_file = super::lock_path(dir, session);
    let log = super::log_path(dir, session);
    let began = Instant::now();
    let mut child: Option<std::process::Child> = None;
    let mut delay = DAEMON_START_POLL.first;
    let mut told = false;
    let mut started = false;
    let mut lost: Option<String> = None;
    loop {
        if let Some(mut greeted) = greeted(socket).await? {
            greeted.lost = lost;
            return Ok(Some(greeted));
        }
        if let Some(status) = child.as_mut().and_then(|c| c.try_wait().ok().flatten()) {
            child = None;
            // Another daemon holds the lock (one starting, or one ending):
            // wait for it below. Any other early exit is a failure.
            if status.code() != Some(super::LOCK_HELD_STATUS) {
                return Err(start_failed(
                    &log,
                    format!("it exited with {status}{}", log_tail(&log)),
                ));
            }
        }
        if child.is_none() {
            let free = lock::is_free(&lock_file).map_err(|e| {
                start_failed(
                    &log,
                    format!(
                        "the session's lock {} cannot be read: {e}",
                        lock_file.display()
                    ),
                )
            })?;
            if free {
                if !start {
                    return Ok(None);
                }
                // A daemon that ends removes its socket and lock file; one
                // killed or crashed leaves them. (Only before the first
                // daemon this call starts: its own lock file is no remains.)
                if lost.is_none() && !started && (socket.exists() || lock_file.exists()) {
                    lost = Some(session_lost(session, &log));
                }
                started = true;
                child = Some(spawn_daemon(global, dir)?);
            } else if !told {
                told = true;
                tracing::debug!(holder = ?lock::last_holder(&lock_file), "another daemon holds the session; waiting for it to let go");
            }
        }
        if began.elapsed() > DAEMON_START {
            return Err(match child.take() {
                Some(mut ours) => {
                    let _ = ours.kill();
                    let _ = ours.wait();
                    start_failed(
                        &log,
                        format!(
                            "it did not listen within {} s{}",
                            DAEMON_START.as_secs(),
                            log_tail(&log)
                        ),
                    )
                }
                None => lock_still_held(session, &lock_file, &log),
            });
        }
        tokio::time::sleep(delay).await;
        delay = DAEMON_START_POLL.next(delay);
    }
}

/// Connects and waits for the daemon's greeting (behind another shell's
/// command, if one runs). `Ok(None)` when no live daemon took the
/// connection: nothing listens, or the listener closed before serving it
/// (a daemon that was ending or was killed), so nothing was sent.
async fn greeted(socket: &Path) -> Result<Option<Greeted>, Failure> {
    let Ok(stream) = UnixStream::connect(socket).await else {
        return Ok(None);
    };
    let (read, write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let line = match tokio::time::timeout(DAEMON_ANSWER, lines.next_line()).await {
        Err(_) => return Err(waited_too_long(None)),
        Ok(Ok(Some(line))) => line,
        Ok(Ok(None) | Err(_)) => return Ok(None),
    };
    let greeting = serde_json::from_str::<Greeting>(&line)
        .ok()
        .filter(|g| g.ready)
        .ok_or_else(|| {
            Failure::new(
                ErrorCode::Internal,
                format!("the session daemon did not greet as expected: {line}"),
                "a daemon of another rove version may serve this session; rove close, then try again",
            )
        })?;
    Ok(Some(Greeted {
        lines,
        write,
        pid: Some(u64::from(greeting.pid)),
        lost: None,
    }))
}

/// Sends the request and reads the answer. Once the request was written, a
/// failure of an acting command may have reached the page: `possibly_sent`.
async fn exchange(mut greeted: Greeted, request: &Request) -> Result<Answer, Failure> {
    let command = request.command();
    let name = command.map_or("the request", |c| c.name());
    let acts = command.is_some_and(rove_commands::Command::acts);
    let line = serde_json::to_string(request).map_err(|e| {
        Failure::new(
            ErrorCode::Internal,
            format!("the request did not serialize: {e}"),
            "report this as a bug",
        )
    })?;
    greeted
        .write
        .write_all(format!("{line}\n").as_bytes())
        .await
        .map_err(|e| daemon_ended(name, &e.to_string(), None))?;
    let sent = if acts {
        ActionSent::PossiblySent
    } else {
        ActionSent::NotSent
    };
    let line = tokio::time::timeout(DAEMON_ANSWER, greeted.lines.next_line())
        .await
        .map_err(|_| waited_too_long(Some((name, sent))))?
        .map_err(|e| daemon_ended(name, &e.to_string(), Some(acts)))?
        .ok_or_else(|| daemon_ended(name, "it closed the connection", Some(acts)))?;
    serde_json::from_str(&line).map_err(|e| not_json(&e, &line))
}

/// The daemon went away: before it had the request (`running` is `None`),
/// or while it ran a command that acts (`Some(true)`) or only reads.
fn daemon_ended(name: &str, why: &str, running: Option<bool>) -> Failure {
    let again = "run the command again; a new daemon and browser start (tabs and refs start over)";
    let (message, hint, sent) = match running {
        None => (
            format!("the session daemon ended before {name} ran: {why}"),
            again,
            ActionSent::NotSent,
        ),
        Some(false) => (
            format!(
                "the session daemon ended while it ran {name}, which only reads the page: {why}"
            ),
            again,
            ActionSent::NotSent,
        ),
        Some(true) => (
            format!(
                "the session daemon ended while it ran {name}, which may have reached the page: {why}"
            ),
            "its browser ended with it; rove open the page again and check it before repeating the action",
            ActionSent::PossiblySent,
        ),
    };
    let mut failure = Failure::new(ErrorCode::BrowserDisconnected, message, hint);
    failure.report = failure.report.sent(sent);
    failure
}

/// No answer within [`DAEMON_ANSWER`].
fn waited_too_long(running: Option<(&str, ActionSent)>) -> Failure {
    let (what, sent) = match running {
        Some((name, sent)) => (format!("did not answer {name}"), sent),
        None => ("did not take the request".to_owned(), ActionSent::NotSent),
    };
    let mut failure = Failure::new(
        ErrorCode::Timeout,
        format!(
            "the session daemon {what} within {} s",
            DAEMON_ANSWER.as_secs()
        ),
        "rove close, then try again",
    );
    failure.report = failure.report.sent(sent);
    failure
}

fn not_json(e: &serde_json::Error, line: &str) -> Failure {
    Failure::new(
        ErrorCode::Internal,
        format!("the daemon's answer is not JSON ({e}): {line}"),
        "report this as a bug",
    )
}

fn start_failed(log: &Path, why: String) -> Failure {
    Failure::new(
        ErrorCode::LaunchFailed,
        format!("could not start the session daemon: {why}"),
        format!("see {}", log.display()),
    )
}

/// The session's lock stayed held through [`DAEMON_START`] and nothing
/// answered on its socket.
fn lock_still_held(session: &str, lock_file: &Path, log: &Path) -> Failure {
    let holder = lock::last_holder(lock_file);
    Failure::new(
        ErrorCode::LaunchFailed,
        format!(
            "session {session:?} is still held by an earlier daemon{} that does not answer (waited {} s for it to end)",
            holder.map(|p| format!(" (pid {p})")).unwrap_or_default(),
            DAEMON_START.as_secs()
        ),
        match holder {
            Some(pid) => format!(
                "try again in a moment; if it stays stuck, end it with kill {pid} (its log: {})",
                log.display()
            ),
            None => format!("try again in a moment (see {})", log.display()),
        },
    )
}

/// The last lines of a daemon's log, for a failure message.
fn log_tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "; its log ends with:\n{}",
        lines[lines.len().saturating_sub(5)..].join("\n")
    )
}

/// Starts `rove __daemon` detached from this process (its own session, no
/// terminal, stderr to the session's log).
fn spawn_daemon(global: &GlobalArgs, dir: &Path) -> Result<std::process::Child, Failure> {
    let failed = |why: String| {
        Failure::new(
            ErrorCode::LaunchFailed,
            format!("could not start the session daemon: {why}"),
            format!("see {}", super::log_path(dir, &global.session).display()),
        )
    };
    let exe = std::env::current_exe().map_err(|e| failed(e.to_string()))?;
    let log = rove_base::user_file::open_to_append(
        &super::log_path(dir, &global.session),
        rove_base::user_file::Access::Private,
    )
    .map_err(|e| failed(e.into_io().to_string()))?;
    let cwd = std::env::current_dir().unwrap_or_default();
    // Every option travels whole, as one value on the daemon's stdin: the
    // session's policy, viewport and upload roots are fixed when it starts.
    // Its log is text, whatever this command prints.
    let options = GlobalArgs {
        json: false,
        ..global.rooted(&cwd)
    };
    let options = serde_json::to_vec(&options)
        .map_err(|e| failed(format!("its options could not be written: {e}")))?;
    let mut command = std::process::Command::new(exe);
    command
        .args(["__daemon", "--options-on-stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(log);
    // The daemon logs where the command that started it was told to; a
    // relative path means that command's folder.
    for name in [crate::logging::ENV_FILE, crate::logging::ENV_DIR] {
        if let Some(path) = std::env::var_os(name).filter(|p| !p.is_empty()) {
            command.env(name, cwd.join(path));
        }
    }
    // The daemon detaches from this terminal's signals itself, first thing
    // (`setsid` in main), so no code runs between fork and exec here.
    let mut child = command.spawn().map_err(|e| failed(e.to_string()))?;
    // A few hundred bytes fit the pipe whatever the daemon does; one that
    // ended before reading them is seen ending by the caller, as any other.
    if let Some(mut stdin) = child.stdin.take()
        && let Err(e) = std::io::Write::write_all(&mut stdin, &options)
    {
        tracing::debug!(error = %e, "the daemon did not take its options");
    }
    Ok(child)
}
