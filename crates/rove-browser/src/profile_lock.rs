//! Whether another Chromium holds a profile folder (`--profile DIR`).
//!
//! A running Chromium keeps `SingletonLock` in its profile: a symbolic link
//! whose target reads `<hostname>-<pid>`. Two browsers on one profile
//! corrupt it, so rove refuses a profile whose lock names a live process (or
//! a process of another machine, which it cannot check), before it touches
//! anything in the folder. A lock left by a browser that died names a gone
//! process; Chromium itself takes such a profile over.

use std::path::Path;

/// Who holds the profile at `dir`, in words, if anyone does.
pub(crate) fn holder(dir: &Path) -> Option<String> {
    let lock = dir.join("SingletonLock");
    let meta = std::fs::symlink_metadata(&lock).ok()?;
    if !meta.file_type().is_symlink() {
        return Some(format!(
            "{} exists and is not Chromium's link",
            lock.display()
        ));
    }
    let target = std::fs::read_link(&lock).ok()?;
    let text = target.to_string_lossy().into_owned();
    let Some((host, pid)) = text.rsplit_once('-') else {
        return Some(format!("its lock names {text:?}"));
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return Some(format!("its lock names {text:?}"));
    };
    if host != hostname() {
        return Some(format!("a browser on host {host:?} (pid {pid})"));
    }
    std::path::Path::new(&format!("/proc/{pid}"))
        .exists()
        .then(|| format!("a browser running as pid {pid}"))
}

/// This machine's name, as Chromium writes it into its lock.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_naming_a_live_process_holds_and_a_dead_one_does_not() {
        let dir = std::env::temp_dir().join(format!("rove-lock-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        assert_eq!(holder(&dir), None, "no lock");
        let host = hostname();
        let lock = dir.join("SingletonLock");
        std::os::unix::fs::symlink(format!("{host}-{}", std::process::id()), &lock).expect("link");
        assert!(holder(&dir).is_some_and(|h| h.contains(&std::process::id().to_string())));
        std::fs::remove_file(&lock).expect("remove");
        // pid_max is at most 2^22 on Linux: this pid cannot be running.
        std::os::unix::fs::symlink(format!("{host}-99999999"), &lock).expect("link");
        assert_eq!(holder(&dir), None, "a stale lock");
        std::fs::remove_file(&lock).expect("remove");
        std::os::unix::fs::symlink("elsewhere-12", &lock).expect("link");
        assert!(holder(&dir).is_some_and(|h| h.contains("elsewhere")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
