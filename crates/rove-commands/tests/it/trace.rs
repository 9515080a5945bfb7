//! Command traces and the time split, on a real session in real Chromium
//! over pages on 127.0.0.1: every command a traced session runs is one
//! line, in order, with its arguments, answer or typed error, the time
//! split, and the console messages and requests of its interval; a typed
//! secret, a credential in a URL and an Authorization header never reach
//! the file; screenshots stay within the trace's budget; and the split of
//! a click adds up to its total.

use crate::support;

use rove_commands::trace_format::{TraceLine, TraceOrigin};
use rove_commands::{Secret, Secrets, SessionConfig, Traces};
use rove_localserver::{Response, Routes};
use serde_json::{Value, json};
use support::Fixture;

const SECRET: &str = "hunter2-Zq-secret";
const TOKEN: &str = "tok-8f2e1c9d";
const BEARER: &str = "bearer-77aa31bc";

fn routes() -> Routes {
    // The field echoes what is typed into the page (so the secret shows in
    // the view that follows), and the button logs and sends a request with
    // a token in its URL and an Authorization header.
    let page = format!(
        "<!doctype html><title>Traced</title>\
         <label>Password <input id=pw oninput=\"document.getElementById('echo').textContent = this.value\"></label>\
         <p id=echo></p>\
         <button onclick=\"console.log('sending the form'); fetch('/api/save?token={TOKEN}', {{headers: {{Authorization: 'Bearer {BEARER}'}}}}).then(r => r.text()).then(t => document.getElementById('echo').textContent = t)\">Save</button>"
    );
    Routes::new()
        .page("/form", Response::html(page))
        .handle("/api/save", |_| Response::text("saved"))
}

fn lines_of(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("the trace")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Each line is a [`TraceLine`] of a known kind, and the type holds every
/// field the writer wrote: written again, it is the same JSON.
fn every_line_reads_back_as_written(text: &str) {
    for raw in text.lines() {
        let line = TraceLine::parse(raw).unwrap_or_else(|e| panic!("{e}: {raw}"));
        assert!(!matches!(line, TraceLine::Unknown), "{raw}");
        let written: Value = serde_json::from_str(raw).expect("JSON");
        assert_eq!(
            serde_json::to_value(&line).expect("serializes"),
            written,
            "the type lost or changed a field the writer wrote"
        );
    }
}

#[tokio::test]
async fn a_traced_session_records_each_command_with_its_interval_and_no_secret() {
    let dir = rove_testkit::scratch_dir("commands-trace");
    let path = dir.join("session.trace");
    let traces = Traces::default();
    let config = SessionConfig {
        secrets: Secrets(vec![
            Secret::parse(&format!("PW@127.0.0.1={SECRET}")).expect("secret"),
        ]),
        traces: traces.clone(),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes(), config).await;
    // Screenshots on, with room for about two of them (the viewport is a
    // mostly blank 1280x720 JPEG at quality 40: a few KiB each).
    let id = traces
        .start(
            &path,
            true,
            40_000,
            TraceOrigin {
                face: "test".into(),
                ..TraceOrigin::default()
            },
        )
        .expect("trace starts");
    f.open("/form").await;
    let field = f.find("Password", "textbox").await;
    f.ok(json!({"command": "fill", "ref": field, "text": "<secret>PW</secret>"}))
        .await;
    let save = f.find("Save", "button").await;
    let clicked = f.ok(json!({"command": "click", "ref": save})).await;
    f.ok(json!({"command": "wait", "text": "saved"})).await;
    let failed = f.fails(json!({"command": "click", "ref": "e999"})).await;
    for _ in 0..4 {
        f.ok(json!({"command": "press", "keys": "Tab"})).await;
    }
    let summary = traces.stop(id, "stopped").expect("it ran");
    f.close().await;

    // The click's split adds up, and it waited on the browser and settled.
    let t = clicked.timing;
    assert!(
        t.total_ms > 0.0 && t.cdp_ms > 0.0 && t.settle_ms > 0.0,
        "{t:?}"
    );
    assert!(
        (t.cdp_ms + t.settle_ms + t.rove_ms - t.total_ms).abs() < 0.2,
        "{t:?}"
    );

    let text = std::fs::read_to_string(&path).expect("the trace");
    for secret in [SECRET, TOKEN, BEARER] {
        assert!(!text.contains(secret), "{secret} is in the trace");
    }
    let lines = lines_of(&path);
    every_line_reads_back_as_written(&text);
    let kinds: Vec<&str> = lines.iter().filter_map(|l| l["kind"].as_str()).collect();
    assert_eq!(kinds.first(), Some(&"trace"));
    assert_eq!(kinds.last(), Some(&"end"));
    let commands: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "command").collect();
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "open", "find", "fill", "find", "click", "wait", "click", "press", "press", "press",
            "press"
        ]
    );
    assert_eq!(summary.commands, names.len() as u64);
    let seqs: Vec<u64> = commands.iter().filter_map(|c| c["seq"].as_u64()).collect();
    assert_eq!(seqs, (1..=names.len() as u64).collect::<Vec<_>>());

    // The fill: the placeholder, never the value (the page echoed it).
    let fill = commands[2];
    assert_eq!(fill["args"]["text"], "<secret>PW</secret>", "{fill}");

    // The click: its console message and its request, the token hidden.
    let click = commands[4];
    assert_eq!(click["ok"], true);
    assert_eq!(click["timing"]["total_ms"].as_f64(), Some(t.total_ms));
    assert!(
        click["console"]
            .as_array()
            .is_some_and(|c| c.iter().any(|e| e["text"] == "sending the form")),
        "{click}"
    );
    let request = click["network"]
        .as_array()
        .and_then(|n| {
            n.iter()
                .find(|r| r["url"].as_str().is_some_and(|u| u.contains("/api/save")))
        })
        .unwrap_or_else(|| panic!("no request in {click}"));
    assert_eq!(request["method"], "GET");
    // Requests of other commands are not this one's.
    assert!(commands[0]["network"].as_array().is_some_and(|n| {
        n.iter()
            .all(|r| !r["url"].as_str().unwrap_or("").contains("/api/"))
    }));

    // The failed click: its typed error, code and hint.
    let bad = commands[6];
    assert_eq!(bad["ok"], false);
    assert_eq!(bad["error"]["code"], "REF_NOT_FOUND", "{bad}");
    assert_eq!(bad["error"]["hint"], failed.report().hint.as_str());

    // Screenshots: only with acting commands, before and after, until the
    // budget ran out; the rest named as left out.
    for c in &commands {
        let acts = matches!(
            c["name"].as_str(),
            Some("open" | "fill" | "click" | "press")
        );
        assert_eq!(c["screenshots"].is_object(), acts, "{}", c["name"]);
    }
    let shots: Vec<&Value> = commands
        .iter()
        .filter_map(|c| c["screenshots"].as_object())
        .flat_map(|s| s.values())
        .collect();
    let inlined = shots
        .iter()
        .filter(|s| {
            s.as_str()
                .is_some_and(|s| s.starts_with("data:image/jpeg;base64,"))
        })
        .count();
    let inlined_bytes: usize = shots.iter().filter_map(|s| s.as_str()).map(str::len).sum();
    assert!(inlined >= 1, "some screenshot fits the budget");
    assert!(inlined_bytes <= 40_000 + 100 * inlined, "{inlined_bytes}");
    assert!(
        shots.last().is_some_and(|s| s["left_out"].is_string()),
        "the last ones are left out"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
