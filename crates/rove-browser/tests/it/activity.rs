//! Settling on evidence (`activity.js`) with real Chromium: a settle told
//! of a resource the browser finished loading waits until the document has
//! received it and has nothing queued, then counts what the page did with
//! it; a resource the document never receives holds it no longer than the
//! bound.

use crate::support;

use std::time::{Duration, Instant};

use rove_browser::{Activity, Awaited, Browser, BrowserContext, Tab, Where};
use rove_localserver::{LocalServer, Response, Routes};
use support::launch;

const PAGE: &str = "<!doctype html><title>late</title><h1>Late</h1><script>\
    function go() { fetch('/late.txt').then((r) => r.text()).then((t) => { \
      const p = document.createElement('p'); p.textContent = t; document.body.append(p); }); }\
    </script>";

async fn server() -> LocalServer {
    LocalServer::start(Routes::new().page("/page", Response::html(PAGE)).page(
        "/late.txt",
        Response::text("arrived").delayed(Duration::from_millis(200)),
    ))
    .await
    .expect("fixture server")
}

/// The page, loaded in a tab of a fresh browser.
async fn opened() -> (LocalServer, Browser, BrowserContext, Tab) {
    let server = server().await;
    let browser = launch().await;
    let context = browser.new_context().await.expect("context");
    let tab = context.new_tab().await.expect("tab");
    tab.goto(&server.url("/page"), Duration::from_secs(10))
        .await
        .expect("goto");
    (server, browser, context, tab)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_settle_told_of_a_resource_counts_what_the_page_did_with_it() {
    let (server, browser, _context, tab) = opened().await;
    let activity = Activity::of(&tab, Where::MainFrame);
    let mark = activity.mark().await.expect("mark");
    tab.evaluate("go(), 1")
        .await
        .expect("the page's fetch starts");
    // What rove's settle passes once the browser's events said the fetch
    // finished; here before it has, which the document's wait covers too.
    let awaited = Awaited {
        urls: vec![server.url("/late.txt")],
        since: mark.at,
    };
    let settle = activity
        .settle(
            Some(mark),
            false,
            Duration::ZERO,
            Duration::from_secs(2),
            Some(&awaited),
        )
        .await
        .expect("settle");
    assert!(
        settle.changed > 0,
        "the settle counts the paragraph the page added with the answer: {settle:?}"
    );
    let shown = tab
        .evaluate("document.body.textContent.includes('arrived')")
        .await
        .expect("read");
    assert_eq!(shown, serde_json::json!(true));
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_the_document_never_receives_holds_the_settle_only_to_its_bound() {
    let (server, browser, _context, tab) = opened().await;
    let activity = Activity::of(&tab, Where::MainFrame);
    let mark = activity.mark().await.expect("mark");
    let awaited = Awaited {
        urls: vec![server.url("/never.txt")],
        since: mark.at,
    };
    let started = Instant::now();
    let settle = activity
        .settle(
            Some(mark),
            false,
            Duration::ZERO,
            Duration::from_secs(5),
            Some(&awaited),
        )
        .await
        .expect("a settle that waited out its bound still answers");
    assert_eq!(settle.changed, 0, "{settle:?}");
    // The bound is activity.js's AWAITED_MS (0.5 s) and IDLE_MS (0.3 s),
    // far inside the settle's own cap of 5 s.
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the settle ended at its bound, not its cap: {:?}",
        started.elapsed()
    );
    browser.close().await;
}
