//! The real browser farm: the open-source browserless platform, installed
//! by `scripts/fetch-farm.sh` into `target/farm`, run by node on 127.0.0.1
//! with a token and its limits (CONCURRENT, QUEUED, TIMEOUT). It launches
//! the system Chromium for each connection through a small script in the
//! farm's own folder (browserless takes its browser where Playwright keeps
//! one, `PLAYWRIGHT_BROWSERS_PATH`); the script adds the networking switches
//! rove's own launch uses, since Chromium's background connections stall
//! pages on a closed network, and notes each browser's process id so that
//! dropping the farm ends them too (puppeteer starts each browser in a
//! process group of its own).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What the farm allows: browsers at once, handshakes waiting in its queue,
/// and how long one connection may live before the farm ends it.
#[derive(Debug, Clone, Copy)]
pub struct BrowserlessLimits {
    /// `CONCURRENT`.
    pub concurrent: u32,
    /// `QUEUED`.
    pub queued: u32,
    /// `TIMEOUT`.
    pub timeout: Duration,
}

impl Default for BrowserlessLimits {
    fn default() -> BrowserlessLimits {
        BrowserlessLimits {
            concurrent: 2,
            queued: 10,
            timeout: Duration::from_secs(60),
        }
    }
}

/// A running browserless on 127.0.0.1; dropping it kills node and every
/// browser it launched.
#[derive(Debug)]
pub struct Browserless {
    /// Where it listens.
    pub port: u16,
    /// The token it asks for.
    pub token: String,
    child: Child,
    dir: PathBuf,
}

/// Switches rove's own launch gives Chromium for a closed network.
const NETWORK_SWITCHES: &str = "--disable-background-networking --disable-component-update \
--disable-sync --disable-quic --disable-breakpad --disable-domain-reliability \
--disable-client-side-phishing-detection --no-first-run";

/// How long node may take to answer after it starts.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// Where `scripts/fetch-farm.sh` installs browserless.
pub fn farm_install_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/farm/node_modules")
}

impl Browserless {
    /// Starts one named `name` (its scratch folder) with `limits`; waits
    /// until it answers. Fails, naming the script, when browserless is not
    /// installed.
    pub async fn start(name: &str, limits: BrowserlessLimits) -> Browserless {
        let modules = farm_install_dir();
        let entry = modules.join("@browserless.io/browserless/build/index.js");
        assert!(
            entry.is_file(),
            "browserless is not installed in {}: run scripts/fetch-farm.sh (scripts/test.sh does)",
            modules.display()
        );
        let dir = crate::scratch_dir(&format!("browserless-{name}"));
        let tmp = dir.join("tmp");
        std::fs::create_dir_all(&tmp).expect("farm tmp"); // ok: test support, a failed set-up fails the test
        write_browser_script(&modules, &dir.join("playwright"), &dir.join("browser-pids"));
        // A free port may be taken again before node binds it: then it
        // exits saying so, and another is tried.
        for _ in 0..3 {
            let port = free_port();
            let token = format!("farm-{}-{port}", std::process::id());
            let mut child = spawn_node(&entry, &dir, port, &token, limits);
            if listens(&mut child, &dir, port).await {
                return Browserless {
                    port,
                    token,
                    child,
                    dir,
                };
            }
        }
        panic!("browserless found no free port in 3 tries");
    }

    /// The farm's documented URL: `ws://127.0.0.1:PORT?token=TOKEN`.
    pub fn ws_url(&self) -> String {
        format!("ws://127.0.0.1:{}?token={}", self.port, self.token)
    }

