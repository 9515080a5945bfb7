//! rove's layered logs with the real binary and real Chromium: each layer
//! (`agent`, `events`, `cdp`) on and off through `ROVE_LOG`, one file per
//! layer (`ROVE_LOG_DIR`) or one for all (`ROVE_LOG_FILE`), JSON lines that
//! parse, nothing of it on stdout, and no typed secret, token or API key in
//! any log with every layer at `trace`.

use crate::support;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};
use support::{Env, scratch};
use tokio::process::Command;

/// The fixture: `/form`, a page whose button opens an alert.
async fn env(name: &str) -> Env {
    let page = "<!doctype html><title>Form</title>\
        <label>Name <input id=name></label>\
        <button onclick=\"alert('Saved')\">Save</button>";
    Env::with_routes(name, Routes::new().page("/form", Response::html(page))).await
}

/// `rove --session S ARGS` with the logging variables `vars`: its status,
/// stdout and stderr.
async fn rove(env: &Env, vars: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let mut command = env.rove(args);
    for name in [
        "ROVE_LOG",
        "ROVE_LOG_FILE",
        "ROVE_LOG_DIR",
        "ROVE_LOG_FORMAT",
    ] {
        command.env_remove(name);
    }
    command.envs(vars.iter().copied());
    let output = tokio::time::timeout(Duration::from_secs(60), command.output())
        .await
        .expect("rove finished within 60 s")
        .expect("rove ran");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[tokio::test]
async fn each_layer_is_written_to_its_own_file_only_when_it_is_on() {
    let env = env("logs-layers").await;
    let url = env.server.url("/form");

    // events on, cdp off: the navigation and the dialog are in events.log,
    // and there is no cdp.log.
    let dir = env.dir.join("events-on");
    let vars = [
        ("ROVE_LOG", "agent=info,events=debug,cdp=off"),
        ("ROVE_LOG_DIR", dir.to_str().expect("utf-8")),
    ];
    let (status, stdout, _) = rove(&env, &vars, &["--session", "a", "open", &url]).await;
    assert_eq!(status, 0, "{stdout}");
    let view = stdout.clone();
    let save = support::ref_of(&view, "button \"Save\"");
    let (status, clicked, _) = rove(&env, &vars, &["--session", "a", "click", &save]).await;
    assert_eq!(status, 0, "{clicked}");
    rove(&env, &vars, &["--session", "a", "close"]).await;
    let events = read(&dir.join("events.log"));
    assert!(
        events.contains("event=\"navigated\"") && events.contains("/form"),
        "{events}"
    );
    assert!(
        events.contains("event=\"dialog\"") && events.contains("Saved"),
        "{events}"
    );
    assert!(!dir.join("cdp.log").exists(), "cdp=off writes no cdp.log");
    // Logs never reach stdout.
    assert!(!stdout.contains("browser event") && !clicked.contains("browser event"));

    // cdp on at debug, events off: every message's method, size and
    // latency, no payloads; no events.log.
    let dir = env.dir.join("cdp-on");
    let vars = [
        ("ROVE_LOG", "events=off,cdp=debug"),
        ("ROVE_LOG_DIR", dir.to_str().expect("utf-8")),
    ];
    let (status, stdout, _) = rove(&env, &vars, &["--session", "b", "open", &url]).await;
    assert_eq!(status, 0, "{stdout}");
    rove(&env, &vars, &["--session", "b", "close"]).await;
    let cdp = read(&dir.join("cdp.log"));
    let navigate = cdp
        .lines()
        .find(|l| l.contains("method=\"Page.navigate\"") && l.contains("dir=\"recv\""))
        .unwrap_or_else(|| panic!("no answer to Page.navigate in {cdp}"));
    assert!(
        navigate.contains("bytes=") && navigate.contains("ms="),
        "{navigate}"
    );
    assert!(!cdp.contains("payload="), "payloads only at trace");
    assert!(
        !dir.join("events.log").exists(),
        "events=off writes no events.log"
    );
    assert!(!stdout.contains("Page.navigate"), "{stdout}");
}

#[tokio::test]
async fn one_file_in_json_lines_holds_every_layer_and_each_line_parses() {
    let env = env("logs-json").await;
    let url = env.server.url("/form");
    let file = env.dir.join("all.jsonl");
    let vars = [
        ("ROVE_LOG", "events=debug,cdp=trace"),
        ("ROVE_LOG_FILE", file.to_str().expect("utf-8")),
        ("ROVE_LOG_FORMAT", "json"),
    ];
    let (status, stdout, _) = rove(&env, &vars, &["--session", "j", "open", &url]).await;
    assert_eq!(status, 0, "{stdout}");
    rove(&env, &vars, &["--session", "j", "close"]).await;
    let text = read(&file);
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let of = |target: &str| lines.iter().filter(|l| l["target"] == target).count();
    assert!(of("cdp") > 10 && of("events") >= 1, "{text}");
    let navigate = lines
        .iter()
        .find(|l| l["method"] == "Page.navigate" && l["dir"] == "send")
        .expect("Page.navigate sent");
    assert_eq!(navigate["level"], "TRACE");
    assert!(
        navigate["payload"]
            .as_str()
            .is_some_and(|p| p.contains("/form")),
        "{navigate}"
    );
    assert!(navigate["bytes"].as_u64().is_some() && navigate["ts"].is_string());
}

/// A model behind OpenAI's wire format that fills the Name field with the
/// secret placeholder, then reports success. It keeps the Authorization
/// header it was sent.
async fn filling_model(seen_keys: Arc<Mutex<Vec<String>>>) -> LocalServer {
    let step = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    LocalServer::start(Routes::new().handle("/v1/chat/completions", move |request| {
        if let Some(auth) = request.header("authorization") {
            seen_keys.lock().expect("lock").push(auth.to_owned());
        }
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let n = step.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        let call = if n == 1 {
            let view = body["messages"][1]["content"].as_str().unwrap_or_default().to_owned();
            let field = view
                .lines()
                .find(|l| l.contains("textbox \"Name\""))
                .and_then(|l| l.split_whitespace().next())
                .unwrap_or("e0")
                .to_owned();
            json!({"id": "c1", "type": "function", "function": {"name": "fill", "arguments": json!({"ref": field, "text": "<secret>PW</secret>"}).to_string()}})
        } else {
            json!({"id": "c2", "type": "function", "function": {"name": "done", "arguments": json!({"text": "filled", "success": true}).to_string()}})
        };
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 50, "completion_tokens": 5}});
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
    }))
    .await
    .expect("model")
}

