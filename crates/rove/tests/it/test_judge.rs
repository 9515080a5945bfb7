//! `rove test --judge-model` with the real binary: a page of buttons, an
//! agent's model (behind OpenAI's wire format) that presses the button its
//! task names and always reports success, and a judge on its own server
//! (`--judge-base-url`) whose answer depends on the task it reads. One task
//! with a check and one without pass on the judge's pass (the one without
//! is judged, not self-reported); a judge fail fails an attempt whose check
//! held (a divergence); an impossible task and a captcha are counted; a
//! judge's 500 and an answer in text only make attempts unjudged, and so
//! does Ctrl-C while the judge is thinking (without waiting for it). Asserted
//! after the run from results.json, report.html, the terminal summary and
//! the requests the servers recorded.

use crate::support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rove_localserver::{LocalServer, Request, RequestLog, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

use crate::support::suite::attempt;

const BUTTONS: [&str; 7] = ["Lamp", "Note", "Desk", "Vase", "Robot", "Tea", "Bowl"];

async fn page() -> LocalServer {
    let buttons: String = BUTTONS
        .iter()
        .map(|b| format!("<button onclick=\"out.textContent='Added {b}'\">{b}</button>"))
        .collect();
    LocalServer::start(Routes::new().page(
        "/shop",
        Response::html(format!(
            "<!doctype html><title>Shop</title>{buttons}<p id=out>Cart empty</p>"
        )),
    ))
    .await
    .expect("page")
}

fn reply(message: Value) -> Response {
    let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": message}], "usage": {"prompt_tokens": 40, "completion_tokens": 4}});
    Response::with_type(200, "application/json", reply.to_string().into_bytes())
}

fn tool(name: &str, args: Value) -> Response {
    reply(
        json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": name, "arguments": args.to_string()}}]}),
    )
}

/// The agent: presses the button "Task: Press X" names, then says done
/// with success, deciding from the request alone.
async fn agent() -> LocalServer {
    LocalServer::start(
        Routes::new().handle("/v1/chat/completions", |request: &Request| {
            let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
            let messages = body["messages"].as_array().cloned().unwrap_or_default();
            if messages.iter().any(|m| m["role"] == "assistant") {
                return tool("done", json!({"text": "pressed it", "success": true}));
            }
            let first = messages
                .get(1)
                .and_then(|m| m["content"].as_str())
                .unwrap_or_default();
            let wanted = first
                .lines()
                .find_map(|l| l.strip_prefix("Task: Press "))
                .unwrap_or_default()
                .trim()
                .to_owned();
            let button = first
                .lines()
                .find(|l| l.contains(&format!("button \"{wanted}\"")))
                .and_then(|l| l.split_whitespace().next())
                .unwrap_or("e0")
                .to_owned();
            tool("click", json!({"ref": button}))
        }),
    )
    .await
    .expect("agent")
}

/// The judge: its verdict by the task it reads.
async fn judge(log: RequestLog) -> LocalServer {
    LocalServer::start(Routes::new().log_requests(log).handle("/v1/chat/completions", |request: &Request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let text = body["messages"][1]["content"].as_str().unwrap_or_default().to_owned();
        let task = text
            .split("Task given to the agent:\n")
            .nth(1)
            .and_then(|t| t.lines().next())
            .unwrap_or_default()
            .to_owned();
        let verdict = |verdict: &str, why: &str, impossible: bool, captcha: bool| {
            tool("verdict", json!({"reasoning": format!("judged {task}"), "verdict": verdict, "failure_reason": why, "impossible_task": impossible, "reached_captcha": captcha}))
        };
        match task.as_str() {
            "Press Lamp" | "Press Note" => verdict("pass", "", false, false),
            "Press Desk" => verdict("fail", "the desk is the wrong colour", false, false),
            "Press Vase" => verdict("fail", "the shop sells no vases", true, false),
            "Press Robot" => verdict("fail", "a captcha asked if it was a robot", false, true),
            "Press Tea" => Response::status(500),
            _ => reply(json!({"role": "assistant", "content": "verdict: pass"})),
        }
    }))
    .await
    .expect("judge")
}

const SUITE: &str = r#"
- name: lamp
  task: Press Lamp
  start_url: ${SHOP_URL}/shop
  ground_truth: The page says Added Lamp.
  judge_context: [Only the lamp counts.]
  verify:
    - text: {contains: Added Lamp}
- name: note
  task: Press Note
  start_url: ${SHOP_URL}/shop
- name: desk
  task: Press Desk
  start_url: ${SHOP_URL}/shop
  verify:
    - text: {contains: Added Desk}
