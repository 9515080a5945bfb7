//! `rove mcp` end to end over stdio with real Chromium: the handshake, the
//! tool list, tools that act on a page served on 127.0.0.1, errors as tool
//! results with the fresh view, and nothing but JSON-RPC on stdout. The
//! HTTP server's checks and malformed JSON-RPC, where no tool reaches a
//! page, are in `crate::fast::mcp`.

use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};

use crate::support::mcp_client::{McpClient, text};
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

#[tokio::test]
async fn tools_act_on_a_real_page_and_errors_are_tool_results() {
    let page = "<!doctype html><title>Form</title><label>Name <input id=n></label>\
        <button onclick=\"document.getElementById('o').textContent = 'Hi ' + document.getElementById('n').value\">Greet</button><p id=o>nobody</p>";
    let server = LocalServer::start(Routes::new().page("/form", Response::html(page)))
        .await
        .expect("server");
    let mut client = McpClient::start_bare(&[]).await;
    let tools = client.request("tools/list", json!({})).await;
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for expected in ["open", "snapshot", "click", "fill", "press", "eval"] {
        assert!(names.contains(&expected), "{names:?}");
    }

    let opened = client
        .call("open", json!({"url": server.url("/form")}))
        .await;
    assert_eq!(opened["isError"], false);
    let view = text(&opened, 0);
    let field = view
        .lines()
        .find(|l| l.contains("textbox \"Name\""))
        .and_then(|l| l.split_whitespace().next())
        .expect("field ref")
        .to_owned();
    let button = view
        .lines()
        .find(|l| l.contains("button \"Greet\""))
        .and_then(|l| l.split_whitespace().next())
        .expect("button ref")
        .to_owned();
    client
        .call("fill", json!({"ref": field, "text": "Ada"}))
        .await;
    let clicked = client.call("click", json!({"ref": button})).await;
    assert!(text(&clicked, 0).contains("Hi Ada"), "{clicked}");

    let failed = client.call("click", json!({"ref": "e999"})).await;
    assert_eq!(failed["isError"], true);
    let error: Value = serde_json::from_str(&text(&failed, 0)).expect("the error as JSON");
    assert_eq!(error["code"], "REF_NOT_FOUND");
    assert_eq!(error["action_sent"], "not_sent");
    assert!(
        text(&failed, 1).contains("Greet"),
        "the fresh view comes second"
    );

    let rejected = client
        .call("click", json!({"ref": "e1", "bogus": true}))
        .await;
    assert_eq!(rejected["isError"], true);
    assert!(text(&rejected, 0).contains("COMMAND_REJECTED"));

    let shot = client.call("screenshot", json!({})).await;
    assert_eq!(shot["content"][1]["type"], "image");
    assert_eq!(shot["content"][1]["mimeType"], "image/png");
    let evaluated = client
        .call("eval", json!({"js": "() => document.title"}))
        .await;
    assert!(text(&evaluated, 0).contains("\"Form\""), "{evaluated}");
}

/// One HTTP/1.1 request on a fresh connection; the status line and what
/// arrived until the JSON-RPC answer to `id` (or the end of the response).
pub(crate) async fn post(
    addr: &str,
    headers: &[(&str, &str)],
    body: &str,
    id: Option<u64>,
) -> (u16, String) {
    use tokio::io::AsyncReadExt;
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut got = Vec::new();
    let wanted = id.map(|id| format!("\"id\":{id}"));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let mut chunk = [0u8; 8192];
        let read = tokio::time::timeout_at(deadline, stream.read(&mut chunk)).await;
        match read {
            Ok(Ok(0)) | Err(_) => break,
            Ok(Ok(n)) => got.extend_from_slice(&chunk[..n]),
            Ok(Err(_)) => break,
        }
        let text = String::from_utf8_lossy(&got);
        if wanted.as_ref().is_some_and(|w| text.contains(w.as_str())) {
            break;
        }
    }
    let text = String::from_utf8_lossy(&got).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

pub(crate) fn session_id(response: &str) -> String {
    response
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .expect("a session id")
        .trim()
        .to_owned()
}

