//! `rove test` as its tests run it: tasks written to a scratch folder, a
//! scripted model in OpenAI's wire format, the results read back after
//! the run.

use std::time::Duration;

use rove_localserver::{LocalServer, Response};
use serde_json::{Value, json};
use tokio::process::Command;

/// What a `rove test` run left.
pub struct SuiteRun {
    pub status: i32,
    /// results.json, or null when the run wrote none.
    pub results: Value,
    /// report.html, when the run wrote one.
    pub report: Option<String>,
    pub stdout: String,
    pub stderr: String,
}

/// Tasks t0, t1 … with `texts` as their tasks, each passing on the answer
/// `done`, and starting at `start_url` when given.
pub fn tasks(texts: &[&str], start_url: Option<&str>) -> String {
    let start = start_url
        .map(|url| format!(", start_url: '{url}'"))
        .unwrap_or_default();
    texts
        .iter()
        .enumerate()
        .map(|(i, task)| {
            format!("- {{name: t{i}, task: '{task}'{start}, verify: [{{answer: '^done$'}}]}}\n")
        })
        .collect()
}

/// An OpenAI answer calling `done` with the answer `done`.
pub fn done() -> Response {
    let call = json!({"id": "c1", "type": "function", "function": {"name": "done", "arguments": json!({"text": "done", "success": true}).to_string()}});
    let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 10, "completion_tokens": 2}});
    Response::with_type(200, "application/json", reply.to_string().into_bytes())
}

/// A model that answers every request with [`done`], its requests kept in
/// `log`.
pub async fn done_model(log: rove_localserver::RequestLog) -> LocalServer {
    LocalServer::start(
        rove_localserver::Routes::new()
            .log_requests(log)
            .handle("/v1/chat/completions", |_: &rove_localserver::Request| {
                done()
            }),
    )
    .await
    .expect("a model that says done")
}

/// Runs `rove test` on `suite` (YAML) with `extra` options and the model
/// `openai:scripted` at `model` (`--vision off` unless `extra` says), for
/// `limit` at most; its folder is removed after.
pub async fn rove_test(
    name: &str,
    suite: &str,
    model: &LocalServer,
    extra: &[&str],
    limit: Duration,
) -> SuiteRun {
    let dir = rove_testkit::scratch_dir(&format!("rove-test-{name}"));
    std::fs::write(dir.join("tasks.yaml"), suite).expect("suite");
    let out = dir.join("out");
    let vision: &[&str] = if extra.contains(&"--vision") {
        &[]
    } else {
        &["--vision", "off"]
    };
    let output = super::finished(
        limit,
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .arg("test")
            .arg(dir.join("tasks.yaml"))
            .arg("--out")
            .arg(&out)
            .args(extra)
            .args(["--model", "openai:scripted"])
            .args(vision)
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env_remove("ROVE_CDP_URL"),
    )
    .await;
    let results = std::fs::read(out.join("results.json"))
        .ok()
        .map_or(Value::Null, |bytes| {
            serde_json::from_slice(&bytes).expect("results.json is JSON")
        });
    let report = std::fs::read_to_string(out.join("report.html")).ok();
    std::fs::remove_dir_all(&dir).expect("cleanup");
    SuiteRun {
        status: output.status.code().unwrap_or(-1),
        results,
        report,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The attempt of task `task` in `results`.
pub fn attempt<'a>(results: &'a Value, task: &str) -> &'a Value {
    results["attempts"]
        .as_array()
        .and_then(|all| all.iter().find(|a| a["task"] == task))
        .unwrap_or_else(|| panic!("no attempt of {task}: {results:#}"))
}
