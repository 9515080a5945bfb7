//! The agent loop against a local server that speaks OpenAI's Chat
//! Completions wire format and plays a scripted model (it reads the views
//! in the requests to pick refs, as a model would), on fixture pages served
//! on 127.0.0.1 in real Chromium.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rove_agent::{AgentConfig, Ending, run};
use rove_browser::{Browser, LaunchOptions};
use rove_commands::{Command, OpenArgs, Session, SessionConfig};
use rove_llm::{Endpoint, Llm, RetryPolicy};
use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};

const LOGIN: &str = "<!doctype html><title>Login</title>\
    <label>Username <input id=u></label><label>Password <input id=p type=password></label>\
    <button onclick=\"document.getElementById('out').textContent = 'Welcome ' + document.getElementById('u').value\">Log in</button>\
    <p id=out></p><a href=\"/other\">Elsewhere</a>";

/// Log in, then search, then pick a result: all on one page until the
/// result's link navigates.
const SHOP: &str = "<!doctype html><title>Shop</title>\
    <div id=login><label>Username <input id=u></label><label>Password <input id=p type=password></label>\
    <button id=in>Log in</button></div>\
    <div id=search hidden><label>Search <input id=q></label><button id=go>Search</button></div>\
    <ul id=results></ul>\
    <script>\
    document.getElementById('in').onclick = () => { if (u.value && p.value) { document.getElementById('login').remove(); document.getElementById('search').hidden = false; } };\
    document.getElementById('go').onclick = () => { const names = ['Roma tomatoes', 'Cherry tomatoes', 'Beefsteak tomatoes'].filter((n) => n.toLowerCase().includes(q.value.toLowerCase()));\
      results.innerHTML = names.map((n) => `<li><a href=\"/item?name=${encodeURIComponent(n)}\">${n}</a></li>`).join(''); };\
    </script>";