#[tokio::test]
async fn no_secret_token_or_api_key_reaches_any_log_with_every_layer_at_trace() {
    const SECRET: &str = "Hunter2-Zq9x-Typed";
    const TOKEN: &str = "tok-8f3a1c9e77";
    const KEY: &str = "sk-live-Abc123Def456";
    // The page echoes what is typed into its title and text, so the
    // browser's answers carry the secret back over CDP too; and to the
    // console spaced out with zero-width spaces, which the event's JSON
    // carries as `\u200b` escapes.
    let page = "<!doctype html><title>Login</title>\
        <label>Name <input id=name oninput=\"document.title = this.value; out.textContent = 'typed ' + this.value; \
        console.log('zwc:' + this.value.split('').join('\\u200b'))\"></label>\
        <p id=out>-</p>";
    let pages = LocalServer::start(Routes::new().page("/login", Response::html(page)))
        .await
        .expect("pages");
    let keys = Arc::new(Mutex::new(Vec::new()));
    let model = filling_model(keys.clone()).await;
    let dir = scratch("logs-secrets");
    let logs = dir.join("logs");
    let start = format!("{}?token={TOKEN}", pages.url("/login"));
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["run", "Fill in the name", "--model", "openai:scripted"])
            .args(["--start-url", &start, "--api-key", KEY, "--vision", "off"])
            .args(["--secret", &format!("PW={SECRET}")])
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env("ROVE_LOG", "trace")
            .env("ROVE_LOG_DIR", &logs)
            .env("RUST_LOG", "trace")
            .env_remove("OPENAI_API_KEY")
            .env_remove("ROVE_LOG_FILE")
            .env_remove("ROVE_LOG_FORMAT")
            .env_remove("ROVE_CDP_URL"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    // The run used all three: the key reached the model, the secret the
    // page (the model saw it echoed only as its placeholder), the token
    // the address.
    assert!(
        keys.lock().expect("lock").iter().any(|k| k.contains(KEY)),
        "the model was sent the key"
    );
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("== result: success in 2 steps,")),
        "{stdout}"
    );
    let cdp = read(&logs.join("cdp.log"));
    let agent = read(&logs.join("agent.log"));
    let events = read(&logs.join("events.log"));
    assert!(cdp.contains("Input.insertText"), "the fill went over CDP");
    // Typed text is never shown, whatever the redaction knows: a secret
    // typed a key at a time would slip past a search for the whole value.
    let typed = |l: &&str| {
        (l.contains("method=\"Input.insertText\"")
            || l.contains("method=\"Input.dispatchKeyEvent\""))
            && l.contains("dir=\"send\"")
    };
    for line in cdp.lines().filter(typed) {
        assert!(line.contains("payload=(typed text, not logged)"), "{line}");
    }
    assert!(
        cdp.contains("typed <secret>PW</secret>"),
        "the page's echo of the secret is in the log, redacted"
    );
    assert!(
        cdp.contains("zwc:<secret>PW</secret>"),
        "the console's spaced-out echo is in the log, redacted: {:?}",
        cdp.lines()
            .filter(|l| l.contains("zwc:"))
            .collect::<Vec<_>>()
    );
    assert!(
        cdp.contains("token=<redacted>"),
        "the address is in the log, redacted"
    );
    assert!(
        agent.contains("step started") && agent.contains("run ended"),
        "{agent}"
    );
    assert!(events.contains("navigated"), "{events}");
    // stderr's log lines (each starts with its time); its notes ("opening
    // URL…") are the run's output, as stdout is.
    let stderr_logs: String = stderr
        .lines()
        .filter(|l| l.starts_with("20"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        stderr_logs.contains("rove_llm") || stderr_logs.contains("TRACE"),
        "RUST_LOG=trace logs to stderr"
    );
    for (name, text) in [
        ("cdp.log", &cdp),
        ("agent.log", &agent),
        ("events.log", &events),
        ("stderr", &stderr_logs),
    ] {
        for secret in [SECRET, TOKEN, KEY] {
            assert!(
                !text.contains(secret),
                "{secret} in {name}: {:?}",
                text.lines()
                    .filter(|l| l.contains(secret))
                    .collect::<Vec<_>>()
            );
        }
    }
    // stdout and stderr's notes are the run's output, not logs (the address
    // the user gave is theirs to see), but they show no secret or key
    // either.
    for text in [&stdout, &stderr] {
        assert!(!text.contains(SECRET) && !text.contains(KEY), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
