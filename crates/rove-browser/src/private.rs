//! rove's private folders: the runtime folder of this user (daemon sockets,
//! locks and logs, per-session downloads, the default upload folder) and the
//! folders under it.
//!
//! Each folder rove keeps files in must belong to this user, be a real
//! directory (not a symlink someone planted), and be closed to everyone else
//! (0700). `$TMPDIR` is shared by every user of the machine: without these
//! checks another user could create `$TMPDIR/rove-<uid>` first, as a symlink
//! to `/` or as a folder of their own, and receive rove's downloads or hand
//! it their files for upload. A folder that fails a check is refused with a
//! typed error and left exactly as it was.

use std::path::{Path, PathBuf};

/// Why a private folder cannot be used.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{path} cannot be used as a private folder: {reason}")]
pub struct PrivateDirError {
    /// The folder.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: String,
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

/// This user's id.
pub fn current_uid() -> u32 {
    rustix::process::getuid().as_raw()
}

/// The runtime folder of this user: `$XDG_RUNTIME_DIR/rove` when that is set,
/// else `$TMPDIR/rove-<uid>`. Not created here; see [`ensure_private_dir`].
pub fn runtime_dir() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir).join("rove"),
        None => std::env::temp_dir().join(format!("rove-{}", current_uid())),
    }
}

/// The runtime folder, created or checked (see [`ensure_private_dir`]).
pub fn ensure_runtime_dir() -> Result<PathBuf, PrivateDirError> {
    ensure_private_dir(&runtime_dir())
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

/// Creates `dir` with mode 0700 (its parent must exist), or checks the one
/// that is there: it must be a directory, not a symlink, and belong to this
/// user. One of ours that others may enter is closed to 0700; anything else
/// wrong is refused and not touched.
pub fn ensure_private_dir(dir: &Path) -> Result<PathBuf, PrivateDirError> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    let refuse = |reason: String| PrivateDirError {
        path: dir.to_path_buf(),
        reason,
    };
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !parent.is_dir() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(parent)
                .map_err(|e| refuse(format!("its parent cannot be created ({e})")))?;
        }
    }
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(refuse(format!("it cannot be created ({e})"))),
    }
    // lstat: a symlink is judged as itself, never by where it points.
    let meta =
        std::fs::symlink_metadata(dir).map_err(|e| refuse(format!("it cannot be read ({e})")))?;
    if meta.file_type().is_symlink() {
        return Err(refuse(
            "it is a symbolic link (someone may have planted it to redirect rove's files)".into(),
        ));
    }
    if !meta.is_dir() {
        return Err(refuse("it is not a folder".into()));
    }
    let uid = current_uid();
    if meta.uid() != uid {
        return Err(refuse(format!(
            "it belongs to user {} and rove runs as user {uid}",
            meta.uid()
        )));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| refuse(format!("it is open to others and cannot be closed ({e})")))?;
    }
    Ok(dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("rove-private-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_file(&dir);
        dir
    }

    #[test]
    fn a_new_folder_is_made_private() {
        let dir = scratch("new");
        let made = ensure_private_dir(&dir).expect("created");
        let mode = std::fs::metadata(&made).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("open");
        ensure_private_dir(&dir).expect("ours, closed again");
        let mode = std::fs::metadata(&dir).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_planted_symlink_is_refused_and_left_alone() {
        let dir = scratch("link");
        std::os::unix::fs::symlink("/", &dir).expect("plant");
        let refused = ensure_private_dir(&dir).expect_err("a symlink");
        assert!(refused.reason.contains("symbolic link"), "{refused}");
        assert!(
            std::fs::symlink_metadata(&dir)
                .expect("still there")
                .file_type()
                .is_symlink()
        );
        std::fs::remove_file(&dir).expect("cleanup");
    }

    #[test]
    fn a_folder_of_another_user_is_refused_and_left_alone() {
        let dir = scratch("owner");
        std::fs::create_dir(&dir).expect("made");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("open");
        // As root the folder is given away; otherwise "/" is someone else's.
        let theirs = match std::os::unix::fs::chown(&dir, Some(65534), Some(65534)) {
            Ok(()) => dir.clone(),
            Err(_) => PathBuf::from("/"),
        };
        let before = std::fs::metadata(&theirs)
            .expect("meta")
            .permissions()
            .mode();
        let refused = ensure_private_dir(&theirs).expect_err("not ours");
        assert!(refused.reason.contains("belongs to user"), "{refused}");
        let after = std::fs::metadata(&theirs)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(before, after, "nothing touched");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_file_in_its_place_is_refused() {
        let dir = scratch("file");
        std::fs::write(&dir, "x").expect("plant");
        assert!(ensure_private_dir(&dir).is_err());
        std::fs::remove_file(&dir).expect("cleanup");
    }
}
