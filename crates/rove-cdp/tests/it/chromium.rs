//! The transport against real headless Chromium.

use std::time::{Duration, Instant};

use rove_browser::Browser;
use rove_cdp::protocol::page::Crash;
use rove_cdp::protocol::runtime::Evaluate;
use rove_cdp::protocol::target::{AttachToTarget, CreateTarget};
use rove_cdp::{CdpError, Connection, Session, TransportConfig};
use rove_errors::{Classify, ErrorCode};
use rove_testkit::launch;

/// A second, raw connection to the browser and a fresh page session on it.
async fn raw_page(browser: &Browser, config: TransportConfig) -> (Connection, Session) {
    let url = browser.connection().await.expect("link").url().to_owned();
    let conn = Connection::connect(&url, config)
        .await
        .expect("raw connect");
    let target = conn
        .browser()
        .send(&CreateTarget {
            url: "about:blank".into(),
            ..CreateTarget::default()
        })
        .await
        .expect("create target");
    let attached = conn
        .browser()
        .send(&AttachToTarget::flat(target.target_id))
        .await
        .expect("attach");
    let session = conn.session(attached.session_id);
    (conn, session)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_hundred_concurrent_evaluations_are_all_answered_correctly() {
    let browser = launch().await;
    let (conn, page) = raw_page(&browser, TransportConfig::default()).await;
    let calls = (0..500u64).map(|n| {
        let page = page.clone();
        async move {
            let answer = page
                .send(&Evaluate::value(format!("{n} * 3 + 1")))
                .await
                .unwrap_or_else(|e| panic!("call {n}: {e}"));
            (n, answer.result.value)
        }
    });
    let answers = futures_util::future::join_all(calls).await;
    assert_eq!(answers.len(), 500);
    for (n, value) in answers {
        assert_eq!(
            value,
            Some(serde_json::json!(n * 3 + 1)),
            "answer to call {n}"
        );
    }
    assert_eq!(conn.stats().pending_calls, 0);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_chromium_fails_fifty_calls_in_flight_at_once() {
    let browser = launch().await;
    let (conn, page) = raw_page(&browser, TransportConfig::default()).await;
    let calls: Vec<_> = (0..50)
        .map(|_| {
            let page = page.clone();
            // A promise that never settles: the call stays in flight.
            tokio::spawn(async move { page.send(&Evaluate::value("new Promise(() => {})")).await })
        })
        .collect();
    // Chromium holds each call (its promise never settles); once all fifty
    // are registered they are in flight.
    let in_flight = tokio::time::timeout(Duration::from_secs(30), async {
        while conn.stats().pending_calls < 50 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    assert!(
        in_flight.is_ok(),
        "only {} calls in flight",
        conn.stats().pending_calls
    );
    let pid = browser.pid().expect("pid");
    let started = Instant::now();
    rove_testkit::kill(pid);
    for call in calls {
        let err = call.await.expect("task").expect_err("must fail");
        assert!(matches!(err, CdpError::ConnectionClosed { .. }), "{err:?}");
        assert_eq!(err.code(), ErrorCode::BrowserDisconnected);
    }
    // At once, not after the 30 s call deadline; loose for a busy machine.
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renderer_crash_fails_the_next_call_fast() {
    let browser = launch().await;
    let (conn, page) = raw_page(&browser, TransportConfig::default()).await;
    conn.browser()
        .send(&rove_cdp::protocol::target::SetDiscoverTargets {
            discover: true,
            filter: None,
        })
        .await
        .expect("discover");
    // Page.crash never answers: the renderer is gone.
    let crash = page.send_within(&Crash {}, Duration::from_secs(10)).await;
    match crash {
        Err(CdpError::TargetCrashed { .. }) => {}
        other => panic!("Page.crash should end with TargetCrashed, got {other:?}"),
    }
    let started = Instant::now();
    let err = page
        .send(&Evaluate::value("1 + 1"))
        .await
        .expect_err("a crashed tab cannot evaluate");
    assert!(
        matches!(err, CdpError::TargetCrashed { sent: false, .. }),
        "{err:?}"
    );
    assert_eq!(err.code(), ErrorCode::TargetCrashed);
    assert!(
        // At once, not after a call deadline (seconds); loose for busy CI.
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_hundred_megabyte_answer_from_chromium_passes() {
    let _turn = crate::support::one_big_message_at_a_time().await;
    let browser = launch().await;
    let (_conn, page) = raw_page(&browser, TransportConfig::default()).await;
    let size = 200 * 1024 * 1024;
    let answer = page
        .send(&Evaluate::value(format!("'x'.repeat({size})")))
        .await
        .expect("a 200 MB value passes");
    let value = answer.result.value.expect("value");
    assert_eq!(value.as_str().map(str::len), Some(size));
    browser.close().await;
}
