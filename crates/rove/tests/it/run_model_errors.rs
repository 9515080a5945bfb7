//! `rove run` with the real binary when the model's provider refuses: each
//! failure is `MODEL_FAILED` with the provider, the model and the HTTP
//! status as facts; a refused key (401) is `retry: never`, a rate limit
//! (429) and a server error (500) `retry`; a model whose port has nothing
//! listening ends the run at step 1, with no retries and no more steps.

use std::time::Duration;

use rove_localserver::{LocalServer, RequestLog, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

use crate::run_judge::pages;

/// `rove run --json` with the agent's model at `base`; exit status and the
/// one JSON object on stdout.
async fn run_against(base: &str, page: &str, history: &std::path::Path) -> (i32, Value) {
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["run", "Press Go", "--model", "openai:scripted", "--json"])
            .args([
                "--start-url",
                page,
                "--vision",
                "off",
                "--max-failures",
                "1",
            ])
            .args(["--history", history.to_str().expect("utf-8")])
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", base)
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_MODEL"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "one JSON object ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap_or(-1), report)
}

fn history_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "rove-model-error-{name}-{}.json",
        std::process::id()
    ))
}

#[tokio::test]
async fn refused_keys_rate_limits_and_server_errors_are_typed_with_their_status() {
    let pages = pages().await;
    for (status, retry) in [(401, "never"), (429, "retry"), (500, "retry")] {
        let log = RequestLog::new();
        let model = LocalServer::start(
            Routes::new().log_requests(log.clone()).page(
                "/v1/chat/completions",
                Response::with_type(
                    status,
                    "application/json",
                    br#"{"error":{"message":"no"}}"#.to_vec(),
                )
                .header("Retry-After", "0"),
            ),
        )
        .await
        .expect("model");
        let history = history_path(&status.to_string());
        let (exit, report) = run_against(&model.url("/v1"), &pages.url("/go"), &history).await;
        let _ = std::fs::remove_file(&history);
        assert_eq!(exit, 7, "{status}: {report}");
        let error = &report["error"];
        assert_eq!(error["code"], "MODEL_FAILED", "{status}: {report}");
        assert_eq!(error["retry"], retry, "{status}: {report}");
        assert_eq!(
            error["facts"],
            json!({"provider": "openai", "model": "scripted", "status": status}),
            "{report}"
        );
        if status == 401 {
            assert_eq!(log.requests().len(), 1, "a refused key is asked once");
        }
        // No fallback was given, and one would have taken over.
        let hint = error["hint"].as_str().unwrap_or_default();
        assert!(hint.contains("--fallback-model"), "{status}: {hint}");
    }
}

#[tokio::test]
async fn a_model_with_nothing_listening_ends_the_run_at_step_1() {
    let pages = pages().await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}/v1", closed.local_addr().expect("addr"));
    drop(closed);
    let history = history_path("closed");
    let (exit, report) = run_against(&base, &pages.url("/go"), &history).await;
    let saved: Value =
        serde_json::from_slice(&std::fs::read(&history).expect("history")).expect("json");
    std::fs::remove_file(&history).expect("cleanup");
    assert_eq!(exit, 7, "{report}");
    let error = &report["error"];
    assert_eq!(error["code"], "MODEL_FAILED", "{report}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("could not reach openai:scripted at http://127.0.0.1:")),
        "{report}"
    );
    assert_eq!(
        error["facts"],
        json!({"provider": "openai", "model": "scripted"})
    );
    assert_eq!(
        saved["steps"].as_array().map(Vec::len),
        Some(0),
        "no step after the first was tried: {saved}"
    );
}
