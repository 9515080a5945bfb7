//! Applications rove starts (`desktop open`): the process, ended when the
//! handle is dropped, and its entry on the accessibility bus.
//!
//! As a browser is (rove-browser's process.rs), an application is started
//! with `PR_SET_PDEATHSIG = SIGKILL` from a thread of its own that then
//! waits for it: the death signal fires when the thread that forked the
//! child ends, so that thread lives exactly as long as the application,
//! and a rove killed with `SIGKILL` takes the application with it.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rove_base::limits;

use crate::{App, Backend, DesktopError};

/// An application rove started; the process ends with this handle.
#[derive(Debug)]
pub struct Launched {
    owned: Owned,
    /// Its entry on the accessibility bus.
    pub app: App,
}

/// A process rove started and owns: killed when dropped while it runs.
#[derive(Debug)]
struct Owned {
    pid: u32,
    /// `Some(exit code)` once the owner thread saw the process end (`None`
    /// inside when a signal ended it).
    ended: Arc<Mutex<Option<Option<i32>>>>,
}

/// Starts `program` from a thread that owns it (see the module's note):
/// its pid and where its end is recorded.
fn spawn_owned(program: &str, args: &[String]) -> std::io::Result<Owned> {
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // A toolkit told to stay off the bus would never show up.
        .env_remove("NO_AT_BRIDGE")
        .env_remove("GTK_A11Y");
    let parent = std::process::id();
    // SAFETY: `die_with_parent` is async-signal-safe (it allocates nothing
    // and makes two raw system calls), as code between fork and exec must
    // be. The death signal can only be asked for in the child, hence this
    // one unsafe block.
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(move || rove_base::child::die_with_parent(parent));
    }
    let ended = Arc::new(Mutex::new(None));
    let seen = Arc::clone(&ended);
    let (spawned_tx, spawned_rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("rove-desktop-app".into())
        .spawn(move || {
            let mut child = match command.spawn() {
                Ok(child) => child,
                Err(e) => {
                    let _ = spawned_tx.send(Err(e));
                    return;
                }
            };
            let _ = spawned_tx.send(Ok(child.id()));
            let code = child.wait().ok().and_then(|s| s.code());
            *seen.lock().unwrap_or_else(|p| p.into_inner()) = Some(code);
        })?;
    let pid = spawned_rx
        .recv()
        .map_err(|_| std::io::Error::other("the thread that starts it ended first"))??;
    Ok(Owned { pid, ended })
}

impl Launched {
    /// Starts `program` with `args` and waits until it shows on the bus
    /// (by its process id, else by its program's name), within
    /// `limits::DESKTOP_APP_START`.
    pub fn start(
        backend: &mut dyn Backend,
        program: &str,
        args: &[String],
    ) -> Result<Launched, DesktopError> {
        let owned = spawn_owned(program, args)
            .map_err(|e| DesktopError::NoApp(format!("{program} ({e})")))?;
        let pid = owned.pid;
        let base = std::path::Path::new(program)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(program)
            .to_owned();
        let until = Instant::now() + limits::DESKTOP_APP_START;
        loop {
            if let Some(code) = owned.ended() {
                let how = code.map_or("a signal ended it".to_owned(), |c| {
                    format!("exit status {c}")
                });
                return Err(DesktopError::AppGone {
                    app: format!("{program} (it exited: {how})"),
                    sent: false,
                });
            }
            let apps = backend.apps()?;
            let found = apps.iter().find(|a| a.pid == Some(pid)).or_else(|| {
                apps.iter()
                    .find(|a| a.name == base && !a.windows.is_empty())
            });
            if let Some(app) = found
                && !app.windows.is_empty()
            {
                return Ok(Launched {
                    owned,
                    app: app.clone(),
                });
            }
            if Instant::now() >= until {
                return Err(DesktopError::Timeout {
                    after: limits::DESKTOP_APP_START,
                    during: "waiting for the application to show a window on the accessibility bus",
                    sent: false,
                });
            }
            std::thread::sleep(limits::DESKTOP_APP_POLL);
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.owned.pid
    }

    /// Whether the process still runs.
    pub fn running(&mut self) -> bool {
        self.owned.ended().is_none()
    }

    /// The exit code, once the process has ended by itself (`None` while
    /// it runs, or when a signal ended it).
    pub fn exit_code(&mut self) -> Option<i32> {
        self.owned.ended().flatten()
    }
}

impl Owned {
    /// `Some(exit code)` once the process ended (`None` inside when a
    /// signal ended it).
    fn ended(&self) -> Option<Option<i32>> {
        *self.ended.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Owned {
    /// Kills the process while it runs, and waits (briefly) until its
    /// owner thread has reaped it.
    fn drop(&mut self) {
        if self.ended().is_some() {
            return;
        }
        if let Some(pid) = i32::try_from(self.pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
        let until = Instant::now() + limits::DESKTOP_APP_KILLED;
        while self.ended().is_none() && Instant::now() < until {
            std::thread::sleep(limits::BROWSER_EXIT_POLL);
        }
    }
}
