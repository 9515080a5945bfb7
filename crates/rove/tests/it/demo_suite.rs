//! The shipped demo suite (examples/demo-tasks) run by the real binary
//! against the offline demo shop (rove-demo, served in this process) with
//! the scripted model that plays each task's right moves over OpenAI's
//! wire format; real headless Chromium throughout.
//!
//! - In parallel (-j 4), with one task played wrongly (a verify failure the
//!   model does not admit), one whose secret is unset (skipped) and an extra
//!   task whose model stalls past its timeout: results.json, the JUnit file,
//!   the shop's own state and report.html (opened in Chromium) say so.
//! - Spread over a pool of three separately started Chromiums given as
//!   repeated --cdp-url, and split in two shards whose union is the suite.
//!
//! Everything is asserted after the runs, from what the binary wrote, what
//! the shop kept and what the browsers hold. `rove demo-site` alone, and the
//! refusal of a second `--cdp-url`, are in `crate::fast::demo_suite`.

use crate::support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rove_demo::DemoSite;
use rove_demo::model::ModelOptions;
use rove_localserver::LocalServer;
use rove_testkit::External;
use serde_json::{Value, json};
use tokio::process::Command;

/// The 22 tasks of the shipped suite, by name.
const SUITE: [&str; 22] = [
    "add_lamp",
    "bad_postcode",
    "cancel_order",
    "cheapest_kitchen",
    "checkout",
    "company_card",
    "coupon",
    "display_name",
    "empty_cart",
    "express",
    "invoice",
    "live_chat",
    "login",
    "logout",
    "newsletter",
    "order_total",
    "register",
    "remove_item",
    "search",
    "stock",
    "two_mugs",
    "wrong_password",
];

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo-tasks")
}

/// `rove test ARGS` against `site` and `model`: exit status, stdout, stderr.
/// `company_card`: the company card's secret, or unset.
async fn rove_test(
    site: &DemoSite,
    model: &LocalServer,
    company_card: Option<&str>,
    args: &[&str],
) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
    command
        .arg("test")
        .arg(suite_dir())
        .args(args)
        .args(["--model", "openai:scripted", "--vision", "off"])
        .env("OPENAI_API_KEY", "sk-test")
        .env("OPENAI_BASE_URL", model.url("/v1"))
        .env("ROVE_DEMO_URL", site.url())
        .env("ROVE_DEMO_PASSWORD", rove_demo::SEED_PASSWORD)
        .env_remove("ROVE_CDP_URL")
        .kill_on_drop(true);
    match company_card {
        Some(card) => command.env("ROVE_DEMO_COMPANY_CARD", card),
        None => command.env_remove("ROVE_DEMO_COMPANY_CARD"),
    };
    let output = tokio::time::timeout(Duration::from_secs(240), command.output())
        .await
        .expect("rove test finished within 240 s")
        .expect("rove test ran");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn read_json(path: &Path, context: &str) -> Value {
    let bytes =
        std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}\n{context}", path.display()));
    serde_json::from_slice(&bytes).expect("JSON")
}

fn attempts(results: &Value) -> &Vec<Value> {
    results["attempts"].as_array().expect("attempts")
}

fn attempt<'a>(results: &'a Value, task: &str) -> &'a Value {
    attempts(results)
        .iter()
        .find(|a| a["task"] == task)
        .unwrap_or_else(|| panic!("no attempt of {task}"))
}

