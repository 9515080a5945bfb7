//! `rove run` with the real binary: a scripted model behind OpenAI's wire
//! format (a local server), a fixture page, a line per step, the history
//! file, and exit statuses (0 only on a reported success).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

/// A model that clicks the button it finds in the view, then says done with
/// `success`.
async fn model(success: bool) -> LocalServer {
    let step = Arc::new(AtomicUsize::new(0));
    LocalServer::start(Routes::new().handle("/v1/chat/completions", move |request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let n = step.fetch_add(1, Ordering::SeqCst) + 1;
        let call = if n == 1 {
            let view = body["messages"][1]["content"].as_str().unwrap_or_default().to_owned();
            let button = view
                .lines()
                .find(|l| l.contains("button \"Go\""))
                .and_then(|l| l.split_whitespace().next())
                .unwrap_or("e0")
                .to_owned();
            json!({"id": "c1", "type": "function", "function": {"name": "click", "arguments": json!({"ref": button}).to_string()}})
        } else {
            json!({"id": "c2", "type": "function", "function": {"name": "done", "arguments": json!({"text": "went", "success": success}).to_string()}})
        };
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 50, "completion_tokens": 5}});
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
    }))
    .await
    .expect("model")
}

async fn rove_run(model: &LocalServer, page: &str, extra: &[&str]) -> (i32, String, String) {
    rove_run_with("openai:scripted", model, page, extra).await
}

async fn rove_run_with(
    name: &str,
    model: &LocalServer,
    page: &str,
    extra: &[&str],
) -> (i32, String, String) {
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["run", "Press Go", "--model", name, "--start-url", page])
            .args(extra)
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
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
async fn a_run_prints_its_steps_writes_its_history_and_exits_by_success() {
    let pages = LocalServer::start(Routes::new().page(
        "/go",
        Response::html("<title>Go</title><button onclick=\"this.textContent='Gone'\">Go</button>"),
    ))
    .await
    .expect("pages");
    let model_ok = model(true).await;
    let history = std::env::temp_dir().join(format!("rove-run-{}.json", std::process::id()));
    let (status, stdout, stderr) = rove_run(
        &model_ok,
        &pages.url("/go"),
        &["--history", history.to_str().expect("utf-8")],
    )
    .await;
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("step 1: click e") && stdout.contains("→ clicked"),
        "{stdout}"
    );
    assert!(
        stdout.contains("done: success") && stdout.contains("2 steps, 100 tokens in"),
        "{stdout}"
    );
    let saved: Value =
        serde_json::from_slice(&std::fs::read(&history).expect("history")).expect("json");
    assert_eq!(saved["ending"]["reason"], "done");
    assert_eq!(saved["steps"][0]["actions"][0]["tool"], "click");
    assert!(
        saved["steps"][0]["actions"][0]["result"]
            .as_str()
            .is_some_and(|r| r.contains("Gone"))
    );
    // The history replays without a model.
    let replayed = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(["replay", history.to_str().expect("utf-8"), "--json"])
        .env_remove("ROVE_CDP_URL")
        .kill_on_drop(true)
        .output()
        .await
        .expect("replay ran");
    let stdout = String::from_utf8_lossy(&replayed.stdout);
    assert_eq!(replayed.status.code(), Some(0), "{stdout}");
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(report["actions"], 1);
    std::fs::remove_file(&history).expect("cleanup");

    let model_fails = model(false).await;
    let (status, stdout, _) = rove_run(&model_fails, &pages.url("/go"), &["--json"]).await;
    assert_eq!(status, 1, "a run without success exits 1: {stdout}");
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(report["success"], false);

    let (status, stdout, _) =
        rove_run_with("nope:x", &model_ok, &pages.url("/go"), &["--json"]).await;
    assert_eq!(status, 2, "{stdout}");
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(report["error"]["code"], "COMMAND_REJECTED");
    assert!(
        report["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("unknown provider"))
    );
}

