//! `rove run --caps desktop` with the real binary: the agent's model (a
//! local server speaking OpenAI's wire format, deciding from each request
//! alone) opens gnome-calculator with the `desktop` tool, presses 6 × 7 =
//! by the refs its view showed, reads the display and reports what it read.
//! The same vocabulary as the shell's and MCP's, from the model's side;
//! the application ends with the run. Asserted after the run from the
//! history and the process table.

use std::time::Duration;

use rove_localserver::{LocalServer, Request, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

/// An OpenAI answer making `calls` (name, arguments).
fn calls(calls: &[(&str, Value)]) -> Response {
    let tool_calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, args))| json!({"id": format!("c{i}"), "type": "function", "function": {"name": name, "arguments": args.to_string()}}))
        .collect();
    let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": tool_calls}}], "usage": {"prompt_tokens": 40, "completion_tokens": 4}});
    Response::with_type(200, "application/json", reply.to_string().into_bytes())
}

/// Every text the request's messages hold, one after the other.
fn texts(body: &Value) -> String {
    body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["content"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The ref of the view line `eN button "KEY"` in `text`.
fn key_ref(text: &str, key: &str) -> String {
    text.lines()
        .map(str::trim)
        .find_map(|line| {
            let (r, rest) = line.split_once(' ')?;
            (rest == format!("button {key:?}")).then(|| r.to_owned())
        })
        .unwrap_or_else(|| "e0".to_owned())
}

/// The model: open the calculator; press 6 × 7 =; read; say what it read.
fn model(request: &Request) -> Response {
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let turns = body["messages"]
        .as_array()
        .map_or(0, |m| m.iter().filter(|m| m["role"] == "assistant").count());
    let seen = texts(&body);
    match turns {
        0 => calls(&[(
            "desktop",
            json!({"action": "open", "target": "gnome-calculator"}),
        )]),
        1 => calls(&["6", "×", "7", "="].map(|key| ("click", json!({"ref": key_ref(&seen, key)})))),
        2 => calls(&[("read", json!({}))]),
        _ => {
            // The read's result is the last tool message: the display's
            // line is in it.
            let last = body["messages"]
                .as_array()
                .and_then(|m| m.iter().rev().find(|m| m["role"] == "tool"))
                .and_then(|m| m["content"].as_str())
                .unwrap_or_default();
            let shown = if last.lines().any(|l| l.trim() == "42") {
                "42"
            } else {
                "no 42 on the display"
            };
            calls(&[("done", json!({"text": shown, "success": shown == "42"}))])
        }
    }
}

#[tokio::test]
async fn the_agent_computes_with_the_calculator_through_the_desktop_tool() {
    let _one = super::one_at_a_time().await;
    let server = LocalServer::start(Routes::new().handle("/v1/chat/completions", model))
        .await
        .expect("model");
    let dir = rove_testkit::scratch_dir("desktop-agent-face");
    let history = dir.join("history.json");
    let output = crate::support::finished(
        Duration::from_secs(180),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args([
                "run",
                "Compute 6 × 7 with the calculator",
                "--caps",
                "desktop",
            ])
            .args(["--model", "openai:scripted", "--vision", "off", "--history"])
            .arg(&history)
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", server.url("/v1"))
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_MODEL"),
    )
    .await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let ran: Value = serde_json::from_slice(&std::fs::read(&history).expect("history"))
        .expect("history is JSON");
    assert_eq!(output.status.code(), Some(0), "{stderr}\n{ran:#}");
    assert_eq!(ran["ending"]["text"], "42", "{ran:#}");
    let tools: Vec<&str> = ran["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["actions"].as_array().into_iter().flatten())
        .map(|a| a["tool"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        tools,
        [
            "desktop", "click", "click", "click", "click", "read", "done"
        ],
        "{ran:#}"
    );
    // Every click found its button: none failed.
    let failed = ran["steps"][1]["actions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["failed"] == true)
        .count();
    assert_eq!(failed, 0, "{ran:#}");
    // The application the run started ended with the run.
    let said = ran["steps"][0]["actions"][0]["result"]
        .as_str()
        .unwrap_or_default();
    let pid: u32 = said
        .split("(pid ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|p| p.parse().ok())
        .expect("the pid in the answer");
    assert!(
        rove_testkit::gone_within(pid, Duration::from_secs(10)).await,
        "gnome-calculator {pid} outlived the run"
    );
}
