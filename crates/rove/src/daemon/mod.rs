//! Session daemons: one background process per user and session name owns
//! the browser, its context and its tabs, so one CLI command after another
//! finds the page where the last one left it.
//!
//! The first command of a session starts `rove __daemon` detached, which
//! takes the session's lock (`<session>.lock`, a `flock` held for the
//! daemon's life) and listens on a Unix socket in the private runtime folder
//! (`$XDG_RUNTIME_DIR/rove`, or `$TMPDIR/rove-<uid>`; 0700, checked by
//! `rove_browser::ensure_runtime_dir`). On each connection the daemon first
//! greets (`{"ready":true,"pid":…}`), then reads one JSON line (a command of
//! `rove-commands`, or a control word) and writes one JSON line back. The
//! greeting tells a client that a live daemon took its connection: one that
//! closes before it was never served, and the client can safely start a new
//! daemon. The daemon serves one connection at a time, so two shells using
//! the same session are served in order, never interleaved inside one
//! action. It exits after an idle timeout or on `rove close`, and ends its
//! browser before it lets go of the lock.

pub mod client;
pub mod lock;
pub mod protocol;
pub mod server;
mod tracing;

use std::path::{Path, PathBuf};

use rove_errors::{ErrorCode, Retry};

use crate::failure::Failure;

/// The status a daemon exits with when another process holds the session's
/// lock: a daemon still starting or still ending. The client waits and
/// tries again; any other early exit is a failure.
pub const LOCK_HELD_STATUS: i32 = 75;

/// The global options a command that started this daemon handed it on
/// stdin (see `client::spawn_daemon`).
pub fn handed_options() -> Result<crate::cli::GlobalArgs, Failure> {
    let refused = |why: String| {
        Failure::new(
            ErrorCode::Internal,
            format!("the daemon's options could not be read from stdin: {why}"),
            "start a session with any rove command instead of rove __daemon",
        )
    };
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
        .map_err(|e| refused(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| refused(e.to_string()))
}

/// The private folder of this user's daemons, created or checked: 0700, a
/// real folder (not a symlink), this user's. One that fails a check is
/// refused and left untouched.
pub fn ensure_runtime_dir() -> Result<PathBuf, Failure> {
    rove_browser::ensure_runtime_dir().map_err(|e| {
        let mut failure = Failure::from_error(&e);
        failure.report.message = format!("no private folder for session daemons: {e}");
        failure.report.retry = Retry::Never;
        failure
    })
}

/// A session name is a file name: letters, digits, `-`, `_`, `.`; at most 64.
pub fn valid_session(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The longest path a Unix socket address holds, without the closing NUL
/// (107 bytes on Linux, 103 on the BSDs).
fn socket_path_limit() -> usize {
    rove_browser::socket_path_max()
}

/// The socket of a session, or why it cannot have one: a socket's path must
/// fit in the kernel's address (see [`socket_path_limit`]), and a long
/// runtime folder or session name overflows it.
pub fn socket_path(dir: &Path, session: &str) -> Result<PathBuf, Failure> {
    let path = dir.join(format!("{session}.sock"));
    let limit = socket_path_limit();
    let length = path.as_os_str().len();
    if length <= limit {
        return Ok(path);
    }
    // What a one-letter session name would leave for the folder.
    let fixed = dir.as_os_str().len() + "/.sock".len();
    let message = format!(
        "the session socket {} is {length} bytes long, and a Unix socket path may be at most {limit}",
        path.display()
    );
    let mut failure = if fixed < limit {
        let room = limit - fixed;
        Failure::new(
            ErrorCode::CommandRejected,
            format!("{message}: the session name {session:?} is too long for this folder"),
            format!(
                "use a session name of at most {room} characters here, or set XDG_RUNTIME_DIR to a shorter folder"
            ),
        )
    } else {
        Failure::new(
            ErrorCode::LaunchFailed,
            format!(
                "{message}: the runtime folder {} alone is too long",
                dir.display()
            ),
            format!(
                "set XDG_RUNTIME_DIR to a shorter folder (rove adds /rove/<session>.sock; one of at most {} bytes fits any session name)",
                limit.saturating_sub(75)
            ),
        )
    };
    failure.report.retry = Retry::Never;
    Err(failure)
}

/// The log of a session's daemon (its stderr).
pub fn log_path(dir: &Path, session: &str) -> PathBuf {
    dir.join(format!("{session}.log"))
}

/// The lock a session's daemon holds for its life.
pub fn lock_path(dir: &Path, session: &str) -> PathBuf {
    dir.join(format!("{session}.lock"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_names_are_plain_file_names() {
        for good in ["default", "work-1", "a_b.c"] {
            assert!(valid_session(good), "{good}");
        }
        for bad in ["", ".hidden", "a/b", "../x", "sp ace", &"x".repeat(65)] {
            assert!(!valid_session(bad), "{bad}");
        }
    }

    #[test]
    fn a_socket_path_over_the_limit_names_what_is_too_long() {
        let limit = socket_path_limit();
        let short = Path::new("/run/user/1000/rove");
        assert!(socket_path(short, "default").is_ok());
        let name = "n".repeat(64);
        let fits = PathBuf::from(format!("/{}", "d".repeat(limit - 64 - 7)));
        assert_eq!(
            socket_path(&fits, &name)
                .expect("exactly at the limit")
                .as_os_str()
                .len(),
            limit
        );
        let folder = PathBuf::from(format!("/{}", "d".repeat(60)));
        let by_name = socket_path(&folder, &name).expect_err("too long");
        assert_eq!(by_name.report.code, ErrorCode::CommandRejected);
        assert!(
            by_name.report.hint.contains(&format!(
                "at most {} characters",
                limit - folder.as_os_str().len() - 6
            )),
            "{:?}",
            by_name.report
        );
        let long = PathBuf::from(format!("/{}", "d".repeat(limit)));
        let by_folder = socket_path(&long, "default").expect_err("too long");
        assert_eq!(by_folder.report.code, ErrorCode::LaunchFailed);
        assert!(by_folder.report.message.contains("alone is too long"));
        assert!(by_folder.report.hint.contains("XDG_RUNTIME_DIR"));
        assert_eq!(by_folder.report.retry, Retry::Never);
    }
}
