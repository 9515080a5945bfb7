//! `Browser::events()` with real Chromium: a program that subscribes hears
//! of a tab opening, its navigation, a dialog, a crash, a download begun
//! and finished, a tab closing and the browser dying, each with the
//! context it happened in.

use crate::support;

use std::time::Duration;

use rove_browser::BrowserEvent;
use rove_cdp::protocol::page::Crash;
use support::{fixture_server, launch};
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;

const LOAD: Duration = Duration::from_secs(10);

/// The next event `wanted` accepts, within 15 s; the ones before it are
/// skipped (a new tab also navigates, a page also opens its own targets).
async fn next(
    events: &mut Receiver<BrowserEvent>,
    what: &str,
    wanted: impl Fn(&BrowserEvent) -> bool,
) -> BrowserEvent {
    let wait = async {
        loop {
            match events.recv().await {
                Ok(event) if wanted(&event) => return event,
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => panic!("the events ended before {what}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(15), wait)
        .await
        .unwrap_or_else(|_| panic!("no {what} within 15 s"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscriber_hears_tabs_navigations_dialogs_crashes_downloads_and_the_end() {
    let server = fixture_server().await;
    let browser = launch().await;
    let mut events = browser.events();
    let context = browser.new_context().await.expect("context");
    let ours = Some(context.id().to_owned());

    let tab = context.new_tab().await.expect("tab");
    let target = tab.target_id().to_owned();
    let opened = next(
        &mut events,
        "tab_opened",
        |e| matches!(e, BrowserEvent::TabOpened { target_id, .. } if *target_id == target),
    )
    .await;
    assert_eq!(opened.context(), ours.as_deref());

    let url = server.url("/hello");
    tab.goto(&url, LOAD).await.expect("page");
    let navigated = next(
        &mut events,
        "navigated",
        |e| matches!(e, BrowserEvent::Navigated { url: to, .. } if *to == url),
    )
    .await;
    assert_eq!(navigated.context(), ours.as_deref());

    tab.watch().await.expect("watch");
    tab.evaluate("setTimeout(() => alert('Saved'), 0); 1")
        .await
        .expect("script");
    let dialog = next(&mut events, "dialog", |e| {
        matches!(e, BrowserEvent::Dialog { .. })
    })
    .await;
    assert_eq!(
        dialog,
        BrowserEvent::Dialog {
            target_id: target.clone(),
            kind: "alert".into(),
            message: "Saved".into(),
            context: ours.clone(),
        }
    );

    let second = context.new_tab().await.expect("second tab");
    let doomed = second.target_id().to_owned();
    second.goto(&url, LOAD).await.expect("second page");
    let _ = second.send_within(&Crash {}, Duration::from_secs(10)).await;
    let crashed = next(&mut events, "crashed", |e| {
        matches!(e, BrowserEvent::Crashed { .. })
    })
    .await;
    assert!(
        matches!(&crashed, BrowserEvent::Crashed { target_id, .. } if *target_id == doomed),
        "{crashed:?}"
    );
    assert_eq!(crashed.context(), ours.as_deref());
    assert_eq!(
        serde_json::to_value(&crashed).expect("json")["event"],
        "crashed"
    );

    // A download, begun by the page and finished.
    let files = rove_localserver::LocalServer::start(
        rove_localserver::Routes::new().page(
            "/notes",
            rove_localserver::Response::text("some notes")
                .header("Content-Disposition", "attachment; filename=notes.txt"),
        ),
    )
    .await
    .expect("file server");
    let downloads = support::scratch_dir("events-downloads");
    browser
        .connection()
        .await
        .expect("connection")
        .browser()
        .send(&rove_cdp::protocol::browser::SetDownloadBehavior {
            behavior: rove_cdp::protocol::browser::SetDownloadBehaviorBehavior::AllowAndName,
            browser_context_id: Some(context.id().to_owned()),
            download_path: Some(downloads.to_string_lossy().into_owned()),
            events_enabled: Some(true),
        })
        .await
        .expect("downloads on");
    let file_url = files.url("/notes");
    // (The first tab is still held by its alert.)
    let third = context.new_tab().await.expect("third tab");
    third
        .evaluate(&format!("location.href = {file_url:?}; 1"))
        .await
        .expect("start the download");
    let started = next(
        &mut events,
        "download started",
        |e| matches!(e, BrowserEvent::Download { state, .. } if state == "started"),
    )
    .await;
    let BrowserEvent::Download {
        guid,
        url,
        file_name,
        context: from,
        ..
    } = started
    else {
        unreachable!("matched above")
    };
    assert_eq!(url.as_deref(), Some(file_url.as_str()));
    assert_eq!(file_name.as_deref(), Some("notes.txt"));
    assert_eq!(from, ours);
    let finished = next(
        &mut events,
        "download finished",
        |e| matches!(e, BrowserEvent::Download { state, .. } if state != "started"),
    )
    .await;
    assert!(
        matches!(&finished, BrowserEvent::Download { guid: g, state, context, .. }
            if *g == guid && state == "completed" && *context == ours),
        "{finished:?}"
    );
    let _ = std::fs::remove_dir_all(&downloads);

    context.close_tab(second.id()).await.expect("close");
    next(
        &mut events,
        "tab_closed",
        |e| matches!(e, BrowserEvent::TabClosed { target_id, .. } if *target_id == doomed),
    )
    .await;

    // The browser dies under rove: the link is down for good.
    let pid = browser.pid().expect("launched");
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let gone = next(&mut events, "disconnected", |e| {
        matches!(e, BrowserEvent::Disconnected { .. })
    })
    .await;
    assert!(
        matches!(
            gone,
            BrowserEvent::Disconnected {
                reconnecting: false,
                ..
            }
        ),
        "{gone:?}"
    );
}
