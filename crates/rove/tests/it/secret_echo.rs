//! A page that echoes a typed secret back URL-encoded, five ways, against
//! what the faces that hold secrets emit: the agent's requests to its model,
//! `rove run`'s output, log and history, and `rove replay`'s output. (The
//! MCP server and the shell's session commands take no secrets.)

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rove_localserver::{LocalServer, RequestLog, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

use crate::test_suite::scratch;

const VALUE: &str = "Open se!same-7";

/// The forms the page writes `VALUE` in: encodeURIComponent, a form's
/// encoding, each encoded again, and every byte as `%xx`.
const FORMS: [&str; 5] = [
    "Open%20se!same-7",
    "Open+se%21same-7",
    "Open%2Bse%2521same-7",
    "Open%2520se!same-7",
    "%4f%70%65%6e%20%73%65%21%73%61%6d%65%2d%37",
];

/// The query the page writes into its URL, as every face must show it.
const ECHOED_URL: &str = "?q=<secret>PW</secret>&again=<secret>PW</secret>";

/// The page: Echo writes the field's value in every form, as paragraphs
/// and in its URL, and posts the forms to `/forms` (so the test knows
/// what the page wrote, beside what the faces showed of it).
async fn echo_page(log: &RequestLog) -> LocalServer {
    let echo = "<title>Echo</title><label>Word <input id=w></label>\
        <button id=go>Echo</button><div id=o></div>\
        <script>\
        go.onclick = () => { const v = w.value;\
          const form = new URLSearchParams({q: v}).toString().slice(2);\
          const forms = [encodeURIComponent(v), form, encodeURIComponent(form),\
            encodeURIComponent(encodeURIComponent(v)),\
            Array.from(new TextEncoder().encode(v)).map((b) => '%' + b.toString(16)).join('')];\
          o.innerHTML = forms.map((f) => '<p>echo ' + f + '</p>').join('');\
          history.replaceState(null, '', '?q=' + form + '&again=' + encodeURIComponent(form));\
          fetch('/forms', {method: 'POST', body: JSON.stringify(forms)}); };\
        </script>";
    LocalServer::start(
        Routes::new()
            .log_requests(log.clone())
            .page("/echo.html", Response::html(echo))
            .page("/forms", Response::status(204)),
    )
    .await
    .expect("pages")
}

/// A model that fills Word with the secret's placeholder, presses Echo,
/// and says done; a target the view does not show ends the run as a
/// failure naming it. Every request's body is kept.
async fn model(bodies: &Arc<Mutex<Vec<Value>>>) -> LocalServer {
    let bodies = bodies.clone();
    LocalServer::start(Routes::new().handle("/v1/chat/completions", move |request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let view = body["messages"][1]["content"].as_str().unwrap_or_default().to_owned();
        let find = |marker: &str| {
            view.lines()
                .find(|l| l.contains(marker))
                .and_then(|l| l.split_whitespace().next())
                .map(str::to_owned)
        };
        let missing = |what: &str| json!({"name": "done", "arguments": json!({"text": format!("scripted model: no {what} in the view"), "success": false}).to_string()});
        let mut bodies = bodies.lock().expect("lock");
        bodies.push(body.clone());
        let n = bodies.len();
        let call = match n {
            1 => match find("textbox \"Word\"") {
                Some(field) => json!({"name": "fill", "arguments": json!({"ref": field, "text": "<secret>PW</secret>"}).to_string()}),
                None => missing("textbox Word"),
            },
            2 => match find("button \"Echo\"") {
                Some(button) => json!({"name": "click", "arguments": json!({"ref": button}).to_string()}),
                None => missing("button Echo"),
            },
            _ => json!({"name": "done", "arguments": json!({"text": "echoed", "success": true}).to_string()}),
        };
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [{"id": format!("c{n}"), "type": "function", "function": call}]}}], "usage": {"prompt_tokens": 1, "completion_tokens": 1}});
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
    }))
    .await
    .expect("model")
}

/// The forms the page posted to `/forms`, in its order.
fn posted_forms(log: &RequestLog) -> Vec<Vec<String>> {
    log.requests()
        .iter()
        .filter(|r| r.path == "/forms")
        .map(|r| serde_json::from_slice(&r.body).expect("the forms as JSON"))
        .collect()
}

fn assert_no_form(face: &str, text: &str) {
    for form in FORMS.iter().chain(&[VALUE]) {
        assert!(!text.contains(form), "{face} shows {form}:\n{text}");
    }
}

#[tokio::test]
async fn a_secret_echoed_url_encoded_is_redacted_in_every_form_by_every_face() {
    let log = RequestLog::new();
    let pages = echo_page(&log).await;
    let bodies = Arc::default();
    let model = model(&bodies).await;
    let dir = scratch("secret-echo");
    let history = dir.join("history.json");
    let secret = format!("PW@127.0.0.1={VALUE}");
    let run = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["-vv", "run", "Echo the word", "--model", "openai:scripted"])
            .args(["--vision", "off", "--start-url", &pages.url("/echo.html")])
            .args(["--secret", &secret, "--history"])
            .arg(&history)
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env_remove("ROVE_CDP_URL")
            .env_remove("RUST_LOG"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
    // The page got the value and wrote every form of it.
    assert_eq!(posted_forms(&log), vec![FORMS.map(str::to_owned).to_vec()]);

    // The agent's request: what the model was shown after the click has
    // each echo, and the URL's two, as the placeholder.
    let bodies = bodies.lock().expect("lock").clone();
    assert_eq!(bodies.len(), 3, "fill, click, done");
    let messages = bodies[2]["messages"].as_array().expect("messages");
    let clicked = messages
        .iter()
        .position(|m| m["tool_calls"][0]["id"] == "c2")
        .expect("the click in the conversation");
    let observed: String = messages[clicked + 1..]
        .iter()
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert_eq!(
        observed.matches("echo <secret>PW</secret>").count(),
        5,
        "{observed}"
    );
    assert!(observed.contains(ECHOED_URL), "{observed}");
    for (i, body) in bodies.iter().enumerate() {
        assert_no_form(&format!("request {}", i + 1), &body.to_string());
    }

    // The CLI: what `rove run` printed and logged, and its history.
    assert_no_form("rove run's stdout", &stdout);
    // Its log at trace level holds the browser's messages: the URL the
    // page wrote is there, redacted.
    assert!(stderr.contains(ECHOED_URL), "{stderr}");
    assert_no_form("rove run's log", &stderr);
    let saved = std::fs::read_to_string(&history).expect("history");
    assert!(saved.contains("echo <secret>PW</secret>"), "{saved}");
    assert_no_form("the history", &saved);

    // `rove replay`: the same actions, the value typed again, and its
    // output as redacted.
    let replay = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["-vv", "replay"])
            .arg(&history)
            .args(["--secret", &secret])
            .env_remove("ROVE_CDP_URL")
            .env_remove("RUST_LOG"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&replay.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&replay.stderr).into_owned();
    assert_eq!(replay.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(posted_forms(&log).len(), 2, "the replay echoed too");
    assert_no_form("rove replay's stdout", &stdout);
    assert!(stderr.contains(ECHOED_URL), "{stderr}");
    assert_no_form("rove replay's log", &stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