/// A scripted model: step number and request body → the tool calls to make
/// (name, arguments).
type Script = Arc<dyn Fn(usize, &Value) -> Vec<(&'static str, Value)> + Send + Sync>;

struct Env {
    _pages: LocalServer,
    _model: LocalServer,
    browser: Browser,
    session: Session,
    llm: Llm,
    bodies: Arc<Mutex<Vec<Value>>>,
}

impl Env {
    /// Replaces the session with one under `config`, at `path`.
    async fn restart_session(&mut self, config: SessionConfig, path: &str) {
        let mut session = Session::start(&self.browser, config)
            .await
            .expect("session");
        session
            .execute(&Command::Open(OpenArgs {
                url: self._pages.url(path),
                new_tab: false,
            }))
            .await
            .expect("open");
        self.session = session;
    }

    async fn start(script: Script) -> Env {
        Env::start_with(script, "openai", None).await
    }

    async fn start_with(script: Script, wire: &'static str, delay: Option<Duration>) -> Env {
        Env::start_full(script, wire, delay, false).await
    }

    /// With the model behind `wire` (`openai` or `anthropic`), answering
    /// after `delay`.
    async fn start_full(
        script: Script,
        wire: &'static str,
        delay: Option<Duration>,
        fallback: bool,
    ) -> Env {
        let echo = "<title>Echo</title><label>Token <input id=t></label>\
            <button onclick=\"document.getElementById('o').textContent = document.getElementById('t').value\">Show</button><p id=o>-</p>";
        let pages = LocalServer::start(
            Routes::new()
                .page("/login", Response::html(LOGIN))
                .page("/shop", Response::html(SHOP))
                .handle("/item", |request| {
                    let name = request
                        .query
                        .trim_start_matches("name=")
                        .replace('+', " ")
                        .replace("%20", " ");
                    Response::html(format!("<title>{name}</title><h1>{name}</h1><p>In stock.</p>"))
                })
                .page("/login2", Response::html(format!("<button>Help</button><h2>Welcome back</h2>{LOGIN}")))
                .page("/nologin", Response::html("<title>Closed</title><label>Username <input id=u></label><label>Password <input id=p type=password></label><p>Logins are closed.</p>"))
                .page("/echo", Response::html(echo))
                .page(
                    "/other",
                    Response::html("<title>Other</title><h1>Elsewhere</h1><button>Stay</button>"),
                ),
        )
        .await
        .expect("pages");
        let step = Arc::new(AtomicUsize::new(0));
        let bodies: Arc<Mutex<Vec<Value>>> = Arc::default();
        let model = {
            let bodies = bodies.clone();
            let answer = move |request: &rove_localserver::Request| {
                let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
                bodies.lock().expect("lock").push(body.clone());
                let n = step.fetch_add(1, Ordering::SeqCst) + 1;
                let calls = script(n, &body);
                // A scripted failure of the provider itself.
                if let Some((_, http)) = calls.iter().find(|(name, _)| *name == "__http") {
                    let status = http["status"].as_u64().unwrap_or(500) as u16;
                    let body = http.get("body").cloned().unwrap_or(Value::Null).to_string();
                    return Response::with_type(status, "application/json", body.into_bytes())
                        .header("Retry-After", "0");
                }
                let reply = if request.path == "/v1/messages" {
                    let mut content = vec![json!({"type": "text", "text": format!("step {n}")})];
                    content.extend(calls.into_iter().enumerate().map(|(i, (name, args))| {
                        json!({"type": "tool_use", "id": format!("toolu_{n}_{i}"), "name": name, "input": args})
                    }));
                    json!({"model": "scripted", "stop_reason": "tool_use", "content": content,
                        "usage": {"input_tokens": 100, "output_tokens": 10}})
                } else if request.path == "/v1/responses" {
                    let mut output = vec![
                        json!({"type": "message", "content": [{"type": "output_text", "text": format!("step {n}")}]}),
                    ];
                    output.extend(calls.into_iter().enumerate().map(|(i, (name, args))| {
                        json!({"type": "function_call", "call_id": format!("fc_{n}_{i}"), "name": name, "arguments": args.to_string()})
                    }));
                    json!({"model": "scripted", "status": "completed", "output": output,
                        "usage": {"input_tokens": 100, "output_tokens": 10}})
                } else if request.path.ends_with(":generateContent") {
                    let mut parts = vec![json!({"text": format!("step {n}")})];
                    parts.extend(
                        calls.into_iter().map(
                            |(name, args)| json!({"functionCall": {"name": name, "args": args}}),
                        ),
                    );
                    json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
                        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 10}, "modelVersion": "scripted"})
                } else {
                    let calls: Vec<Value> = calls
                        .into_iter()
                        .enumerate()
                        .map(|(i, (name, args))| json!({"id": format!("call_{n}_{i}"), "type": "function", "function": {"name": name, "arguments": args.to_string()}}))
                        .collect();
                    json!({
                        "model": "scripted", "choices": [{"index": 0, "finish_reason": "tool_calls",
                        "message": {"role": "assistant", "content": format!("step {n}"), "tool_calls": calls}}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 10}
                    })
                };
                let response =
                    Response::with_type(200, "application/json", reply.to_string().into_bytes());
                match delay {
                    Some(d) => response.delayed(d),
                    None => response,
                }
            };
            LocalServer::start(
                Routes::new()
                    .handle("/v1/chat/completions", answer.clone())
                    .handle("/v1/responses", answer.clone())
                    .handle("/v1beta/models/scripted:generateContent", answer.clone())
                    .handle("/v1/messages", answer),
            )
            .await
            .expect("model")
        };
        let base = model.url("");
        let endpoint = Endpoint::resolve(&format!("{wire}:scripted"), |v| match v {
            "OPENAI_API_KEY" | "ANTHROPIC_API_KEY" | "GEMINI_API_KEY" => Some("test-key".into()),
            "OPENAI_BASE_URL" => Some(format!("{base}/v1")),
            "ANTHROPIC_BASE_URL" | "GEMINI_BASE_URL" => Some(base.clone()),
            _ => None,
        })
        .expect("endpoint");
        // The fallback, when a test wants one, is Anthropic on the same server.
        let fallback = fallback.then(|| {
            Endpoint::resolve("anthropic:scripted", |v| match v {
                "ANTHROPIC_API_KEY" => Some("test-key".into()),
                "ANTHROPIC_BASE_URL" => Some(base.clone()),
                _ => None,
            })
            .expect("fallback")
        });
        let fast = RetryPolicy {
            base: Duration::from_millis(10),
            ..RetryPolicy::default()
        };
        let llm = Llm::new(endpoint, fallback, fast).expect("llm");
        let browser = Browser::launch(LaunchOptions::default())
            .await
            .unwrap_or_else(|e| panic!("launching Chromium failed (is it installed?): {e}"));
        let mut session = Session::start(&browser, SessionConfig::default())
            .await
            .expect("session");
        session
            .execute(&Command::Open(OpenArgs {
                url: pages.url("/login"),
                new_tab: false,
            }))
            .await
            .expect("open");
        Env {
            _pages: pages,
            _model: model,
            browser,
            session,
            llm,
            bodies,
        }
    }
}

