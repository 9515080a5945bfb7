//! Traces of commands with the real binary and real Chromium over pages on
//! 127.0.0.1: `rove --trace FILE click` writes one line with the click's
//! arguments, answer, time split, console message and request (no
//! screenshot, none asked for); `rove trace start --screenshots` … `rove
//! trace stop` records every command in order, a failing one with its
//! code and hint, screenshots around the acting ones, and no credential
//! the page sent; `rove trace show` makes a page that Chromium shows with
//! the commands and their images; a trace still running when the session
//! closes gets its end line; `rove mcp --trace` records the tool calls.

use crate::support;

use rove_localserver::{Response, Routes};
use serde_json::{Value, json};
use support::mcp_client::McpClient;
use support::{Env, ref_of};

const TOKEN: &str = "tok-5c1e9a7b";
const BEARER: &str = "bearer-31d0ffa2";

fn routes() -> Routes {
    let page = format!(
        "<!doctype html><title>Traced</title><h1>Orders</h1>\
         <button onclick=\"console.log('saving now'); fetch('/api/save?token={TOKEN}', {{headers: {{Authorization: 'Bearer {BEARER}'}}}}).then(r => r.text()).then(t => document.getElementById('out').textContent = t)\">Save</button>\
         <p id=out>unsaved</p>"
    );
    Routes::new()
        .page("/page", Response::html(page))
        .handle("/api/save", |_| Response::text("saved"))
}

fn lines_of(path: &std::path::Path) -> Vec<Value> {
    crate::support::trace_lines(path)
}

fn command_lines(lines: &[Value]) -> Vec<Value> {
    lines
        .iter()
        .filter(|l| l["kind"] == "command")
        .cloned()
        .collect()
}

#[tokio::test]
async fn one_command_is_traced_with_its_split_console_and_request() {
    let env = Env::with_routes("trace-one", routes()).await;
    let opened = env.ok(&["open", &env.server.url("/page")]).await;
    let save = ref_of(opened["view"].as_str().unwrap_or_default(), "\"Save\"");
    let trace = env.dir.join("click.trace");
    let path = trace.to_string_lossy().into_owned();
    let clicked = env.ok(&["--trace", &path, "click", &save]).await;
    // The answer carries the split too.
    assert!(
        clicked["timing"]["total_ms"].as_f64().is_some(),
        "{clicked}"
    );

    let lines = lines_of(&trace);
    let kinds: Vec<&str> = lines.iter().filter_map(|l| l["kind"].as_str()).collect();
    assert_eq!(kinds, ["trace", "command", "end"]);
    let click = &lines[1];
    assert_eq!(click["name"], "click");
    assert_eq!(click["args"]["ref"], save.as_str());
    assert_eq!(click["caller"], "person");
    assert_eq!(click["ok"], true);
    assert!(
        click["text"]
            .as_str()
            .is_some_and(|t| t.contains(&format!("clicked {save}"))),
        "{click}"
    );
    let part = |key: &str| click["timing"][key].as_f64().unwrap_or(-1.0);
    let (total, cdp, settle, rove) = (
        part("total_ms"),
        part("cdp_ms"),
        part("settle_ms"),
        part("rove_ms"),
    );
    assert!(
        total > 0.0 && cdp > 0.0 && settle > 0.0 && rove >= 0.0,
        "{click}"
    );
    assert!(total >= cdp && total >= settle, "{click}");
    assert!((cdp + settle + rove - total).abs() < 0.2, "{click}");
    assert!(
        click["console"]
            .as_array()
            .is_some_and(|c| c.iter().any(|e| e["text"] == "saving now")),
        "{click}"
    );
    assert!(
        click["network"].as_array().is_some_and(|n| n
            .iter()
            .any(|r| r["url"].as_str().is_some_and(|u| u.contains("/api/save")))),
        "{click}"
    );
    assert!(click["screenshots"].is_null(), "none asked for: {click}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&trace)
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "only its owner reads a trace");
    let text = std::fs::read_to_string(&trace).expect("trace");
    assert!(!text.contains(TOKEN) && !text.contains(BEARER), "{text}");

    // `rove call`, as the Python package sends commands, is traced the
    // same way (issue 37, item 17: it was refused as no session command).
    let called = env.dir.join("call.trace");
    let arguments = json!({"url": env.server.url("/page")}).to_string();
    env.ok(&[
        "--trace",
        &called.to_string_lossy(),
        "call",
        "open",
        &arguments,
    ])
    .await;
    let lines = lines_of(&called);
    let kinds: Vec<&str> = lines.iter().filter_map(|l| l["kind"].as_str()).collect();
    assert_eq!(kinds, ["trace", "command", "end"]);
    assert_eq!(lines[1]["name"], "open", "{:?}", lines[1]);
    let (status, refused) = env
        .run(&["--trace", &called.to_string_lossy(), "call", "close"])
        .await;
    assert_eq!(status, 2, "closing has nothing to trace: {refused}");
    env.close("default").await;
}

