//! The session lock: an exclusive `flock` on `<session>.lock` in the runtime
//! folder, held by a session's daemon from before it listens until after its
//! browser ended. One daemon per session follows from it, and a client can
//! tell "a daemon is still starting or ending" (held) from "none is left"
//! (free).
//!
//! The kernel releases a `flock` when the last descriptor of the open file
//! closes: for a killed daemon, only when every one of its threads has let go
//! of its files, which can be a moment after the process already looks dead.
//! Clients therefore ask the lock, never the process table.

use std::fs::File;
use std::io::Write;
use std::path::Path;

/// The lock, held while this value lives.
#[derive(Debug)]
pub struct SessionLock {
    file: File,
}

fn open(path: &Path) -> std::io::Result<File> {
    // std opens with O_CLOEXEC: no browser or helper inherits the lock.
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
}

/// `flock(LOCK_EX | LOCK_NB)`: true if this descriptor now holds the lock.
fn try_flock(file: &File) -> std::io::Result<bool> {
    match rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(true),
        Err(e) if e == rustix::io::Errno::WOULDBLOCK => Ok(false),
        Err(e) => Err(e.into()),
    }
}

impl SessionLock {
    /// Takes the lock without waiting, and writes this process's id into the
    /// file (for messages about who holds it). `None` when another process
    /// holds it.
    pub fn try_take(path: &Path) -> std::io::Result<Option<SessionLock>> {
        // A daemon that ends removes the file before it lets go: a lock
        // taken on a file no longer at `path` guards nothing, so it is
        // taken again on the file there now.
        for _ in 0..TAKE_ATTEMPTS {
            let mut file = open(path)?;
            if !try_flock(&file)? {
                return Ok(None);
            }
            if !still_at(&file, path)? {
                continue;
            }
            file.set_len(0)?;
            writeln!(file, "{}", std::process::id())?;
            return Ok(Some(SessionLock { file }));
        }
        Err(std::io::Error::other(format!(
            "{} was replaced {TAKE_ATTEMPTS} times while the lock was taken",
            path.display()
        )))
    }

    /// Removes the lock file, then lets go of the lock: the session leaves
    /// nothing behind, and a daemon that opened the file before it went
    /// sees it gone once it has the lock (see [`SessionLock::try_take`]).
    pub fn release_and_remove(self, path: &Path) {
        if still_at(&self.file, path).unwrap_or(false)
            && let Err(e) = std::fs::remove_file(path)
        {
            tracing::debug!(error = %e, path = %path.display(), "the lock file stays");
        }
        drop(self);
    }
}

/// How often a lock is taken again on a file that was replaced meanwhile.
const TAKE_ATTEMPTS: usize = 8;

/// Whether `path` still names the open `file`.
fn still_at(file: &File, path: &Path) -> std::io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let open = file.metadata()?;
    match std::fs::symlink_metadata(path) {
        Ok(there) => Ok(there.dev() == open.dev() && there.ino() == open.ino()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Whether no process holds the lock at this moment (taken and given back at
/// once; the file keeps the last holder's id). No file means no holder.
pub fn is_free(path: &Path) -> std::io::Result<bool> {
    let file = match std::fs::OpenOptions::new().read(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(e) => return Err(e),
    };
    try_flock(&file)
}

/// The process id the last holder wrote into the lock file.
pub fn last_holder(path: &Path) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_holder_at_a_time_and_free_once_dropped() {
        let dir = std::env::temp_dir().join(format!("rove-lock-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("s.lock");
        let held = SessionLock::try_take(&path).expect("lock").expect("free");
        assert_eq!(last_holder(&path), Some(std::process::id()));
        // A second open file description is refused while the first holds it.
        assert!(SessionLock::try_take(&path).expect("lock").is_none());
        assert!(!is_free(&path).expect("probe"));
        drop(held);
        assert!(is_free(&path).expect("probe"));
        let again = SessionLock::try_take(&path).expect("lock").expect("free");
        again.release_and_remove(&path);
        assert!(!path.exists(), "the lock file left with its holder");
        assert!(is_free(&path).expect("probe"));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_lock_taken_on_a_removed_file_is_taken_again_on_the_new_one() {
        let dir = std::env::temp_dir().join(format!("rove-lock-moved-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("s.lock");
        let old = open(&path).expect("open");
        std::fs::remove_file(&path).expect("removed");
        assert!(!still_at(&old, &path).expect("stat"));
        // The file a new daemon takes is the one at the path.
        let held = SessionLock::try_take(&path).expect("lock").expect("free");
        assert!(still_at(&held.file, &path).expect("stat"));
        assert!(!is_free(&path).expect("probe"));
        held.release_and_remove(&path);
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
