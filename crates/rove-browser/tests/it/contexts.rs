//! Isolated contexts: cookies, tabs and focus of their own; popups; crashes.

use crate::support;

use std::time::{Duration, Instant};

use rove_browser::{BrowserError, TabId};
use rove_cdp::protocol::page::Crash;
use rove_cdp::protocol::runtime::Evaluate;
use rove_errors::{Classify, ErrorCode};
use support::{fixture_server, launch};

const LOAD: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contexts_have_their_own_cookies_tabs_and_focus() {
    let server = fixture_server().await;
    let browser = launch().await;
    let a = browser.new_context().await.expect("context a");
    let b = browser.new_context().await.expect("context b");
    assert_ne!(a.id(), b.id());

    let a1 = a.new_tab().await.expect("a tab");
    let b1 = b.new_tab().await.expect("b tab");
    a1.goto(&server.url("/cookie"), LOAD)
        .await
        .expect("a cookie page");
    b1.goto(&server.url("/hello"), LOAD).await.expect("b page");
    a1.goto(&server.url("/hello"), LOAD).await.expect("a page");
    assert_eq!(
        a1.evaluate("document.cookie").await.expect("a cookie"),
        "flavour=oat"
    );
    assert_eq!(b1.evaluate("document.cookie").await.expect("b cookie"), "");

    // Ids are per context and start at t1 in each.
    assert_eq!(a1.id(), TabId(1));
    assert_eq!(b1.id(), TabId(1));

    // A second tab in A moves A's focus only.
    let a2 = a.new_tab().await.expect("a second tab");
    assert_eq!(a2.id(), TabId(2));
    assert_eq!(a.focused().map(|t| t.id()), Some(TabId(2)));
    assert_eq!(b.focused().map(|t| t.id()), Some(TabId(1)));
    let a_tabs: Vec<_> = a.tabs().into_iter().map(|t| (t.id, t.focused)).collect();
    assert_eq!(a_tabs, vec![(TabId(1), false), (TabId(2), true)]);
    assert_eq!(b.tabs().len(), 1, "context b sees a tab of context a");

    a.focus(TabId(1)).await.expect("focus t1");
    assert_eq!(a.focused().map(|t| t.id()), Some(TabId(1)));

    // Closed ids are never reused.
    a.close_tab(TabId(2)).await.expect("close t2");
    let a3 = a.new_tab().await.expect("a third tab");
    assert_eq!(a3.id(), TabId(3));
    let err = a.tab(TabId(2)).expect_err("t2 is gone");
    assert_eq!(err.code(), ErrorCode::NoTab);

    // Disposing a context closes its tabs; the other context is untouched.
    a.close().await.expect("dispose a");
    assert!(
        browser
            .targets()
            .wait_until(LOAD, |r| r.pages_in(a.id()).is_empty())
            .await,
        "context a's pages survived its disposal"
    );
    assert_eq!(
        b1.evaluate("document.title").await.expect("b alive"),
        "Hello from rove"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_popup_joins_its_context_with_its_opener() {
    let server = fixture_server().await;
    let browser = launch().await;
    let ctx = browser.new_context().await.expect("context");
    let other = browser.new_context().await.expect("other context");
    let _other_tab = other.new_tab().await.expect("other tab");
    let tab = ctx.new_tab().await.expect("tab");
    tab.goto(&server.url("/hello"), LOAD).await.expect("page");
    let popup_url = server.url("/hello?popup");
    let open = Evaluate {
        user_gesture: Some(true),
        ..Evaluate::value(format!("window.open({popup_url:?}) !== null"))
    };
    let opened = tab.send(&open).await.expect("window.open");
    assert_eq!(opened.result.value, Some(serde_json::json!(true)));
    let ctx_id = ctx.id().to_owned();
    assert!(
        browser
            .targets()
            .wait_until(LOAD, |r| r.pages_in(&ctx_id).len() == 2)
            .await,
        "the popup never appeared"
    );
    let tabs = ctx.tabs();
    assert_eq!(tabs.len(), 2);
    let popup = &tabs[1];
    assert_eq!(popup.id, TabId(2));
    assert_eq!(popup.opener, Some(TabId(1)));
    assert_eq!(
        other.tabs().len(),
        1,
        "the popup leaked into another context"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_tab_fails_fast_with_target_crashed() {
    let server = fixture_server().await;
    let browser = launch().await;
    let ctx = browser.new_context().await.expect("context");
    let tab = ctx.new_tab().await.expect("tab");
    tab.goto(&server.url("/hello"), LOAD).await.expect("page");
    let crash = tab.send_within(&Crash {}, Duration::from_secs(10)).await;
    assert!(
        matches!(crash, Err(BrowserError::TargetCrashed { .. })),
        "Page.crash should end in TargetCrashed, got {crash:?}"
    );
    let started = Instant::now();
    let err = tab.evaluate("1 + 1").await.expect_err("crashed");
    assert_eq!(err.code(), ErrorCode::TargetCrashed);
    assert!(
        err.to_string().contains("t1"),
        "the error names the tab: {err}"
    );
    assert!(
        // At once, not after a call deadline (seconds); loose for busy CI.
        started.elapsed() < Duration::from_millis(1000),
        "took {:?}",
        started.elapsed()
    );
    // The registry learns of the crash from the same event, a moment later.
    let target = tab.target_id().to_owned();
    assert!(
        browser
            .targets()
            .wait_until(Duration::from_secs(2), |r| r
                .get(&target)
                .is_some_and(|t| t.crashed))
            .await
    );
    assert!(ctx.tabs()[0].crashed);
    // Another tab in the same context still works.
    let fresh = ctx.new_tab().await.expect("new tab");
    assert_eq!(fresh.evaluate("2 + 2").await.expect("fresh tab"), 4);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn navigation_failures_and_script_errors_are_typed() {
    let browser = launch().await;
    let ctx = browser.new_context().await.expect("context");
    let tab = ctx.new_tab().await.expect("tab");
    // A closed port on loopback: connection refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/", closed.local_addr().expect("addr"));
    drop(closed);
    let err = tab.goto(&url, LOAD).await.expect_err("refused");
    assert_eq!(err.code(), ErrorCode::NavigationFailed);
    assert!(err.to_string().contains("ERR_CONNECTION_REFUSED"), "{err}");

    let err = tab
        .evaluate("throw new Error('boom')")
        .await
        .expect_err("throws");
    assert_eq!(err.code(), ErrorCode::EvaluationFailed);
    assert!(err.to_string().contains("boom"), "{err}");
    browser.close().await;
}