#[tokio::test]
async fn a_session_trace_records_every_command_until_stopped_and_shows_as_a_page() {
    let env = Env::with_routes("trace-session", routes()).await;
    let trace = env.dir.join("session.trace");
    let path = trace.to_string_lossy().into_owned();
    env.ok(&["trace", "start", &path, "--screenshots"]).await;
    let opened = env.ok(&["open", &env.server.url("/page")]).await;
    let save = ref_of(opened["view"].as_str().unwrap_or_default(), "\"Save\"");
    env.ok(&["click", &save]).await;
    env.ok(&["wait", "--text", "saved"]).await;
    let (status, failed) = env.run(&["click", "e999"]).await;
    assert_ne!(status, 0, "{failed}");
    let stopped = env.ok(&["trace", "stop"]).await;
    assert_eq!(stopped["commands"], 4, "{stopped}");
    // Not traced any more.
    env.ok(&["snapshot"]).await;

    let lines = lines_of(&trace);
    assert_eq!(lines.first().map(|l| &l["kind"]), Some(&json!("trace")));
    assert_eq!(lines.last().map(|l| &l["reason"]), Some(&json!("stopped")));
    let commands = command_lines(&lines);
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names, ["open", "click", "wait", "click"]);
    let bad = &commands[3];
    assert_eq!(bad["ok"], false);
    assert_eq!(bad["error"]["code"], "REF_NOT_FOUND", "{bad}");
    assert!(
        bad["error"]["hint"].as_str().is_some_and(|h| !h.is_empty()),
        "{bad} {failed}"
    );
    for c in &commands {
        let acts = c["name"] != "wait";
        for side in ["before", "after"] {
            let shot = &c["screenshots"][side];
            assert_eq!(
                shot.as_str()
                    .is_some_and(|s| s.starts_with("data:image/jpeg;base64,")),
                acts,
                "{} {side}",
                c["name"]
            );
        }
    }
    let text = std::fs::read_to_string(&trace).expect("trace");
    assert!(
        !text.contains(TOKEN) && !text.contains(BEARER),
        "a credential leaked"
    );

    // The page, opened in Chromium: a row per command, the failed one
    // open with its error and hint, and the screenshots decoded.
    let facts = support::trace_page_shown(
        std::path::Path::new(&path),
        "JSON.stringify({commands: document.querySelectorAll('section.command').length, \
          open: document.querySelectorAll('section.command.failed details[open]').length, \
          bars: document.querySelectorAll('nav.timeline a').length, \
          images: [...document.images].filter(i => i.complete && i.naturalWidth > 0).length, \
          error: document.querySelector('p.error')?.textContent, \
          hint: document.querySelector('.hint')?.textContent, \
          summaries: [...document.querySelectorAll('summary')].map(s => s.textContent)})",
    )
    .await;
    assert_eq!(facts["commands"], 4, "{facts}");
    assert_eq!(facts["open"], 1, "the failed command is open: {facts}");
    assert_eq!(facts["bars"], 4, "{facts}");
    assert_eq!(
        facts["images"], 6,
        "three acting commands, two each: {facts}"
    );
    support::assert_failure_shown(&facts);

    // A trace running when the session closes is closed with it.
    let second = env.dir.join("second.trace");
    env.ok(&["trace", "start", &second.to_string_lossy()]).await;
    env.ok(&["snapshot"]).await;
    env.close("default").await;
    let lines = lines_of(&second);
    assert_eq!(command_lines(&lines).len(), 1);
    assert_eq!(
        lines.last().map(|l| &l["reason"]),
        Some(&json!("the session ended"))
    );
}

