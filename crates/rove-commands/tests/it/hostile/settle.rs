//! The fault suite's scenarios about settling: a page that replaces the
//! globals rove's waits could use, or lies about being busy, or blocks its
//! own main thread after the load. What rove decides about when a page has
//! settled is decided in its own world (`activity.js`), where the page's
//! globals are not the ones used.

use super::*;

use rove_commands::Happened;

/// Replaces every global a wait for the DOM could lean on, before anything
/// else on the page runs; the page itself never changes after its load.
const REPLACED: &str = "<script>\
    window.setTimeout = () => 0; window.setInterval = () => 0;\
    window.requestAnimationFrame = () => 0; window.requestIdleCallback = () => 0;\
    window.MutationObserver = class { observe() {} disconnect() {} takeRecords() { return []; } };\
    window.Promise = function () { return { then() { return this; }, catch() { return this; } }; };\
    EventTarget.prototype.addEventListener = function () {};\
    </script><title>Replaced</title><h1>Quiet</h1><button>Stay</button>";

/// Says it is busy through its own `document.querySelector`, which answers
/// every selector with a visible element, and has a socket's worth of
/// reasons to be waited for if rove believed it.
const LIES_BUSY: &str = "<script>\
    const fake = { getBoundingClientRect: () => ({ width: 10, height: 10 }) };\
    Document.prototype.querySelector = function () { return fake; };\
    Element.prototype.closest = function () { return fake; };\
    </script><title>Busy?</title><h1>Idle</h1><button>Go</button>";

/// Changes for a moment after its load (from the first task after it on),
/// then blocks its main thread for 4.5 s: rove's watch, which runs on that
/// thread too, cannot answer.
const BLOCKS: &str = "<title>Blocks</title><h1>Later</h1><p id=p></p><script>\
    let n = 0; const tick = () => { p.textContent = n;\
      if (++n < 10) { setTimeout(tick, 5); return; } const end = Date.now() + 4500; while (Date.now() < end); };\
    window.onload = () => setTimeout(tick, 0);\
    </script>";

fn still_or_unwatched(happened: &Happened) -> bool {
    matches!(
        happened,
        Happened::StillChanging { .. }
            | Happened::SettleUnwatched { .. }
            | Happened::AwaitingServer { .. }
    )
}

#[tokio::test]
async fn a_page_that_replaces_timers_observers_and_promises_opens_at_once_with_a_true_answer() {
    let routes = fixture_routes()
        .page("/replaced.html", Response::html(REPLACED))
        .page("/lies-busy.html", Response::html(LIES_BUSY));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    for page in ["/replaced.html", "/lies-busy.html"] {
        let out = f.open(page).await;
        assert!(
            !out.saw(still_or_unwatched),
            "{page}: a page that never changed is not said to: {:?}",
            out.happened_lines()
        );
        // The waits that the page could have stretched end at their caps
        // (3 s after the load for the DOM, 3 s for a server's answer); a
        // page rove watches from its own world costs a question or two.
        assert!(
            out.timing.settle_ms < 1_000.0,
            "{page}: settled in {} ms",
            out.timing.settle_ms
        );
        let view = out.view.expect("a view").text;
        assert!(view.contains("button \""), "{page}: {view}");
    }
    // An action on the same pages settles the same way: a click that
    // changes nothing answers so, at once.
    let go = f.find("Go", "button").await;
    let out = f.ok(json!({"command": "click", "ref": go})).await;
    assert!(
        out.timing.settle_ms < 1_000.0,
        "settled in {} ms",
        out.timing.settle_ms
    );
    assert!(!out.saw(still_or_unwatched), "{:?}", out.happened_lines());
    f.close().await;
}

#[tokio::test]
async fn a_page_whose_main_thread_never_answers_after_its_load_is_said_to_be_unwatched() {
    let routes = fixture_routes().page("/blocks.html", Response::html(BLOCKS));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    let out = f.open("/blocks.html").await;
    let lines = out.happened_lines();
    // Not "still changing": nothing was seen to change.
    assert!(
        !out.saw(|h| matches!(h, Happened::StillChanging { .. })),
        "{lines:?}"
    );
    let unwatched = lines
        .iter()
        .find(|l| l.starts_with("rove could not watch the page settle"))
        .unwrap_or_else(|| panic!("a note of its own: {lines:?}"));
    assert!(unwatched.contains("main thread"), "{unwatched}");
    // The page answers again afterwards, and the session goes on.
    let view = f
        .ok(json!({"command": "snapshot"}))
        .await
        .view
        .expect("a view")
        .text;
    assert!(view.contains("h1 \"Later\""), "{view}");
    f.close().await;
}
