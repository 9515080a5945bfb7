//! `rove test -j 2` really runs two attempts at once, and never three: a
//! scripted model answers each attempt's first request only after
//! [`HOLD`], and notes when each arrived. Run one after another, the second
//! would arrive at least `HOLD` after the first; with `-j 2` it arrives
//! while the first is held, and the third only once one is answered.
//! Asserted after the run from the arrival times.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rove_localserver::{LocalServer, Request, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

const HOLD: Duration = Duration::from_secs(5);

#[tokio::test]
async fn j_2_runs_two_attempts_at_once_and_never_three() {
    let arrivals: Arc<Mutex<Vec<Instant>>> = Arc::default();
    let noted = arrivals.clone();
    let model = LocalServer::start(Routes::new().handle("/v1/chat/completions", move |request: &Request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let first_step = !body["messages"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["role"] == "assistant"));
        let call = json!({"id": "c1", "type": "function", "function": {"name": "done", "arguments": json!({"text": "done", "success": true}).to_string()}});
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 10, "completion_tokens": 2}});
        let response = Response::with_type(200, "application/json", reply.to_string().into_bytes());
        if first_step {
            if let Ok(mut a) = noted.lock() {
                a.push(Instant::now());
            }
            return response.delayed(HOLD);
        }
        response
    }))
    .await
    .expect("model");
    let dir = rove_testkit::scratch_dir("rove-test-parallel");
    let file = dir.join("three.yaml");
    let tasks: String = ["a", "b", "c"]
        .iter()
        .map(|n| format!("- {{name: {n}, task: Say done, verify: [{{answer: '^done$'}}]}}\n"))
        .collect();
    std::fs::write(&file, tasks).expect("suite");
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["test", file.to_str().expect("utf-8"), "-j", "2", "--json"])
            .args(["--model", "openai:scripted", "--vision", "off"])
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env_remove("ROVE_CDP_URL"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answer: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(answer["suite"]["passed"], 3);
    let times = arrivals.lock().map(|a| a.clone()).unwrap_or_default();
    assert_eq!(times.len(), 3, "one first request per attempt");
    assert!(
        times[1] - times[0] < HOLD,
        "the second attempt asked while the first was held: {:?}",
        times[1] - times[0]
    );
    assert!(
        times[2] - times[0] >= HOLD,
        "the third waited for a free slot: {:?}",
        times[2] - times[0]
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
