//! Temporary profile folders: one per launch, private, and always removed.
//!
//! A folder is named `rove-<rove pid>-<sequence>-<nanos>` under the system temp
//! folder. If rove is killed outright, its folder stays; the next launch sweeps
//! folders whose rove process is gone.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rove_base::limits;

const PREFIX: &str = "rove-";

static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// A private temporary folder holding the browser's profile, the files
/// Chromium would otherwise write under the user's home (crash reports,
/// caches), and its temp folder (`TMPDIR`): Chromium makes a folder
/// `org.chromium.Chromium.*` there for its singleton socket, which it removes
/// only when it exits cleanly; inside the profile, it goes with the profile
/// (removed on close, swept after a kill).
#[derive(Debug)]
pub(crate) struct ProfileDir {
    root: PathBuf,
    /// The user's own profile (`--profile`), used instead of `root/profile`
    /// and never removed.
    external: Option<PathBuf>,
}

impl ProfileDir {
    /// Creates a fresh folder with mode 0700.
    #[cfg(test)]
    pub(crate) fn create() -> std::io::Result<ProfileDir> {
        ProfileDir::create_for(None)
    }

    /// A fresh folder for the browser's config, cache and temp files, and
    /// for its profile unless `external` (the user's own) is given.
    pub(crate) fn create_for(external: Option<PathBuf>) -> std::io::Result<ProfileDir> {
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
        rove_base::private::create_new_private_dir(&root)?;
        let dir = ProfileDir { root, external };
        for sub in ["profile", "config", "cache", "tmp"] {
            std::fs::create_dir(dir.root.join(sub))?;
        }
        Ok(dir)
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// Chromium's `--user-data-dir`.
    pub(crate) fn user_data_dir(&self) -> PathBuf {
        match &self.external {
            Some(dir) => dir.clone(),
            None => self.root.join("profile"),
        }
    }

    /// The user's own profile, when the browser runs on one.
    pub(crate) fn external(&self) -> Option<&Path> {
        self.external.as_deref()
    }

    /// Where `XDG_CONFIG_HOME` and `XDG_CACHE_HOME` point for the browser.
    pub(crate) fn xdg_dirs(&self) -> (PathBuf, PathBuf) {
        (self.root.join("config"), self.root.join("cache"))
    }

    /// Where `TMPDIR` points for the browser.
    pub(crate) fn tmp_dir(&self) -> PathBuf {
        self.root.join("tmp")
    }

    pub(crate) fn remove(&self) {
        remove_with_retries(&self.root, limits::PROFILE_REMOVE);
    }
}

impl Drop for ProfileDir {
    fn drop(&mut self) {
        self.remove();
    }
}

/// The longest `TMPDIR` Chromium starts with: its singleton socket,
/// `$TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket`, must fit in a Unix
/// socket address (107 bytes on Linux), or Chromium never opens its DevTools
/// port.
pub(crate) fn tmpdir_fits(dir: &Path) -> bool {
    const SINGLETON: usize = "/org.chromium.Chromium.XXXXXX/SingletonSocket".len();
    dir.as_os_str().len() + SINGLETON <= crate::private::socket_path_max()
}

/// Removes a profile folder, retrying while a dying process still writes
/// into it; first the singleton folder Chromium made outside it, when its
/// `TMPDIR` could not point inside (see [`tmpdir_fits`]).
pub(crate) fn remove_with_retries(root: &Path, budget: Duration) {
    remove_singleton_outside(root);
    let deadline = Instant::now() + budget;
    loop {
        match std::fs::remove_dir_all(root) {
            Ok(()) => return,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(e) if Instant::now() >= deadline => {
                tracing::warn!(target: "rove_browser", path = %root.display(), error = %e, "could not remove the browser profile");
                return;
            }
            Err(_) => std::thread::sleep(limits::PROFILE_REMOVE_RETRY),
        }
    }
}

/// Removes the `org.chromium.Chromium.*` folder the profile's
/// `SingletonSocket` link points to, when it lies outside the profile and is
/// a real folder of this user. The link lives in the private profile, so
/// only this browser can have made it.
fn remove_singleton_outside(root: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(target) = std::fs::read_link(root.join("profile").join("SingletonSocket")) else {
        return;
    };
    let Some(folder) = target.parent() else {
        return;
    };
    let named = folder
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("org.chromium.Chromium."));
    let ours = std::fs::symlink_metadata(folder)
        .is_ok_and(|m| m.is_dir() && m.uid() == rove_base::private::current_uid());
    if named && ours && !folder.starts_with(root) {
        let _ = std::fs::remove_dir_all(folder);
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
            remove_with_retries(&entry.path(), limits::PROFILE_SWEEP);
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

/// Whether a process with this id runs. A zombie counts as gone: it only
/// waits to be reaped (a daemon killed outright may wait a long time when
/// the machine's init does not reap), and its id cannot be reused meanwhile.
fn process_exists(pid: u32) -> bool {
    let Some(id) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    // Signal 0 only checks that the process exists; EPERM means it does,
    // as another user's.
    let exists = match rustix::process::test_kill_process(id) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    };
    exists && !is_zombie(pid)
}

fn is_zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
    })
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
    fn the_browser_tmpdir_must_leave_room_for_the_singleton_socket() {
        assert!(tmpdir_fits(Path::new("/tmp/rove-4194304-12-0123abcd/tmp")));
        assert!(tmpdir_fits(Path::new(&"x".repeat(62))));
        assert!(!tmpdir_fits(Path::new(&"x".repeat(63))));
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