#[tokio::test]
async fn the_demo_suite_runs_in_parallel_with_passes_a_verify_failure_a_skip_and_a_timeout() {
    let site = DemoSite::start(0).await.expect("demo site");
    let model = rove_demo::model::start(
        ModelOptions {
            // Express shipping is a box the careless model forgets to pick.
            mistaken: vec!["as gus".into()],
            stalling: vec!["while the model stalls".into()],
            stall_for: Duration::from_secs(60),
        },
        0,
    )
    .await
    .expect("model");
    let dir = rove_testkit::scratch_dir("rove-demo-suite");
    let extra = dir.join("stalled.yaml");
    std::fs::write(
        &extra,
        "name: stalled\ntask: Look around the shop while the model stalls.\nstart_url: ${ROVE_DEMO_URL}/\ntimeout_s: 3\nverify: [{url: \"/$\"}]\n",
    )
    .expect("extra task");
    let out = dir.join("out");
    let junit = dir.join("junit.xml");
    let (status, stdout, stderr) = rove_test(
        &site,
        &model,
        None,
        &[
            extra.to_str().expect("utf-8"),
            "-j",
            "4",
            "--out",
            out.to_str().expect("utf-8"),
            "--junit",
            junit.to_str().expect("utf-8"),
        ],
    )
    .await;
    let context = format!("{stdout}\n{stderr}");
    assert_eq!(status, 1, "a failure and a skip fail the suite:\n{context}");
    let results = read_json(&out.join("results.json"), &context);
    assert_eq!(attempts(&results).len(), 23, "{context}");

    // The model claimed success on express; the shop kept standard shipping.
    let express = attempt(&results, "express");
    assert_eq!(
        (&express["status"], &express["success_reported"]),
        (&json!("failed"), &json!(true)),
        "{express:#}"
    );
    let reason = express["reason"].as_str().expect("a reason");
    assert!(
        reason.contains("verify http:")
            && reason.contains("\"/0/shipping\" is \"standard\", not \"express\""),
        "{reason}"
    );
    let company = attempt(&results, "company_card");
    assert_eq!(
        (&company["status"], &company["reason"], &company["steps"]),
        (
            &json!("skipped"),
            &json!("unset secret card (from ROVE_DEMO_COMPANY_CARD)"),
            &json!(0)
        )
    );
    let stalled = attempt(&results, "stalled");
    assert_eq!(
        (&stalled["status"], &stalled["ending"], &stalled["reason"]),
        (
            &json!("failed"),
            &json!("timeout"),
            &json!("timeout: the attempt ran past its 3 s")
        )
    );
    let passed: BTreeSet<&str> = attempts(&results)
        .iter()
        .filter(|a| a["status"] == "passed")
        .filter_map(|a| a["task"].as_str())
        .collect();
    let expected: BTreeSet<&str> = SUITE
        .iter()
        .copied()
        .filter(|t| !["express", "company_card"].contains(t))
        .collect();
    assert_eq!(passed, expected, "{context}");
    // Each passed attempt's every check held, and each had checks.
    for a in attempts(&results)
        .iter()
        .filter(|a| a["status"] == "passed")
    {
        let checks = a["checks"].as_array().expect("checks");
        assert!(
            !checks.is_empty() && checks.iter().all(|c| c["passed"] == true),
            "{a:#}"
        );
    }
    let suite = &results["suite"];
    assert_eq!(
        [
            &suite["attempts"],
            &suite["passed"],
            &suite["failed"],
            &suite["skipped"],
            &suite["error"]
        ],
        [&json!(23), &json!(20), &json!(2), &json!(1), &json!(0)]
    );

    // What the shop itself kept, read behind the pages.
    let account = |user: &str| site.account_json(user).expect("an account");
    let eve = account("eve");
    assert_eq!(eve["orders"][0]["items"][0]["sku"], "lamp");
    assert_eq!(eve["orders"].as_array().map(Vec::len), Some(1));
    assert_eq!(account("gus")["orders"][0]["shipping"], "standard");
    assert_eq!(
        account("sue")["orders"],
        json!([]),
        "the skipped task never ran"
    );
    assert_eq!(
        account("fay")["orders"],
        json!([]),
        "the bad postcode was refused"
    );
    assert_eq!(account("max")["orders"][0]["status"], "cancelled");
    assert_eq!(account("jon")["cart"]["count"], 0);
    assert_eq!(account("ned")["messages"], json!(["Where is my order?"]));
    assert_eq!(account("newcomer")["logged_in"], true);

    let xml = std::fs::read_to_string(&junit).expect("junit");
    assert!(
        xml.contains("tests=\"23\" failures=\"2\" errors=\"0\" skipped=\"1\""),
        "{xml}"
    );
    assert!(
        stdout.contains("23 attempts: 20 passed, 2 failed, 1 skipped, 0 self-reported, 0 error"),
        "{stdout}"
    );

    report_shows_the_run(&out).await;
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Opens report.html in Chromium and reads what it shows: the verdict, the
/// suite's line, a row per task, the failed check of the wrong move, and
/// that it loaded nothing beyond itself.
async fn report_shows_the_run(out: &Path) {
    let (shown, asked) = support::report_shown(out).await;
    assert_eq!(shown["title"], "rove test: FAILED");
    assert!(
        shown["suite"]
            .as_str()
            .is_some_and(|s| s.contains("23 attempts: 20 passed, 2 failed, 1 skipped")),
        "{shown:#}"
    );
    let rows: Vec<&str> = shown["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(rows.len(), 24, "a header and 23 tasks: {rows:?}");
    let row = |name: &str| {
        rows.iter()
            .find(|r| r.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row for {name}: {rows:?}"))
    };
    assert!(row("checkout").starts_with("checkout 1/1 100%"), "{rows:?}");
    assert!(
        row("express").starts_with("express 0/1 0%") && row("express").contains("verify http:"),
        "{rows:?}"
    );
    assert!(
        row("company_card").contains("unset secret card"),
        "{rows:?}"
    );
    // Attempts that did not pass are shown open, the others closed.
    let open: Vec<&str> = shown["open"]
        .as_array()
        .expect("open")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(open.len(), 3, "{open:?}");
    let express = shown["attempts"]
        .as_array()
        .and_then(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .find(|t| t.contains("express #1"))
        })
        .expect("the express attempt");
    assert!(
        express.contains("✗ http:") && express.contains("not \"express\""),
        "{express}"
    );
    assert!(
        express.contains("select {\"ref\":\"e"),
        "its timeline shows the select: {express}"
    );
    assert_eq!(shown["loaded"], json!([]), "the report loads nothing");
    assert_eq!(asked, ["/report.html"]);
}

#[tokio::test]
async fn the_demo_suite_spreads_over_three_chromiums_and_two_shards_cover_it() {
    let site = DemoSite::start(0).await.expect("demo site");
    let model = rove_demo::model::start(ModelOptions::default(), 0)
        .await
        .expect("model");
    let mut pool: Vec<External> = ["demo-a", "demo-b", "demo-c"]
        .iter()
        .map(|name| External::start(name))
        .collect();
    let urls: Vec<String> = pool
        .iter()
        .map(|b| format!("http://127.0.0.1:{}", b.port))
        .collect();
    let dir = rove_testkit::scratch_dir("rove-demo-shards");
    let mut seen: Vec<String> = Vec::new();
    let mut used: BTreeSet<u64> = BTreeSet::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.join(shard.replace('/', "-"));
        let mut args = vec![
            "-j",
            "4",
            "--shard",
            shard,
            "--out",
            out.to_str().expect("utf-8"),
        ];
        for url in &urls {
            args.extend(["--cdp-url", url.as_str()]);
        }
        let (status, stdout, stderr) =
            rove_test(&site, &model, Some("5555 5555 5555 4444"), &args).await;
        let context = format!("{stdout}\n{stderr}");
        assert_eq!(
            status, 0,
            "every attempt of shard {shard} passes:\n{context}"
        );
        let results = read_json(&out.join("results.json"), &context);
        assert_eq!(results["shard"], shard);
        for a in attempts(&results) {
            assert_eq!(a["status"], "passed", "{a:#}");
            assert!(
                a["browser_pid"].is_null(),
                "rove launched no browser: {a:#}"
            );
            used.insert(a["browser_index"].as_u64().expect("a browser index"));
            seen.push(a["task"].as_str().unwrap_or_default().to_owned());
        }
    }
    let count = seen.len();
    seen.sort();
    seen.dedup();
    assert_eq!(count, 22, "the shards are disjoint: {seen:?}");
    assert_eq!(seen, SUITE, "and together the whole suite");
    assert_eq!(
        used.into_iter().collect::<Vec<_>>(),
        [0, 1, 2],
        "each of the three browsers took attempts"
    );
    // The company card was typed as a secret: the order kept its last four.
    let sue = site.account_json("sue").expect("sue");
    assert_eq!(sue["orders"][0]["card_last4"], "4444");
    // rove never closes a browser it did not start, and leaves no tab.
    for browser in &mut pool {
        assert!(browser.alive());
        assert_eq!(browser.page_urls().await, ["about:blank"]);
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
