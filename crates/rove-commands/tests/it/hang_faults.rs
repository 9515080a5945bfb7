//! The fault suite: pages that hang, crash, flood the agent with dialogs or
//! make it wait, and what rove promises about each. One test per scenario,
//! named for the behaviour it holds rove to; every scenario once hung a
//! session or gave a wrong answer.

use crate::support;

use std::time::{Duration, Instant};

use rove_commands::{HealthLimits, SessionConfig};
use rove_errors::{ActionSent, Classify, Retry};
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, code, fixture_routes};

fn routes() -> rove_localserver::Routes {
    fixture_routes()
        // Answers later than any test runs: a request that never returns.
        .page(
            "/never",
            Response::text("too late").delayed(Duration::from_secs(600)),
        )
        .page(
            "/file.txt",
            Response::text("quarterly numbers\n")
                .header("Content-Disposition", "attachment; filename=\"report.txt\""),
        )
        .page("/nothing", Response::status(204))
}

/// Limits that find a hung tab quickly, so the suite runs in seconds (only
/// for the scenarios that hang a tab; the others keep the defaults, so a
/// loaded machine never makes a healthy page look hung).
fn quick() -> SessionConfig {
    SessionConfig {
        health: support::quick_health(),
        eval_timeout: Duration::from_secs(2),
        ..SessionConfig::default()
    }
}

async fn quick_fixture() -> Fixture {
    Fixture::with(routes(), quick()).await
}

/// The text of an answer, failing the test on an error.
fn text(result: &Result<rove_commands::Outcome, rove_commands::CommandError>) -> String {
    match result {
        Ok(out) => out.text(),
        Err(e) => panic!("failed: {:?}", e.report()),
    }
}

#[tokio::test]
async fn an_endless_eval_is_stopped_at_its_deadline_and_the_tab_answers_again() {
    let mut f = quick_fixture().await;
    f.open("/faults.html").await;
    let started = Instant::now();
    let e = f
        .fails(json!({"command": "eval", "js": "while (true) {}"}))
        .await;
    let took = started.elapsed();
    assert_eq!(code(&e), "TIMEOUT", "{:?}", e.report());
    let report = e.report();
    assert!(
        report.message.contains("rove stopped it"),
        "{}",
        report.message
    );
    assert_eq!(report.action_sent, ActionSent::Sent);
    assert_eq!(report.retry, Retry::Never);
    assert!(
        took < Duration::from_secs(10),
        "the eval deadline is 2 s, the answer took {took:?}"
    );
    // The tab answers, with its page, far from the 60 s a call could wait.
    let started = Instant::now();
    assert_eq!(f.eval("document.title").await, "Faults");
    assert!(started.elapsed() < Duration::from_secs(10));
    f.close().await;
}

#[tokio::test]
async fn an_eval_awaiting_a_promise_that_never_settles_is_abandoned_without_stopping_the_page() {
    let mut f = quick_fixture().await;
    f.open("/faults.html").await;
    // What a reload, a replaced tab or a stopped script would lose: a
    // value the page holds and a timer that keeps counting.
    let before = f
        .ok(json!({"command": "eval", "js": "window.marker = 'kept'; window.ticks = 0; setInterval(() => { window.ticks++; }, 20); 'set'"}))
        .await;
    let target = f
        .session
        .context()
        .focused()
        .expect("a tab")
        .target_id()
        .to_owned();
    let e = f
        .fails(json!({"command": "eval", "js": "new Promise(() => {})"}))
        .await;
    assert_eq!(code(&e), "TIMEOUT");
    assert!(
        e.report().message.contains("did not settle"),
        "{}",
        e.report().message
    );
    let after = f
        .ok(json!({"command": "eval", "js": "window.marker"}))
        .await;
    assert_eq!(after.tab, before.tab, "the same tab");
    assert_eq!(
        f.session.context().focused().expect("a tab").target_id(),
        target,
        "the same browser tab, not a new one under the old name"
    );
    assert_eq!(
        after.result(),
        Some(&json!("kept")),
        "the page was reloaded or replaced"
    );
    // The timer ran through the wait (2 s at 20 ms) and runs still.
    let ticked = f.eval("window.ticks").await.as_u64().expect("ticks");
    assert!(ticked > 20, "{ticked} ticks");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let later = f.eval("window.ticks").await.as_u64().expect("ticks");
    assert!(later > ticked, "the timer stopped at {ticked}");
    f.close().await;
}

