//! The agent tests' shared set-up: fixture pages on 127.0.0.1, a local
//! server that speaks each provider's wire format and plays a scripted
//! model (it reads the views in the requests to pick refs, as a model
//! would), and a session in real Chromium.
#![allow(dead_code, unused_imports)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rove_agent::AgentConfig;
use rove_browser::Browser;
use rove_commands::{Command, OpenArgs, Session, SessionConfig};
use rove_llm::{Endpoint, Llm, RetryPolicy};
use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};

pub const LOGIN: &str = "<!doctype html><title>Login</title>\
    <label>Username <input id=u></label><label>Password <input id=p type=password></label>\
    <button onclick=\"document.getElementById('out').textContent = 'Welcome ' + document.getElementById('u').value\">Log in</button>\
    <p id=out></p><a href=\"/other\">Elsewhere</a>";

/// Log in, then search, then pick a result: all on one page until the
/// result's link navigates.
/// A hostile page: whatever is typed into Token, it shows back in every
/// disguise it can think of.
pub const DISGUISE: &str = "<!doctype html><title>Echo</title><label>Token <input id=t></label>\
    <button id=show>Show</button><div id=o></div>\
    <script>\
    const hex = (s) => Array.from(new TextEncoder().encode(s)).map((b) => b.toString(16).padStart(2, '0')).join('');\
    document.getElementById('show').onclick = () => { const v = document.getElementById('t').value;\
      const forms = [v.split('').reverse().join(''), v.toUpperCase(), btoa(v), btoa('user:' + v), hex(v),\
        encodeURIComponent(v + '&'), v.split('').join('\\u200b'), v.split('').join(' ')];\
      document.getElementById('o').innerHTML = forms.map((f) => '<p>' + f + '</p>').join(''); };\
    </script>";

/// A hostile page that writes whatever is typed into Token into a heading,
/// a button's name and its own URL's query.
pub const SHOUT: &str = "<!doctype html><title>Shout</title><label>Token <input id=t></label>\
    <button id=show>Show</button><h1 id=h>-</h1><button id=copy aria-label=Copy>Copy</button>\
    <script>\
    show.onclick = () => { const v = t.value; h.textContent = 'Hello ' + v;\
      copy.setAttribute('aria-label', 'Copy ' + v);\
      history.replaceState(null, '', '?t=' + new URLSearchParams({t: v}).toString().slice(2) + '&u=' + encodeURIComponent(v)); };\
    </script>";

pub const SHOP: &str = "<!doctype html><title>Shop</title>\
    <div id=login><label>Username <input id=u></label><label>Password <input id=p type=password></label>\
    <button id=in>Log in</button></div>\
    <div id=search hidden><label>Search <input id=q></label><button id=go>Search</button></div>\
    <ul id=results></ul>\
    <script>\
    document.getElementById('in').onclick = () => { if (u.value && p.value) { document.getElementById('login').remove(); document.getElementById('search').hidden = false; } };\
    document.getElementById('go').onclick = () => { const names = ['Roma tomatoes', 'Cherry tomatoes', 'Beefsteak tomatoes'].filter((n) => n.toLowerCase().includes(q.value.toLowerCase()));\
      results.innerHTML = names.map((n) => `<li><a href=\"/item?name=${encodeURIComponent(n)}\">${n}</a></li>`).join(''); };\
    </script>";

/// A page whose button logs 120 messages, then an error naming a URL with
/// a password and a token, and fetches a URL with a token in it.
pub const NOISY: &str = "<!doctype html><title>Noisy</title>\
    <button onclick=\"for (let i = 0; i < 120; i++) console.log('noise ' + i);\
      console.error('see http://ada:pw1234@x.test/a?token=abc123');\
      fetch('/item?token=abc123')\">Make noise</button>";

/// A long price list (one item a line, each with its code and price), of
/// which the view shows the first few and collapses the rest; PX-912 is far
/// down, at 4.20.
pub fn parts() -> String {
    let items: String = (100..200)
        .map(|i| {
            let code = if i == 190 { 912 } else { i };
            let price = if i == 190 {
                "4.20".to_owned()
            } else {
                format!("{i}.00")
            };
            format!("<li>PX-{code} Bolt {price}</li>")
        })
        .collect();
    format!("<!doctype html><title>Parts</title><h1>Parts</h1><ul>{items}</ul>")
}

/// A price table with a header row.
pub const TABLE: &str = "<!doctype html><title>Prices</title><h1>Prices</h1>\
    <table><thead><tr><th>Code</th><th>Description</th><th>Unit price</th></tr></thead>\
    <tbody><tr><td>PX-101</td><td>Bolt</td><td>1.20</td></tr><tr><td>PX-102</td><td>Nut</td><td>0.40</td></tr></tbody></table>";

