//! Owning a launched browser's processes, so none outlives rove.
//!
//! Three layers of defence, from the polite to the certain:
//! 1. [`BrowserProcess::shutdown`] asks the browser to close, waits briefly,
//!    then kills what is left and removes the profile;
//! 2. dropping a [`BrowserProcess`] (also while unwinding from a panic) kills
//!    the whole process group and removes the profile synchronously, and
//!    [`end_all_launched`] does the same for every live browser from a signal
//!    handler;
//! 3. the browser is started with `PR_SET_PDEATHSIG = SIGKILL`, so even if rove
//!    itself is killed with `SIGKILL` the kernel ends the browser (and its
//!    helpers exit when their parent's IPC channels close). The profile folder
//!    left behind in that one case is swept by the next launch.
//!
//! The spawning thread matters: the death signal fires when the *thread* that
//! forked the child exits. Each browser therefore gets a dedicated thread that
//! spawns it, then waits for it, so that thread lives exactly as long as the
//! browser and no pool can retire it early.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rove_base::limits;
use tokio::sync::watch;

use crate::profile::ProfileDir;

/// Bytes of the browser's stderr kept for error messages.
const STDERR_TAIL_BYTES: usize = 16 * 1024;

/// Every browser this process launched and has not yet cleaned up.
static LIVE: Mutex<Vec<LiveBrowser>> = Mutex::new(Vec::new());

#[derive(Clone)]
struct LiveBrowser {
    pid: u32,
    root: PathBuf,
    /// The user's own profile the browser runs on, if any: its processes
    /// name it rather than `root` (never removed).
    external: Option<PathBuf>,
}

impl LiveBrowser {
    /// The paths the browser's processes name on their command lines.
    fn markers(&self) -> Vec<PathBuf> {
        let mut markers = vec![self.root.clone()];
        markers.extend(self.external.clone());
        markers
    }
}

/// A running browser started by rove.
pub(crate) struct BrowserProcess {
    pid: u32,
    profile: ProfileDir,
    exit: watch::Receiver<Option<String>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Set when the stderr reader has read to the pipe's end.
    stderr_done: Arc<std::sync::atomic::AtomicBool>,
    ended: bool,
}

impl std::fmt::Debug for BrowserProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BrowserProcess")
            .field("pid", &self.pid)
            .field("profile", &self.profile.root())
            .finish()
    }
}