#[tokio::test]
async fn a_page_that_hangs_while_loading_is_stopped_and_later_commands_answer() {
    // A loading document may stay silent for as long as a navigation is
    // waited for; past that, it is hung.
    let config = SessionConfig {
        navigation_timeout: Duration::from_secs(3),
        ..quick()
    };
    let mut f = Fixture::with(routes(), config).await;
    let url = f.url("/hang-load.html");
    let started = Instant::now();
    let e = f.fails(json!({"command": "open", "url": url})).await;
    let took = started.elapsed();
    assert_eq!(code(&e), "TIMEOUT", "{:?}", e.report());
    let report = e.report();
    assert!(
        report.message.contains("rove stopped its script"),
        "{}",
        report.message
    );
    assert!(report.message.contains(&url), "{}", report.message);
    assert!(
        took < Duration::from_secs(15),
        "found and stopped in {took:?}"
    );
    // The page is there, as the stopped script left it.
    let out = f.ok(json!({"command": "snapshot"})).await;
    assert!(out.text().contains("Loaded up to here"), "{}", out.text());
    f.close().await;
}

#[tokio::test]
async fn a_tab_stuck_outside_javascript_is_replaced_and_the_answer_says_where_it_was() {
    let mut f = quick_fixture().await;
    f.open("/faults.html").await;
    let url = f.url("/faults.html");
    let stuck = f.find("Wait on the network forever", "button").await;
    let started = Instant::now();
    let e = f.fails(json!({"command": "click", "ref": stuck})).await;
    let took = started.elapsed();
    // A synchronous request that never returns holds the renderer's thread
    // outside JavaScript: stopping the script cannot help.
    assert_eq!(code(&e), "TIMEOUT", "{:?}", e.report());
    let report = e.report();
    assert!(
        report
            .message
            .starts_with("while click ran, t1 did not answer"),
        "{}",
        report.message
    );
    assert!(report.message.contains(&url), "{}", report.message);
    assert!(
        report
            .message
            .contains("opened t2 (about:blank) in its place"),
        "{}",
        report.message
    );
    assert_eq!(
        report.hint,
        format!("open {url} to load the page again (in t2), or open another URL")
    );
    assert_eq!(report.action_sent, ActionSent::PossiblySent);
    assert_eq!(report.retry, Retry::Reobserve);
    let facts = report.facts.expect("facts");
    assert_eq!(facts["recovery"], "tab_replaced");
    assert_eq!(facts["new_tab"], "t2");
    assert!(took < Duration::from_secs(20), "recovered in {took:?}");
    // The session goes on in the new tab.
    let out = f.ok(json!({"command": "tab"})).await;
    let list = out.text();
    assert!(list.starts_with("t2*"), "{list}");
    assert!(!list.contains("t1"), "the stuck tab was closed: {list}");
    f.open("/home.html").await;
    f.close().await;
}

#[tokio::test]
async fn a_renderer_hung_from_the_browser_side_is_replaced_before_the_next_command() {
    let mut f = quick_fixture().await;
    f.open("/faults.html").await;
    let url = f.url("/faults.html");
    let tab = f.session.context().focused().expect("a tab");
    // chrome://hang parks the renderer's main thread outside JavaScript.
    tab.send(&rove_cdp::protocol::page::Navigate {
        url: "chrome://hang".to_owned(),
        ..Default::default()
    })
    .await
    .expect("navigate");
    let started = Instant::now();
    let e = f.fails(json!({"command": "snapshot"})).await;
    let took = started.elapsed();
    assert_eq!(code(&e), "TIMEOUT", "{:?}", e.report());
    let report = e.report();
    assert!(
        report.message.starts_with(&format!(
            "t1 did not answer for 2 s at {url}, not even after rove stopped its script"
        )),
        "{}",
        report.message
    );
    assert!(
        report.message.ends_with("snapshot was not run"),
        "{}",
        report.message
    );
    assert_eq!(report.action_sent, ActionSent::NotSent);
    assert!(took < Duration::from_secs(15), "recovered in {took:?}");
    let out = f.ok(json!({"command": "snapshot"})).await;
    assert!(out.text().starts_with("[t2]"), "{}", out.text());
    f.close().await;
}

