//! Processes and locks as tests observe them.

use std::path::Path;
use std::time::{Duration, Instant};

/// Whether a process runs. A zombie counts as gone: it only waits for its
/// parent to read its status, and this machine's PID 1 may never reap it.
pub fn pid_alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
    })
}

/// Waits (up to `limit`) for a process to be gone.
pub async fn gone_within(pid: u32, limit: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if !pid_alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    !pid_alive(pid)
}

/// SIGKILLs a process the test started (or one rove started for it).
pub fn kill(pid: u32) {
    let pid = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
        .unwrap_or_else(|| panic!("{pid} is not a process id"));
    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
}

/// Whether a process holds the `flock` on `path` (taken and given back at
/// once when it is free).
pub fn lock_is_held(path: &Path) -> bool {
    let Ok(file) = std::fs::OpenOptions::new().read(true).open(path) else {
        return false;
    };
    rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_err()
}

/// Takes the `flock` on an open file without waiting; whether it was free.
pub fn take_lock(file: &std::fs::File) -> bool {
    rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_ok()
}