impl BrowserProcess {
    /// Starts `executable` with `args` in its own process group, tied to rove's
    /// life by the parent-death signal.
    #[allow(unsafe_code)]
    pub(crate) fn spawn(
        executable: &Path,
        args: &[OsString],
        envs: &[(&str, OsString)],
        profile: ProfileDir,
    ) -> std::io::Result<BrowserProcess> {
        let mut command = Command::new(executable);
        command
            .args(args)
            .envs(envs.iter().map(|(k, v)| (*k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0);
        let parent = std::process::id();
        // SAFETY: `die_with_parent` is async-signal-safe (it allocates nothing
        // and makes two raw system calls), as code between fork and exec must
        // be. The death signal can only be asked for in the child, hence this
        // one unsafe block.
        unsafe {
            command.pre_exec(move || rove_base::child::die_with_parent(parent));
        }

        let (spawned_tx, spawned_rx) = std::sync::mpsc::channel();
        let (exit_tx, exit_rx) = watch::channel(None);
        let stderr = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL_BYTES)));
        let stderr_sink = Arc::clone(&stderr);
        let stderr_done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let done_sink = Arc::clone(&stderr_done);
        std::thread::Builder::new()
            .name("rove-browser-owner".into())
            .spawn(move || {
                let mut child = match command.spawn() {
                    Ok(child) => child,
                    Err(e) => {
                        let _ = spawned_tx.send(Err(e));
                        return;
                    }
                };
                match child.stderr.take() {
                    Some(pipe) => keep_tail(pipe, stderr_sink, done_sink),
                    None => done_sink.store(true, std::sync::atomic::Ordering::SeqCst),
                }
                let _ = spawned_tx.send(Ok(child.id()));
                let status = match child.wait() {
                    Ok(status) => status.to_string(),
                    Err(e) => format!("could not wait for it: {e}"),
                };
                exit_tx.send_replace(Some(status));
            })?;
        let pid = spawned_rx
            .recv()
            .map_err(|_| std::io::Error::other("the browser owner thread ended early"))??;
        register(LiveBrowser {
            pid,
            root: profile.root().to_owned(),
            external: profile.external().map(Path::to_path_buf),
        });
        Ok(BrowserProcess {
            pid,
            profile,
            exit: exit_rx,
            stderr,
            stderr_done,
            ended: false,
        })
    }

    /// The browser's process id (also its process group id).
    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    /// The paths the browser's processes name on their command lines.
    fn markers(&self) -> Vec<PathBuf> {
        let mut markers = vec![self.profile.root().to_owned()];
        markers.extend(self.profile.external().map(Path::to_path_buf));
        markers
    }

    /// The profile folder (removed when the browser ends).
    pub(crate) fn profile(&self) -> &ProfileDir {
        &self.profile
    }

    /// How the browser exited, or `None` while it runs.
    pub(crate) fn exit_status(&self) -> Option<String> {
        self.exit.borrow().clone()
    }

    /// Waits, up to `limit`, until everything the browser wrote to stderr
    /// has been read (its last words, when it exited at once); a helper
    /// process that keeps the pipe open makes it wait the whole limit.
    pub(crate) async fn stderr_read(&self, limit: std::time::Duration) {
        let deadline = tokio::time::Instant::now() + limit;
        while !self.stderr_done.load(std::sync::atomic::Ordering::SeqCst)
            && tokio::time::Instant::now() < deadline
        {
            tokio::time::sleep(limits::LAUNCH_POLL).await;
        }
    }

    /// The last lines the browser wrote to stderr.
    pub(crate) fn stderr_tail(&self, max_lines: usize) -> String {
        let bytes: Vec<u8> = match self.stderr.lock() {
            Ok(buf) => buf.iter().copied().collect(),
            Err(poisoned) => poisoned.into_inner().iter().copied().collect(),
        };
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(max_lines)..].join("\n")
    }

    /// Follows the exit: `None` while the browser runs, then how it exited.
    pub(crate) fn exit_watch(&self) -> watch::Receiver<Option<String>> {
        self.exit.clone()
    }

    /// Waits up to `timeout` for the browser to exit. True if it did.
    pub(crate) async fn wait_exit(&self, timeout: Duration) -> bool {
        let mut exit = self.exit.clone();
        tokio::time::timeout(timeout, exit.wait_for(Option::is_some))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// Ends the browser: waits `grace` for it to exit on its own (after the
    /// caller asked it to close), then kills what is left and removes the
    /// profile.
    pub(crate) async fn shutdown(mut self, grace: Duration) {
        if !self.wait_exit(grace).await {
            tracing::debug!(target: "rove_browser", pid = self.pid, "browser did not exit in time; killing it");
        }
        // Helpers may outlive the main process by a moment; end them all.
        kill_tree(self.pid, &self.markers());
        self.wait_exit(limits::BROWSER_KILLED).await;
        self.finish();
    }

    /// Kills and cleans up without waiting politely. Safe to call twice.
    fn finish(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        let markers = self.markers();
        kill_tree(self.pid, &markers);
        let deadline = Instant::now() + limits::BROWSER_KILLED;
        while self.exit.borrow().is_none() && Instant::now() < deadline {
            std::thread::sleep(limits::BROWSER_EXIT_POLL);
        }
        wait_gone(&markers, deadline);
        self.profile.remove();
        unregister(self.pid);
    }
}

