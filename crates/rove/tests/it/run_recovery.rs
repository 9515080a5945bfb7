//! `rove run` with the real binary when things go wrong: model errors shown
//! as `failure k/N` and the history still written, Ctrl-C (SIGINT) ending
//! the run with its history, and a fallback model reached at its own base
//! URL. The model is a local server speaking OpenAI's wire format.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

/// A page with one button.
async fn page() -> LocalServer {
    LocalServer::start(Routes::new().page(
        "/go",
        Response::html("<title>Go</title><button onclick=\"this.textContent='Gone'\">Go</button>"),
    ))
    .await
    .expect("pages")
}

/// An OpenAI-style answer with one tool call.
fn answer(n: usize, name: &str, arguments: Value) -> Response {
    let call = json!({"id": format!("c{n}"), "type": "function", "function": {"name": name, "arguments": arguments.to_string()}});
    let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 10, "completion_tokens": 2}});
    Response::with_type(200, "application/json", reply.to_string().into_bytes())
}

/// The ref of the Go button in the first view of a request.
fn go_ref(body: &[u8]) -> String {
    let body: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    body["messages"][1]["content"]
        .as_str()
        .unwrap_or_default()
        .lines()
        .find(|l| l.contains("button \"Go\""))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or("e0")
        .to_owned()
}

/// A model that answers each request with `script(n, body)`, counting them.
async fn model(
    script: impl Fn(usize, &[u8]) -> Response + Send + Sync + 'static,
) -> (LocalServer, Arc<AtomicUsize>) {
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    let server = LocalServer::start(
        Routes::new().handle("/v1/chat/completions", move |request| {
            let n = seen.fetch_add(1, Ordering::SeqCst) + 1;
            script(n, &request.body)
        }),
    )
    .await
    .expect("model");
    (server, count)
}

fn history_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("rove-{name}-{}.json", std::process::id()))
}

fn rove() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
    command
        .env("OPENAI_API_KEY", "sk-test")
        .env_remove("ROVE_CDP_URL")
        .env_remove("RUST_LOG")
        .kill_on_drop(true);
    command
}

#[tokio::test]
async fn model_errors_show_failure_k_of_n_and_the_history_says_how_the_run_ended() {
    let pages = page().await;
    let (model, asked) = model(|_, _| {
        Response::with_type(
            400,
            "application/json",
            br#"{"error":{"message":"bad day"}}"#.to_vec(),
        )
    })
    .await;
    let history = history_path("model-error");
    let output = tokio::time::timeout(
        Duration::from_secs(120),
        rove()
            .args(["run", "Press Go", "--model", "openai:scripted"])
            .args(["--start-url", &pages.url("/go"), "--max-failures", "2"])
            .args(["--history", history.to_str().expect("utf-8")])
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .output(),
    )
    .await
    .expect("finished")
    .expect("ran");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(7), "{stdout}\n{stderr}");
    for k in 1..=2 {
        let line = format!("failure {k}/2: the model failed: openai failed (HTTP 400): bad day");
        assert!(stderr.contains(&line), "{line} missing: {stderr}");
    }
    assert!(
        stderr.contains("error[MODEL_FAILED]: openai failed (HTTP 400)"),
        "{stderr}"
    );
    assert!(
        stdout.contains("step 1: ✗ no answer from the model")
            && stdout.contains("stopped: 2/2 steps failed in a row"),
        "{stdout}"
    );
    assert_eq!(
        asked.load(Ordering::SeqCst),
        3,
        "two steps and the final call"
    );
    let saved: Value =
        serde_json::from_slice(&std::fs::read(&history).expect("history")).expect("json");
    std::fs::remove_file(&history).expect("cleanup");
    assert_eq!(saved["ending"]["reason"], "failures", "{saved}");
    assert_eq!(saved["ending"]["failed"], 2);
    let counts: Vec<Value> = saved["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| s["failure"]["count"].clone())
        .collect();
    assert_eq!(counts, [json!(1), json!(2)], "{saved}");
    assert_eq!(saved["steps"][0]["failure"]["kind"], "model");
}