#[tokio::test]
async fn the_official_python_sdk_drives_rove() {
    let sdk = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/mcp-sdk");
    assert!(
        std::path::Path::new(sdk).join("mcp/__init__.py").is_file(),
        "the MCP Python SDK is not in {sdk}: run scripts/fetch-mcp-sdk.sh (scripts/test.sh does)"
    );
    let page = "<!doctype html><title>Form</title><button onclick=\"this.textContent='Done'\">Greet</button>";
    let server = LocalServer::start(Routes::new().page("/form", Response::html(page)))
        .await
        .expect("server");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/sdk/mcp_client.py");
    let output = tokio::time::timeout(
        Duration::from_secs(120),
        Command::new("python3")
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_rove"))
            .arg(server.url("/form"))
            .env("PYTHONPATH", sdk)
            .env_remove("ROVE_CDP_URL")
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the client finished")
    .expect("python3 ran");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: Value = serde_json::from_str(stdout.trim()).expect("the client's report");
    assert_eq!(seen["server"], "rove");
    assert!(
        seen["tools"].as_array().is_some_and(|t| t.len() >= 20),
        "{seen}"
    );
    assert_eq!(seen["open_error"], false);
    assert_eq!(seen["click_error"], false);
    assert!(
        seen["click"].as_str().is_some_and(|c| c.contains("Done")),
        "{seen}"
    );
    assert_eq!(seen["stale_error"], true);
    assert_eq!(seen["stale"]["code"], "REF_NOT_FOUND");
    assert_eq!(seen["stale"]["retry"], "reobserve");
    assert!(
        seen["stale_view"]
            .as_str()
            .is_some_and(|v| v.contains("Done"))
    );
    assert_eq!(seen["bad_error"], true);
    assert!(
        seen["bad"]
            .as_str()
            .is_some_and(|b| b.contains("COMMAND_REJECTED"))
    );
    assert!(
        seen["unknown"]["protocol_error"].is_string() || seen["unknown"]["error"] == true,
        "{seen}"
    );
}

#[tokio::test]
async fn a_named_session_is_shared_between_the_shell_and_mcp() {
    let dir = std::env::temp_dir().join(format!("rove-mcp-shared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let runtime = dir.to_str().expect("utf-8").to_owned();
    let page = "<!doctype html><title>Shared</title><button onclick=\"this.textContent='Pressed'\">Press</button>";
    let server = LocalServer::start(Routes::new().page("/p", Response::html(page)))
        .await
        .expect("server");
    let shell = |args: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
        command
            .args(["--session", "shared", "--json"])
            .args(args)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("ROVE_IDLE", "60")
            .env_remove("ROVE_SESSION")
            .kill_on_drop(true);
        command
    };
    let opened = shell(&["open", &server.url("/p")])
        .output()
        .await
        .expect("open");
    assert!(
        opened.status.success(),
        "{}",
        String::from_utf8_lossy(&opened.stdout)
    );

    let mut command = McpClient::command(&["--session", "shared"]);
    command.env("XDG_RUNTIME_DIR", &runtime);
    let mut client = McpClient::start_command(command).await;
    let view = client.call("snapshot", json!({})).await;
    let text = text(&view, 0);
    assert!(
        text.contains("Shared"),
        "MCP sees the page the shell opened: {text}"
    );
    let button = text
        .lines()
        .find(|l| l.contains("button \"Press\""))
        .and_then(|l| l.split_whitespace().next())
        .expect("ref")
        .to_owned();
    client.call("click", json!({"ref": button})).await;
    let seen = shell(&["eval", "document.querySelector('button').textContent"])
        .output()
        .await
        .expect("eval");
    let seen: Value = serde_json::from_slice(&seen.stdout).expect("json");
    assert_eq!(
        seen["data"]["result"], "Pressed",
        "the shell sees what MCP did"
    );
    let stale = client.call("click", json!({"ref": "e999"})).await;
    assert_eq!(stale["isError"], true);
    assert!(text_of_error(&stale).contains("REF_NOT_FOUND"));
    // The close tool ends the shared session as `rove close` would: the
    // shell then finds nothing left to close.
    let closed = client.call("close", json!({})).await;
    assert_eq!(closed["isError"], false, "{closed}");
    let again = shell(&["close"]).output().await.expect("close");
    assert!(again.status.success());
    let again: Value = serde_json::from_slice(&again.stdout).expect("json");
    assert_eq!(again["closed"], Value::Null, "the session was already gone");
}

/// Chromium processes whose parent is `pid`.
fn browsers_of(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid …
        let Some((head, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let comm = head.split_once(" (").map(|(_, c)| c).unwrap_or_default();
        let ppid = rest
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid)
            && comm.contains("chrom")
            && let Ok(child) = entry.file_name().to_string_lossy().parse()
        {
            found.push(child);
        }
    }
    found
}

/// A server with a page open on it; the server's pid and the browser
/// processes under it.
async fn opened_on(page: &str) -> (LocalServer, McpClient, u32, Vec<u32>) {
    let server = LocalServer::start(Routes::new().page("/p", Response::html(page)))
        .await
        .expect("server");
    let mut client = McpClient::start_bare(&[]).await;
    let pid = client.child.id().expect("pid");
    let opened = client.call("open", json!({"url": server.url("/p")})).await;
    assert_eq!(opened["isError"], false, "{opened}");
    let browsers = browsers_of(pid);
    assert!(!browsers.is_empty(), "a browser runs under the server");
    (server, client, pid, browsers)
}

#[tokio::test]
async fn the_close_tool_ends_the_browser_and_the_next_call_starts_a_new_one() {
    let (_server, mut client, pid, first) =
        opened_on("<!doctype html><title>Before</title><p>first browser</p>").await;

    let closed = client.call("close", json!({})).await;
    assert_eq!(closed["isError"], false, "{closed}");
    assert!(text(&closed, 0).contains("closed the browser"), "{closed}");
    let alive = |p: &u32| std::path::Path::new(&format!("/proc/{p}")).exists();
    assert!(
        !first.iter().any(alive),
        "the first browser ended: {first:?}"
    );

    let view = client.call("snapshot", json!({})).await;
    assert_eq!(view["isError"], false, "{view}");
    assert!(!text(&view, 0).contains("first browser"), "{view}");
    let second = browsers_of(pid);
    assert!(!second.is_empty() && second.iter().all(|p| !first.contains(p)));
}

fn text_of_error(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_long_call_reports_progress_to_a_client_that_asked() {
    let mut client = McpClient::start_bare(&[]).await;
    // A client that gives a progress token hears about a long call…
    let (waited, notes) = client
        .request_seeing(
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 3500}, "_meta": {"progressToken": "p1"}}),
        )
        .await;
    assert_eq!(waited["isError"], false, "{waited}");
    let progress: Vec<&Value> = notes
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .collect();
    assert!(progress.len() >= 2, "{notes:?}");
    for (i, note) in progress.iter().enumerate() {
        assert_eq!(note["params"]["progressToken"], "p1");
        assert_eq!(note["params"]["progress"], json!((i + 1) as f64), "{note}");
    }
    // …one that gives none hears nothing.
    let (_, quiet) = client
        .request_seeing(
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 1500}}),
        )
        .await;
    assert!(quiet.is_empty(), "{quiet:?}");
}

#[tokio::test]
async fn a_browser_that_died_under_the_server_is_started_again_and_the_answer_says_so() {
    let (_server, mut client, pid, first) =
        opened_on("<!doctype html><title>Alive</title><p>first</p>").await;
    for browser in &first {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &browser.to_string()])
            .status();
    }
    // The same hosting as the daemon's: a new browser, and the answer's
    // first line says what became of the old one.
    let view = client.call("snapshot", json!({})).await;
    assert_eq!(view["isError"], false, "{view}");
    assert!(
        text(&view, 0).starts_with("the browser had died; started a new one"),
        "{view}"
    );
    let again = browsers_of(pid);
    assert!(!again.is_empty() && again.iter().all(|p| !first.contains(p)));
}