/// The model's side of logging in as ada: fill both fields, press the
/// button, say done when the page welcomes ada.
fn login_script() -> Script {
    Arc::new(|n, body| match n {
        1 | 2 => login_calls(n, body),
        _ => {
            let welcomed = last_text(body).contains("Welcome ada");
            vec![("done", json!({"text": "logged in", "success": welcomed}))]
        }
    })
}

/// Logging in as ada: step 1 fills both fields, step 2 presses the button.
fn login_calls(n: usize, body: &Value) -> Vec<(&'static str, Value)> {
    if n == 1 {
        vec![
            (
                "fill",
                json!({"ref": ref_in(body, "textbox \"Username\""), "text": "ada"}),
            ),
            (
                "fill",
                json!({"ref": ref_in(body, "textbox \"Password\""), "text": "secret"}),
            ),
        ]
    } else {
        vec![("click", json!({"ref": ref_in(body, "button \"Log in\"")}))]
    }
}

/// A message's text, whether its content is a string (OpenAI, Anthropic
/// user turns) or blocks (Anthropic tool results).
fn text_of(message: &Value) -> String {
    if let Some(output) = message["output"].as_str() {
        return output.to_owned();
    }
    if let Some(parts) = message["parts"].as_array() {
        return parts
            .iter()
            .filter_map(|p| {
                p["text"]
                    .as_str()
                    .or_else(|| p["functionResponse"]["response"]["content"].as_str())
            })
            .collect::<Vec<_>>()
            .join("\n");
    }
    match &message["content"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["content"].as_str().or_else(|| b["text"].as_str()))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The ref on the line of the last message that holds `marker`.
fn turns(body: &Value) -> Vec<Value> {
    ["messages", "input", "contents"]
        .iter()
        .find_map(|k| body[*k].as_array().cloned())
        .unwrap_or_default()
}

fn ref_in(body: &Value, marker: &str) -> String {
    let messages = turns(body);
    for message in messages.iter().rev() {
        let text = text_of(message);
        if let Some(line) = text.lines().find(|l| l.contains(marker)) {
            let r = line
                .split_whitespace()
                .find(|w| w.starts_with('e') && w[1..].chars().all(|c| c.is_ascii_digit()));
            if let Some(r) = r {
                return r.to_owned();
            }
        }
    }
    "e0".into()
}

fn last_text(body: &Value) -> String {
    turns(body).last().map(text_of).unwrap_or_default()
}

fn config() -> AgentConfig {
    AgentConfig {
        max_steps: 8,
        step_timeout: Duration::from_secs(60),
        vision: rove_agent::Vision::Off,
        ..AgentConfig::default()
    }
}

#[tokio::test]
async fn a_multi_step_login_completes() {
    let script: Script = login_script();
    let mut env = Env::start(script).await;
    let result = run(
        "Log in as ada",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert_eq!(result.steps.len(), 3);
    assert_eq!(result.usage.input, 300);
    let bodies = env.bodies.lock().expect("lock").clone();
    let first = bodies[0]["messages"][1]["content"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        first.contains("Task: Log in as ada") && first.contains("button \"Log in\""),
        "{first}"
    );
    assert!(
        bodies[0]["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["function"]["name"] == "done"))
    );
    env.browser.close().await;
}

#[tokio::test]
async fn invalid_arguments_go_back_to_the_model_which_corrects_them() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![(
            "click",
            json!({"target": ref_in(body, "button \"Log in\"")}),
        )],
        2 => {
            assert!(
                last_text(body).contains("invalid arguments for click"),
                "{}",
                last_text(body)
            );
            vec![("click", json!({"ref": ref_in(body, "button \"Log in\"")}))]
        }
        _ => vec![("done", json!({"text": "clicked", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let result = run(
        "Press log in",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert!(result.steps[0].actions[0].failed);
    assert!(!result.steps[1].actions[0].failed);
    env.browser.close().await;
}

#[tokio::test]
async fn consecutive_failures_end_the_run_with_the_count() {
    let script: Script = Arc::new(|n, body| {
        if n <= 3 {
            vec![("click", json!({"ref": "e999"}))]
        } else {
            // The one call after the limit asks for a final answer.
            assert!(
                last_text(body).contains("3 steps in a row failed"),
                "{}",
                last_text(body)
            );
            vec![("done", json!({"text": "gave up", "success": false}))]
        }
    });
    let mut env = Env::start(script).await;
    let result = run(
        "Click something gone",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(
        matches!(
            &result.ending,
            Ending::Failures {
                failed: 3,
                limit: 3,
                ..
            }
        ),
        "{:?}",
        result.ending
    );
    assert!(result.steps[0].actions[0].result.contains("REF_NOT_FOUND"));
    env.browser.close().await;
}

#[tokio::test]
async fn a_navigation_ends_the_sequence_of_calls() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![
            ("click", json!({"ref": ref_in(body, "link \"Elsewhere\"")})),
            ("click", json!({"ref": ref_in(body, "button \"Log in\"")})),
        ],
        _ => vec![("done", json!({"text": "moved", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let result = run(
        "Go elsewhere",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    let actions = &result.steps[0].actions;
    assert!(
        !actions[0].failed && actions[0].result.contains("navigated to"),
        "{actions:?}"
    );
    assert!(
        actions[1].failed && actions[1].result.starts_with("not run"),
        "{actions:?}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn the_step_limit_ends_a_run_that_never_finishes() {
    let script: Script =
        Arc::new(|_, body| vec![("hover", json!({"ref": ref_in(body, "button \"Log in\"")}))]);
    let mut env = Env::start(script).await;
    let limited = AgentConfig {
        max_steps: 2,
        ..config()
    };
    let result = run(
        "Hover forever",
        &mut env.session,
        &env.llm,
        &limited,
        |_| {},
    )
    .await
    .expect("run");
    assert_eq!(result.ending, Ending::MaxSteps);
    assert_eq!(result.steps.len(), 2);
    env.browser.close().await;
}

#[tokio::test]
async fn repeating_an_action_that_changes_nothing_is_a_loop() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let script: Script = {
        let seen = seen.clone();
        Arc::new(move |_, body| {
            seen.lock().expect("lock").push(last_text(body));
            vec![("hover", json!({"ref": ref_in(body, "button \"Log in\"")}))]
        })
    };
    let mut env = Env::start(script).await;
    let result = run("Hover", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect("run");
    assert_eq!(
        result.ending,
        Ending::Loop,
        "{:?}",
        result
            .steps
            .iter()
            .map(|s| &s.actions[0].result)
            .collect::<Vec<_>>()
    );
    assert_eq!(
        result.steps.len(),
        3,
        "a nudge after the second, a stop after the third"
    );
    let seen = seen.lock().expect("lock").clone();
    assert!(seen[2].contains("You repeated the same action"), "{seen:?}");
}

#[tokio::test]
async fn a_secret_is_typed_but_never_reaches_the_model_or_the_history() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![(
            "fill",
            json!({"ref": ref_in(body, "textbox \"Token\""), "text": "<secret>TOKEN</secret>"}),
        )],
        2 => vec![("click", json!({"ref": ref_in(body, "button \"Show\"")}))],
        _ => vec![("done", json!({"text": "shown", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let secrets = rove_agent::Secrets(vec![
        rove_agent::Secret::parse("TOKEN@127.0.0.1=tok-9f8e7d").expect("secret"),
    ]);
    env.restart_session(
        SessionConfig {
            secrets,
            ..SessionConfig::default()
        },
        "/echo",
    )
    .await;
    let result = run(
        "Show the token",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    // The page got the real value…
    let shown = env
        .session
        .execute(&Command::Eval(rove_commands::EvalArgs {
            js: "document.getElementById('o').textContent".into(),
            target: None,
        }))
        .await
        .expect("eval");
    assert!(shown.text().contains("tok-9f8e7d"));
    // …the model saw only the placeholder, and the history has no value.
    let bodies = env.bodies.lock().expect("lock").clone();
    let sent = serde_json::to_string(&bodies).expect("json");
    assert!(!sent.contains("tok-9f8e7d"), "a request carried the secret");
    assert!(sent.contains("<secret>TOKEN</secret>"));
    let history = serde_json::to_string(&result).expect("json");
    assert!(
        !history.contains("tok-9f8e7d"),
        "the history carries the secret: {history}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn a_secret_scoped_to_another_domain_is_not_typed() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![(
            "fill",
            json!({"ref": ref_in(body, "textbox \"Username\""), "text": "<secret>PW</secret>"}),
        )],
        _ => vec![("done", json!({"text": "refused", "success": false}))],
    });
    let mut env = Env::start(script).await;
    let secrets = rove_agent::Secrets(vec![
        rove_agent::Secret::parse("PW@example.com=pw-1234").expect("secret"),
    ]);
    env.restart_session(
        SessionConfig {
            secrets,
            ..SessionConfig::default()
        },
        "/login",
    )
    .await;
    let result = run("Try", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect("run");
    let action = &result.steps[0].actions[0];
    assert!(
        action.failed && action.result.contains("may only be typed on example.com"),
        "{action:?}"
    );
    let value = env
        .session
        .execute(&Command::Eval(rove_commands::EvalArgs {
            js: "document.getElementById('u').value".into(),
            target: None,
        }))
        .await
        .expect("eval");
    assert!(!value.text().contains("pw-1234"));
    env.browser.close().await;
}

#[tokio::test]
async fn the_same_task_runs_over_anthropics_wire_format() {
    let script: Script = login_script();
    let mut env = Env::start_with(script, "anthropic", None).await;
    let result = run(
        "Log in as ada",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert_eq!(result.steps.len(), 3);
    let bodies = env.bodies.lock().expect("lock").clone();
    // Both tool results of step 1 went back in one user turn.
    let turn = &bodies[1]["messages"][2];
    assert_eq!(turn["role"], "user");
    assert_eq!(turn["content"].as_array().map(Vec::len), Some(2));
    env.browser.close().await;
}

#[tokio::test]
async fn a_step_past_its_deadline_ends_the_run() {
    let script: Script = Arc::new(|_, _| vec![("done", json!({"text": "late", "success": true}))]);
    let mut env = Env::start_with(script, "openai", Some(Duration::from_secs(3))).await;
    let quick = AgentConfig {
        step_timeout: Duration::from_millis(500),
        ..config()
    };
    let result = run("Be quick", &mut env.session, &env.llm, &quick, |_| {})
        .await
        .expect("run");
    assert_eq!(result.ending, Ending::Timeout);
    env.browser.close().await;
}

#[tokio::test]
async fn a_recorded_run_replays_with_refs_found_again_by_role_and_name() {
    let script: Script = Arc::new(|n, body| match n {
        1 | 2 => login_calls(n, body),
        _ => vec![("done", json!({"text": "in", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let result = run(
        "Log in as ada",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded());
    assert_eq!(
        result.steps[1].actions[0]
            .target
            .as_ref()
            .map(|t| t.name.as_str()),
        Some("Log in")
    );
    let history = serde_json::to_value(&result).expect("history");

    // A fresh session on a page where every ref has moved.
    let mut again = Session::start(&env.browser, SessionConfig::default())
        .await
        .expect("session");
    let url = env._pages.url("/login2");
    let replayed = rove_agent::replay(&history, &mut again, Some(&url))
        .await
        .expect("replayed");
    assert_eq!(replayed.actions, 3);
    assert!(replayed.refound >= 1, "{replayed:?}");
    let shown = again
        .execute(&Command::Eval(rove_commands::EvalArgs {
            js: "document.getElementById('out').textContent".into(),
            target: None,
        }))
        .await
        .expect("eval");
    assert!(shown.text().contains("Welcome ada"), "{}", shown.text());

    // Where the button is gone, the replay stops at that step, typed.
    let mut third = Session::start(&env.browser, SessionConfig::default())
        .await
        .expect("session");
    let closed = env._pages.url("/nologin");
    let stopped = rove_agent::replay(&history, &mut third, Some(&closed))
        .await
        .expect_err("no button");
    assert!(
        matches!(&stopped, rove_agent::ReplayError::NotFound { step: 2, name, .. } if name == "Log in"),
        "{stopped}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn with_vision_each_step_shows_a_screenshot() {
    let script: Script = Arc::new(|_, _| vec![("done", json!({"text": "seen", "success": true}))]);
    let mut env = Env::start(script).await;
    let dir = std::env::temp_dir().join(format!("rove-screens-{}", std::process::id()));
    let seeing = AgentConfig {
        vision: rove_agent::Vision::On,
        screenshot_dir: Some(dir.clone()),
        ..config()
    };
    let result = run("Look", &mut env.session, &env.llm, &seeing, |_| {})
        .await
        .expect("run");
    assert!(result.succeeded());
    let bodies = env.bodies.lock().expect("lock").clone();
    let last = bodies[0]["messages"]
        .as_array()
        .and_then(|m| m.last())
        .cloned()
        .unwrap_or_default();
    let url = last["content"][1]["image_url"]["url"]
        .as_str()
        .unwrap_or_default();
    assert!(url.starts_with("data:image/jpeg;base64,/9j/"), "{last}");
    let history = serde_json::to_string(&result).expect("json");
    assert!(
        !history.contains("base64"),
        "images are not inlined in the history"
    );
    let kept = result.steps[0]
        .screenshot
        .clone()
        .expect("the screenshot's path");
    assert!(
        std::fs::read(&kept)
            .expect("saved")
            .starts_with(b"\xff\xd8\xff")
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn the_same_task_runs_over_every_wire_format() {
    for wire in ["openai", "openai-responses", "anthropic", "gemini"] {
        let script: Script = login_script();
        let mut env = Env::start_with(script, wire, None).await;
        let result = run(
            "Log in as ada",
            &mut env.session,
            &env.llm,
            &config(),
            |_| {},
        )
        .await
        .expect("run");
        assert!(result.succeeded(), "{wire}: {:?}", result.ending);
        assert_eq!(result.steps.len(), 3, "{wire}");
        assert_eq!(result.usage.output, 30, "{wire}: usage from every response");
        env.browser.close().await;
    }
}

#[tokio::test]
async fn a_navigation_outside_the_allowed_domains_is_refused() {
    let script: Script = Arc::new(|n, _| match n {
        1 => vec![("open", json!({"url": "http://localhost:1/elsewhere"}))],
        _ => vec![("done", json!({"text": "refused", "success": false}))],
    });
    let mut env = Env::start(script).await;
    let limited = Session::start(
        &env.browser,
        SessionConfig {
            policy: rove_browser::DomainPolicy::from_lists(Some(["127.0.0.1"]), [""; 0])
                .expect("policy"),
            ..SessionConfig::default()
        },
    )
    .await
    .expect("session");
    env.session = limited;
    let result = run(
        "Go elsewhere",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    let action = &result.steps[0].actions[0];
    assert!(
        action.failed && action.result.contains("NAVIGATION_BLOCKED"),
        "{action:?}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn a_429_then_success_continues_the_run() {
    let script: Script = Arc::new(|n, _| match n {
        1 => vec![(
            "__http",
            json!({"status": 429, "body": {"error": {"message": "slow down"}}}),
        )],
        _ => vec![("done", json!({"text": "after the wait", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let result = run(
        "Wait your turn",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert_eq!(
        env.bodies.lock().expect("lock").len(),
        2,
        "the 429 was retried"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn server_errors_exhaust_retries_then_the_fallback_model_finishes_the_run() {
    let script: Script = Arc::new(|n, _| match n {
        1..=4 => vec![("__http", json!({"status": 503}))],
        _ => vec![(
            "done",
            json!({"text": "the fallback did it", "success": true}),
        )],
    });
    let mut env = Env::start_full(script, "openai", None, true).await;
    let result = run(
        "Survive an outage",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert_eq!(env.llm.current().provider, "anthropic");
    env.browser.close().await;
}

#[tokio::test]
async fn a_truncated_answer_ends_the_run_with_a_typed_error() {
    let script: Script = Arc::new(|_, _| {
        vec![(
            "__http",
            json!({"status": 200, "body": {"model": "m", "choices": [{"finish_reason": "length", "message": {"role": "assistant", "content": "half"}}]}}),
        )]
    });
    let mut env = Env::start(script).await;
    let failed = run("Say a lot", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect_err("truncated");
    assert!(
        matches!(
            failed,
            rove_agent::AgentError::Llm(rove_llm::LlmError::Truncated { .. })
        ),
        "{failed}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn log_in_search_and_pick_a_result() {
    let script: Script = Arc::new(|n, body| match n {
        1 | 2 => login_calls(n, body),
        3 => vec![
            (
                "fill",
                json!({"ref": ref_in(body, "textbox \"Search\""), "text": "tomato"}),
            ),
            ("click", json!({"ref": ref_in(body, "button \"Search\"")})),
        ],
        4 => vec![(
            "click",
            json!({"ref": ref_in(body, "link \"Cherry tomatoes\"")}),
        )],
        _ => {
            let arrived = last_text(body).contains("h1 \"Cherry tomatoes\"");
            vec![(
                "done",
                json!({"text": "Cherry tomatoes: in stock", "success": arrived}),
            )]
        }
    });
    let mut env = Env::start(script).await;
    env.session
        .execute(&Command::Open(OpenArgs {
            url: env._pages.url("/shop"),
            new_tab: false,
        }))
        .await
        .expect("open");
    let result = run(
        "Log in, search for tomatoes and open the second result",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(
        result.succeeded(),
        "{:?} {:?}",
        result.ending,
        result.steps.iter().map(|s| &s.actions).collect::<Vec<_>>()
    );
    assert_eq!(result.steps.len(), 5);
    env.browser.close().await;
}
