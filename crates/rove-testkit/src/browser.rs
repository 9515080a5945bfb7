//! Chromium for tests: launched by rove, or started by the test as a user
//! would start one (for `--cdp-url` and reconnect tests).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rove_browser::{Browser, LaunchOptions};

/// Launches the system Chromium with rove's defaults. Fails (never skips)
/// when it is missing: a test that needs a browser must not pass without one.
pub async fn launch() -> Browser {
    Browser::launch(LaunchOptions::default())
        .await
        .unwrap_or_else(|e| panic!("launching Chromium failed (is it installed?): {e}"))
}

/// A Chromium started by the test, not by rove. Its profile and temp files
/// stay in its own folder, removed with it; dropping it kills it.
#[derive(Debug)]
pub struct External {
    child: Child,
    dir: PathBuf,
    /// Its DevTools port on 127.0.0.1.
    pub port: u16,
}

impl External {
    /// Starts it headless on a free DevTools port; waits (30 s at most) for
    /// the port to be announced.
    pub fn start(name: &str) -> External {
        let exe = rove_browser::find_browser(None).expect("Chromium must be installed"); // ok: test support, a failed set-up fails the test
        let dir = crate::scratch_dir(&format!("external-{name}"));
        let tmp = dir.join("tmp");
        std::fs::create_dir_all(&tmp).expect("tmp"); // ok: test support, a failed set-up fails the test
        let child = Command::new(exe)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", dir.join("profile").display()))
            .arg("about:blank")
            // Its singleton socket's folder goes inside its own folder.
            .env("TMPDIR", &tmp)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start external chromium"); // ok: test support, a failed set-up fails the test
        let port_file = dir.join("profile").join("DevToolsActivePort");
        let started = Instant::now();
        let port = loop {
            if let Some(port) = std::fs::read_to_string(&port_file)
                .ok()
                .and_then(|t| t.lines().next()?.parse::<u16>().ok())
            {
                break port;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "external chromium did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        External { child, dir, port }
    }

    /// Its browser WebSocket path (`/devtools/browser/<id>`), as it
    /// announced it.
    pub fn browser_path(&self) -> String {
        let file = self.dir.join("profile").join("DevToolsActivePort");
        std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.lines().nth(1).map(str::to_owned))
            .expect("DevToolsActivePort names the browser's path") // ok: test support, a failed set-up fails the test
    }

    /// Its process id, for a test that ends it as its owner would.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether its process still runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The page targets the browser has, with their URLs, over a fresh
    /// connection of the test's own.
    pub async fn page_urls(&self) -> Vec<String> {
        let browser = Browser::connect(rove_browser::ConnectOptions::new(format!(
            "http://127.0.0.1:{}",
            self.port
        )))
        .await
        .expect("the test connects to the external browser"); // ok: test support, a failed set-up fails the test
        let urls = browser
            .targets()
            .all()
            .into_iter()
            .filter(|t| t.info.kind == "page")
            .map(|t| t.info.url)
            .collect();
        browser.close().await;
        urls
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Its helpers may still write into the folder for a moment.
        for _ in 0..20 {
            match std::fs::remove_dir_all(&self.dir) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => return,
            }
        }
    }
}