/// A page whose button moves a box along for a second when clicked.
fn moving_routes() -> Routes {
    let page = "<!doctype html><title>Film</title><style>body{margin:0}button{position:absolute;left:200px;top:100px;width:120px;height:40px}\
        #box{position:absolute;top:200px;width:60px;height:60px;background:#28c}</style>\
        <button onclick=\"let t0 = performance.now(); (function move(t) { document.getElementById('box').style.left = ((t - t0) / 3) + 'px'; if (t - t0 < 1000) requestAnimationFrame(move); })(t0)\">Go</button><div id=box></div>";
    Routes::new().page("/moving", Response::html(page))
}

#[tokio::test]
async fn a_screencast_trace_shows_a_filmstrip_with_each_command_and_its_click() {
    let env = Env::with_routes("trace-film", moving_routes()).await;
    let trace = env.dir.join("film.trace");
    let path = trace.to_string_lossy().into_owned();
    let started = env.ok(&["trace", "start", &path, "--screencast"]).await;
    assert_eq!(started["screencast"], true, "{started}");
    let opened = env.ok(&["open", &env.server.url("/moving")]).await;
    let go = ref_of(opened["view"].as_str().unwrap_or_default(), "\"Go\"");
    env.ok(&["click", &go]).await;
    env.ok(&["wait", "1200"]).await;
    env.ok(&["trace", "stop"]).await;
    env.close("default").await;

    let lines = lines_of(&trace);
    let frames = lines.iter().filter(|l| l["kind"] == "frame").count();
    assert!(frames >= 3, "{frames} frames");
    let click = command_lines(&lines)
        .into_iter()
        .find(|c| c["name"] == "click")
        .expect("the click's line");
    // The button's centre, in CSS pixels of the viewport.
    assert_eq!(click["pointer"], json!([260.0, 120.0]), "{click}");

    // The page in Chromium: a figure per frame, the first shown; a tick
    // per frame, those of commands marked; the click's point drawn where
    // it pressed; stepping to another frame shows it alone.
    let facts = support::trace_page_shown(
        std::path::Path::new(&path),
        "(() => { const shown = () => [...document.querySelectorAll('.frames figure')]\
           .filter(f => getComputedStyle(f).display !== 'none').map(f => f.id);\
          const first = shown();\
          location.hash = '#frame-2';\
          const stepped = shown();\
          const dot = document.querySelector('.dot');\
          const img = dot && dot.parentElement.querySelector('img');\
          if (dot) location.hash = '#' + dot.closest('figure').id;\
          const at = dot && dot.getBoundingClientRect(), box = img && img.getBoundingClientRect();\
          const linked = document.querySelector('a.to-frame');\
          return JSON.stringify({figures: document.querySelectorAll('.frames figure').length,\
            ticks: document.querySelectorAll('nav.strip a.tick').length,\
            marked: document.querySelectorAll('nav.strip a.tick.act').length,\
            decoded: [...document.querySelectorAll('.frames img')].filter(i => i.complete && i.naturalWidth > 0).length,\
            first, stepped, linked: linked && linked.getAttribute('href'),\
            dot: dot && [(at.left + at.width / 2 - box.left) / box.width, (at.top + at.height / 2 - box.top) / box.height]}); })()",
    )
    .await;
    assert_eq!(facts["figures"], frames, "{facts}");
    assert_eq!(facts["ticks"], frames, "{facts}");
    assert_eq!(facts["decoded"], frames, "every frame decodes: {facts}");
    assert!(
        facts["marked"]
            .as_u64()
            .is_some_and(|n| (1..=3).contains(&n)),
        "the commands' frames are marked: {facts}"
    );
    assert_eq!(facts["first"], json!(["frame-1"]), "{facts}");
    assert_eq!(facts["stepped"], json!(["frame-2"]), "{facts}");
    assert!(
        facts["linked"]
            .as_str()
            .is_some_and(|h| h.starts_with("#frame-")),
        "{facts}"
    );
    // The dot sits where the click pressed, as a share of the frame (the
    // viewport is rove's default 1280x720... whatever it was, the frame
    // line says it).
    let view = lines
        .iter()
        .rev()
        .find(|l| l["kind"] == "frame" && l["view"][0].as_f64().is_some_and(|w| w > 0.0))
        .map(|l| l["view"].clone())
        .expect("a frame's view");
    let (w, h) = (
        view[0].as_f64().unwrap_or(1.0),
        view[1].as_f64().unwrap_or(1.0),
    );
    let dot = &facts["dot"];
    let near = |got: &Value, want: f64| got.as_f64().is_some_and(|g| (g - want).abs() < 0.02);
    assert!(
        near(&dot[0], 260.0 / w) && near(&dot[1], 120.0 / h),
        "{dot} vs ({}, {})",
        260.0 / w,
        120.0 / h
    );
}