- {name: vase, task: Press Vase, start_url: "${SHOP_URL}/shop"}
- {name: robot, task: Press Robot, start_url: "${SHOP_URL}/shop"}
- {name: tea, task: Press Tea, start_url: "${SHOP_URL}/shop"}
- {name: bowl, task: Press Bowl, start_url: "${SHOP_URL}/shop"}
"#;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rove-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[tokio::test]
async fn the_judge_decides_with_the_checks_and_its_findings_are_counted() {
    let shop = page().await;
    let agent = agent().await;
    let judge_log = RequestLog::new();
    let judge = judge(judge_log.clone()).await;
    let dir = scratch("judge");
    std::fs::write(dir.join("suite.yaml"), SUITE).expect("suite");
    // The judge's model has a price (the agent's has none): $10 and $100
    // per million tokens in and out.
    let prices = dir.join("prices.json");
    std::fs::write(&prices, r#"{"openai:judge": {"input": 10, "output": 100}}"#).expect("prices");
    let out = dir.join("out");
    let output = crate::support::finished(
        Duration::from_secs(240),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .arg("test")
            .arg(dir.join("suite.yaml"))
            .args(["--model", "openai:scripted", "--vision", "off", "-j", "2"])
            .args(["--judge-model", "openai:judge", "--judge-base-url"])
            .arg(judge.url("/v1"))
            .arg("--out")
            .arg(&out)
            .arg("--prices")
            .arg(&prices)
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", agent.url("/v1"))
            .env("SHOP_URL", shop.url("").trim_end_matches('/'))
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_MODEL"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results.json"))
            .expect("JSON");

    each_attempt_has_the_judges_verdict(&results);
    the_suite_counts_the_judges_findings(&results);
    the_judges_tokens_and_dollars_are_its_own(&results, &stdout, &out);
    the_judge_got_the_ground_truth_first(&judge_log);
    let _ = std::fs::remove_dir_all(&dir);
}

fn each_attempt_has_the_judges_verdict(results: &Value) {
    let status = |task: &str| attempt(results, task)["status"].clone();
    // Reported success, the check held, the judge says pass.
    assert_eq!(status("lamp"), "passed");
    assert_eq!(attempt(results, "lamp")["judge"]["verdict"], "pass");
    // No check, but a judge: judged, not self-reported.
    assert_eq!(status("note"), "passed");
    // The check held, the judge says fail: failed, and a divergence.
    let desk = attempt(results, "desk");
    assert_eq!(desk["status"], "failed", "{desk:#}");
    assert_eq!(desk["success_reported"], true, "the agent's report is kept");
    assert_eq!(desk["checks"][0]["passed"], true);
    assert_eq!(desk["reason"], "judge: the desk is the wrong colour");
    assert_eq!(desk["divergence"], true);
    assert_eq!(
        desk["judge"]["failure_reason"],
        "the desk is the wrong colour"
    );
    let vase = attempt(results, "vase");
    assert_eq!(
        (&vase["status"], &vase["judge"]["impossible_task"]),
        (&json!("failed"), &json!(true))
    );
    // The judge says a captcha stopped it; the views showed none, and
    // `reached_captcha` is what was detected, never the model's word
    // (issue 40).
    let robot = attempt(results, "robot");
    assert_eq!(
        (&robot["status"], &robot["judge"]["reached_captcha"]),
        (&json!("failed"), &json!(false))
    );
    // The judge's 500 and its text-only answer: unjudged, never a verdict.
    for task in ["tea", "bowl"] {
        let a = attempt(results, task);
        assert_eq!(a["status"], "unjudged", "{a:#}");
        assert_eq!(a["judge"]["verdict"], "unjudged");
        assert_eq!(a["divergence"], false);
        assert!(
            a["reason"]
                .as_str()
                .is_some_and(|r| r.starts_with("unjudged: ")),
            "{a:#}"
        );
    }
    assert!(
        attempt(results, "tea")["judge"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("judge's call failed")),
        "{results:#}"
    );
    assert!(
        attempt(results, "bowl")["judge"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("did not call verdict")),
        "{results:#}"
    );
}

fn the_suite_counts_the_judges_findings(results: &Value) {
    let suite = &results["suite"];
    assert_eq!(
        [
            &suite["passed"],
            &suite["failed"],
            &suite["unjudged"],
            &suite["self_reported"],
            &suite["divergences"],
            &suite["impossible_task"],
            &suite["reached_captcha"],
        ],
        [
            &json!(2),
            &json!(3),
            &json!(2),
            &json!(0),
            &json!(3),
            &json!(1),
            // No page showed a captcha: the judge's word is not counted.
            &json!(0)
        ],
        "{suite:#}"
    );
}

