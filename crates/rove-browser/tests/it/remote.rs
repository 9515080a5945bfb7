//! Connecting to a browser rove did not start: never killing it, restoring
//! a lost connection with backoff, and leaving no context of rove's behind
//! in it when the link was lost for good.

use crate::support;

use std::time::{Duration, Instant};

use rove_browser::{Browser, ConnectOptions, ReconnectPolicy};
use rove_errors::{Classify, ErrorCode};
use support::{External, Proxy, fixture_server};

const LOAD: Duration = Duration::from_secs(10);

fn rand_suffix() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rove_never_kills_a_browser_it_did_not_start() {
    let server = fixture_server().await;
    let mut external = External::start(&rand_suffix().to_string());
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
    // Absence is the point, so this wait is bounded, not on an event: had
    // rove sent this browser `Browser.close` (which Chromium carries out
    // after answering) or a signal, it would be gone within half a second.
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
    let external = External::start(&rand_suffix().to_string());
    let proxy = Proxy::start(external.port).await;
    let browser = Browser::connect(ConnectOptions::new(format!(
        "http://127.0.0.1:{}",
        proxy.port
    )))
    .await
    .expect("connect through the proxy");
    let mut events = browser.events();
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
    // made once rove saw the loss waits for the reconnect instead. So the
    // call waits until rove says it saw the loss.
    let mut link = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), async {
        while let Ok(event) = events.recv().await {
            if let Some(told) = link_story(&event) {
                link.push(told);
                if told == "lost, reconnecting" {
                    return;
                }
            }
        }
    })
    .await
    .expect("rove saw the link drop within 5 s");
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
    proxy.stop().await;
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
    // A subscriber heard the same story, in order (each told before the
    // link's new state was visible to a call).
    while let Ok(event) = events.try_recv() {
        link.extend(link_story(&event));
    }
    assert_eq!(
        link,
        [
            "lost, reconnecting",
            "reconnected",
            "lost, reconnecting",
            "lost for good"
        ]
    );
    browser.close().await;
}

/// What a browser event says of the link, if anything.
fn link_story(event: &rove_browser::BrowserEvent) -> Option<&'static str> {
    match event {
        rove_browser::BrowserEvent::Disconnected { reconnecting, .. } => Some(if *reconnecting {
            "lost, reconnecting"
        } else {
            "lost for good"
        }),
        rove_browser::BrowserEvent::Reconnected { .. } => Some("reconnected"),
        _ => None,
    }
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
    proxy.stop().await;
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
    let external = External::start(&rand_suffix().to_string());
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
    let external = External::start(&rand_suffix().to_string());
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