#[tokio::test]
async fn a_secret_reaches_the_page_but_no_request_log_or_history() {
    // The page echoes the field with its length: the value's (10) tells
    // the value arrived, where the placeholder typed as written (22) would
    // echo back the same redacted text.
    let pages = LocalServer::start(Routes::new().page(
        "/form",
        Response::html("<title>Form</title><label>Token <input id=t></label><p id=o></p><button onclick=\"o.textContent = 'echo ' + t.value + ' (' + t.value.length + ' chars)'\">Show</button>"),
    ))
    .await
    .expect("pages");
    let bodies: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
    let step = Arc::new(AtomicUsize::new(0));
    let model = {
        let bodies = bodies.clone();
        LocalServer::start(Routes::new().handle("/v1/chat/completions", move |request| {
            let text = String::from_utf8_lossy(&request.body).into_owned();
            bodies.lock().expect("lock").push(text.clone());
            let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            let view = body["messages"][1]["content"].as_str().unwrap_or_default().to_owned();
            let find = |marker: &str| {
                view.lines()
                    .find(|l| l.contains(marker))
                    .and_then(|l| l.split_whitespace().next())
                    .map(str::to_owned)
            };
            // A target the view does not show ends the run as a failure
            // (the test then says what was missing), never a guessed ref.
            let missing = |what: &str| json!({"name": "done", "arguments": json!({"text": format!("scripted model: no {what} in the view"), "success": false}).to_string()});
            let n = step.fetch_add(1, Ordering::SeqCst) + 1;
            let call = match n {
                1 => match find("textbox \"Token\"") {
                    Some(field) => json!({"name": "fill", "arguments": json!({"ref": field, "text": "<secret>TOKEN</secret>"}).to_string()}),
                    None => missing("textbox Token"),
                },
                2 => match find("button \"Show\"") {
                    Some(button) => json!({"name": "click", "arguments": json!({"ref": button}).to_string()}),
                    None => missing("button Show"),
                },
                _ => json!({"name": "done", "arguments": json!({"text": "shown", "success": true}).to_string()}),
            };
            let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [{"id": format!("c{n}"), "type": "function", "function": call}]}}], "usage": {"prompt_tokens": 1, "completion_tokens": 1}});
            Response::with_type(200, "application/json", reply.to_string().into_bytes())
        }))
        .await
        .expect("model")
    };
    let history = std::env::temp_dir().join(format!("rove-secret-run-{}.json", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args([
            "-vv",
            "run",
            "Show the token",
            "--model",
            "openai:scripted",
            "--vision",
            "off",
        ])
        .args([
            "--start-url",
            &pages.url("/form"),
            "--secret",
            "TOKEN@127.0.0.1=tok-5a4b3c",
        ])
        .args(["--history", history.to_str().expect("utf-8")])
        .env("OPENAI_API_KEY", "sk-test")
        .env("OPENAI_BASE_URL", model.url("/v1"))
        .env_remove("ROVE_CDP_URL")
        .kill_on_drop(true)
        .output()
        .await
        .expect("ran");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let saved = std::fs::read_to_string(&history).expect("history");
    std::fs::remove_file(&history).expect("cleanup");
    let bodies = bodies.lock().expect("lock").clone();
    assert_eq!(bodies.len(), 3, "fill, click, done");
    // The page got the value: the observation after the click (the third
    // request, what came after the model's click) shows its echo, redacted.
    let third: Value = serde_json::from_str(&bodies[2]).expect("json");
    let messages = third["messages"].as_array().expect("messages");
    let clicked = messages
        .iter()
        .position(|m| m["tool_calls"][0]["id"] == "c2")
        .expect("the click in the conversation");
    let observed: String = messages[clicked + 1..]
        .iter()
        .map(|m| m["content"].to_string())
        .collect();
    assert!(
        observed.contains("echo <secret>TOKEN</secret> (10 chars)"),
        "{observed}"
    );
    // …and nothing else ever carried it.
    let sent = bodies.join("\n");
    for (what, text) in [
        ("a request", &sent),
        ("the log", &stderr.to_string()),
        ("the output", &stdout.to_string()),
        ("the history", &saved),
    ] {
        assert!(!text.contains("tok-5a4b3c"), "{what} carries the secret");
    }
}

#[tokio::test]
async fn an_unreachable_model_is_named_with_its_address_and_what_to_do() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let host = closed.local_addr().expect("addr").to_string();
    drop(closed);
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["run", "Say hello", "--model", "ollama:qwen3:8b"])
            .env("OLLAMA_HOST", &host)
            .env_remove("ROVE_CDP_URL")
            .env_remove("RUST_LOG"),
    )
    .await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(7), "{stderr}");
    let address = format!("http://{host}/v1");
    // What it waits for, before step 1 ends, in order.
    let starting = stderr
        .find("starting the browser…")
        .expect("says it starts the browser");
    let asking = stderr
        .find(&format!("step 1: asking ollama:qwen3:8b at {address}…"))
        .unwrap_or_else(|| panic!("says whom it asks: {stderr}"));
    assert!(starting < asking, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error[MODEL_FAILED]: could not reach ollama:qwen3:8b at {address}"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("Connection refused"), "{stderr}");
    assert!(
        stderr.contains("hint: start Ollama (ollama serve)"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("WARN") && !stderr.contains("retrying"),
        "retries are not warnings: {stderr}"
    );
}

#[tokio::test]
async fn a_failed_step_shows_its_code_and_hint_not_raw_json() {
    let pages = LocalServer::start(Routes::new().page(
        "/go",
        Response::html("<title>Go</title><button>Go</button>"),
    ))
    .await
    .expect("pages");
    let step = Arc::new(AtomicUsize::new(0));
    let model = LocalServer::start(Routes::new().handle("/v1/chat/completions", move |_| {
        let call = if step.fetch_add(1, Ordering::SeqCst) == 0 {
            json!({"id": "c1", "type": "function", "function": {"name": "click", "arguments": json!({"ref": "e999"}).to_string()}})
        } else {
            json!({"id": "c2", "type": "function", "function": {"name": "done", "arguments": json!({"text": "gave up", "success": false}).to_string()}})
        };
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 50, "completion_tokens": 5}});
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
    }))
    .await
    .expect("model");
    let (status, stdout, stderr) = rove_run(&model, &pages.url("/go"), &[]).await;
    assert_eq!(status, 1, "{stdout}\n{stderr}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("step 1:"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.contains("click e999 ✗ REF_NOT_FOUND: "), "{line}");
    assert!(!line.contains("{\""), "no raw JSON: {line}");
    let hint = stdout
        .lines()
        .skip_while(|l| !l.starts_with("step 1:"))
        .nth(1)
        .unwrap_or_default();
    assert!(hint.starts_with("  hint: ") && hint.len() > 10, "{stdout}");
}

