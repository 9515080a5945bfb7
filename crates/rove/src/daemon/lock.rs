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
    _file: File,
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
        let mut file = open(path)?;
        if !try_flock(&file)? {
            return Ok(None);
        }
        file.set_len(0)?;
        writeln!(file, "{}", std::process::id())?;
        Ok(Some(SessionLock { _file: file }))
    }
}

/// Whether no process holds the lock at this moment (taken and given back at
/// once; the file keeps the last holder's id).
pub fn is_free(path: &Path) -> std::io::Result<bool> {
    try_flock(&open(path)?)
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
        assert!(SessionLock::try_take(&path).expect("lock").is_some());
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