#[tokio::test]
async fn an_mcp_server_traces_its_tool_calls_and_ends_the_trace_when_interrupted() {
    let env = Env::with_routes("trace-mcp", routes()).await;
    let trace = env.dir.join("mcp.trace");
    let path = trace.to_string_lossy().into_owned();
    let mut mcp = McpClient::start(&env, &["--trace", &path]).await;
    mcp.call("open", json!({"url": env.server.url("/page")}))
        .await;
    mcp.call("click", json!({"ref": "e999"})).await;
    let lines = lines_of(&trace);
    assert_eq!(lines[0]["face"], "mcp");
    let commands = command_lines(&lines);
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names, ["open", "click"]);
    assert!(commands.iter().all(|c| c["caller"] == "model"));
    assert_eq!(commands[0]["ok"], true);
    assert_eq!(commands[1]["error"]["code"], "REF_NOT_FOUND");
    // Ctrl-C ends the server; the trace still ends with its line, written
    // before the exit (the session's thread is not waited for).
    assert!(lines.last().is_some_and(|l| l["kind"] != "end"));
    let status = mcp.interrupt().await;
    assert_eq!(status.code(), Some(130));
    let lines = lines_of(&trace);
    let end = lines.last().expect("lines");
    assert_eq!(end["kind"], "end");
    assert_eq!(end["commands"], 2);
    assert_eq!(end["reason"], "interrupted (signal 2)");
}

/// `rove trace start FIFO` waited for a reader for ever, in the daemon:
/// every later command of the session, `close` included, waited behind it.
#[tokio::test]
async fn a_trace_into_a_named_pipe_is_refused_at_once_and_the_session_goes_on() {
    let env = Env::with_routes("trace-fifo", routes()).await;
    env.ok(&["open", &env.server.url("/page")]).await;
    let pipe = env.dir.join("trace.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let path = pipe.to_string_lossy().into_owned();
    let started = std::time::Instant::now();
    let (status, refused) = env.run(&["trace", "start", &path]).await;
    assert_eq!(status, 2, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("trace.fifo") && message.contains("named pipe"),
        "{refused}"
    );
    let (status, refused) = env.run(&["--trace", &path, "snapshot"]).await;
    assert_ne!(status, 0, "{refused}");
    assert!(refused.to_string().contains("named pipe"), "{refused}");
    env.ok(&["snapshot"]).await;
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "nothing waited for the pipe's reader"
    );
    env.close("default").await;
}

/// `rove trace show run.html` wrote its page over its own input.
#[tokio::test]
async fn trace_show_never_writes_over_its_trace() {
    let env = Env::with_routes("trace-show-self", routes()).await;
    let trace = env.dir.join("run.html");
    let path = trace.to_string_lossy().into_owned();
    env.ok(&["--trace", &path, "open", &env.server.url("/page")])
        .await;
    let before = std::fs::read(&trace).expect("the trace");
    let shown = env.ok(&["trace", "show", &path]).await;
    let page = env.dir.join("run.trace.html");
    assert_eq!(shown["path"].as_str(), page.to_str(), "{shown}");
    assert_eq!(std::fs::read(&trace).expect("the trace"), before, "kept");
    assert!(
        std::fs::read_to_string(&page)
            .expect("the page")
            .contains("<html")
    );
    let (status, refused) = env.run(&["trace", "show", &path, "-o", &path]).await;
    assert_eq!(status, 2, "{refused}");
    assert_eq!(std::fs::read(&trace).expect("the trace"), before, "kept");
    env.close("default").await;
}
