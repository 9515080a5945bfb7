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
        let browsers = dir.join("playwright");
        write_browser_script(&modules, &browsers, &dir.join("browser-pids"));
        let port = free_port();
        let token = format!("farm-{}-{port}", std::process::id());
        let log = std::fs::File::create(dir.join("browserless.log")).expect("farm log"); // ok: test support
        let log_err = log.try_clone().expect("farm log"); // ok: test support
        let child = {
            use std::os::unix::process::CommandExt;
            Command::new("node")
                .arg(&entry)
                // It reads its own packages' files from its working folder.
                .current_dir(modules.join(".."))
                .env("HOST", "127.0.0.1")
                .env("PORT", port.to_string())
                .env("TOKEN", &token)
                .env("CONCURRENT", limits.concurrent.to_string())
                .env("QUEUED", limits.queued.to_string())
                .env("TIMEOUT", limits.timeout.as_millis().to_string())
                .env("PLAYWRIGHT_BROWSERS_PATH", &browsers)
                // Its profiles, downloads and metrics go there too.
                .env("TMPDIR", &tmp)
                .stdin(Stdio::null())
                .stdout(log)
                .stderr(log_err)
                // Its own process group: dropping the farm kills it whole.
                .process_group(0)
                .spawn()
                .expect("node must be installed to run the farm") // ok: test support
        };
        let mut farm = Browserless {
            port,
            token,
            child,
            dir,
        };
        farm.wait_until_it_answers().await;
        farm
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

    async fn wait_until_it_answers(&mut self) {
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "browserless exited ({status}) before answering:\n{}",
                    self.log()
                );
            }
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return;
            }
            assert!(
                started.elapsed() < READY_WITHIN,
                "browserless did not answer within {READY_WITHIN:?}:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
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
