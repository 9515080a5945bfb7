//! Starting Chromium with a fresh profile (its config, cache and temp
//! folders inside it) and finding its DevTools socket.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rove_cdp::{Connection, TransportConfig};

use crate::BrowserError;
use crate::find::find_browser;
use crate::process::BrowserProcess;
use crate::profile::{self, ProfileDir};

/// How to launch a browser.
#[derive(Debug, Clone)]
pub struct LaunchOptions {
    /// The executable; found with [`find_browser`] when `None`.
    pub executable: Option<PathBuf>,
    /// Show a window instead of running headless.
    pub headed: bool,
    /// Extra command-line switches, appended after rove's own.
    pub extra_args: Vec<String>,
    /// How long the browser may take to open its DevTools port.
    pub launch_timeout: Duration,
    /// Settings of the CDP connection.
    pub transport: TransportConfig,
    /// A profile folder of the user's (`--profile`), kept between runs,
    /// instead of a fresh private one; refused while another browser holds
    /// it. Its sessions share its default context, so what they store stays.
    pub profile: Option<PathBuf>,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            executable: None,
            headed: false,
            extra_args: Vec::new(),
            launch_timeout: rove_base::limits::LAUNCH,
            transport: TransportConfig::from_env(),
            profile: None,
        }
    }
}

/// Switches that keep Chromium quiet, isolated and predictable under automation.
/// Without the networking ones, Chromium's own background connections to hosts
/// that cannot be reached stall pages on closed networks.
const BASE_SWITCHES: &[&str] = &[
    "--remote-debugging-port=0",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-breakpad",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-client-side-phishing-detection",
    "--disable-domain-reliability",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    // Many agents share one browser in separate contexts; a tab in the
    // background must not be throttled while its agent drives it.
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    // Every context rove creates gets a hidden browser window, and each
    // window preloads its omnibox popup: two WebUI pages in a renderer of
    // their own, about 50 MB that no page ever sees. Without them a context
    // holding the demo shop's catalogue costs 19 MB of private memory instead
    // of 52 (a tab in a shared context: 11; examples/context_memory.rs,
    // Chromium 156; tests/it/context_cost.rs checks they stay off).
    "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,\
WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
    // Element.computedRole and Element.computedName: Chromium's own roles and
    // accessible names, readable by rove's in-page walker at a tenth of the
    // cost of Accessibility.getFullAXTree.
    "--enable-blink-features=ComputedAccessibilityInfo",
];