/// A model over OpenAI's wire that ends every run at once with `done`.
async fn done_model(log: &rove_localserver::RequestLog) -> LocalServer {
    LocalServer::start(
        Routes::new()
            .log_requests(log.clone())
            .handle("/v1/chat/completions", move |_| {
                let call = json!({"id": "c1", "type": "function", "function": {"name": "done", "arguments": json!({"text": "ok", "success": true}).to_string()}});
                let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 5, "completion_tokens": 5}});
                Response::with_type(200, "application/json", reply.to_string().into_bytes())
            }),
    )
    .await
    .expect("model")
}

/// `rove run` with the key and base URL given as flags (none in the
/// environment), on `start_url`.
async fn run_with_given_key(model: &LocalServer, start_url: &str) -> std::process::Output {
    crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["run", "Say ok", "--model", "openai:scripted", "--start-url"])
            .arg(start_url)
            .args(["--api-key", "sk-given", "--base-url"])
            .arg(model.url("/v1"))
            .env_remove("OPENAI_API_KEY")
            .env_remove("ROVE_CDP_URL"),
    )
    .await
}

#[tokio::test]
async fn the_start_url_is_shown_without_its_credentials() {
    let log = rove_localserver::RequestLog::new();
    let model = done_model(&log).await;
    let pages =
        LocalServer::start(Routes::new().page("/p", Response::html("<title>P</title><p>x")))
            .await
            .expect("pages");
    let output = run_with_given_key(&model, &pages.url("/p?token=start-s3cr3t")).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("opening "), "{stderr}");
    assert!(!stderr.contains("start-s3cr3t"), "{stderr}");
}