impl Drop for BrowserProcess {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Kills every browser this process launched and removes their profiles.
/// For signal handlers and other last-resort exits; synchronous and bounded.
pub fn end_all_launched() {
    let live = match LIVE.lock() {
        Ok(mut live) => std::mem::take(&mut *live),
        Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
    };
    for browser in &live {
        kill_tree(browser.pid, &browser.markers());
    }
    let deadline = Instant::now() + limits::BROWSER_KILLED;
    for browser in &live {
        wait_gone(&browser.markers(), deadline);
        crate::profile::remove_with_retries(&browser.root, limits::PROFILE_REMOVE);
    }
}

fn register(browser: LiveBrowser) {
    match LIVE.lock() {
        Ok(mut live) => live.push(browser),
        Err(poisoned) => poisoned.into_inner().push(browser),
    }
}

fn unregister(pid: u32) {
    match LIVE.lock() {
        Ok(mut live) => live.retain(|b| b.pid != pid),
        Err(poisoned) => poisoned.into_inner().retain(|b| b.pid != pid),
    }
}

/// SIGKILLs the browser's process group and any process that names its profile
/// folder on its command line (crash handlers start their own sessions, so the
/// group alone does not reach them).
fn kill_tree(pgid: u32, markers: &[PathBuf]) {
    // The group id is one we created with process_group(0).
    if let Some(group) = as_pid(pgid) {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    for pid in markers.iter().flat_map(|m| processes_mentioning(m)) {
        kill(pid);
    }
}

/// Waits until no live process names `root`, re-sending SIGKILL to any that
/// remain: SIGKILL is delivered asynchronously, and a loaded machine can take
/// a moment to tear a process down. Bounded by `deadline`.
fn wait_gone(markers: &[PathBuf], deadline: Instant) {
    loop {
        let left: Vec<u32> = markers
            .iter()
            .flat_map(|m| processes_mentioning(m))
            .collect();
        if left.is_empty() || Instant::now() >= deadline {
            if !left.is_empty() {
                tracing::warn!(target: "rove_browser", ?left, "browser processes still exiting");
            }
            return;
        }
        for pid in left {
            kill(pid);
        }
        std::thread::sleep(limits::BROWSER_GONE_POLL);
    }
}

/// A process id as the kernel takes it; `None` for 0 or one out of range
/// (never "every process").
fn as_pid(pid: u32) -> Option<rustix::process::Pid> {
    i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
}

/// SIGKILLs one process (one whose command line names our private profile
/// folder); a process already gone is no error.
fn kill(pid: u32) {
    if let Some(pid) = as_pid(pid) {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
}

/// Live processes (not zombies) whose command line contains `needle`. Linux
/// only; elsewhere it finds nothing. Used by cleanup, `rove doctor` and tests.
pub fn processes_mentioning(needle: &Path) -> Vec<u32> {
    let needle = needle.as_os_str().as_encoded_bytes();
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .filter(|&pid| {
            // A zombie's command line reads as empty, so it never matches.
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmd| cmd.windows(needle.len()).any(|w| w == needle))
        })
        .collect()
}

/// Whether process `pid` is gone or on its way out: reaped or a zombie,
/// exiting (`PF_EXITING`), or with a SIGKILL pending. A SIGKILL is pending
/// from the moment `kill` returns, while the process may still look like
/// it runs for some milliseconds; a session asked for then must not be
/// handed the dying browser.
pub(crate) fn dead_or_dying(pid: u32) -> bool {
    const PF_EXITING: u64 = 0x4;
    const SIGKILL_BIT: u64 = 1 << (9 - 1);
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    // After the command's name: state, ppid, pgrp, session, tty, tpgid,
    // flags.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    if fields
        .first()
        .is_none_or(|state| state.starts_with(['Z', 'X']))
    {
        return true;
    }
    if fields
        .get(6)
        .and_then(|f| f.parse::<u64>().ok())
        .is_some_and(|flags| flags & PF_EXITING != 0)
    {
        return true;
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status.lines().any(|line| {
        line.strip_prefix("SigPnd:")
            .or_else(|| line.strip_prefix("ShdPnd:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & SIGKILL_BIT != 0)
    })
}

/// Drains the browser's stderr on a thread of its own, keeping the tail. The
/// pipe must be drained or a chatty browser blocks on a full pipe.
fn keep_tail(
    mut pipe: std::process::ChildStderr,
    sink: Arc<Mutex<VecDeque<u8>>>,
    done: Arc<std::sync::atomic::AtomicBool>,
) {
    let ended = Arc::clone(&done);
    let spawned = std::thread::Builder::new()
        .name("rove-browser-stderr".into())
        .spawn(move || {
            let mut chunk = [0u8; 4096];
            loop {
                let n = match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => {
                        ended.store(true, std::sync::atomic::Ordering::SeqCst);
                        return;
                    }
                    Ok(n) => n,
                };
                tracing::trace!(target: "rove_browser::stderr", "{}", String::from_utf8_lossy(&chunk[..n]).trim_end());
                let mut buf = match sink.lock() {
                    Ok(buf) => buf,
                    Err(poisoned) => poisoned.into_inner(),
                };
                buf.extend(&chunk[..n]);
                let excess = buf.len().saturating_sub(STDERR_TAIL_BYTES);
                buf.drain(..excess);
            }
        });
    if let Err(e) = spawned {
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        tracing::warn!(target: "rove_browser", error = %e, "could not start the stderr reader; browser errors will not be quoted");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_killed_process_is_dying_from_the_moment_kill_returns() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep");
        assert!(!dead_or_dying(child.id()), "a sleeping process runs");
        kill(child.id());
        // Not reaped yet, and maybe not even scheduled to exit: the
        // pending SIGKILL or the exit already under way says it all the same.
        assert!(dead_or_dying(child.id()));
        let _ = child.wait();
        assert!(dead_or_dying(u32::MAX), "no such process");
    }
}