/// A scripted model: step number and request body → the tool calls to make
/// (name, arguments).
pub type Script = Arc<dyn Fn(usize, &Value) -> Vec<(&'static str, Value)> + Send + Sync>;

pub struct Env {
    pub _pages: LocalServer,
    pub _model: LocalServer,
    pub browser: Browser,
    pub session: Session,
    pub llm: Llm,
    pub bodies: Arc<Mutex<Vec<Value>>>,
}

impl Env {
    /// Replaces the session with one under `config`, at `path`.
    pub async fn restart_session(&mut self, config: SessionConfig, path: &str) {
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

    pub async fn start(script: Script) -> Env {
        Env::start_with(script, "openai", None).await
    }

    /// A model playing `script`, on `path` in a session that knows one
    /// secret, `TOKEN`, valid on this server's host.
    pub async fn with_token(script: Script, value: &str, path: &str) -> Env {
        let mut env = Env::start(script).await;
        let secret =
            rove_agent::Secret::parse(&format!("TOKEN@127.0.0.1={value}")).expect("secret");
        env.restart_session(
            SessionConfig {
                secrets: rove_agent::Secrets(vec![secret]),
                ..SessionConfig::default()
            },
            path,
        )
        .await;
        env
    }

    /// Runs `task` with the test configuration; it must succeed.
    pub async fn run_to_success(&mut self, task: &str) -> rove_agent::RunResult {
        let result = rove_agent::run(task, &mut self.session, &self.llm, &config(), |_| {})
            .await
            .expect("run");
        assert!(result.succeeded(), "{:?}", result.ending);
        result
    }

    /// The text of evaluating `js` in the page.
    pub async fn eval_text(&mut self, js: &str) -> String {
        self.session
            .execute(&Command::Eval(rove_commands::EvalArgs {
                js: js.into(),
                target: None,
            }))
            .await
            .expect("eval")
            .text()
    }

    pub async fn start_with(script: Script, wire: &'static str, delay: Option<Duration>) -> Env {
        Env::start_full(script, wire, delay, false).await
    }

    /// With the model behind `wire` (`openai` or `anthropic`), answering
    /// after `delay`.
    pub async fn start_full(
        script: Script,
        wire: &'static str,
        delay: Option<Duration>,
        fallback: bool,
    ) -> Env {
        let pages = fixture_pages().await;
        let bodies: Arc<Mutex<Vec<Value>>> = Arc::default();
        let model = scripted_model(script, delay, bodies.clone()).await;
        let llm = scripted_llm(wire, model.url(""), fallback);
        let browser = rove_testkit::launch().await;
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

/// The fixture pages the agent tests open.
async fn fixture_pages() -> LocalServer {
    let echo = "<title>Echo</title><label>Token <input id=t></label>\
        <button onclick=\"document.getElementById('o').textContent = document.getElementById('t').value\">Show</button><p id=o>-</p>";
    LocalServer::start(
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
            .page("/disguise", Response::html(DISGUISE))
            .page("/shout", Response::html(SHOUT))
            .page("/noisy", Response::html(NOISY))
            .page("/parts", Response::html(parts()))
            .page("/prices", Response::html(TABLE))
            .page(
                "/other",
                Response::html("<title>Other</title><h1>Elsewhere</h1><button>Stay</button>"),
            ),
    )
    .await
    .expect("pages")
}

/// A server that plays `script` as a model in every provider's wire
/// format, keeping each request's body in `bodies`; every answer comes
/// after `delay`, unless the script gives one its own.
async fn scripted_model(
    script: Script,
    delay: Option<Duration>,
    bodies: Arc<Mutex<Vec<Value>>>,
) -> LocalServer {
    let step = Arc::new(AtomicUsize::new(0));
    let answer = move |request: &rove_localserver::Request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        bodies.lock().expect("lock").push(body.clone());
        let n = step.fetch_add(1, Ordering::SeqCst) + 1;
        let mut calls = script(n, &body);
        // A scripted thought: the model's own text for this answer.
        let said = calls
            .iter()
            .find(|(name, _)| *name == "__text")
            .and_then(|(_, args)| args["text"].as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("step {n}"));
        calls.retain(|(name, _)| *name != "__text");
        // A scripted slow answer: this one arrives after `ms`.
        let pause = calls
            .iter()
            .find(|(name, _)| *name == "__delay")
            .and_then(|(_, args)| args["ms"].as_u64())
            .map(Duration::from_millis);
        calls.retain(|(name, _)| *name != "__delay");
        // A scripted failure of the provider itself.
        if let Some((_, http)) = calls.iter().find(|(name, _)| *name == "__http") {
            let status = http["status"].as_u64().unwrap_or(500) as u16;
            let body = http.get("body").cloned().unwrap_or(Value::Null).to_string();
            return Response::with_type(status, "application/json", body.into_bytes())
                .header("Retry-After", "0");
        }
        let reply = wire_reply(&request.path, n, &said, calls);
        let response = Response::with_type(200, "application/json", reply.to_string().into_bytes());
        match pause.or(delay) {
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
}

/// The scripted model's answer number `n` in the wire format the request
/// at `path` speaks: its text `said`, then the tool `calls`.
fn wire_reply(path: &str, n: usize, said: &str, calls: Vec<(&'static str, Value)>) -> Value {
    if path == "/v1/messages" {
        let mut content = vec![json!({"type": "text", "text": said})];
        content.extend(calls.into_iter().enumerate().map(|(i, (name, args))| {
            json!({"type": "tool_use", "id": format!("toolu_{n}_{i}"), "name": name, "input": args})
        }));
        json!({"model": "scripted", "stop_reason": "tool_use", "content": content,
            "usage": {"input_tokens": 100, "output_tokens": 10}})
    } else if path == "/v1/responses" {
        let mut output =
            vec![json!({"type": "message", "content": [{"type": "output_text", "text": said}]})];
        output.extend(calls.into_iter().enumerate().map(|(i, (name, args))| {
            json!({"type": "function_call", "call_id": format!("fc_{n}_{i}"), "name": name, "arguments": args.to_string()})
        }));
        json!({"model": "scripted", "status": "completed", "output": output,
            "usage": {"input_tokens": 100, "output_tokens": 10}})
    } else if path.ends_with(":generateContent") {
        let mut parts = vec![json!({"text": said})];
        parts.extend(
            calls
                .into_iter()
                .map(|(name, args)| json!({"functionCall": {"name": name, "args": args}})),
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
            "message": {"role": "assistant", "content": said, "tool_calls": calls}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10}
        })
    }
}

/// The model client for `wire` (`openai`, `anthropic`, …) on the
/// scripted model at `base`, with Anthropic there as its fallback when
/// asked for one, and retries quick enough for tests.
fn scripted_llm(wire: &str, base: String, fallback: bool) -> Llm {
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
    Llm::new(endpoint, fallback, fast).expect("llm")
}

/// The model's side of showing a token: type `<secret>TOKEN</secret>` into
/// the Token field, press Show, say done.
pub fn token_script() -> Script {
    Arc::new(|n, body| match n {
        1 => vec![(
            "fill",
            json!({"ref": ref_in(body, "textbox \"Token\""), "text": "<secret>TOKEN</secret>"}),
        )],
        2 => vec![("click", json!({"ref": ref_in(body, "button \"Show\"")}))],
        _ => vec![("done", json!({"text": "shown", "success": true}))],
    })
}

/// The model's side of logging in as ada: fill both fields, press the
/// button, say done when the page welcomes ada.
pub fn login_script() -> Script {
    Arc::new(|n, body| match n {
        1 | 2 => login_calls(n, body),
        _ => {
            let welcomed = last_text(body).contains("Welcome ada");
            vec![("done", json!({"text": "logged in", "success": welcomed}))]
        }
    })
}

/// Logging in as ada: step 1 fills both fields, step 2 presses the button.
pub fn login_calls(n: usize, body: &Value) -> Vec<(&'static str, Value)> {
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
pub fn text_of(message: &Value) -> String {
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
pub fn turns(body: &Value) -> Vec<Value> {
    ["messages", "input", "contents"]
        .iter()
        .find_map(|k| body[*k].as_array().cloned())
        .unwrap_or_default()
}

pub fn ref_in(body: &Value, marker: &str) -> String {
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

/// The text of the last turn before the run's status (`Step k of N…`,
/// which ends every step's request): the newest results or view.
pub fn last_text(body: &Value) -> String {
    let texts: Vec<String> = turns(body).iter().map(text_of).collect();
    let mut texts = texts.iter().rev();
    match texts.next() {
        Some(status) if status.starts_with("Step ") => texts.next().cloned().unwrap_or_default(),
        last => last.cloned().unwrap_or_default(),
    }
}

/// The run's status at the end of a step's request (`Step k of N…`, and
/// the model's notes), empty when the request has none.
pub fn status_of(body: &Value) -> String {
    turns(body)
        .last()
        .map(text_of)
        .filter(|t| t.starts_with("Step "))
        .unwrap_or_default()
}

pub fn config() -> AgentConfig {
    AgentConfig {
        max_steps: 8,
        step_timeout: Duration::from_secs(60),
        vision: rove_agent::Vision::Off,
        ..AgentConfig::default()
    }
}

/// A judge that asks the same scripted endpoint as the run's model, with
/// the default settings.
pub fn judge_like(llm: &Llm) -> rove_agent::Judge {
    rove_agent::Judge {
        llm: Arc::new(
            Llm::new(llm.current().clone(), None, RetryPolicy::default()).expect("judge client"),
        ),
        config: rove_agent::JudgeConfig::default(),
    }
}