#[tokio::test]
async fn a_crashed_tab_is_replaced_and_open_goes_on_in_the_new_one() {
    let mut f = quick_fixture().await;
    f.open("/faults.html").await;
    let url = f.url("/faults.html");
    let tab = f.session.context().focused().expect("a tab");
    let crashed = tab.send(&rove_cdp::protocol::page::Crash {}).await;
    assert!(crashed.is_err(), "a crash answers nothing");
    // The next command needing the page replaces the tab, and says so.
    let e = f.fails(json!({"command": "snapshot"})).await;
    assert_eq!(code(&e), "TARGET_CRASHED", "{:?}", e.report());
    let report = e.report();
    assert!(
        report.message.starts_with(&format!(
            "t1 crashed at {url} (its renderer process died): rove closed it and opened t2 (about:blank) in its place"
        )),
        "{}",
        report.message
    );
    // Crash again, then open: the navigation goes on in the replacement.
    let tab = f.session.context().focused().expect("a tab");
    let _ = tab.send(&rove_cdp::protocol::page::Crash {}).await;
    let home = f.url("/home.html");
    let out = f.ok(json!({"command": "open", "url": home})).await;
    assert!(
        out.happened_lines()[0].starts_with("t2 crashed at about:blank"),
        "{:?}",
        out.happened_lines()
    );
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.starts_with("opened http")),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(out.tab.to_string(), "t3");
    f.close().await;
}

#[tokio::test]
async fn a_page_busy_for_two_seconds_is_not_taken_for_a_hung_one() {
    // The default limits: a probe waits 5 s.
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/faults.html").await;
    let work = f.find("Work two seconds", "button").await;
    let out = f.ok(json!({"command": "click", "ref": work})).await;
    assert!(
        out.text().contains("busy for two seconds"),
        "{}",
        out.text()
    );
    // The probe before the next command finds it answering; nothing was
    // stopped or replaced.
    let out = f.ok(json!({"command": "snapshot"})).await;
    assert!(
        out.happened_lines().is_empty(),
        "{:?}",
        out.happened_lines()
    );
    assert!(out.text().starts_with("[t1]"), "{}", out.text());
    f.close().await;
}

#[tokio::test]
async fn a_click_cut_short_by_a_page_that_stopped_answering_asks_for_a_fresh_view() {
    let mut f = quick_fixture().await;
    f.open("/faults.html").await;
    let spin = f.find("Spin forever", "button").await;
    let e = f.fails(json!({"command": "click", "ref": spin})).await;
    // The press reached the page and its handler never returned: the click
    // may have done what it does, so repeating it blindly could do it twice.
    assert_eq!(code(&e), "TIMEOUT", "{:?}", e.report());
    let report = e.report();
    assert_eq!(report.action_sent, ActionSent::PossiblySent);
    assert_eq!(report.retry, Retry::Reobserve);
    assert!(
        report.message.contains("rove stopped its script"),
        "{}",
        report.message
    );
    // docs/errors.md says the same.
    let doc = include_str!("../../../../docs/errors.md");
    let section = doc
        .split("### `TIMEOUT`")
        .nth(1)
        .and_then(|rest| rest.split("\n### ").next())
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        section.contains("`possibly_sent` or `sent`, the retry class is `reobserve`"),
        "{section}"
    );
    // And the page answers again.
    assert_eq!(f.eval("document.title").await, "Faults");
    f.close().await;
}

