//! `rove run --trace` and `rove trace show` with the real binary, a
//! scripted model (OpenAI's wire format on 127.0.0.1) and real Chromium:
//! the trace of a run whose first step fails holds that step with its
//! error, each step's time split, what the model was shown, the console
//! message the click made the page log, and the screenshots before and
//! after its actions; the HTML page made of it, opened in Chromium, shows
//! every step, the error with its hint, and the screenshots.

use crate::support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};
use support::scratch;
use tokio::process::Command;

/// A model that clicks a ref that does not exist, then the Go button, then
/// reports success.
pub(crate) async fn model() -> LocalServer {
    let step = Arc::new(AtomicUsize::new(0));
    LocalServer::start(Routes::new().handle("/v1/chat/completions", move |request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let n = step.fetch_add(1, Ordering::SeqCst) + 1;
        let call = |name: &str, arguments: Value| {
            json!({"id": format!("c{n}"), "type": "function", "function": {"name": name, "arguments": arguments.to_string()}})
        };
        let call = match n {
            1 => call("click", json!({"ref": "e999"})),
            2 => {
                // The view is the first user message's text (with vision
                // on, the screenshot rides in a later message).
                let view = body["messages"][1]["content"].as_str().map(str::to_owned).unwrap_or_else(|| body["messages"][1]["content"][0]["text"].as_str().unwrap_or_default().to_owned());
                let go = view
                    .lines()
                    .find(|l| l.contains("button \"Go\""))
                    .and_then(|l| l.split_whitespace().next())
                    .unwrap_or("e0")
                    .to_owned();
                call("click", json!({"ref": go}))
            }
            _ => call("done", json!({"text": "went", "success": true})),
        };
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": "thinking it over", "tool_calls": [call]}}], "usage": {"prompt_tokens": 50, "completion_tokens": 5}});
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
    }))
    .await
    .expect("model")
}

#[tokio::test]
async fn a_trace_shows_each_step_the_failed_one_with_its_error_and_opens_as_a_page() {
    let pages = LocalServer::start(Routes::new().page(
        "/go",
        Response::html("<title>Go</title><button onclick=\"console.warn('going'); this.textContent='Gone'\">Go</button>"),
    ))
    .await
    .expect("pages");
    let model = model().await;
    let dir = scratch("trace-run");
    let trace = dir.join("run.trace");
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["run", "Press Go", "--model", "openai:scripted"])
            .args(["--start-url", &pages.url("/go"), "--vision", "on"])
            .arg("--trace")
            .arg(&trace)
            .arg("--trace-screenshots")
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_LOG"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // The trace: a run line, three steps, an end; the first step failed
    // with the typed error, each step has its time split and a screenshot.
    let lines: Vec<Value> = crate::support::trace_lines(&trace);
    let kinds: Vec<&str> = lines
        .iter()
        .map(|l| l["kind"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(kinds, ["run", "step", "step", "step", "end"]);
    assert_eq!(lines[0]["task"], "Press Go");
    // What the pages showed is its owner's alone.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&trace)
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    let first = &lines[1];
    assert_eq!(first["failure"]["kind"], "actions", "{first}");
    assert!(
        first["actions"][0]["result"]
            .as_str()
            .is_some_and(|r| r.contains("REF_NOT_FOUND")),
        "{first}"
    );
    for step in &lines[1..4] {
        let (ms, model_ms) = (
            step["ms"].as_f64().unwrap_or(0.0),
            step["model_ms"].as_f64().unwrap_or(-1.0),
        );
        assert!(model_ms >= 0.0 && model_ms <= ms, "{ms} {model_ms}");
        for shot in ["screenshot", "screenshot_after"] {
            assert!(
                step[shot]
                    .as_str()
                    .is_some_and(|s| s.starts_with("data:image/jpeg;base64,")),
                "step {} has no {shot}",
                step["number"]
            );
        }
    }
    // What the model was shown: the task and the view first, then what its
    // actions gave back (the failed click's error, with a fresh view).
    assert!(
        first["observation"]
            .as_str()
            .is_some_and(|o| o.starts_with("Task: Press Go") && o.contains("button \"Go\"")),
        "{first}"
    );
    assert!(
        lines[2]["observation"]
            .as_str()
            .is_some_and(|o| o.contains("REF_NOT_FOUND")),
        "{}",
        lines[2]
    );
    // The click on Go made the page log, during that step and no other.
    assert_eq!(
        lines[2]["console"],
        json!([{"tab": "t1", "level": "warning", "source": "console", "text": "going",
            "location": lines[2]["console"][0]["location"]}]),
        "{}",
        lines[2]
    );
    assert!(lines[1]["console"].is_null() && lines[3]["console"].is_null());
    assert_eq!(lines[4]["ending"]["reason"], "done");
    assert!(
        !dir.join("run.screens").exists(),
        "screenshots kept for the trace alone are inlined, then removed"
    );

    // The page, written and then opened in Chromium (served as it is).
    let facts = support::trace_page_shown(
        &trace,
        "JSON.stringify({steps: document.querySelectorAll('section.step').length, \
          failed: document.querySelectorAll('section.step.failed details[open]').length, \
          bars: document.querySelectorAll('nav.timeline a').length, \
          images: [...document.images].filter(i => i.complete && i.naturalWidth > 0).length, \
          error: document.querySelector('p.error')?.textContent, \
          hint: document.querySelector('.hint')?.textContent})",
    )
    .await;
    assert_eq!(facts["steps"], 3, "{facts}");
    assert_eq!(facts["failed"], 1, "the failed step is open: {facts}");
    assert_eq!(facts["bars"], 3, "{facts}");
    assert_eq!(
        facts["images"], 6,
        "every screenshot, before and after, decodes: {facts}"
    );
    support::assert_failure_shown(&facts);
    let _ = std::fs::remove_dir_all(&dir);
}
