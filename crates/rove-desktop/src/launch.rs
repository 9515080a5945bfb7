//! Applications rove starts (`desktop open`): the process, ended when the
//! handle is dropped, and its entry on the accessibility bus.

use std::process::{Child, Command, Stdio};
use std::time::Instant;

use rove_base::limits;

use crate::{App, Backend, DesktopError};

/// An application rove started; the process ends with this handle.
#[derive(Debug)]
pub struct Launched {
    child: Child,
    /// Its entry on the accessibility bus.
    pub app: App,
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
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // A toolkit told to stay off the bus would never show up.
            .env_remove("NO_AT_BRIDGE")
            .env_remove("GTK_A11Y")
            .spawn()
            .map_err(|e| DesktopError::NoApp(format!("{program} ({e})")))?;
        let pid = child.id();
        let base = std::path::Path::new(program)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(program)
            .to_owned();
        let until = Instant::now() + limits::DESKTOP_APP_START;
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(DesktopError::AppGone {
                    app: format!("{program} (it exited: {status})"),
                    sent: false,
                });
            }
            let apps = match backend.apps() {
                Ok(apps) => apps,
                Err(e) => {
                    end(&mut child);
                    return Err(e);
                }
            };
            let found = apps.iter().find(|a| a.pid == Some(pid)).or_else(|| {
                apps.iter()
                    .find(|a| a.name == base && !a.windows.is_empty())
            });
            if let Some(app) = found
                && !app.windows.is_empty()
            {
                return Ok(Launched {
                    child,
                    app: app.clone(),
                });
            }
            if Instant::now() >= until {
                end(&mut child);
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
        self.child.id()
    }

    /// Whether the process still runs.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The exit code, once the process has ended by itself (`None` while
    /// it runs, or when a signal ended it).
    pub fn exit_code(&mut self) -> Option<i32> {
        self.child.try_wait().ok().flatten().and_then(|s| s.code())
    }
}

fn end(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

impl Drop for Launched {
    fn drop(&mut self) {
        end(&mut self.child);
    }
}
