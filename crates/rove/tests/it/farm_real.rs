//! rove on the real browser farm: the open-source browserless platform
//! ([`rove_testkit::Browserless`], installed by `scripts/fetch-farm.sh`),
//! which launches a fresh system Chromium per connection and ends the
//! connection at its TIMEOUT. doctor and a CLI session by each URL form a
//! farm is given by (`ws://…?token=`, `http://…?token=` discovery, `wss://`
//! through a TLS front with the test CA), a wrong token, a farm that ends a
//! session's connection under it, and `rove test` in farm mode: more
//! attempts than the farm's CONCURRENT (the rest wait in its queue) and a
//! TIMEOUT ending one attempt. The token never shows in any output.

use std::time::{Duration, Instant};

use rove_localserver::{Response, Routes};
use rove_testkit::{Browserless, BrowserlessLimits, TlsFront, pid_alive, test_ca_file};
use serde_json::Value;

use crate::cli::{json, rove, run};
use crate::support::suite::{self, SuiteRun, attempt};
use crate::support::{Env, finished, ref_of};

const PAGE: &str = "<!doctype html><title>Farm form</title><h1>On the farm</h1>\
    <button onclick=\"document.getElementById('out').textContent = 'Pressed on the farm'\">Press</button>\
    <p id=out>not yet</p>";

async fn env(name: &str) -> Env {
    Env::with_routes(name, Routes::new().page("/form", Response::html(PAGE))).await
}

/// Runs `rove --json ARGS` in `env`: its status and its one JSON object;
/// fails if the farm's token shows on stdout or stderr.
async fn rove_json(env: &Env, farm: &Browserless, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = finished(Duration::from_secs(60), &mut env.rove(&all)).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for text in [&stdout, &stderr] {
        assert!(
            !text.contains(&farm.token),
            "{args:?} shows the token: {text}"
        );
    }
    let value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{args:?}: not one JSON object ({e}): {stdout}\n{stderr}"));
    (out.status.code().unwrap_or(-1), value)
}

async fn ok(env: &Env, farm: &Browserless, args: &[&str]) -> Value {
    let (status, value) = rove_json(env, farm, args).await;
    assert_eq!(status, 0, "{args:?}: {value}\nfarm log:\n{}", farm.log());
    value
}

