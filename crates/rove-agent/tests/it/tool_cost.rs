//! What the tool definitions cost: they ride on every request, so the
//! default set is held to a budget, read off the first request of a
//! scripted run as it went out on each wire (OpenAI's own API, with its
//! strict schemas, and Anthropic's), and it must still hold every tool the
//! default group promises.

use crate::support;

use std::sync::Arc;

use serde_json::{Value, json};

use support::*;

/// At most this many characters of tool definitions per request, with the
/// default groups (issue 44: 9,450 on OpenAI's wire and 7,553 on
/// Anthropic's before).
const BUDGET: usize = 6_000;

/// The tools a run with the default groups offers: the vocabulary's core
/// group without `close` and `screenshot`, and the agent's `note` and
/// `done`.
const DEFAULT_TOOLS: [&str; 22] = [
    "open", "back", "forward", "reload", "snapshot", "find", "click", "hover", "type", "fill",
    "press", "select", "check", "uncheck", "scroll", "dialog", "tab", "read", "wait", "eval",
    "note", "done",
];

#[tokio::test]
async fn the_default_tools_fit_the_budget_on_each_wire_and_none_is_missing() {
    for (wire, name_at) in [("openai", "/function/name"), ("anthropic", "/name")] {
        let script: Script =
            Arc::new(|_, _| vec![("done", json!({"text": "ok", "success": true}))]);
        let mut env = Env::start_with(script, wire, None).await;
        env.run_to_success("Say ok").await;
        let body = env.bodies.lock().expect("lock")[0].clone();
        let tools = body["tools"].as_array().cloned().unwrap_or_default();
        let size = Value::Array(tools.clone()).to_string().chars().count();
        assert!(size <= BUDGET, "{wire}: {size} characters of tools");
        let names: Vec<&str> = tools
            .iter()
            .filter_map(|t| t.pointer(name_at).and_then(Value::as_str))
            .collect();
        assert_eq!(names, DEFAULT_TOOLS, "{wire}");
        env.browser.close().await;
    }
}
