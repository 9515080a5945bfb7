//! Temporary profile folders: one per launch, private, and always removed.
//!
//! A folder is named `rove-<rove pid>-<sequence>-<nanos>` under the system temp
//! folder. If rove is killed outright, its folder stays; the next launch sweeps
//! folders whose rove process is gone.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const PREFIX: &str = "rove-";

static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// A private temporary folder holding the browser's profile and the files
/// Chromium would otherwise write under the user's home (crash reports, caches).
#[derive(Debug)]
pub(crate) struct ProfileDir {
    root: PathBuf,
}

impl ProfileDir {
    /// Creates a fresh folder with mode 0700.
    pub(crate) fn create() -> std::io::Result<ProfileDir> {
        use std::os::unix::fs::DirBuilderExt;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        let name = format!(
            "{PREFIX}{}-{}-{nanos:08x}",
            std::process::id(),
            SEQUENCE.fetch_add(1, Ordering::Relaxed)
        );
        let root = std::env::temp_dir().join(name);
        std::fs::DirBuilder::new().mode(0o700).create(&root)?;
        let dir = ProfileDir { root };
        for sub in ["profile", "config", "cache"] {
            std::fs::create_dir(dir.root.join(sub))?;
        }
        Ok(dir)
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// Chromium's `--user-data-dir`.
    pub(crate) fn user_data_dir(&self) -> PathBuf {
        self.root.join("profile")
    }

    /// Where `XDG_CONFIG_HOME` and `XDG_CACHE_HOME` point for the browser.
    pub(crate) fn xdg_dirs(&self) -> (PathBuf, PathBuf) {
        (self.root.join("config"), self.root.join("cache"))
    }

    pub(crate) fn remove(&self) {
        remove_with_retries(&self.root, Duration::from_secs(2));
    }
}

impl Drop for ProfileDir {
    fn drop(&mut self) {
        self.remove();
    }
}

/// Removes a folder, retrying while a dying process still writes into it.
pub(crate) fn remove_with_retries(root: &Path, budget: Duration) {
    let deadline = Instant::now() + budget;
    loop {
        match std::fs::remove_dir_all(root) {
            Ok(()) => return,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(e) if Instant::now() >= deadline => {
                tracing::warn!(target: "rove_browser", path = %root.display(), error = %e, "could not remove the browser profile");
                return;
            }
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// Removes profile folders left by rove processes that no longer exist.
pub(crate) fn sweep_stale() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(owner) = name.to_str().and_then(owner_pid) else {
            continue;
        };
        if owner != std::process::id() && !process_exists(owner) {
            tracing::debug!(target: "rove_browser", path = %entry.path().display(), "removing a profile left by a rove that is gone");
            remove_with_retries(&entry.path(), Duration::from_millis(200));
        }
    }
}

/// The rove pid in a profile folder's name, if the name is one of ours.
fn owner_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREFIX)?;
    let mut parts = rest.split('-');
    let pid = parts.next()?.parse().ok()?;
    let seq = parts.next()?;
    let nanos = parts.next()?;
    let ours = parts.next().is_none()
        && seq.bytes().all(|b| b.is_ascii_digit())
        && nanos.len() == 8
        && nanos.bytes().all(|b| b.is_ascii_hexdigit());
    ours.then_some(pid)
}

fn process_exists(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_folder_names_are_recognised() {
        assert_eq!(owner_pid("rove-123-0-0000abcd"), Some(123));
        assert_eq!(owner_pid("rove-123-17-deadbeef"), Some(123));
        assert_eq!(owner_pid("rove-find-test-x"), None);
        assert_eq!(owner_pid("rove-123-0-abc"), None);
        assert_eq!(owner_pid("rove-123-0-0000abcd-x"), None);
        assert_eq!(owner_pid("other-123-0-0000abcd"), None);
    }

    #[test]
    fn a_fresh_folder_is_private_and_removed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = ProfileDir::create().expect("create");
        let mode = std::fs::metadata(dir.root())
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
        assert!(dir.user_data_dir().is_dir());
        dir.remove();
        assert!(!dir.root().exists());
    }

    #[test]
    fn sweep_removes_folders_of_dead_owners_only() {
        // pid 0x7fff_fff0 is far above any real pid_max.
        let dead = std::env::temp_dir().join("rove-2147483632-0-00000000");
        std::fs::create_dir_all(&dead).expect("mkdir");
        let mine = ProfileDir::create().expect("create");
        sweep_stale();
        assert!(!dead.exists(), "a dead owner's folder survived the sweep");
        assert!(mine.root().exists(), "a live owner's folder was swept");
        mine.remove();
    }
}
