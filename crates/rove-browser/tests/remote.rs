//! Connecting to a browser rove did not start: never killing it, restoring
//! a lost connection with backoff, and leaving no context of rove's behind
//! in it when the link was lost for good.

mod support;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rove_browser::{Browser, ConnectOptions, ReconnectPolicy, find_browser};
use rove_errors::{Classify, ErrorCode};
use support::fixture_server;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

const LOAD: Duration = Duration::from_secs(10);

/// A Chromium started by the test, as a user would start one.
struct External {
    child: Child,
    dir: PathBuf,
    port: u16,
}

impl External {
    fn start() -> External {
        let exe = find_browser(None).expect("Chromium must be installed");
        let dir = support::scratch_dir(&format!("external-{}", rand_suffix()));
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
            // Its temp folders (the singleton socket's) go with its folder.
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

    fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(200));
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn rand_suffix() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default()
}

/// A TCP proxy whose live connections can be cut, and which can stop
/// listening altogether and listen again on the same port.
struct Proxy {
    port: u16,
    upstream: u16,
    accept: JoinHandle<()>,
    links: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Proxy {
    async fn start(upstream: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
        Proxy::serve(listener, upstream)
    }

    /// Listens again on the same port (after [`Proxy::stop`]).
    async fn restart(self) -> Proxy {
        let started = Instant::now();
        let listener = loop {
            match TcpListener::bind(("127.0.0.1", self.port)).await {
                Ok(listener) => break listener,
                // The aborted accept task drops its listener a moment later.
                Err(e) => {
                    assert!(started.elapsed() < Duration::from_secs(5), "{e}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        };
        Proxy::serve(listener, self.upstream)
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

    fn cut(&self) {
        for link in self.links.lock().expect("links").drain(..) {
            link.abort();
        }
    }

    fn stop(&self) {
        self.accept.abort();
        self.cut();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rove_never_kills_a_browser_it_did_not_start() {
    let server = fixture_server().await;
    let mut external = External::start();
    let browser = Browser::connect(ConnectOptions::new(format!(
        "http://127.0.0.1:{}",
        external.port
    )))
    .await
    .expect("connect over http discovery");
    assert!(!browser.is_launched());
    assert_eq!(browser.pid(), None);
    let ctx = browser.new_context().await.expect("context");
    let tab = ctx.new_tab().await.expect("tab");
    let loaded = tab.goto(&server.url("/hello"), LOAD).await.expect("load");
    assert_eq!(loaded.title, "Hello from rove");
    let ctx_id = ctx.id().to_owned();
    browser.close().await;
    drop(browser);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(external.alive(), "rove killed a browser it did not start");

    // The browser still serves others, and rove's context was disposed.
    let again = Browser::connect(ConnectOptions::new(format!(
        "http://127.0.0.1:{}",
        external.port
    )))
    .await
    .expect("reconnect as a new client");
    assert!(
        again.targets().pages_in(&ctx_id).is_empty(),
        "rove left its context's tabs open"
    );
    again.close().await;
    assert!(external.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_is_restored_then_given_up_after_three_tries() {
    let server = fixture_server().await;
    let external = External::start();
    let proxy = Proxy::start(external.port).await;
    let browser = Browser::connect(ConnectOptions::new(format!(
        "http://127.0.0.1:{}",
        proxy.port
    )))
    .await
    .expect("connect through the proxy");
    let ctx = browser.new_context().await.expect("context");
    let tab = ctx.new_tab().await.expect("tab");
    tab.goto(&server.url("/hello"), LOAD).await.expect("load");
    tab.evaluate("window.marker = 41")
        .await
        .expect("mark the page");

    // A network blip: the socket drops, the browser lives on.
    let cut_at = Instant::now();
    proxy.cut();
    // A call in flight at the cut would fail (it may have been sent); a call
    // made once rove saw the loss waits for the reconnect instead.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let value = tab
        .evaluate("window.marker + 1")
        .await
        .expect("the tab answers again after the reconnect");
    assert_eq!(value, 42, "the page state survived the reconnect");
    let restored_after = cut_at.elapsed();
    assert!(
        restored_after >= Duration::from_millis(900) && restored_after < Duration::from_secs(5),
        "the first retry should come after about 1 s, took {restored_after:?}"
    );

    // The browser becomes unreachable: 3 tries after 1, 2 and 4 s, then
    // BROWSER_DISCONNECTED.
    let lost_at = Instant::now();
    proxy.stop();
    let err = loop {
        match tab.evaluate("1").await {
            Err(e)
                if e.code() == ErrorCode::BrowserDisconnected
                    && lost_at.elapsed() > Duration::from_secs(6) =>
            {
                break e;
            }
            Err(e) if e.code() == ErrorCode::BrowserDisconnected => {
                // A call racing the loss itself fails at once; later calls
                // wait for the reconnect to settle.
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("unexpected error {e}"),
            Ok(v) => panic!("the browser is unreachable, yet answered {v}"),
        }
    };
    let gave_up_after = lost_at.elapsed();
    assert!(
        gave_up_after >= Duration::from_secs(7) && gave_up_after < Duration::from_secs(12),
        "gave up after {gave_up_after:?}"
    );
    assert!(
        err.to_string().contains("3 reconnect attempts failed"),
        "{err}"
    );
    browser.close().await;
}

/// Connects through `proxy` with one quick reconnect attempt, so a lost link
/// is given up within a second.
async fn connect_quickly(proxy: &Proxy) -> Browser {
    Browser::connect(ConnectOptions {
        reconnect: ReconnectPolicy {
            backoff: vec![Duration::from_millis(50)],
            attempt_timeout: Duration::from_secs(2),
        },
        ..ConnectOptions::new(format!("http://127.0.0.1:{}", proxy.port))
    })
    .await
    .expect("connect through the proxy")
}

/// Opens a tab on the fixture in a new context; the context's id.
async fn context_with_a_tab(browser: &Browser, url: &str) -> String {
    let ctx = browser.new_context().await.expect("context");
    let tab = ctx.new_tab().await.expect("tab");
    tab.goto(url, LOAD).await.expect("load");
    ctx.id().to_owned()
}

/// Cuts the link for good: the proxy stops, and the reconnect attempt fails.
async fn lose_link(browser: &Browser, proxy: &Proxy) {
    proxy.stop();
    let started = Instant::now();
    loop {
        match browser.version().await {
            Err(e) if e.to_string().contains("reconnect attempts failed") => return,
            _ => {
                assert!(
                    started.elapsed() < Duration::from_secs(10),
                    "the link was not given up"
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

/// Whether the context's pages are gone, asked over a new connection.
async fn no_pages_left_in(external: &External, context: &str) -> bool {
    let observer = Browser::connect(ConnectOptions::new(format!(
        "http://127.0.0.1:{}",
        external.port
    )))
    .await
    .expect("observer connects");
    let gone = observer
        .targets()
        .wait_until(Duration::from_secs(5), |r| r.pages_in(context).is_empty())
        .await;
    observer.close().await;
    gone
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_after_a_lost_link_disposes_the_context_over_a_fresh_connection() {
    let server = fixture_server().await;
    let external = External::start();
    let proxy = Proxy::start(external.port).await;
    let browser = connect_quickly(&proxy).await;
    let context = context_with_a_tab(&browser, &server.url("/hello")).await;
    lose_link(&browser, &proxy).await;
    let _proxy = proxy.restart().await;
    browser.close().await;
    assert_eq!(browser.undisposed_contexts(), Vec::<String>::new());
    assert!(
        no_pages_left_in(&external, &context).await,
        "the lost link's tab stayed in the browser"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contexts_a_lost_link_left_behind_are_disposed_by_the_next_handle() {
    let server = fixture_server().await;
    let external = External::start();
    let proxy = Proxy::start(external.port).await;
    let browser = connect_quickly(&proxy).await;
    let context = context_with_a_tab(&browser, &server.url("/hello")).await;
    lose_link(&browser, &proxy).await;
    // Still unreachable at close: the context is handed on.
    browser.close().await;
    let left = browser.undisposed_contexts();
    assert_eq!(left, vec![context.clone()]);
    let proxy = proxy.restart().await;
    let next = connect_quickly(&proxy).await;
    next.adopt_contexts(left).await;
    assert_eq!(next.undisposed_contexts(), Vec::<String>::new());
    assert!(
        no_pages_left_in(&external, &context).await,
        "the lost link's tab stayed in the browser"
    );
    next.close().await;
}
