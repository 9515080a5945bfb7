//! Folders only this user can enter (0700) and files only they can read
//! (0600): rove's runtime folder and what lies under it (daemon sockets,
//! downloads, uploads, output), browser profiles, traces, saved storage
//! state.
//!
//! A folder rove keeps files in must belong to this user, be a real
//! directory (not a symlink someone planted), and be closed to everyone
//! else. `$TMPDIR` is shared by every user of the machine: without these
//! checks another user could create `$TMPDIR/rove-<uid>` first, as a
//! symlink to `/` or as a folder of their own, and receive rove's downloads
//! or hand it their files for upload. A folder that fails a check is
//! refused with [`NotPrivate`] and left exactly as it was; the layers above
//! turn that into their own typed errors.

use std::path::{Path, PathBuf};

/// The mode of a private folder.
const FOLDER_MODE: u32 = 0o700;

/// Why a folder cannot be used as a private one.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{path} cannot be used as a private folder: {reason}")]
pub struct NotPrivate {
    /// The folder.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: String,
}

/// This user's id.
pub fn current_uid() -> u32 {
    rustix::process::getuid().as_raw()
}

/// Creates `dir` with mode 0700 (its missing parents too, 0700), or checks
/// the one that is there: it must be a directory, not a symlink, and belong
/// to this user. One of ours that others may enter is closed to 0700;
/// anything else wrong is refused and not touched.
pub fn ensure_private_dir(dir: &Path) -> Result<PathBuf, NotPrivate> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let refuse = |reason: String| NotPrivate {
        path: dir.to_path_buf(),
        reason,
    };
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        create_private_dirs(parent)
            .map_err(|e| refuse(format!("its parent cannot be created ({e})")))?;
    }
    match create_new_private_dir(dir) {
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
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(FOLDER_MODE))
            .map_err(|e| refuse(format!("it is open to others and cannot be closed ({e})")))?;
    }
    Ok(dir.to_path_buf())
}

/// Creates `dir` with mode 0700; it must not exist yet (a fresh folder
/// whose name no one else could have taken first: a browser profile).
pub fn create_new_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().mode(FOLDER_MODE).create(dir)
}

/// Creates `dir` and its missing parents with mode 0700; folders already
/// there are left as they are (a folder the person at the shell named).
pub fn create_private_dirs(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(FOLDER_MODE)
        .create(dir)
}

/// Creates (or empties) a file only its owner can read or write: for
/// files that may hold what a page showed or a credential (traces, saved
/// storage state, a HAR). A file already there is made private too, before
/// anything is written to it; anything but a regular file there (a FIFO, a
/// device) is refused at once, never waited on
/// ([`crate::user_file::create`]).
pub fn create_private_file(path: &Path) -> std::io::Result<std::fs::File> {
    crate::user_file::create(path, crate::user_file::Access::Private)
        .map_err(crate::user_file::UserFileError::into_io)
}

/// Writes `bytes` to a file only its owner can read or write (see
/// [`create_private_file`]).
pub fn write_private_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    create_private_file(path)?.write_all(bytes)
}

/// Closes an existing file (a socket) to everyone but its owner.
pub fn make_owner_only(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        path,
        std::fs::Permissions::from_mode(crate::user_file::FILE_MODE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "rove-base-private-test-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_file(&dir);
        dir
    }

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).expect("meta").permissions().mode() & 0o777
    }

    #[test]
    fn a_new_folder_is_made_private() {
        let dir = scratch("new");
        let made = ensure_private_dir(&dir.join("inner")).expect("created");
        assert_eq!(mode(&made), 0o700);
        assert_eq!(mode(&dir), 0o700, "the parent made for it too");
        std::fs::set_permissions(&made, std::fs::Permissions::from_mode(0o755)).expect("open");
        ensure_private_dir(&made).expect("ours, closed again");
        assert_eq!(mode(&made), 0o700);
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

    #[test]
    fn folders_and_files_are_made_for_their_owner_only() {
        let dir = scratch("made");
        create_private_dirs(&dir.join("a/b")).expect("made");
        assert_eq!(mode(&dir.join("a/b")), 0o700);
        assert!(create_new_private_dir(&dir.join("a")).is_err(), "not new");
        create_new_private_dir(&dir.join("c")).expect("new");
        assert_eq!(mode(&dir.join("c")), 0o700);
        let file = dir.join("state.json");
        std::fs::write(&file, "old, readable by all").expect("plant");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("open");
        write_private_file(&file, b"new").expect("written");
        assert_eq!(mode(&file), 0o600, "an old file closed before writing");
        assert_eq!(std::fs::read(&file).expect("read"), b"new");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).expect("open");
        make_owner_only(&file).expect("closed");
        assert_eq!(mode(&file), 0o600);
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
