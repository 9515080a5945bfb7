//! `rove run --caps`: the agent's model is offered the core tools plus the
//! groups named, and a call to a tool of a group not given is answered with
//! the flag that enables it. A scripted model behind OpenAI's wire format;
//! what it was offered and told is read from the request log afterwards.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rove_localserver::{LocalServer, RequestLog, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

/// A model that calls `console`, then says done.
async fn model(log: RequestLog) -> LocalServer {
    let step = Arc::new(AtomicUsize::new(0));
    let routes = Routes::new()
        .log_requests(log)
        .handle("/v1/chat/completions", move |_| {
            let n = step.fetch_add(1, Ordering::SeqCst) + 1;
            let call = if n == 1 {
                json!({"id": "c1", "type": "function", "function": {"name": "console", "arguments": "{}"}})
            } else {
                json!({"id": "c2", "type": "function", "function": {"name": "done", "arguments": json!({"text": "read it", "success": true}).to_string()}})
            };
            let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 50, "completion_tokens": 5}});
            Response::with_type(200, "application/json", reply.to_string().into_bytes())
        });
    LocalServer::start(routes).await.expect("model")
}

/// Runs the agent with `extra` flags; the model's requests.
async fn run_with(extra: &[&str]) -> Vec<Value> {
    let pages = LocalServer::start(Routes::new().page(
        "/p",
        Response::html("<title>P</title><link rel=icon href='data:,'><script>console.error('quota exceeded')</script>"),
    ))
    .await
    .expect("pages");
    let log = RequestLog::new();
    let model = model(log.clone()).await;
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args([
                "run",
                "What did the page log?",
                "--model",
                "openai:scripted",
            ])
            .args(["--start-url", &pages.url("/p"), "--vision", "off"])
            .args(extra)
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env_remove("ROVE_CDP_URL"),
    )
    .await;
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    log.requests()
        .iter()
        .map(|r| serde_json::from_slice(&r.body).expect("a JSON request"))
        .collect()
}

fn offered(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_owned))
        .collect()
}

/// What the model was told its first call returned.
fn tool_result(request: &Value) -> String {
    request["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .find(|m| m["role"] == "tool")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn the_agent_gets_the_core_tools_plus_the_groups_named() {
    let plain = run_with(&[]).await;
    assert_eq!(plain.len(), 2);
    let core = offered(&plain[0]);
    assert!(core.contains(&"click".to_owned()) && core.contains(&"done".to_owned()));
    assert!(!core.contains(&"console".to_owned()), "{core:?}");
    let refused = tool_result(&plain[1]);
    assert!(refused.contains("--caps devtools"), "{refused}");

    let with = run_with(&["--caps", "devtools"]).await;
    let tools = offered(&with[0]);
    assert_eq!(tools.len(), core.len() + 1, "{tools:?}");
    assert!(tools.contains(&"console".to_owned()));
    let logged = tool_result(&with[1]);
    assert!(logged.contains("[error] \"quota exceeded\""), "{logged}");
}