#[tokio::test]
async fn a_page_that_opens_a_thousand_alerts_is_left_with_open() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    let out = f.open("/alert-flood.html").await;
    assert!(
        out.text().contains("or leave the page with open(url=URL)"),
        "{}",
        out.text()
    );
    let mut last = String::new();
    for _ in 0..3 {
        last = text(&f.run(json!({"command": "dialog", "accept": true})).await);
    }
    assert!(
        last.contains("this page has opened 4 dialogs in a row; to leave it, open another URL"),
        "{last}"
    );
    let home = f.url("/home.html");
    let out = f.ok(json!({"command": "open", "url": home})).await;
    assert!(
        out.happened_lines()[0].starts_with(&format!(
            "left t1 at {}: an alert dialog blocked it",
            f.url("/alert-flood.html")
        )),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(out.tab.to_string(), "t2");
    assert!(out.text().contains("[t2] Home"), "{}", out.text());
    let list = text(&f.run(json!({"command": "tab"})).await);
    assert!(!list.contains("t1"), "{list}");
    f.close().await;
}

#[tokio::test]
async fn typing_that_runs_out_of_time_says_how_much_was_typed() {
    let config = SessionConfig {
        command_timeout: Duration::from_secs(8),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes(), config).await;
    f.open("/faults.html").await;
    let notes = f.find("Notes", "textbox").await;
    let long = "a".repeat(3_000);
    let e = f
        .fails(json!({"command": "type", "ref": notes, "text": long, "delay_ms": 5}))
        .await;
    assert_eq!(code(&e), "TIMEOUT", "{:?}", e.report());
    let report = e.report();
    assert_eq!(report.action_sent, ActionSent::Sent);
    assert_eq!(report.retry, Retry::Reobserve);
    let typed: usize = report
        .message
        .split("after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {}", report.message));
    assert!(
        report
            .message
            .ends_with(&format!("after {typed} of 3000 characters")),
        "{}",
        report.message
    );
    assert!(typed > 0 && typed < 3_000, "{typed}");
    assert!(
        report.hint.contains(&format!("fill {notes}")),
        "{}",
        report.hint
    );
    let held = f
        .eval("document.getElementById('notes').value.length")
        .await;
    assert_eq!(held, typed, "the field holds exactly what was typed");
    f.close().await;
}

#[tokio::test]
async fn long_typing_is_sent_as_trusted_keys() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/faults.html").await;
    let notes = f.find("Notes", "textbox").await;
    let long: String = "The quick brown fox, 42 times! ".repeat(100);
    f.ok(json!({"command": "type", "ref": notes, "text": long}))
        .await;
    assert_eq!(
        f.eval("document.getElementById('notes').value").await,
        long.as_str()
    );
    let keys = f.eval("window.keys").await;
    let presses = long.chars().count()
        + long
            .chars()
            .filter(|c| c.is_ascii_uppercase() || "!".contains(*c))
            .count();
    assert_eq!(keys["trusted"], presses, "{keys}");
    assert_eq!(keys["untrusted"], 0);
    f.close().await;
}

#[tokio::test]
async fn a_click_that_starts_a_download_does_not_wait_for_a_navigation() {
    // A navigation cap far above what the click may take: waiting it out
    // would show.
    let mut config = SessionConfig::default();
    config.settle.navigation_cap = Duration::from_secs(30);
    let mut f = Fixture::with(routes(), config).await;
    f.open("/faults.html").await;
    let link = f.find("Get the report", "link").await;
    let started = Instant::now();
    let out = f.ok(json!({"command": "click", "ref": link})).await;
    let took = started.elapsed();
    assert_eq!(out.downloads.len(), 1, "{}", out.text());
    assert!(took < Duration::from_secs(10), "the click took {took:?}");
    let link = f.find("Go nowhere", "link").await;
    let started = Instant::now();
    let out = f.ok(json!({"command": "click", "ref": link})).await;
    let took = started.elapsed();
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l == "the navigation it started ended without a new page"),
        "{:?}",
        out.happened_lines()
    );
    assert!(took < Duration::from_secs(10), "the click took {took:?}");
    f.close().await;
}

