//! rove's runtime folder: where it is for this user (daemon sockets, locks
//! and logs, per-session downloads, the default upload folder), and the
//! folders under it, each created or checked as private by
//! [`rove_base::private::ensure_private_dir`] (0700, this user's, not a
//! symlink). A folder that fails a check is refused with
//! [`PrivateDirError`], this layer's typed error, and left exactly as it
//! was.

use std::path::{Path, PathBuf};

use rove_base::private::{NotPrivate, current_uid, ensure_private_dir};

/// Why a private folder cannot be used ([`rove_base::private::NotPrivate`],
/// classified).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{path} cannot be used as a private folder: {reason}")]
pub struct PrivateDirError {
    /// The folder.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: String,
}

impl From<NotPrivate> for PrivateDirError {
    fn from(refused: NotPrivate) -> PrivateDirError {
        PrivateDirError {
            path: refused.path,
            reason: refused.reason,
        }
    }
}

impl rove_errors::Classify for PrivateDirError {
    fn code(&self) -> rove_errors::ErrorCode {
        rove_errors::ErrorCode::LaunchFailed
    }

    fn action_sent(&self) -> rove_errors::ActionSent {
        rove_errors::ActionSent::NotSent
    }

    fn hint(&self) -> String {
        "remove or fix that folder, or point XDG_RUNTIME_DIR (or TMPDIR) at a folder only you can write".into()
    }
}

/// The longest path a Unix socket address holds, without its closing NUL
/// (107 bytes on Linux, 103 on the BSDs). Asked of the standard library,
/// which builds the kernel's address, once.
pub fn socket_path_max() -> usize {
    static MAX: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| {
        (1..=4096)
            .take_while(|&n| std::os::unix::net::SocketAddr::from_pathname("s".repeat(n)).is_ok())
            .last()
            .unwrap_or(0)
    })
}

/// The runtime folder of this user: `$XDG_RUNTIME_DIR/rove` when that is set,
/// else `$TMPDIR/rove-<uid>`. Not created here; see [`ensure_runtime_dir`].
pub fn runtime_dir() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir).join("rove"),
        None => std::env::temp_dir().join(format!("rove-{}", current_uid())),
    }
}

/// The runtime folder, created or checked
/// ([`rove_base::private::ensure_private_dir`]).
pub fn ensure_runtime_dir() -> Result<PathBuf, PrivateDirError> {
    Ok(ensure_private_dir(&runtime_dir())?)
}

/// A folder under the runtime folder (`downloads/work`), each level created
/// or checked.
pub fn ensure_runtime_subdir(relative: &Path) -> Result<PathBuf, PrivateDirError> {
    let mut dir = ensure_runtime_dir()?;
    for part in relative.components() {
        match part {
            std::path::Component::Normal(name) => {
                dir.push(name);
                ensure_private_dir(&dir)?;
            }
            _ => {
                return Err(PrivateDirError {
                    path: dir.join(relative),
                    reason: "only plain folder names may follow the runtime folder".into(),
                });
            }
        }
    }
    Ok(dir)
}