/// Starts the browser and connects to it.
pub(crate) async fn launch(
    options: &LaunchOptions,
) -> Result<(BrowserProcess, Connection), BrowserError> {
    let executable = find_browser(options.executable.as_deref())?;
    let failed = |reason: String, stderr_tail: String| BrowserError::LaunchFailed {
        executable: executable.display().to_string(),
        reason,
        stderr_tail,
    };
    // Before anything is made or started: a profile another browser holds
    // is refused untouched.
    if let Some(dir) = &options.profile {
        if let Some(holder) = crate::profile_lock::holder(dir) {
            return Err(BrowserError::ProfileLocked {
                dir: dir.display().to_string(),
                holder,
            });
        }
        // A file in its place is the caller's mistake, said as such (it
        // was a launch failure, "File exists", with a hint to read the
        // browser's stderr).
        if let Ok(meta) = std::fs::metadata(dir)
            && !meta.is_dir()
        {
            return Err(BrowserError::Rejected(format!(
                "--profile {} is a file, not a folder: give a folder (made when missing) for the browser's profile",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(|e| {
            failed(
                format!("could not create the profile {}: {e}", dir.display()),
                String::new(),
            )
        })?;
        // A port file of an earlier run would name a port long closed.
        let _ = std::fs::remove_file(dir.join("DevToolsActivePort"));
    }
    profile::sweep_stale();
    let profile = ProfileDir::create_for(options.profile.clone()).map_err(|e| {
        failed(
            format!("could not create a temporary profile: {e}"),
            String::new(),
        )
    })?;
    let args = switches(options, &profile.user_data_dir());
    let (xdg_config, xdg_cache) = profile.xdg_dirs();
    let mut envs = vec![
        ("XDG_CONFIG_HOME", xdg_config.into_os_string()),
        ("XDG_CACHE_HOME", xdg_cache.into_os_string()),
    ];
    // Chromium's temp files go with the profile (removed, or swept after a
    // kill), unless the path would not fit its singleton socket.
    let tmp = profile.tmp_dir();
    if profile::tmpdir_fits(&tmp) {
        envs.push(("TMPDIR", tmp.into_os_string()));
    } else {
        tracing::debug!(target: "rove_browser", tmp = %tmp.display(), "TMPDIR too long for Chromium's singleton socket; the browser keeps the inherited one");
    }
    let port_file = profile.user_data_dir().join("DevToolsActivePort");
    let process = BrowserProcess::spawn(&executable, &args, &envs, profile)
        .map_err(|e| failed(format!("could not start it: {e}"), String::new()))?;
    tracing::debug!(target: "rove_browser", pid = process.pid(), executable = %executable.display(), "browser started");

    let started = Instant::now();
    let ws_url = loop {
        if let Some(url) = read_port_file(&port_file) {
            break url;
        }
        if let Some(status) = process.exit_status() {
            // Its last words, read to the pipe's end.
            process.stderr_read(rove_base::limits::LAUNCH_STDERR).await;
            return Err(failed(
                format!("it exited at once ({status})"),
                process.stderr_tail(20),
            ));
        }
        if started.elapsed() > options.launch_timeout {
            return Err(failed(
                format!(
                    "it did not open its DevTools port within {} s",
                    options.launch_timeout.as_secs_f64()
                ),
                process.stderr_tail(20),
            ));
        }
        tokio::time::sleep(rove_base::limits::LAUNCH_POLL).await;
    };
    let conn = Connection::connect(&ws_url, options.transport.clone())
        .await
        .map_err(|e| failed(e.to_string(), process.stderr_tail(20)))?;
    Ok((process, conn))
}

fn switches(options: &LaunchOptions, user_data_dir: &Path) -> Vec<OsString> {
    let mut args: Vec<OsString> = BASE_SWITCHES.iter().map(OsString::from).collect();
    let mut user_data = OsString::from("--user-data-dir=");
    user_data.push(user_data_dir);
    args.push(user_data);
    if !options.headed {
        args.extend(
            [
                "--headless=new",
                "--disable-gpu",
                "--mute-audio",
                "--hide-scrollbars",
            ]
            .map(OsString::from),
        );
    }
    if rustix::process::geteuid().is_root() {
        // Chromium refuses to start its sandbox as root.
        args.push("--no-sandbox".into());
    }
    if small_dev_shm() {
        args.push("--disable-dev-shm-usage".into());
    }
    args.extend(options.extra_args.iter().map(OsString::from));
    args.push("about:blank".into());
    args
}

/// Containers often mount a tiny /dev/shm, where Chromium crashes tabs.
fn small_dev_shm() -> bool {
    const ENOUGH: u64 = 512 * 1024 * 1024;
    match rustix::fs::statvfs("/dev/shm") {
        Ok(stat) => stat.f_bavail.saturating_mul(stat.f_frsize) < ENOUGH,
        Err(_) => true,
    }
}

/// Reads `DevToolsActivePort`: the port on the first line, the browser's
/// WebSocket path on the second. A half-written file reads as not ready.
fn read_port_file(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    let port: u16 = lines.next()?.trim().parse().ok()?;
    let ws_path = lines.next()?.trim();
    (port != 0 && ws_path.starts_with("/devtools/browser/"))
        .then(|| format!("ws://127.0.0.1:{port}{ws_path}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_file_must_be_complete() {
        let dir = std::env::temp_dir().join(format!("rove-portfile-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let file = dir.join("DevToolsActivePort");
        assert_eq!(read_port_file(&file), None);
        std::fs::write(&file, "4567").expect("write");
        assert_eq!(read_port_file(&file), None);
        std::fs::write(&file, "4567\n/devtools/browser/abc").expect("write");
        assert_eq!(
            read_port_file(&file).as_deref(),
            Some("ws://127.0.0.1:4567/devtools/browser/abc")
        );
        std::fs::write(&file, "0\n/devtools/browser/abc").expect("write");
        assert_eq!(read_port_file(&file), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn headless_by_default_and_headed_on_request() {
        let dir = Path::new("/tmp/x");
        let headless = switches(&LaunchOptions::default(), dir);
        assert!(headless.iter().any(|a| a == "--headless=new"));
        assert!(headless.iter().any(|a| a == "--user-data-dir=/tmp/x"));
        assert!(headless.iter().any(|a| a == "--remote-debugging-port=0"));
        let headed = switches(
            &LaunchOptions {
                headed: true,
                extra_args: vec!["--lang=de".into()],
                ..LaunchOptions::default()
            },
            dir,
        );
        assert!(!headed.iter().any(|a| a == "--headless=new"));
        assert!(headed.iter().any(|a| a == "--lang=de"));
    }
}