#[tokio::test]
async fn wait_for_text_waits_the_whole_time_it_was_given() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/faults.html").await;
    let started = Instant::now();
    let e = f
        .fails(json!({"command": "wait", "text": "never on this page", "ms": 1500}))
        .await;
    let took = started.elapsed();
    assert_eq!(code(&e), "TIMEOUT");
    assert!(
        took >= Duration::from_millis(1500),
        "gave up after {took:?}"
    );
    let waited: u64 = e
        .report()
        .message
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("waited N ms");
    assert!(waited >= 1500, "{}", e.report().message);
    f.close().await;
}

#[tokio::test]
async fn every_command_has_an_overall_deadline() {
    // No watchdog: only the overall deadline is left to end the click.
    let config = SessionConfig {
        command_timeout: Duration::from_secs(3),
        health: HealthLimits {
            probe_before_commands: false,
            interval: None,
            ..HealthLimits::default()
        },
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes(), config).await;
    f.open("/faults.html").await;
    let stuck = f.find("Wait on the network forever", "button").await;
    let started = Instant::now();
    let e = f.fails(json!({"command": "click", "ref": stuck})).await;
    let took = started.elapsed();
    assert_eq!(code(&e), "TIMEOUT", "{:?}", e.report());
    assert_eq!(
        e.report().message,
        "click did not finish within 3 s; rove stopped waiting for it"
    );
    assert_eq!(e.action_sent(), ActionSent::PossiblySent);
    assert!(took < Duration::from_secs(10), "{took:?}");
    f.close().await;
}

/// A read goes out beside the probe before it, but counts only with the
/// probe's verdict: a short wait on a tab whose script never yields, over
/// before the probe gives up, still has the script stopped first, said in
/// its own answer, and then waits on a page that answers.
#[tokio::test]
async fn a_short_wait_on_a_hung_tab_has_its_script_stopped_first() {
    // No probe in the background: only the one before the wait may find
    // the hang.
    let config = SessionConfig {
        health: HealthLimits {
            interval: None,
            ..support::quick_health()
        },
        ..quick()
    };
    let mut f = Fixture::with(routes(), config).await;
    f.open("/faults.html").await;
    let url = f.url("/faults.html");
    f.ok(json!({"command": "eval", "js": "setTimeout(() => { while (true) {} }, 300); 1"}))
        .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let started = Instant::now();
    let out = f.ok(json!({"command": "wait", "ms": 200})).await;
    let lines = out.happened_lines();
    assert!(
        lines.first().is_some_and(|l| l.starts_with(&format!(
            "t1 did not answer for 2 s at {url}: rove stopped its script"
        ))),
        "{lines:?}"
    );
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "the probe's verdict came first"
    );
    let page = f.eval("document.title").await;
    assert_eq!(page, json!("Faults"), "the page answers again");
    f.close().await;
}

/// `eval` stops its own script at its deadline, so the watchdog leaves the
/// script alone; once the script answered, the settle and the view after
/// it are watched like any command's work: a timer the script set that
/// never yields is found and stopped within the probe's time, not waited
/// out to the command's deadline (120 s; it was).
#[tokio::test]
async fn a_page_that_hangs_after_an_eval_answered_is_stopped_by_the_watchdog() {
    let mut f = quick_fixture().await;
    f.open("/faults.html").await;
    let url = f.url("/faults.html");
    let started = Instant::now();
    let e = f
        .fails(json!({"command": "eval", "js": "setTimeout(() => { while (true) {} }, 0); 1"}))
        .await;
    let took = started.elapsed();
    let report = e.report();
    assert!(
        report.message.starts_with(&format!(
            "while eval ran, t1 did not answer for 2 s at {url}: rove stopped its script"
        )),
        "{}",
        report.message
    );
    assert!(took < Duration::from_secs(10), "found in {took:?}");
    let page = f.eval("document.title").await;
    assert_eq!(page, json!("Faults"), "the page answers again");
    f.close().await;
}