/// Summed from the judge's calls, priced at its model's price, never in
/// the agent's.
fn the_judges_tokens_and_dollars_are_its_own(results: &Value, stdout: &str, out: &Path) {
    let suite = &results["suite"];
    let attempts = results["attempts"].as_array().expect("attempts");
    let judged_in: u64 = attempts
        .iter()
        .filter_map(|a| a["judge"]["usage"]["input"].as_u64())
        .sum();
    let judged_out: u64 = attempts
        .iter()
        .filter_map(|a| a["judge"]["usage"]["output"].as_u64())
        .sum();
    // Five verdicts and one text-only answer, 40 and 4 tokens each; the
    // 500 used none.
    assert_eq!((judged_in, judged_out), (240, 24), "{results:#}");
    assert_eq!(suite["judge_tokens_in"], 240, "{suite:#}");
    assert_eq!(suite["judge_tokens_out"], 24, "{suite:#}");
    let judge_cost = suite["judge_cost"].as_f64().expect("priced");
    assert!((judge_cost - 0.0048).abs() < 1e-9, "{suite:#}");
    assert_eq!(
        attempt(results, "lamp")["judge_cost"].as_f64(),
        Some(0.0008)
    );
    assert_eq!(
        suite["tokens_in"],
        14 * 40,
        "the agent's own: 2 calls an attempt"
    );
    assert!(suite["cost"].is_null(), "the agent's model has no price");
    let summary = "2 unjudged · judge: 3 diverged, 1 impossible, 240/24 tokens, $0.0048";
    assert!(stdout.contains(summary), "{stdout}");
    let report = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(report.contains(summary), "report.html's suite line");
    assert!(
        report.contains("divergence: the agent says otherwise"),
        "desk's attempt in report.html"
    );
}

/// Before the steps; a task without a ground truth has none.
fn the_judge_got_the_ground_truth_first(judge_log: &RequestLog) {
    let bodies: Vec<Value> = judge_log
        .requests()
        .iter()
        .map(|r| serde_json::from_slice(&r.body).expect("json"))
        .collect();
    let text_of = |task: &str| {
        bodies
            .iter()
            .filter_map(|b| b["messages"][1]["content"].as_str())
            .find(|t| t.contains(&format!("Task given to the agent:\n{task}\n")))
            .unwrap_or_else(|| panic!("no judge request for {task}"))
            .to_owned()
    };
    let lamp = text_of("Press Lamp");
    assert!(lamp.starts_with("GROUND TRUTH (authoritative"), "{lamp}");
    let at = |needle: &str| {
        lamp.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {lamp}"))
    };
    assert!(at("The page says Added Lamp.") < at("step 1:"));
    assert!(at("- Only the lamp counts.") < at("step 1:"));
    assert!(!text_of("Press Note").contains("GROUND TRUTH"));
}

#[tokio::test]
async fn ctrl_c_while_judging_leaves_the_attempt_unjudged_at_once() {
    let shop = page().await;
    let agent = agent().await;
    let judge_log = RequestLog::new();
    // A judge that would take a minute.
    let judge = LocalServer::start(
        Routes::new().log_requests(judge_log.clone()).page(
            "/v1/chat/completions",
            tool("verdict", json!({"reasoning": "late", "verdict": "pass", "failure_reason": "", "impossible_task": false, "reached_captcha": false}))
                .delayed(Duration::from_secs(60)),
        ),
    )
    .await
    .expect("judge");
    let dir = scratch("judge-interrupt");
    let file = dir.join("lamp.yaml");
    std::fs::write(
        &file,
        "- {name: lamp, task: Press Lamp, start_url: \"${SHOP_URL}/shop\", verify: [{text: {contains: Added Lamp}}]}\n",
    )
    .expect("suite");
    let out = dir.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rove"))
        .arg("test")
        .arg(&file)
        .args(["--model", "openai:scripted", "--vision", "off"])
        .args(["--judge-model", "openai:judge", "--judge-base-url"])
        .arg(judge.url("/v1"))
        .arg("--out")
        .arg(&out)
        .env("OPENAI_API_KEY", "sk-test")
        .env("OPENAI_BASE_URL", agent.url("/v1"))
        .env("SHOP_URL", shop.url("").trim_end_matches('/'))
        .env_remove("ROVE_CDP_URL")
        .env_remove("ROVE_MODEL")
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("rove test started");
    let waited = std::time::Instant::now();
    while judge_log.requests().is_empty() {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "the judge was never asked"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = support::interrupt(
        &mut child,
        Duration::from_secs(30),
        "rove test did not wait for the judge",
    )
    .await;
    assert_eq!(status.code(), Some(130));
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results"))
            .expect("JSON");
    let lamp = attempt(&results, "lamp");
    assert_eq!(
        (&lamp["status"], &lamp["reason"]),
        (
            &json!("unjudged"),
            &json!("unjudged: interrupted while judging")
        ),
        "the check held, but nobody judged it: {lamp:#}"
    );
    assert_eq!(lamp["checks"][0]["passed"], true);
    assert_eq!(results["suite"]["passed"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}
