//! Where `rove test`'s attempts get their browser: spread over a pool of
//! browsers someone else started (`--pool`, standing in for remote ones),
//! or each in a browser of its own (`--isolate browser`). Asserted after
//! the run from results.json and the processes. And the report embeds the
//! screenshot the model saw.

use std::time::Duration;

use rove_localserver::{LocalServer, Request, Routes};
use rove_testkit::External;
use serde_json::{Value, json};

use crate::support::suite;

/// A model that says done at once.
async fn model() -> LocalServer {
    LocalServer::start(Routes::new().handle("/v1/chat/completions", |_: &Request| suite::done()))
        .await
        .expect("model")
}

/// Runs `rove test` on `n` tasks with `extra` options; its exit status
/// and results.json.
async fn run(name: &str, n: usize, extra: &[&str]) -> (i32, Value) {
    let (status, results, _) = run_with_report(name, n, extra).await;
    (status, results)
}

/// The same, with report.html's text too.
async fn run_with_report(name: &str, n: usize, extra: &[&str]) -> (i32, Value, String) {
    let model = model().await;
    let ran = suite::rove_test(
        name,
        &suite::tasks(&vec!["Say done"; n], None),
        &model,
        extra,
        Duration::from_secs(180),
    )
    .await;
    let report = ran
        .report
        .unwrap_or_else(|| panic!("no report.html\n{}\n{}", ran.stdout, ran.stderr));
    (ran.status, ran.results, report)
}

fn column(results: &Value, field: &str) -> Vec<Value> {
    results["attempts"]
        .as_array()
        .expect("attempts")
        .iter()
        .map(|a| a[field].clone())
        .collect()
}

#[tokio::test]
async fn a_pool_of_browsers_shares_the_attempts_and_keeps_nothing_of_them() {
    let mut first = External::start("pool-a");
    let mut second = External::start("pool-b");
    let urls = [
        format!("http://127.0.0.1:{}", first.port),
        format!("http://127.0.0.1:{}", second.port),
    ];
    let (status, results) = run(
        "pool",
        6,
        &["-j", "4", "--pool", &urls[0], "--pool", &urls[1]],
    )
    .await;
    assert_eq!(status, 0, "{results:#}");
    assert_eq!(results["suite"]["passed"], 6);
    let mut used: Vec<Value> = column(&results, "browser_index");
    used.sort_by_key(|v| v.as_u64());
    used.dedup();
    assert_eq!(used, [json!(0), json!(1)], "both browsers took attempts");
    assert!(
        column(&results, "browser_pid").iter().all(Value::is_null),
        "rove launched none of them"
    );
    // rove never closes a browser it did not start, and leaves no tab of
    // its contexts in it.
    assert!(first.alive() && second.alive());
    assert_eq!(first.page_urls().await, ["about:blank"]);
    assert_eq!(second.page_urls().await, ["about:blank"]);
}

/// A browser of the pool that its owner ends mid-run takes no further
/// attempt: the first task's model call ends the first browser (and then
/// takes its time); that attempt is BROWSER_DISCONNECTED, every later one
/// runs in the other browser and passes.
#[tokio::test]
async fn a_pool_browser_its_owner_ended_takes_no_more_attempts() {
    let first = External::start("pool-gone-a");
    let mut second = External::start("pool-gone-b");
    let doomed = first.pid();
    let model = LocalServer::start(Routes::new().handle(
        "/v1/chat/completions",
        move |request: &Request| {
            if String::from_utf8_lossy(&request.body).contains("End the first browser") {
                let _ = std::process::Command::new("kill")
                    .args(["-9", &doomed.to_string()])
                    .status();
                return suite::done().delayed(Duration::from_secs(60));
            }
            suite::done()
        },
    ))
    .await
    .expect("model");
    let mut texts = vec!["End the first browser"];
    texts.extend(["Say done"; 4]);
    let ran = suite::rove_test(
        "pool-gone",
        &suite::tasks(&texts, None),
        &model,
        &[
            "-j",
            "1",
            "--cdp-url",
            &format!("http://127.0.0.1:{}", first.port),
            "--cdp-url",
            &format!("http://127.0.0.1:{}", second.port),
        ],
        Duration::from_secs(180),
    )
    .await;
    let results = ran.results;
    let attempts = results["attempts"].as_array().expect("attempts");
    assert_eq!(attempts[0]["status"], "error", "{results:#}");
    assert_eq!(
        attempts[0]["error_code"], "BROWSER_DISCONNECTED",
        "{results:#}"
    );
    for later in &attempts[1..] {
        assert_eq!(later["status"], "passed", "{results:#}");
        assert_eq!(later["browser_index"], 1, "{results:#}");
    }
    assert!(second.alive());
}

#[tokio::test]
async fn isolate_browser_gives_each_attempt_a_browser_that_ends_with_it() {
    let (status, results) = run("isolate", 3, &["-j", "2", "--isolate", "browser"]).await;
    assert_eq!(status, 0, "{results:#}");
    assert_eq!(results["suite"]["passed"], 3);
    let mut pids: Vec<u32> = column(&results, "browser_pid")
        .iter()
        .map(|p| {
            p.as_u64()
                .and_then(|p| u32::try_from(p).ok())
                .expect("a pid")
        })
        .collect();
    pids.sort_unstable();
    pids.dedup();
    assert_eq!(pids.len(), 3, "a browser per attempt: {pids:?}");
    assert!(column(&results, "browser_index").iter().all(Value::is_null));
    for pid in pids {
        assert!(
            rove_testkit::gone_within(pid, Duration::from_secs(10)).await,
            "browser {pid} outlived its attempt"
        );
    }
}

#[tokio::test]
async fn the_report_embeds_the_screenshot_the_model_saw() {
    let (status, results, report) = run_with_report("screens", 1, &["--vision", "on"]).await;
    assert_eq!(status, 0, "{results:#}");
    // A JPEG's first bytes, base64-encoded, inside the step's image.
    assert!(
        report.contains("<img alt=\"step 1 screenshot\" src=\"data:image/jpeg;base64,/9j/"),
        "{}",
        &report[..report.len().min(3000)]
    );
}
