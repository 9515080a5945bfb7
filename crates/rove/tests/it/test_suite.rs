//! `rove test` with the real binary: a suite of YAML tasks over a shop kept
//! on a server on 127.0.0.1, a scripted model behind OpenAI's wire format,
//! two attempts at once. One task passes, one is claimed done by the model
//! but its server state says otherwise (a verify failure), one has an unset
//! secret (skipped), one has no check (self-reported); results.json, the
//! JUnit file and the exit status say so. Everything is asserted after the
//! run, from what the binary wrote and what the servers saw. A bad task
//! file, which stops the run before anything runs: `crate::fast::test_suite`.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rove_localserver::{LocalServer, Request, RequestLog, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

use crate::support::suite::attempt;

/// The shop: three buttons that POST what they add. The desk's handler has
/// a bug: it answers 200 and keeps nothing, so the page says "Added Desk"
/// while the server's state has no desk.
pub(crate) async fn shop() -> (LocalServer, Arc<Mutex<BTreeMap<String, u64>>>) {
    let cart: Arc<Mutex<BTreeMap<String, u64>>> = Arc::default();
    let kept = cart.clone();
    let shown = cart.clone();
    let page = "<!doctype html><title>Shop</title><h1>Shop</h1>\
        <button onclick=\"add('lamp','Lamp')\">Lamp</button>\
        <button onclick=\"add('desk','Desk')\">Desk</button>\
        <button onclick=\"add('note','Note')\">Note</button><p id=out>Cart empty</p>\
        <script>function add(item, name) { fetch('/api/add?item=' + item, {method: 'POST'})\
        .then(r => { document.getElementById('out').textContent = r.ok ? 'Added ' + name : 'Failed'; }); }</script>";
    let server = LocalServer::start(
        Routes::new()
            .page("/shop", Response::html(page))
            .handle("/api/add", move |request: &Request| {
                let item = request.query.strip_prefix("item=").unwrap_or_default();
                if request.method == "POST" && item != "desk"
                    && let Ok(mut cart) = kept.lock() {
                        *cart.entry(item.to_owned()).or_default() += 1;
                    }
                Response::text("ok")
            })
            .handle("/api/cart", move |_: &Request| {
                let cart = shown.lock().map(|c| c.clone()).unwrap_or_default();
                let body = json!({"lamp": cart.get("lamp").copied().unwrap_or(0), "desk": cart.get("desk").copied().unwrap_or(0)});
                Response::with_type(200, "application/json", body.to_string().into_bytes())
            }),
    )
    .await
    .expect("shop");
    (server, cart)
}

/// A model that reads "Task: Press X", clicks the button named X in the
/// first view, then says done with success; it decides from the request
/// alone, so attempts running at once do not disturb each other.
async fn model() -> LocalServer {
    model_logged(RequestLog::new()).await
}

pub(crate) async fn model_logged(log: RequestLog) -> LocalServer {
    LocalServer::start(Routes::new().log_requests(log).handle("/v1/chat/completions", |request: &Request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let messages = body["messages"].as_array().cloned().unwrap_or_default();
        let first = messages
            .iter()
            .find(|m| m["role"] == "user")
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_owned();
        let acted = messages.iter().any(|m| m["role"] == "assistant");
        let wanted = first
            .lines()
            .find_map(|l| l.strip_prefix("Task: Press "))
            .unwrap_or_default()
            .trim()
            .to_owned();
        let call = if acted {
            json!({"id": "c2", "type": "function", "function": {"name": "done", "arguments": json!({"text": format!("pressed {wanted}"), "success": true}).to_string()}})
        } else {
            let button = first
                .lines()
                .find(|l| l.contains(&format!("button \"{wanted}\"")))
                .and_then(|l| l.split_whitespace().next())
                .unwrap_or("e0")
                .to_owned();
            json!({"id": "c1", "type": "function", "function": {"name": "click", "arguments": json!({"ref": button}).to_string()}})
        };
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 40, "completion_tokens": 4}});
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
    }))
    .await
    .expect("model")
}

const SUITE: &str = r#"
- name: lamp
  task: Press Lamp
  start_url: ${SHOP_URL}/shop
  tags: [smoke]
  verify:
    - http: {url: "${SHOP_URL}/api/cart", pointer: /lamp, equals: 1}
    - text: {contains: Added Lamp, lacks: Failed}
    - url: "/shop$"
    - answer: "^pressed Lamp$"