#[tokio::test]
async fn an_api_key_given_on_the_command_line_is_enough() {
    let log = rove_localserver::RequestLog::new();
    let model = done_model(&log).await;
    let pages =
        LocalServer::start(Routes::new().page("/p", Response::html("<title>P</title><p>x")))
            .await
            .expect("pages");
    let output = run_with_given_key(&model, &pages.url("/p")).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let sent: Vec<String> = log
        .requests()
        .iter()
        .filter_map(|r| r.header("authorization").map(str::to_owned))
        .collect();
    assert!(
        !sent.is_empty() && sent.iter().all(|h| h == "Bearer sk-given"),
        "{sent:?}"
    );
}

#[tokio::test]
async fn a_system_prompt_file_replaces_rove_s_and_the_extension_follows_it() {
    let log = rove_localserver::RequestLog::new();
    let model = done_model(&log).await;
    let pages =
        LocalServer::start(Routes::new().page("/p", Response::html("<title>P</title><p>x")))
            .await
            .expect("pages");
    let dir = std::env::temp_dir().join(format!("rove-prompt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("prompt.txt");
    std::fs::write(&file, "You are a careful shopper.").expect("prompt");
    let path = file.display().to_string();
    let (code, _, stderr) = rove_run(
        &model,
        &pages.url("/p"),
        &[
            "--system-prompt-file",
            &path,
            "--extend-system-prompt",
            "Prices are in euros.",
        ],
    )
    .await;
    std::fs::remove_dir_all(&dir).expect("cleanup");
    assert_eq!(code, 0, "{stderr}");
    let sent: Value = serde_json::from_slice(&log.requests()[0].body).expect("json");
    assert_eq!(
        sent["messages"][0]["content"],
        "You are a careful shopper.\n\nPrices are in euros."
    );
    // Without them, rove's own prompt, which teaches the loop.
    let (code, _, stderr) = rove_run(&model, &pages.url("/p"), &[]).await;
    assert_eq!(code, 0, "{stderr}");
    let sent: Value = serde_json::from_slice(&log.requests()[1].body).expect("json");
    let taught = sent["messages"][0]["content"].as_str().unwrap_or_default();
    assert!(taught.contains("<secret>NAME</secret>"), "{taught}");
}

#[tokio::test]
async fn a_profile_with_a_storage_state_is_warned_about() {
    let log = rove_localserver::RequestLog::new();
    let model = done_model(&log).await;
    let pages =
        LocalServer::start(Routes::new().page("/p", Response::html("<title>P</title><p>x")))
            .await
            .expect("pages");
    let dir = std::env::temp_dir().join(format!("rove-profile-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let state = dir.join("state.json");
    std::fs::write(&state, r#"{"cookies": [], "origins": []}"#).expect("state");
    let profile = dir.join("profile");
    let (state, profile) = (state.display().to_string(), profile.display().to_string());
    let (code, _, stderr) = rove_run(
        &model,
        &pages.url("/p"),
        &["--storage-state", &state, "--profile", &profile],
    )
    .await;
    std::fs::remove_dir_all(&dir).expect("cleanup");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning: --storage-state and --profile both given"),
        "{stderr}"
    );
}

#[tokio::test]
async fn the_system_prompt_is_the_variant_of_the_models_family() {
    let log = rove_localserver::RequestLog::new();
    let model = done_model(&log).await;
    let pages =
        LocalServer::start(Routes::new().page("/p", Response::html("<title>P</title><p>x")))
            .await
            .expect("pages");
    for name in ["openai:qwen3:8b", "openai:o4-mini", "openai:gpt-4.1"] {
        let (code, _, stderr) = rove_run_with(name, &model, &pages.url("/p"), &[]).await;
        assert_eq!(code, 0, "{name}: {stderr}");
    }
    let system: Vec<String> = log
        .requests()
        .iter()
        .map(|r| {
            let sent: Value = serde_json::from_slice(&r.body).expect("json");
            sent["messages"][0]["content"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    let [small, reasoning, full] = &system[..] else {
        panic!("three requests: {system:?}");
    };
    assert!(
        small.starts_with("You use a web browser") && small.len() < full.len() / 2,
        "a small model's is short: {small}"
    );
    assert!(
        reasoning.contains("Keep your reasoning to yourself") && reasoning.contains("Batches:"),
        "{reasoning}"
    );
    assert!(
        full.contains("Batches:") && !full.contains("Keep your reasoning"),
        "{full}"
    );
}
