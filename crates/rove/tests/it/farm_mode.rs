//! Farm mode, `rove test --isolate browser --cdp-url URL…`, against the
//! stand-in farm ([`rove_testkit::Farm`]) in front of a real Chromium: a
//! connection per attempt within the URL's slots, a queued handshake and
//! 429 answers waited out within `--connect-wait`, a browser the farm ends
//! mid-attempt ending only that attempt, a refused token stopping the run
//! with its results written, and a key in a header reaching the farm with
//! every attempt. Asserted after the run from results.json
//! and the farm's counters.

use std::time::Duration;

use crate::support::suite::{self, SuiteRun, attempt};
use rove_localserver::{LocalServer, Request, Response, Routes};
use rove_testkit::{External, Farm, FarmLimits};
use serde_json::{Value, json};

const TOKEN: &str = "farm-m0de-7c1d";

/// A model that says done after `pause`; to a task that asks to wait, it
/// answers after `slow`: done when the task says so, else words and no
/// tool call (a failed step, after which the agent would ask again).
async fn model(pause: Duration, slow: Duration) -> LocalServer {
    LocalServer::start(Routes::new().handle("/v1/chat/completions", move |r: &Request| {
        let call = json!({"id": "c1", "type": "function", "function": {"name": "done", "arguments": json!({"text": "done", "success": true}).to_string()}});
        let done = json!({"role": "assistant", "content": null, "tool_calls": [call]});
        let words = json!({"role": "assistant", "content": "Still waiting."});
        let body = String::from_utf8_lossy(&r.body);
        let (message, delay) = match (body.contains("Wait for the farm"), body.contains("say done")) {
            (false, _) => (done, pause),
            (true, true) => (done, slow),
            (true, false) => (words, slow),
        };
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "stop", "message": message}], "usage": {"prompt_tokens": 10, "completion_tokens": 2}});
        Response::with_type(200, "application/json", reply.to_string().into_bytes()).delayed(delay)
    }))
    .await
    .expect("model")
}

/// A Chromium behind a stand-in farm giving as much as `limits` says.
async fn farm(name: &str, limits: FarmLimits) -> (External, Farm) {
    let browser = External::start(name);
    let farm = Farm::start_with(browser.port, &browser.browser_path(), TOKEN, false, limits).await;
    (browser, farm)
}

fn url(farm: &Farm) -> String {
    format!("ws://127.0.0.1:{}?token={TOKEN}", farm.port)
}

/// `rove test` on `tasks` (each a task's text; the name is t0, t1 …) with
/// `extra` options and `model`; fails if the farm's token shows on stdout
/// or stderr.
async fn rove_test(name: &str, tasks: &[&str], model: &LocalServer, extra: &[&str]) -> SuiteRun {
    let ran = suite::rove_test(
        &format!("farm-{name}"),
        &suite::tasks(tasks, None),
        model,
        extra,
        Duration::from_secs(180),
    )
    .await;
    for text in [&ran.stdout, &ran.stderr] {
        assert!(!text.contains(TOKEN), "the token shows: {text}");
    }
    ran
}

#[tokio::test]
async fn attempts_take_the_urls_slots_and_wait_in_the_farms_queue() {
    let (_browser, farm) = farm(
        "farm-queue",
        FarmLimits {
            concurrent: Some(2),
            ..FarmLimits::default()
        },
    )
    .await;
    // Each attempt holds its browser a while, so the three overlap.
    let model = model(Duration::from_millis(1500), Duration::ZERO).await;
    let u = url(&farm);
    let ran = rove_test(
        "queue",
        &["Say done", "Say done", "Say done"],
        &model,
        &["-j", "3", "--isolate", "browser"]
            .into_iter()
            .chain(["--cdp-url", &u, "--cdp-url", &u, "--cdp-url", &u])
            .collect::<Vec<_>>(),
    )
    .await;
    assert_eq!(ran.status, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(ran.results["suite"]["passed"], 3, "{:#}", ran.results);
    assert_eq!(
        farm.browsers_given(),
        3,
        "a connection, hence a browser, each"
    );
    assert_eq!(farm.most_open(), 2, "the third waited in the farm's queue");
    for a in ran.results["attempts"].as_array().expect("attempts") {
        assert_eq!(a["error_code"], Value::Null, "{a:#}");
        assert_eq!(a["browser_index"], 0, "one distinct URL: {a:#}");
    }
}

#[tokio::test]
async fn a_full_queue_is_waited_out_and_then_ends_only_its_attempt() {
    let model = model(Duration::ZERO, Duration::ZERO).await;
    // Twice 429, then a browser: the attempt passes.
    let (_browser, farm_a) = farm(
        "farm-429",
        FarmLimits {
            busy: 2,
            ..FarmLimits::default()
        },
    )
    .await;
    let u = url(&farm_a);
    let ran = rove_test(
        "busy-twice",
        &["Say done"],
        &model,
        &["--isolate", "browser", "--cdp-url", &u],
    )
    .await;
    assert_eq!(ran.status, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(farm_a.busy_answered(), 2);
    assert_eq!(farm_a.browsers_given(), 1);

    // Always 429: the attempt is an error within --connect-wait, and the
    // run still ends with its results.
    let (_browser, farm_b) = farm(
        "farm-full",
        FarmLimits {
            busy: usize::MAX,
            ..FarmLimits::default()
        },
    )
    .await;
    let u = url(&farm_b);
    let ran = rove_test(
        "busy-always",
        &["Say done"],
        &model,
        &[
            "--isolate",
            "browser",
            "--cdp-url",
            &u,
            "--connect-wait",
            "2",
        ],
    )
    .await;
    assert_eq!(ran.status, 1, "{}\n{}", ran.stdout, ran.stderr);
    let a = attempt(&ran.results, "t0");
    assert_eq!(a["status"], "error", "{a:#}");
    assert_eq!(a["error_code"], "TIMEOUT", "{a:#}");
    let reason = a["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&format!(
            "no browser from 127.0.0.1:{} within 2 s",
            farm_b.port
        )) && reason.contains("429"),
        "{reason}"
    );
    assert!(farm_b.busy_answered() >= 2, "it asked again");
    assert_eq!(farm_b.browsers_given(), 0);
}