- name: desk
  task: Press Desk
  start_url: ${SHOP_URL}/shop
  verify:
    - text: {contains: Added Desk}
    - http: {url: "${SHOP_URL}/api/cart", pointer: /desk, equals: 1}
- name: login
  task: Log in with the password <secret>pw</secret>
  start_url: ${SHOP_URL}/shop
  secrets: {pw: ROVE_TEST_UNSET_PASSWORD}
  verify:
    - url: /account
"#;

const NOTES: &str = "name: note\ntask: Press Note\nstart_url: ${SHOP_URL}/shop\nmax_steps: 4\n";

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rove-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

pub(crate) async fn rove_test(
    shop: &LocalServer,
    model: &LocalServer,
    args: &[&str],
) -> (i32, String, String) {
    let output = crate::support::finished(
        Duration::from_secs(240),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .arg("test")
            .args(args)
            .args(["--model", "openai:scripted", "--vision", "off"])
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env("SHOP_URL", shop.url("").trim_end_matches('/'))
            .env_remove("ROVE_TEST_UNSET_PASSWORD")
            .env_remove("ROVE_CDP_URL"),
    )
    .await;
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn a_suite_reports_a_pass_a_verify_failure_a_skip_and_a_self_report() {
    let (shop, cart) = shop().await;
    let model = model().await;
    let dir = scratch("suite");
    std::fs::write(dir.join("shop.yaml"), SUITE).expect("suite");
    std::fs::write(dir.join("notes.yml"), NOTES).expect("notes");
    let out = dir.join("out");
    let junit = dir.join("junit.xml");
    let (status, stdout, stderr) = rove_test(
        &shop,
        &model,
        &[
            dir.to_str().expect("utf-8"),
            "-j",
            "2",
            "--out",
            out.to_str().expect("utf-8"),
            "--junit",
            junit.to_str().expect("utf-8"),
        ],
    )
    .await;
    assert_eq!(
        status, 1,
        "a failed and a skipped task fail the suite:\n{stdout}\n{stderr}"
    );
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results.json"))
            .expect("JSON");
    assert_eq!(results["schema"], 1);
    assert_eq!(results["model"], "openai:scripted");
    assert_eq!(results["met"], false);

    each_attempt_has_its_status(&results);
    the_tasks_and_the_suite_add_up(&results);
    // Each attempt that ran left a history with its steps.
    let history = attempt(&results, "lamp")["history"]
        .as_str()
        .expect("a history");
    let saved: Value =
        serde_json::from_slice(&std::fs::read(history).expect("history")).expect("JSON");
    assert_eq!(saved["steps"][0]["actions"][0]["tool"], "click");
    assert_eq!(saved["status"], "passed");

    the_junit_file_has_each_attempt(&junit);
    the_people_see_a_line_per_attempt(&stdout);
    // What the server kept: one lamp (once, from the one lamp attempt), no desk.
    let kept = cart.lock().map(|c| c.clone()).unwrap_or_default();
    assert_eq!(kept.get("lamp"), Some(&1));
    assert_eq!(kept.get("note"), Some(&1));
    assert_eq!(kept.get("desk"), None);

    report_shows_the_run(&out).await;

    compare_reads_what_the_run_wrote(&dir, &out.join("results.json"), &results).await;
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

fn each_attempt_has_its_status(results: &Value) {
    let lamp = attempt(results, "lamp");
    assert_eq!(lamp["status"], "passed", "{lamp:#}");
    assert_eq!(lamp["steps"], 2);
    assert_eq!(lamp["tokens_in"], 80);
    let checks: Vec<&str> = lamp["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter(|c| c["passed"] == true)
        .filter_map(|c| c["check"].as_str())
        .collect();
    assert_eq!(checks, ["http", "text", "url", "answer"]);

    // The model said it succeeded and the page agreed; the server did not.
    let desk = attempt(results, "desk");
    assert_eq!(desk["status"], "failed", "{desk:#}");
    assert_eq!(desk["success_reported"], true);
    assert_eq!(desk["checks"][0]["passed"], true);
    let reason = desk["reason"].as_str().expect("a reason");
    assert!(
        reason.starts_with("verify http:") && reason.contains("is 0, not 1"),
        "{reason}"
    );

    let login = attempt(results, "login");
    assert_eq!(login["status"], "skipped");
    assert_eq!(
        login["reason"],
        "unset secret pw (from ROVE_TEST_UNSET_PASSWORD)"
    );
    assert_eq!(login["steps"], 0);

    let note = attempt(results, "note");
    assert_eq!(note["status"], "self-reported", "{note:#}");
}

fn the_tasks_and_the_suite_add_up(results: &Value) {
    let suite = &results["suite"];
    assert_eq!(
        (
            &suite["attempts"],
            &suite["passed"],
            &suite["failed"],
            &suite["skipped"],
            &suite["self_reported"]
        ),
        (&json!(4), &json!(1), &json!(1), &json!(1), &json!(1))
    );
    let tasks = results["tasks"].as_array().expect("tasks");
    let met: Vec<(&str, bool)> = tasks
        .iter()
        .map(|t| (t["name"].as_str().unwrap_or_default(), t["met"] == true))
        .collect();
    assert_eq!(
        met,
        [
            ("desk", false),
            ("lamp", true),
            ("login", false),
            ("note", false)
        ]
    );
    let lamp_task = &tasks[1];
    assert_eq!(lamp_task["pass_rate"], 1.0);
    let low = lamp_task["interval"][0].as_f64().expect("low");
    assert!(
        (low - 0.2065).abs() < 1e-3,
        "1 of 1: Wilson's low end is 0.21, not {low}"
    );
}

fn the_junit_file_has_each_attempt(junit: &Path) {
    let xml = std::fs::read_to_string(junit).expect("junit");
    assert!(
        xml.contains("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"2\""),
        "{xml}"
    );
    assert!(xml.contains("<testcase name=\"lamp #1\""), "{xml}");
    assert!(xml.contains("<failure message=\"verify http:"), "{xml}");
    assert!(
        xml.contains("<skipped message=\"skipped: unset secret pw"),
        "{xml}"
    );
    assert!(xml.contains("<skipped message=\"self-reported:"), "{xml}");
}

/// The people's view: a line per attempt, then the table.
fn the_people_see_a_line_per_attempt(stdout: &str) {
    assert!(
        stdout.contains("passed        lamp #1 · 2 steps"),
        "{stdout}"
    );
    assert!(
        stdout.contains("4 attempts: 1 passed, 1 failed, 1 skipped, 1 self-reported, 0 error"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("FAILED"), "{stdout}");
}

/// `--compare` reads what the run wrote (`before`): against itself
/// nothing changed; against a run where the lamp passed 0 of 20 after 20
/// of 20, the lamp got clearly worse and the comparison exits 1.
async fn compare_reads_what_the_run_wrote(dir: &Path, before: &Path, results: &Value) {
    let (status, stdout) = compare(before, before).await;
    assert_eq!(status, 0, "{stdout}");
    assert!(stdout.contains("0 worse, 0 better, 4 the same"), "{stdout}");
    let mut old = results.clone();
    let mut new = results.clone();
    for (copy, passed) in [(&mut old, 20), (&mut new, 0)] {
        let lamp = copy["tasks"]
            .as_array_mut()
            .and_then(|t| t.iter_mut().find(|t| t["name"] == "lamp"))
            .expect("lamp");
        lamp["passed"] = json!(passed);
        lamp["attempts"] = json!(20);
        lamp["pass_rate"] = json!(f64::from(passed) / 20.0);
        lamp["interval"] = if passed == 20 {
            json!([0.84, 1.0])
        } else {
            json!([0.0, 0.16])
        };
    }
    let (old_file, new_file) = (dir.join("old.json"), dir.join("new.json"));
    std::fs::write(&old_file, old.to_string()).expect("old");
    std::fs::write(&new_file, new.to_string()).expect("new");
    let (status, stdout) = compare(&old_file, &new_file).await;
    assert_eq!(status, 1, "{stdout}");
    assert!(stdout.contains("worse    lamp  20/20 → 0/20\n"), "{stdout}");
    let (status, stdout) = compare(&new_file, &old_file).await;
    assert_eq!(status, 0, "{stdout}");
    assert!(stdout.contains("better   lamp  0/20 → 20/20\n"), "{stdout}");
}

async fn compare(old: &std::path::Path, new: &std::path::Path) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(["test", "--compare"])
        .args([old, new])
        .kill_on_drop(true)
        .output()
        .await
        .expect("ran");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[tokio::test]
async fn a_suite_where_every_task_meets_its_bar_exits_0_and_shards_split_it() {
    let (shop, _) = shop().await;
    let model = model().await;
    let dir = scratch("smoke");
    let file = dir.join("shop.yaml");
    std::fs::write(&file, SUITE).expect("suite");
    let file = file.to_str().expect("utf-8");
    let (status, stdout, stderr) =
        rove_test(&shop, &model, &[file, "--tags", "smoke", "--json"]).await;
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    let answer: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(answer["met"], true);
    assert_eq!(answer["suite"]["passed"], 1);

    // Two shards of the whole suite: disjoint, and together every task.
    let mut seen = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.join(shard.replace('/', "-"));
        let (_, stdout, stderr) = rove_test(
            &shop,
            &model,
            &[
                file,
                "--shard",
                shard,
                "--out",
                out.to_str().expect("utf-8"),
            ],
        )
        .await;
        let results: Value = serde_json::from_slice(
            &std::fs::read(out.join("results.json"))
                .unwrap_or_else(|e| panic!("{e}\n{stdout}\n{stderr}")),
        )
        .expect("JSON");
        assert_eq!(results["shard"], shard);
        for a in results["attempts"].as_array().expect("attempts") {
            seen.push(a["task"].as_str().unwrap_or_default().to_owned());
        }
    }
    seen.sort();
    assert_eq!(seen, ["desk", "lamp", "login"]);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// A model that takes a minute to answer: attempts wait on it.
async fn slow_model(log: RequestLog) -> LocalServer {
    LocalServer::start(
        Routes::new()
            .log_requests(log)
            .handle("/v1/chat/completions", |_: &Request| {
                Response::text("too late").delayed(Duration::from_secs(60))
            }),
    )
    .await
    .expect("model")
}

#[tokio::test]
async fn an_attempt_past_its_timeout_fails_saying_so() {
    let (shop, _) = shop().await;
    let model = slow_model(RequestLog::new()).await;
    let dir = scratch("timeout");
    let file = dir.join("slow.yaml");
    std::fs::write(
        &file,
        "name: slow\ntask: Press Lamp\nstart_url: ${SHOP_URL}/shop\ntimeout_s: 2\nverify: [{url: shop}]\n",
    )
    .expect("suite");
    let out = dir.join("out");
    let started = std::time::Instant::now();
    let (status, stdout, stderr) = rove_test(
        &shop,
        &model,
        &[
            file.to_str().expect("utf-8"),
            "--out",
            out.to_str().expect("utf-8"),
        ],
    )
    .await;
    assert_eq!(status, 1, "{stdout}\n{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(40),
        "the deadline held"
    );
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results"))
            .expect("JSON");
    let slow = attempt(&results, "slow");
    assert_eq!(slow["status"], "failed");
    assert_eq!(slow["ending"], "timeout");
    assert_eq!(slow["reason"], "timeout: the attempt ran past its 2 s");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn a_model_that_refuses_its_key_is_an_error_coded_in_every_report() {
    let (shop, _) = shop().await;
    let model = LocalServer::start(Routes::new().handle("/v1/chat/completions", |_: &Request| {
        Response::with_type(
            401,
            "application/json",
            br#"{"error":{"message":"bad key"}}"#.to_vec(),
        )
    }))
    .await
    .expect("model");
    let dir = scratch("model-refused");
    let file = dir.join("lamp.yaml");
    std::fs::write(
        &file,
        "name: lamp\ntask: Press Lamp\nstart_url: ${SHOP_URL}/shop\nverify: [{url: shop}]\n",
    )
    .expect("suite");
    let out = dir.join("out");
    let junit = dir.join("junit.xml");
    let (status, stdout, stderr) = rove_test(
        &shop,
        &model,
        &[
            file.to_str().expect("utf-8"),
            "--out",
            out.to_str().expect("utf-8"),
            "--junit",
            junit.to_str().expect("utf-8"),
        ],
    )
    .await;
    assert_eq!(status, 1, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("MODEL_FAILED: the model failed"),
        "{stdout}"
    );
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results"))
            .expect("JSON");
    let lamp = attempt(&results, "lamp");
    assert_eq!(lamp["status"], "error", "{lamp:#}");
    assert_eq!(lamp["error_code"], "MODEL_FAILED", "{lamp:#}");
    let xml = std::fs::read_to_string(&junit).expect("junit");
    assert!(xml.contains("<error type=\"MODEL_FAILED\""), "{xml}");
    let report = std::fs::read_to_string(out.join("report.html")).expect("report");
    assert!(
        report.contains("<code>MODEL_FAILED</code>"),
        "the report names it"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn ctrl_c_ends_the_attempts_and_still_writes_the_report() {
    let (shop, _) = shop().await;
    let log = RequestLog::new();
    let model = slow_model(log.clone()).await;
    let dir = scratch("interrupt");
    let file = dir.join("two.yaml");
    std::fs::write(
        &file,
        "- {name: first, task: Press Lamp, start_url: \"${SHOP_URL}/shop\"}\n- {name: second, task: Press Desk, start_url: \"${SHOP_URL}/shop\"}\n",
    )
    .expect("suite");
    let out = dir.join("out");
    let junit = dir.join("junit.xml");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(["test", file.to_str().expect("utf-8"), "-j", "1"])
        .args(["--out", out.to_str().expect("utf-8")])
        .args(["--junit", junit.to_str().expect("utf-8")])
        .args(["--model", "openai:scripted", "--vision", "off"])
        .env("OPENAI_API_KEY", "sk-test")
        .env("OPENAI_BASE_URL", model.url("/v1"))
        .env("SHOP_URL", shop.url("").trim_end_matches('/'))
        .env_remove("ROVE_CDP_URL")
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("rove test started");
    // Interrupt once the first attempt is waiting on the model.
    let waited = std::time::Instant::now();
    while log.requests().is_empty() {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "the model was never asked"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = support::interrupt(
        &mut child,
        Duration::from_secs(30),
        "rove test ended soon after the signal",
    )
    .await;
    assert_eq!(status.code(), Some(130));
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results"))
            .expect("JSON");
    assert_eq!(results["interrupted"], true);
    assert_eq!(results["met"], false);
    let first = attempt(&results, "first");
    assert_eq!(
        (&first["status"], &first["reason"]),
        (&json!("error"), &json!("interrupted while running"))
    );
    assert_eq!(first["error_code"], Value::Null, "no code for a signal");
    let second = attempt(&results, "second");
    assert_eq!(
        (&second["status"], &second["reason"]),
        (&json!("skipped"), &json!("interrupted before it started"))
    );
    assert!(
        std::fs::read_to_string(&junit)
            .expect("junit")
            .contains("interrupted while running")
    );
    assert_eq!(
        log.requests().len(),
        1,
        "no attempt started after the signal"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Opens report.html in Chromium (served from the out folder) and reads
/// what it shows: the verdict, the task table, the failed check, the
/// timeline of a step; and that it loaded nothing beyond itself.
async fn report_shows_the_run(out: &std::path::Path) {
    let (shown, asked) = support::report_shown(out).await;
    assert_eq!(shown["title"], "rove test: FAILED");
    assert!(
        shown["suite"].as_str().is_some_and(
            |s| s.contains("4 attempts: 1 passed, 1 failed, 1 skipped, 1 self-reported")
        ),
        "{shown:#}"
    );
    let rows: Vec<&str> = shown["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(rows.len(), 5, "a header and four tasks: {rows:?}");
    assert!(
        rows[2].starts_with("lamp 1/1 100% 21%–100% 100% 2 80/8"),
        "{rows:?}"
    );
    assert!(
        rows[1].starts_with("desk 0/1 0%") && rows[1].contains("verify http:"),
        "{rows:?}"
    );
    let desk = shown["attempts"]
        .as_array()
        .and_then(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .find(|t| t.contains("desk #1"))
        })
        .expect("the desk attempt");
    assert!(
        desk.contains("✗ http:") && desk.contains("is 0, not 1"),
        "{desk}"
    );
    assert!(desk.contains("✓ text:"), "{desk}");
    // Its timeline: the click with its arguments and result, then done.
    assert!(
        desk.contains("click {\"ref\":\"e") && desk.contains("clicked e"),
        "{desk}"
    );
    assert!(desk.contains("40/4"), "{desk}");
    assert_eq!(shown["loaded"], json!([]), "the report loads nothing");
    assert_eq!(shown["scripts"], 0, "and runs no script");
    assert_eq!(asked, ["/report.html"]);
}
