//! The CLI's side: reach the session's daemon (starting it when there is
//! none), send one request, read one answer.

use std::path::Path;
use std::time::{Duration, Instant};

use rove_errors::ErrorCode;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

use crate::cli::GlobalArgs;
use crate::failure::Failure;

/// How long a new daemon may take to listen.
const START_DEADLINE: Duration = Duration::from_secs(15);
/// How long an answer may take: wider than the daemon's own deadline.
const ANSWER_DEADLINE: Duration = Duration::from_secs(360);

/// Sends `request` to the daemon of the session; starts the daemon first
/// when `start` is set and none answers.
pub async fn send(global: &GlobalArgs, request: &Value, start: bool) -> Result<Value, Failure> {
    let session = &global.session;
    if !super::valid_session(session) {
        return Err(Failure::new(
            ErrorCode::CommandRejected,
            format!("{session:?} is not a session name"),
            "use letters, digits, '-', '_' and '.', at most 64",
        ));
    }
    let dir = super::ensure_runtime_dir().map_err(|e| {
        Failure::new(
            ErrorCode::LaunchFailed,
            format!("no private folder for session daemons: {e}"),
            "set XDG_RUNTIME_DIR to a folder only you can write",
        )
    })?;
    let socket = super::socket_path(&dir, session);
    let stream = match UnixStream::connect(&socket).await {
        Ok(stream) => stream,
        Err(_) if !start => {
            return Err(Failure::new(
                ErrorCode::NoTab,
                format!("no session {session:?} is running"),
                "open a page first: rove open URL",
            ));
        }
        Err(_) => spawn_and_connect(global, &dir, &socket).await?,
    };
    exchange(stream, request).await
}

async fn exchange(stream: UnixStream, request: &Value) -> Result<Value, Failure> {
    let (read, mut write) = stream.into_split();
    let lost = |e: std::io::Error| {
        Failure::new(
            ErrorCode::BrowserDisconnected,
            format!("the session daemon went away: {e}"),
            "run the command again; a new daemon starts (see the session's log if it keeps failing)",
        )
    };
    write
        .write_all(format!("{request}\n").as_bytes())
        .await
        .map_err(lost)?;
    let mut lines = BufReader::new(read).lines();
    let line = tokio::time::timeout(ANSWER_DEADLINE, lines.next_line())
        .await
        .map_err(|_| {
            Failure::new(
                ErrorCode::Timeout,
                format!(
                    "the session daemon did not answer within {} s",
                    ANSWER_DEADLINE.as_secs()
                ),
                "rove close, then try again",
            )
        })?
        .map_err(lost)?
        .ok_or_else(|| lost(std::io::Error::other("it closed the connection")))?;
    serde_json::from_str(&line).map_err(|e| {
        Failure::new(
            ErrorCode::Internal,
            format!("the daemon's answer is not JSON ({e}): {line}"),
            "report this as a bug",
        )
    })
}

/// Starts `rove __daemon` detached from this process (its own session, no
/// terminal, stderr to the session's log) and waits until it listens.
async fn spawn_and_connect(
    global: &GlobalArgs,
    dir: &Path,
    socket: &Path,
) -> Result<UnixStream, Failure> {
    let failed = |why: String| {
        Failure::new(
            ErrorCode::LaunchFailed,
            format!("could not start the session daemon: {why}"),
            format!("see {}", super::log_path(dir, &global.session).display()),
        )
    };
    let exe = std::env::current_exe().map_err(|e| failed(e.to_string()))?;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(super::log_path(dir, &global.session))
        .map_err(|e| failed(e.to_string()))?;
    let mut command = std::process::Command::new(exe);
    command
        .arg("__daemon")
        .args(["--session", &global.session])
        .args(["--idle", &global.idle.to_string()])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log);
    if let Some(url) = &global.cdp_url {
        command.args(["--cdp-url", url]);
    }
    if let Some(browser) = &global.browser {
        command.arg("--browser").arg(browser);
    }
    if global.headed {
        command.arg("--headed");
    }
    // The session's policy, viewport and upload roots are fixed when it
    // starts.
    command.arg(format!(
        "--viewport={}x{}",
        global.viewport.width, global.viewport.height
    ));
    if let Some(allowed) = &global.allowed_domains {
        command.arg(format!("--allowed-domains={}", allowed.join(",")));
    }
    if !global.blocked_domains.is_empty() {
        command.arg(format!(
            "--blocked-domains={}",
            global.blocked_domains.join(",")
        ));
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    for root in &global.upload_roots {
        command.arg("--upload-root").arg(cwd.join(root));
    }
    for _ in 0..global.verbose {
        command.arg("-v");
    }
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid is async-signal-safe and touches no memory; it
        // detaches the daemon from this terminal's signals.
        unsafe {
            command.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
    }
    let mut child = command.spawn().map_err(|e| failed(e.to_string()))?;
    let started = Instant::now();
    let mut delay = Duration::from_millis(10);
    loop {
        if let Ok(stream) = UnixStream::connect(socket).await {
            return Ok(stream);
        }
        if let Ok(Some(status)) = child.try_wait() {
            // Another daemon won a race for this session: use it.
            if status.success() {
                if let Ok(stream) = UnixStream::connect(socket).await {
                    return Ok(stream);
                }
            }
            return Err(failed(format!("it exited with {status}")));
        }
        if started.elapsed() > START_DEADLINE {
            let _ = child.kill();
            return Err(failed(format!(
                "it did not listen within {} s",
                START_DEADLINE.as_secs()
            )));
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_millis(100));
    }
}
