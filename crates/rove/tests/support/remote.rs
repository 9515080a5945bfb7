//! A browser rove did not start, and a TCP proxy in front of it whose
//! connections can be cut and whose port can stop and start listening.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A Chromium started by the test, as a user would start one. Its temp
/// files stay in its own folder, removed with it.
pub struct External {
    child: Child,
    dir: PathBuf,
    pub port: u16,
}

impl External {
    pub fn start(name: &str) -> External {
        let exe = rove_browser::find_browser(None).expect("Chromium must be installed");
        let dir = super::scratch(&format!("external-{name}"));
        let tmp = dir.join("tmp");
        std::fs::create_dir_all(&tmp).expect("tmp");
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
            .env("TMPDIR", &tmp)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start external chromium");
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

    /// The page targets the browser has, with their URLs, over a fresh
    /// connection of the test's own.
    pub async fn page_urls(&self) -> Vec<String> {
        let browser = rove_browser::Browser::connect(rove_browser::ConnectOptions::new(format!(
            "http://127.0.0.1:{}",
            self.port
        )))
        .await
        .expect("the test connects to the external browser");
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
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A TCP proxy to `upstream` whose live connections can be cut, and which
/// can stop listening and listen again on the same port.
pub struct Proxy {
    pub port: u16,
    upstream: u16,
    accept: JoinHandle<()>,
    links: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Proxy {
    pub async fn start(upstream: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
        Proxy::serve(listener, upstream)
    }

    fn serve(listener: TcpListener, upstream: u16) -> Proxy {
        let port = listener.local_addr().expect("addr").port();
        let links: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let task_links = links.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let link = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(("127.0.0.1", upstream)).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                task_links.lock().expect("links").push(link);
            }
        });
        Proxy {
            port,
            upstream,
            accept,
            links,
        }
    }

    /// Stops listening and cuts every connection: the browser looks gone.
    pub async fn stop(&self) {
        self.accept.abort();
        for link in self.links.lock().expect("links").drain(..) {
            link.abort();
        }
        // The listener closes when its task has ended.
        let started = Instant::now();
        while !self.accept.is_finished() {
            assert!(started.elapsed() < Duration::from_secs(5));
            tokio::task::yield_now().await;
        }
    }

    /// Listens again on the same port: the browser is back.
    pub async fn restart(self) -> Proxy {
        let started = Instant::now();
        let listener = loop {
            match TcpListener::bind(("127.0.0.1", self.port)).await {
                Ok(listener) => break listener,
                Err(e) => {
                    assert!(
                        started.elapsed() < Duration::from_secs(5),
                        "port {} did not free: {e}",
                        self.port
                    );
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        };
        Proxy::serve(listener, self.upstream)
    }
}