#[tokio::test]
async fn ctrl_c_ends_the_run_and_the_history_is_still_written() {
    let pages = page().await;
    let (model, _) = model(|n, body| {
        let reply = answer(n, "click", json!({"ref": go_ref(body)}));
        if n == 1 {
            reply
        } else {
            // Step 2 waits on the model: that is where Ctrl-C comes.
            reply.delayed(Duration::from_secs(90))
        }
    })
    .await;
    let history = history_path("sigint");
    let mut child = rove()
        .args(["run", "Press Go", "--model", "openai:scripted"])
        .args(["--start-url", &pages.url("/go"), "--vision", "off"])
        .args(["--history", history.to_str().expect("utf-8")])
        .env("OPENAI_BASE_URL", model.url("/v1"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawned");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let step_one = tokio::time::timeout(Duration::from_secs(60), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.starts_with("step 1:") {
                return line;
            }
        }
        String::new()
    })
    .await
    .expect("step 1 within a minute");
    assert!(step_one.contains("click e"), "{step_one}");
    let pid = child.id().expect("running");
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("kill ran");
    assert!(sent.success());
    let output = tokio::time::timeout(Duration::from_secs(30), child.wait_with_output())
        .await
        .expect("ended soon after Ctrl-C")
        .expect("waited");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("stopped: interrupted (signal 2)"),
        "{stderr}"
    );
    let saved: Value =
        serde_json::from_slice(&std::fs::read(&history).expect("history")).expect("json");
    std::fs::remove_file(&history).expect("cleanup");
    assert_eq!(
        saved["ending"],
        json!({"reason": "interrupted", "signal": 2})
    );
    assert_eq!(saved["steps"].as_array().map(Vec::len), Some(1), "{saved}");
    assert_eq!(saved["steps"][0]["actions"][0]["tool"], "click");
}

#[tokio::test]
async fn a_fallback_with_its_own_base_url_is_called_there() {
    let pages = page().await;
    // The main model refuses the key (not retried): the fallback takes over.
    let (refusing, refused) = model(|_, _| {
        Response::with_type(
            401,
            "application/json",
            br#"{"error":{"message":"no such key"}}"#.to_vec(),
        )
    })
    .await;
    let (fallback, answered) = model(|n, body| match n {
        1 => answer(n, "click", json!({"ref": go_ref(body)})),
        _ => answer(n, "done", json!({"text": "went", "success": true})),
    })
    .await;
    // Where the fallback would go without its own base URL: nowhere.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let nowhere = format!("http://{}/v1", closed.local_addr().expect("addr"));
    drop(closed);
    let output = tokio::time::timeout(
        Duration::from_secs(120),
        rove()
            .args(["run", "Press Go", "--model", "openai:main", "--json"])
            .args(["--start-url", &pages.url("/go"), "--vision", "off"])
            .args(["--base-url", &refusing.url("/v1")])
            .args(["--fallback-model", "openai:scripted"])
            .args(["--fallback-base-url", &fallback.url("/v1")])
            .env("OPENAI_BASE_URL", &nowhere)
            .output(),
    )
    .await
    .expect("finished")
    .expect("ran");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(report["answer"], "went");
    assert_eq!(refused.load(Ordering::SeqCst), 1, "asked once, then never");
    assert_eq!(
        answered.load(Ordering::SeqCst),
        2,
        "the fallback ran the run"
    );
}

/// An answer of `model` with one tool call that spent a million prompt
/// tokens.
fn costly(model: &str, name: &str, arguments: Value) -> Response {
    let call = json!({"id": "c1", "type": "function", "function": {"name": name, "arguments": arguments.to_string()}});
    let reply = json!({"model": model, "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 1_000_000, "completion_tokens": 0}});
    Response::with_type(200, "application/json", reply.to_string().into_bytes())
}

#[tokio::test]
async fn a_run_that_switched_to_its_fallback_is_priced_at_each_models_rate() {
    let pages = page().await;
    // gpt-5-mini answers the first step, then refuses its key; gpt-5
    // answers the rest. Each spends a million prompt tokens.
    let (primary, _) = model(|n, body| match n {
        1 => costly("gpt-5-mini", "click", json!({"ref": go_ref(body)})),
        _ => Response::with_type(
            401,
            "application/json",
            br#"{"error":{"message":"key revoked"}}"#.to_vec(),
        ),
    })
    .await;
    let (fallback, _) =
        model(|_, _| costly("gpt-5", "done", json!({"text": "went", "success": true}))).await;
    let history = history_path("fallback-cost");
    let output = tokio::time::timeout(
        Duration::from_secs(120),
        rove()
            .args(["run", "Press Go", "--model", "openai:gpt-5-mini", "--json"])
            .args(["--start-url", &pages.url("/go"), "--vision", "off"])
            .args(["--base-url", &primary.url("/v1")])
            .args(["--fallback-model", "openai:gpt-5"])
            .args(["--fallback-base-url", &fallback.url("/v1")])
            .arg("--history")
            .arg(&history)
            .output(),
    )
    .await
    .expect("finished")
    .expect("ran");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    // $0.25 for gpt-5-mini's million and $1.25 for gpt-5's (the built-in
    // prices); pricing both at the fallback's rate would say $2.50.
    let cost = report["cost"].as_f64().expect("a cost");
    assert!((cost - 1.50).abs() < 1e-9, "{report}");
    let saved: Value =
        serde_json::from_slice(&std::fs::read(&history).expect("history")).expect("json");
    let _ = std::fs::remove_file(&history);
    assert!(
        (saved["cost"].as_f64().unwrap_or(0.0) - 1.50).abs() < 1e-9,
        "{saved}"
    );
    assert_eq!(saved["steps"][0]["model"], "openai:gpt-5-mini");
    assert_eq!(saved["steps"][1]["model"], "openai:gpt-5");
}