/// Waits (`limit` at most) until none of `browsers` runs.
async fn gone(browsers: &[u32], limit: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if !browsers.iter().copied().any(pid_alive) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
async fn doctor_reaches_the_real_farm_by_its_documented_url_and_a_wrong_token_is_auth() {
    let farm = Browserless::start("doctor", BrowserlessLimits::default()).await;
    let out = run(rove().args(["--json", "doctor", "--cdp-url", &farm.ws_url()])).await;
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    for text in [&out.stdout, &out.stderr] {
        assert!(!text.contains(&farm.token), "the token shows: {text}");
    }
    let report = json(&out.stdout);
    let connect = &report["checks"][0];
    let detail = connect.to_string();
    assert!(
        detail.contains("Chrome/") && detail.contains("token=<redacted>"),
        "doctor names the farm's browser and hides the token: {connect}"
    );
    assert!(!farm.launched().is_empty(), "the farm launched a browser");

    let wrong = format!("ws://127.0.0.1:{}?token=wrong-{}", farm.port, farm.token);
    let out = run(rove().args(["--json", "doctor", "--cdp-url", &wrong])).await;
    assert_eq!(out.status, Some(6), "{}\n{}", out.stdout, out.stderr);
    for text in [&out.stdout, &out.stderr] {
        assert!(!text.contains(&farm.token), "the token shows: {text}");
    }
    let error = &json(&out.stdout)["error"];
    assert_eq!(error["facts"]["cause"], "auth", "{error}");
    assert_eq!(error["facts"]["status"], 401, "{error}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("refused the credentials")),
        "{error}"
    );
}

/// open, snapshot, click and close in a session of its own on `url`.
async fn session_on(env: &Env, farm: &Browserless, session: &str, url: &str, extra: &[&str]) {
    let page = env.server.url("/form");
    let base = [&["--session", session, "--cdp-url", url][..], extra].concat();
    fn with<'a>(base: &[&'a str], command: &[&'a str]) -> Vec<&'a str> {
        [base, command].concat()
    }
    let opened = ok(env, farm, &with(&base, &["open", &page])).await;
    assert_eq!(opened["title"], "Farm form", "{session}: {opened}");
    let view = ok(env, farm, &with(&base, &["snapshot"])).await;
    let press = ref_of(view["view"].as_str().expect("view"), "button \"Press\"");
    let clicked = ok(env, farm, &with(&base, &["click", &press])).await;
    assert!(
        clicked["view"]
            .as_str()
            .is_some_and(|v| v.contains("Pressed on the farm")),
        "{session}: {clicked}"
    );
    ok(env, farm, &with(&base, &["close"])).await;
}

#[tokio::test]
async fn a_cli_session_runs_on_the_real_farm_over_ws_http_discovery_and_wss() {
    let farm = Browserless::start("session", BrowserlessLimits::default()).await;
    let env = env("farm-real-session").await;
    let (port, token) = (farm.port, farm.token.clone());
    session_on(&env, &farm, "farm-ws", &farm.ws_url(), &[]).await;
    let http = format!("http://127.0.0.1:{port}?token={token}");
    session_on(&env, &farm, "farm-http", &http, &[]).await;
    let front = TlsFront::start(port).await;
    let ca = test_ca_file();
    let ca = ca.to_str().expect("utf-8 path");
    let wss = format!("wss://127.0.0.1:{}?token={token}", front.port);
    session_on(&env, &farm, "farm-wss", &wss, &["--cdp-ca", ca]).await;
    // One fresh farm browser per session, each ended with its session.
    assert!(farm.launched().len() >= 3, "{:?}", farm.launched());
    let launched = farm.launched();
    assert!(
        gone(&launched, Duration::from_secs(10)).await,
        "{launched:?}"
    );
}

#[tokio::test]
async fn a_farm_that_ends_a_sessions_browser_gives_the_next_command_a_fresh_one_and_says_so() {
    let limits = BrowserlessLimits {
        // Long enough for `open` on a loaded machine, which the farm
        // would otherwise end mid-command.
        timeout: Duration::from_secs(10),
        ..BrowserlessLimits::default()
    };
    let farm = Browserless::start("timeout", limits).await;
    let env = env("farm-real-timeout").await;
    let url = farm.ws_url();
    let page = env.server.url("/form");
    ok(&env, &farm, &["--cdp-url", &url, "open", &page]).await;
    assert_eq!(farm.launched().len(), 1, "{:?}", farm.launched());
    // The farm's TIMEOUT ends the session's connection (browserless 2.42
    // writes an HTTP answer onto the WebSocket and drops it; the browser
    // itself it leaves running, so its log, not the process, tells when).
    let started = Instant::now();
    while !farm.log().contains("Job has hit timeout") {
        assert!(
            started.elapsed() < limits.timeout * 2,
            "the farm's TIMEOUT did not end the connection:\n{}",
            farm.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // rove closes its side of the ended connection at once, so the farm
    // ends that browser and frees its place without waiting for the
    // session's next command (a half-open socket used to hold it).
    let first = farm.launched();
    assert!(
        gone(&first, Duration::from_secs(10)).await,
        "the ended browser still runs: {first:?}"
    );
    let view = ok(&env, &farm, &["--cdp-url", &url, "snapshot"]).await;
    let notes = view["notes"].to_string();
    assert!(
        notes.contains("another browser") && notes.contains("tabs are gone"),
        "the answer says the session goes on in a fresh browser: {view}"
    );
    // And it is usable: the page opens and acts again there.
    let opened = ok(&env, &farm, &["--cdp-url", &url, "open", &page]).await;
    let press = ref_of(opened["view"].as_str().expect("view"), "button \"Press\"");
    let clicked = ok(&env, &farm, &["--cdp-url", &url, "click", &press]).await;
    assert!(
        clicked["view"]
            .as_str()
            .is_some_and(|v| v.contains("Pressed on the farm")),
        "{clicked}"
    );
    assert!(farm.launched().len() >= 2, "{:?}", farm.launched());
    ok(&env, &farm, &["--cdp-url", &url, "close"]).await;
}

#[tokio::test]
async fn dropping_the_farm_leaves_no_browser_behind() {
    let farm = Browserless::start("drop", BrowserlessLimits::default()).await;
    let env = env("farm-real-drop").await;
    let page = env.server.url("/form");
    ok(&env, &farm, &["--cdp-url", &farm.ws_url(), "open", &page]).await;
    let launched = farm.launched();
    assert!(launched.iter().copied().any(pid_alive), "{launched:?}");
    drop(farm);
    assert!(
        gone(&launched, Duration::from_secs(10)).await,
        "{launched:?}"
    );
    let _ = env.run(&["close"]).await;
}

/// A scripted model that says done: after `pause`, or after `slow` when
/// the task asks it to take its time.
async fn model(pause: Duration, slow: Duration) -> rove_localserver::LocalServer {
    use rove_localserver::{LocalServer, Request};
    LocalServer::start(Routes::new().handle("/v1/chat/completions", move |r: &Request| {
        let call = serde_json::json!({"id": "c1", "type": "function", "function": {"name": "done", "arguments": serde_json::json!({"text": "done", "success": true}).to_string()}});
        let reply = serde_json::json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 10, "completion_tokens": 2}});
        let take_time = String::from_utf8_lossy(&r.body).contains("Take your time");
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
            .delayed(if take_time { slow } else { pause })
    }))
    .await
    .expect("model")
}

