//! The agent a step at a time: a page on 127.0.0.1, a model (a scripted
//! one on 127.0.0.1 speaking OpenAI's wire format, or a real one when
//! `ROVE_EXAMPLE_MODEL=openai:gpt-5-mini` and its key are in the
//! environment), and an application that prints each step, tells the model
//! something after the first, and finishes.
//!
//! `cargo run -p rove-agent --example step_by_step`

// An example reports on stdout.
#![allow(clippy::print_stdout)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rove_agent::{Agent, AgentConfig, Vision};
use rove_browser::{Browser, LaunchOptions};
use rove_commands::{Command, OpenArgs, Session, SessionConfig};
use rove_llm::{Endpoint, Llm, RetryPolicy};
use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};

const PAGE: &str = "<!doctype html><title>Greeting</title>\
    <label>Name <input id=n></label>\
    <button onclick=\"out.textContent = 'Hello ' + n.value\">Greet</button><p id=out></p>";

type Error = Box<dyn std::error::Error>;

#[tokio::main]
async fn main() -> Result<(), Error> {
    let pages = LocalServer::start(Routes::new().page("/", Response::html(PAGE))).await?;
    // Kept alive for the run: the scripted model, when no real one is named.
    let (endpoint, _model) = match std::env::var("ROVE_EXAMPLE_MODEL") {
        Ok(name) => (Endpoint::resolve(&name, |v| std::env::var(v).ok())?, None),
        Err(_) => {
            let model = scripted_model().await?;
            let base = model.url("/v1");
            let endpoint = Endpoint::resolve("openai:scripted", |v| match v {
                "OPENAI_BASE_URL" => Some(base.clone()),
                "OPENAI_API_KEY" => Some("none".into()),
                _ => None,
            })?;
            (endpoint, Some(model))
        }
    };
    let llm = Llm::new(endpoint, None, RetryPolicy::default())?;
    let browser = Browser::launch(LaunchOptions::default()).await?;
    let mut session = Session::start(&browser, SessionConfig::default()).await?;
    session
        .execute(&Command::Open(OpenArgs {
            url: pages.url("/"),
            new_tab: false,
        }))
        .await?;
    let config = AgentConfig {
        max_steps: 6,
        vision: Vision::Off,
        ..AgentConfig::default()
    };
    let task = "Greet Ada on this page and say what it answers.";
    let mut agent = Agent::start(task, &mut session, &llm, &config).await;
    while let Some(step) = agent.step().await? {
        for action in &step.actions {
            let first_line = action.result.lines().next().unwrap_or_default();
            println!(
                "step {}: {} {} -> {first_line}",
                step.number, action.tool, action.arguments
            );
        }
        if step.number == 1 {
            agent.tell("Use the name exactly as written: Ada.");
        }
    }
    let result = agent.finish().await;
    println!("ending: {:?}", result.ending);
    drop(session);
    browser.close().await;
    Ok(())
}

/// A model on 127.0.0.1 that fills the name, presses Greet, then says
/// done with what the page answered: each answer read off the request, as
/// a model would.
async fn scripted_model() -> Result<LocalServer, Error> {
    let turn = Arc::new(AtomicUsize::new(0));
    let answer = move |request: &rove_localserver::Request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        // What the model was shown: every message's text.
        let said: String = body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["content"].as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let n = turn.fetch_add(1, Ordering::SeqCst);
        let call = |name: &str, args: Value| {
            json!({"id": format!("call_{n}"), "type": "function",
                "function": {"name": name, "arguments": args.to_string()}})
        };
        let calls = match n {
            0 => vec![call(
                "fill",
                json!({"ref": ref_of(&said, "textbox \"Name\""), "text": "Ada"}),
            )],
            1 => vec![call(
                "click",
                json!({"ref": ref_of(&said, "button \"Greet\"")}),
            )],
            _ => {
                let greeted = said.contains("Hello Ada");
                vec![call(
                    "done",
                    json!({"text": if greeted { "Hello Ada" } else { "no answer" }, "success": greeted}),
                )]
            }
        };
        let reply = json!({"model": "scripted", "choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": null, "tool_calls": calls}}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0}});
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
    };
    Ok(LocalServer::start(Routes::new().handle("/v1/chat/completions", answer)).await?)
}

/// The ref on the view's line that holds `marker` (`e3`).
fn ref_of(said: &str, marker: &str) -> String {
    said.lines()
        .find(|line| line.contains(marker))
        .and_then(|line| {
            line.split_whitespace().find(|w| {
                w.starts_with('e') && w.len() > 1 && w[1..].chars().all(|c| c.is_ascii_digit())
            })
        })
        .unwrap_or("e0")
        .to_owned()
}