#[tokio::test]
async fn a_browser_the_farm_ends_is_an_error_of_its_attempt_alone() {
    let (_browser, farm) = farm(
        "farm-timeout",
        FarmLimits {
            timeout: Some(Duration::from_secs(8)),
            ..FarmLimits::default()
        },
    )
    .await;
    let model = model(Duration::ZERO, Duration::from_secs(14)).await;
    let u = url(&farm);
    let ran = rove_test(
        "timeout",
        &[
            "Say done",
            "Wait for the farm",
            "Say done",
            "Wait for the farm, then say done",
        ],
        &model,
        &[
            "-j",
            "4",
            "--isolate",
            "browser",
            "--cdp-url",
            &u,
            "--slots",
            "4",
        ],
    )
    .await;
    assert_eq!(ran.status, 1, "{}\n{}", ran.stdout, ran.stderr);
    // Ended mid-step: the agent stops rather than ask its model again; and
    // a run that ended after its browser did is no pass.
    for task in ["t1", "t3"] {
        let killed = attempt(&ran.results, task);
        assert_eq!(killed["status"], "error", "{killed:#}");
        assert_eq!(killed["error_code"], "BROWSER_DISCONNECTED", "{killed:#}");
    }
    // Ended while its model was still answering (it takes 14 s; the farm
    // ends the browser at 8 s): the attempt ends then, without waiting for
    // an answer nothing could act on, so no step is recorded.
    for task in ["t1", "t3"] {
        let killed = attempt(&ran.results, task);
        assert_eq!(killed["steps"], 0, "{killed:#}");
    }
    for other in ["t0", "t2"] {
        assert_eq!(
            attempt(&ran.results, other)["status"],
            "passed",
            "{:#}",
            ran.results
        );
    }
    assert_eq!(farm.ended(), 2);
    assert!(
        ran.stdout.contains("BROWSER_DISCONNECTED"),
        "{}",
        ran.stdout
    );
}

#[tokio::test]
async fn farm_options_without_farm_mode_are_refused() {
    let model = model(Duration::ZERO, Duration::ZERO).await;
    for (name, option) in [
        ("slots", ["--slots", "2"]),
        ("wait", ["--connect-wait", "5"]),
    ] {
        let ran = rove_test(&format!("{name}-alone"), &["Say done"], &model, &option).await;
        assert_eq!(ran.status, 2, "{}\n{}", ran.stdout, ran.stderr);
        assert!(
            ran.stderr
                .contains(&format!("{} is for farm mode", option[0])),
            "{}",
            ran.stderr
        );
        assert_eq!(ran.results, Value::Null, "nothing ran");
    }
}

#[tokio::test]
async fn a_refused_token_stops_the_run_with_its_results_written() {
    let (_browser, farm) = farm("farm-401", FarmLimits::default()).await;
    let model = model(Duration::ZERO, Duration::ZERO).await;
    let wrong = format!("ws://127.0.0.1:{}?token=wrong-{TOKEN}", farm.port);
    let ran = rove_test(
        "refused",
        &["Say done", "Say done", "Say done"],
        &model,
        &["--isolate", "browser", "--cdp-url", &wrong],
    )
    .await;
    assert_eq!(ran.status, 6, "{}\n{}", ran.stdout, ran.stderr);
    let first = attempt(&ran.results, "t0");
    assert_eq!(first["status"], "error", "{first:#}");
    assert_eq!(first["error_code"], "LAUNCH_FAILED", "{first:#}");
    for later in ["t1", "t2"] {
        assert_eq!(
            attempt(&ran.results, later)["status"],
            "skipped",
            "{:#}",
            ran.results
        );
    }
    assert_eq!(farm.seen().len(), 1, "no attempt started after the refusal");

    // Every attempt's connection carries the global --cdp-header, through
    // discovery too.
    let plain = format!("http://127.0.0.1:{}", farm.port);
    let bearer = format!("Authorization: Bearer {TOKEN}");
    let ran = rove_test(
        "header",
        &["Say done", "Say done"],
        &model,
        &[
            "--isolate",
            "browser",
            "--cdp-url",
            &plain,
            "--cdp-header",
            &bearer,
        ],
    )
    .await;
    assert_eq!(ran.status, 0, "{}\n{}", ran.stdout, ran.stderr);
    assert_eq!(farm.browsers_given(), 2);
    assert!(
        farm.seen()[1..].iter().all(|s| s.authorised),
        "{:?}",
        farm.seen()
    );
}