/// `rove test` of `tasks` (t0, t1 …, each starting on a page served on
/// 127.0.0.1) on the farm in farm mode, with `extra` options; fails if the
/// farm's token shows on stdout or stderr, or no results.json was written.
async fn rove_test(
    name: &str,
    farm: &Browserless,
    tasks: &[&str],
    model: &rove_localserver::LocalServer,
    extra: &[&str],
) -> SuiteRun {
    let site = env(&format!("farm-real-suite-{name}")).await;
    let options: Vec<&str> = ["--isolate", "browser"]
        .into_iter()
        .chain(extra.iter().copied())
        .collect();
    let ran = suite::rove_test(
        &format!("farm-real-{name}"),
        &suite::tasks(tasks, Some(&site.server.url("/form"))),
        model,
        &options,
        Duration::from_secs(120),
    )
    .await;
    for text in [&ran.stdout, &ran.stderr] {
        assert!(!text.contains(&farm.token), "the token shows: {text}");
    }
    assert!(
        !ran.results.is_null(),
        "no results.json:\n{}\n{}",
        ran.stdout,
        ran.stderr
    );
    ran
}

#[tokio::test]
async fn rove_test_on_a_farm_of_two_browsers_runs_three_attempts_the_third_in_its_queue() {
    let limits = BrowserlessLimits {
        concurrent: 2,
        ..BrowserlessLimits::default()
    };
    let farm = Browserless::start("suite-queue", limits).await;
    // Each attempt holds its browser a while, so the three overlap.
    let model = model(Duration::from_millis(2000), Duration::ZERO).await;
    let url = farm.ws_url();
    let suite = rove_test(
        "queue",
        &farm,
        &["Say done", "Say done", "Say done"],
        &model,
        &[
            "-j",
            "3",
            "--cdp-url",
            &url,
            "--cdp-url",
            &url,
            "--cdp-url",
            &url,
        ],
    )
    .await;
    assert_eq!(suite.status, 0, "{}\n{}", suite.stdout, suite.stderr);
    assert_eq!(suite.results["suite"]["passed"], 3, "{:#}", suite.results);
    assert_eq!(farm.launched().len(), 3, "a fresh farm browser per attempt");
    assert!(
        farm.log().contains("Concurrency is at capacity, queueing"),
        "the third attempt waited in the farm's queue:\n{}",
        farm.log()
    );
    for a in suite.results["attempts"].as_array().expect("attempts") {
        assert_eq!(a["error_code"], Value::Null, "{a:#}");
    }
    assert!(gone(&farm.launched(), Duration::from_secs(10)).await);
}

#[tokio::test]
async fn a_farm_timeout_ending_one_attempts_browser_is_that_attempts_error_alone() {
    let limits = BrowserlessLimits {
        concurrent: 3,
        // Long enough for the quick attempts on a loaded machine.
        timeout: Duration::from_secs(10),
        ..BrowserlessLimits::default()
    };
    let farm = Browserless::start("suite-timeout", limits).await;
    let model = model(Duration::ZERO, Duration::from_secs(16)).await;
    let url = farm.ws_url();
    let suite = rove_test(
        "timeout",
        &farm,
        &["Say done", "Take your time, then say done", "Say done"],
        &model,
        &["-j", "3", "--cdp-url", &url, "--slots", "3"],
    )
    .await;
    assert_eq!(suite.status, 1, "{}\n{}", suite.stdout, suite.stderr);
    let ended = attempt(&suite.results, "t1");
    assert_eq!(ended["status"], "error", "{ended:#}");
    assert_eq!(ended["error_code"], "BROWSER_DISCONNECTED", "{ended:#}");
    for other in ["t0", "t2"] {
        let a = attempt(&suite.results, other);
        assert_eq!(a["status"], "passed", "{a:#}");
    }
    assert!(
        farm.log().contains("Job has hit timeout"),
        "the farm's TIMEOUT ended it:\n{}",
        farm.log()
    );
}
