//! Session daemons: one background process per user and session name owns
//! the browser, its context and its tabs, so one CLI command after another
//! finds the page where the last one left it.
//!
//! The first command of a session starts `rove __daemon` detached, which
//! listens on a Unix socket in a private folder (`$XDG_RUNTIME_DIR/rove`, or
//! `$TMPDIR/rove-<uid>`; 0700). A client sends one JSON line (a command of
//! `rove-commands`, or a control word) and reads one JSON line back. The
//! daemon serves one connection at a time, so two shells using the same
//! session are served in order, never interleaved inside one action. It exits
//! after an idle timeout or on `rove close`, and ends its browser.

pub mod client;
pub mod server;

use std::path::PathBuf;

/// The private folder of this user's daemons.
pub fn runtime_dir() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir).join("rove"),
        // SAFETY: getuid cannot fail and touches no memory.
        None => std::env::temp_dir().join(format!("rove-{}", unsafe { libc::getuid() })),
    }
}

/// Creates the folder with 0700, and refuses one that others can enter or
/// that belongs to someone else (a socket there could be another user's).
pub fn ensure_runtime_dir() -> std::io::Result<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    let dir = runtime_dir();
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)?;
    let meta = std::fs::metadata(&dir)?;
    // SAFETY: as above.
    let uid = unsafe { libc::getuid() };
    if meta.uid() != uid {
        return Err(std::io::Error::other(format!(
            "{} belongs to another user",
            dir.display()
        )));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(dir)
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

/// The socket of a session.
pub fn socket_path(dir: &std::path::Path, session: &str) -> PathBuf {
    dir.join(format!("{session}.sock"))
}

/// The log of a session's daemon (its stderr).
pub fn log_path(dir: &std::path::Path, session: &str) -> PathBuf {
    dir.join(format!("{session}.log"))
}

#[cfg(test)]
mod tests {
    use super::valid_session;

    #[test]
    fn session_names_are_plain_file_names() {
        for good in ["default", "work-1", "a_b.c"] {
            assert!(valid_session(good), "{good}");
        }
        for bad in ["", ".hidden", "a/b", "../x", "sp ace", &"x".repeat(65)] {
            assert!(!valid_session(bad), "{bad}");
        }
    }
}