    /// Process ids of every browser it has launched so far (gone or not).
    pub fn launched(&self) -> Vec<u32> {
        std::fs::read_to_string(self.dir.join("browser-pids"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// What node wrote so far, to explain a failure.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("browserless.log")).unwrap_or_default()
    }
}

impl Drop for Browserless {
    fn drop(&mut self) {
        use rustix::process::{Pid, Signal, kill_process_group};
        let groups = std::iter::once(self.child.id()).chain(self.launched());
        for id in groups {
            if let Some(pid) = i32::try_from(id).ok().and_then(Pid::from_raw) {
                let _ = kill_process_group(pid, Signal::KILL);
            }
        }
        let _ = self.child.wait();
        // A failed test's farm log is worth reading.
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Waits until node's log says it listens on `port`; `false` when the
/// port was taken (it exited).
async fn listens(child: &mut Child, dir: &Path, port: u16) -> bool {
    let started = Instant::now();
    let listening = format!("HTTP Server is listening on http://127.0.0.1:{port}");
    loop {
        let log = std::fs::read_to_string(dir.join("browserless.log")).unwrap_or_default();
        if log.contains(&listening) {
            return true;
        }
        if let Ok(Some(status)) = child.try_wait() {
            assert!(
                log.contains("EADDRINUSE"),
                "browserless exited ({status}) before listening:\n{log}"
            );
            return false;
        }
        if started.elapsed() > READY_WITHIN {
            let _ = child.kill();
            panic!("browserless did not listen within {READY_WITHIN:?}:\n{log}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// node running browserless from its install, on `port` with `token` and
/// `limits`, its browsers and temp files in `dir`, its output in
/// `dir/browserless.log`.
fn spawn_node(
    entry: &Path,
    dir: &Path,
    port: u16,
    token: &str,
    limits: BrowserlessLimits,
) -> Child {
    use std::os::unix::process::CommandExt;
    let log = std::fs::File::create(dir.join("browserless.log")).expect("farm log"); // ok: test support, a failed set-up fails the test
    let log_err = log.try_clone().expect("farm log"); // ok: test support
    Command::new("node")
        .arg(entry)
        // It reads its own packages' files from its working folder.
        .current_dir(farm_install_dir().join(".."))
        .env("HOST", "127.0.0.1")
        .env("PORT", port.to_string())
        .env("TOKEN", token)
        .env("CONCURRENT", limits.concurrent.to_string())
        .env("QUEUED", limits.queued.to_string())
        .env("TIMEOUT", limits.timeout.as_millis().to_string())
        .env("PLAYWRIGHT_BROWSERS_PATH", dir.join("playwright"))
        // Its profiles, downloads and metrics go there too.
        .env("TMPDIR", dir.join("tmp"))
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log_err)
        // Its own process group: dropping the farm kills it whole.
        .process_group(0)
        .spawn()
        .expect("node must be installed to run the farm") // ok: test support
}

/// Puts a script where Playwright's registry, as browserless reads it,
/// expects Chromium: it notes its process id (kept by `exec`) and runs the
/// system Chromium with [`NETWORK_SWITCHES`] before the farm's own.
fn write_browser_script(modules: &Path, browsers: &Path, pids: &Path) {
    let registry = modules.join("playwright-core/browsers.json");
    let registry: serde_json::Value = std::fs::read_to_string(&registry)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| panic!("{} is not readable JSON", registry.display()));
    let revision = registry["browsers"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["name"] == "chromium"))
        .and_then(|b| b["revision"].as_str())
        .expect("Playwright's registry names a Chromium revision"); // ok: test support
    let platform_dir = if cfg!(target_arch = "aarch64") {
        "chrome-linux"
    } else {
        "chrome-linux64"
    };
    let folder = browsers
        .join(format!("chromium-{revision}"))
        .join(platform_dir);
    std::fs::create_dir_all(&folder).expect("farm browser folder"); // ok: test support
    let chromium = rove_browser::find_browser(None).expect("Chromium must be installed"); // ok: test support
    let script = format!(
        "#!/bin/sh\necho $$ >> '{}'\nexec '{}' {NETWORK_SWITCHES} \"$@\"\n",
        pids.display(),
        chromium.display()
    );
    let path = folder.join("chrome");
    std::fs::write(&path, script).expect("farm browser script"); // ok: test support
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .expect("farm browser script mode"); // ok: test support
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("free port"); // ok: test support
    listener.local_addr().expect("port").port() // ok: test support
}
