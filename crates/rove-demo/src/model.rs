//! A scripted model for the demo suite, speaking OpenAI's chat-completions
//! wire format: it reads the task from the first message, counts the steps
//! it has already taken, and answers with that step's actions, each aimed
//! at the ref that the newest view gives the element it names. Everything
//! it decides comes from the request, so any number of attempts can share
//! it at once.
//!
//! It knows each demo task's right moves (`script.rs`); it can be told to
//! make a plausible mistake on some tasks (and still claim success, so that
//! only a check on the shop's state catches it), or to stall on some (so an
//! attempt runs past its timeout). A task it has no script for ends at once
//! with `done` and `success: false`.

use std::time::Duration;

use rove_localserver::{LocalServer, Request, Response, Routes};
use serde_json::{Value, json};

use crate::script::{Act, script_for};

/// How the scripted model behaves beyond the right moves.
#[derive(Debug, Clone, Default)]
pub struct ModelOptions {
    /// Tasks whose text contains one of these are played wrongly, where the
    /// script knows how.
    pub mistaken: Vec<String>,
    /// Tasks whose text contains one of these get each answer only after
    /// [`ModelOptions::stall_for`].
    pub stalling: Vec<String>,
    /// How long a stalling answer waits.
    pub stall_for: Duration,
}

/// Starts the model on 127.0.0.1:`port` (0: a free port); its base URL is
/// `url("/v1")`.
pub async fn start(options: ModelOptions, port: u16) -> std::io::Result<LocalServer> {
    let routes = Routes::new().handle("/v1/chat/completions", move |request: &Request| {
        answer(&options, request)
    });
    LocalServer::start_on(routes, port).await
}

/// The text of a message's content, whether a string or a list of parts.
fn text_of(message: &Value) -> String {
    match &message["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The ref of the newest line that shows `role "name"`.
fn find_ref(texts: &[String], role: &str, name: &str) -> Option<String> {
    let wanted = format!("{role} \"{name}\"");
    texts.iter().rev().find_map(|text| {
        text.lines().rev().find_map(|line| {
            // A table row shows several elements on one line, each after
            // its own ref.
            let words: Vec<&str> = line.split_whitespace().collect();
            (0..words.len())
                .filter(|at| is_ref(words[*at]))
                .find(|at| words[at + 1..].join(" ").starts_with(&wanted))
                .map(|at| words[at].to_owned())
        })
    })
}

fn is_ref(word: &str) -> bool {
    word.strip_prefix('e')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

fn call(id: usize, name: &str, arguments: Value) -> Value {
    json!({"id": format!("call_{id}"), "type": "function", "function": {"name": name, "arguments": arguments.to_string()}})
}

fn reply(calls: Vec<Value>) -> Response {
    let body = json!({
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "model": "scripted",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": calls}}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    });
    Response::with_type(200, "application/json", body.to_string().into_bytes())
}

fn answer(options: &ModelOptions, request: &Request) -> Response {
    let (response, stalls) = decide(options, request);
    if stalls {
        response.delayed(options.stall_for)
    } else {
        response
    }
}

/// The answer, and whether this task's answers stall.
fn decide(options: &ModelOptions, request: &Request) -> (Response, bool) {
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let texts: Vec<String> = messages
        .iter()
        .filter(|m| m["role"] == "user" || m["role"] == "tool")
        .map(text_of)
        .collect();
    let task = texts
        .first()
        .and_then(|t| t.lines().find_map(|l| l.strip_prefix("Task: ")))
        .unwrap_or_default()
        .to_owned();
    let step = messages.iter().filter(|m| m["role"] == "assistant").count();
    let offset = step * 100;
    let matches = |phrases: &[String]| phrases.iter().any(|p| task.contains(p.as_str()));
    let stalls = matches(&options.stalling);
    let Some(script) = script_for(&task, matches(&options.mistaken)) else {
        let done = call(
            offset,
            "done",
            json!({"text": "I have no script for this task", "success": false}),
        );
        return (reply(vec![done]), stalls);
    };
    let Some(acts) = script.get(step) else {
        let done = call(
            offset,
            "done",
            json!({"text": "the script ran out of steps", "success": false}),
        );
        return (reply(vec![done]), stalls);
    };
    let mut calls = Vec::new();
    for (i, act) in acts.iter().enumerate() {
        let id = offset + i;
        let aimed = |role: &str, name: &str| find_ref(&texts, role, name);
        let made = match act {
            Act::Fill(role, name, text, submit) => aimed(role, name).map(|r| {
                call(
                    id,
                    "fill",
                    json!({"ref": r, "text": text, "submit": submit}),
                )
            }),
            Act::Click(role, name) => {
                aimed(role, name).map(|r| call(id, "click", json!({"ref": r})))
            }
            Act::Select(role, name, label) => {
                aimed(role, name).map(|r| call(id, "select", json!({"ref": r, "values": [label]})))
            }
            Act::Check(role, name) => {
                aimed(role, name).map(|r| call(id, "check", json!({"ref": r})))
            }
            Act::Dialog(accept) => Some(call(id, "dialog", json!({"accept": accept}))),
            Act::Done(text, success) => {
                Some(call(id, "done", json!({"text": text, "success": success})))
            }
        };
        match made {
            Some(c) => calls.push(c),
            None => {
                // What a lost model does: say so, and fail.
                calls = vec![call(
                    id,
                    "done",
                    json!({"text": format!("could not find {act:?} in the page"), "success": false}),
                )];
                break;
            }
        }
    }
    (reply(calls), stalls)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_come_from_the_newest_view() {
        let texts = vec![
            "[t1] Log in http://x/login\ne3 textbox \"Username\"\ne5 button \"Log in\"".to_owned(),
            "clicked e5\n[t1] Account http://x/account\n  e9 button \"Log in\" [disabled]"
                .to_owned(),
        ];
        assert_eq!(find_ref(&texts, "button", "Log in").as_deref(), Some("e9"));
        assert_eq!(
            find_ref(&texts, "textbox", "Username").as_deref(),
            Some("e3")
        );
        assert_eq!(find_ref(&texts, "link", "Nope"), None);
        let row = vec!["    e31 | e32 link \"Order #1001\" | placed | $28.99 |".to_owned()];
        assert_eq!(
            find_ref(&row, "link", "Order #1001").as_deref(),
            Some("e32")
        );
        assert!(script_for("Log in to the demo shop as ann with …", false).is_some());
        assert!(script_for("Fly to the moon", false).is_none());
    }
}
