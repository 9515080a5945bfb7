//! The fault suite at the faces: the domain policy, upload roots and output
//! paths hold for the shell CLI (through its session daemon) and for `rove
//! mcp`, with the real binary and real Chromium.

use std::path::PathBuf;
use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

use crate::support::mcp_client::McpClient;

/// Session daemons of these tests live in a folder of their own.
fn runtime_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rove-policy-tests-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// The CLI in a session of its own.
fn rove(session: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
    command
        .env("XDG_RUNTIME_DIR", runtime_dir())
        .env("ROVE_IDLE", "30")
        .env("ROVE_SESSION", session)
        .env_remove("ROVE_ALLOWED_DOMAINS")
        .env_remove("ROVE_BLOCKED_DOMAINS")
        .env_remove("ROVE_CDP_URL")
        .env_remove("RUST_LOG")
        .arg("--json");
    command.kill_on_drop(true);
    command
}

/// Runs a CLI command; its exit status and its one JSON answer.
async fn run(command: &mut Command) -> (Option<i32>, Value) {
    let output = tokio::time::timeout(Duration::from_secs(60), command.output())
        .await
        .expect("rove finished within 60 s")
        .expect("rove ran");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let answer = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "not one JSON line ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code(), answer)
}

async fn close(session: &str) {
    let _ = run(rove(session).arg("close")).await;
}

async fn pages() -> LocalServer {
    LocalServer::start(
        Routes::new()
            .page("/page", Response::html("<title>Page</title><p>hi</p>"))
            .page(
                "/files",
                Response::html("<title>Files</title><label>Attach <input type=file></label>"),
            ),
    )
    .await
    .expect("server")
}

#[tokio::test]
async fn the_cli_refuses_files_and_foreign_hosts_under_its_policy() {
    let server = pages().await;
    let session = "policy-cli";
    // By default: any web host, no file: (a path is a file: URL).
    let (status, answer) = run(rove(session).args(["open", "/etc/passwd"])).await;
    assert_eq!(status, Some(4), "{answer}");
    assert_eq!(answer["error"]["code"], "NAVIGATION_BLOCKED", "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("file: URLs are not allowed")),
        "{answer}"
    );
    assert!(!answer.to_string().contains("root:x"), "{answer}");
    close(session).await;

    // A session limited to localhost refuses 127.0.0.1, and a later command
    // cannot change the policy of the running session.
    let (status, answer) = run(rove(session)
        .args(["--allowed-domains", "localhost", "open"])
        .arg(server.url("/page")))
    .await;
    assert_eq!(status, Some(4), "{answer}");
    assert_eq!(answer["error"]["code"], "NAVIGATION_BLOCKED");
    let (status, answer) =
        run(rove(session).args(["--allowed-domains", "127.0.0.1", "snapshot"])).await;
    assert_eq!(status, Some(2), "{answer}");
    assert_eq!(answer["error"]["code"], "COMMAND_REJECTED");
    assert!(
        answer["error"]["hint"]
            .as_str()
            .is_some_and(|h| h.contains("rove close")),
        "{answer}"
    );
    let (status, _) = run(rove(session).arg("snapshot")).await;
    assert_eq!(
        status,
        Some(0),
        "without flags the session's own policy holds"
    );
    close(session).await;

    // Files are allowed when named.
    let dir = runtime_dir().join("pages");
    std::fs::create_dir_all(&dir).expect("dir");
    let page = dir.join("local.html");
    std::fs::write(&page, "<title>Local</title><p>from disk</p>").expect("page");
    let (status, answer) = run(rove(session)
        .args(["--allowed-domains", "*,file:", "open"])
        .arg(&page))
    .await;
    assert_eq!(status, Some(0), "{answer}");
    assert!(answer.to_string().contains("from disk"), "{answer}");
    close(session).await;
}

#[tokio::test]
async fn the_cli_uploads_from_the_folder_it_runs_in_but_never_from_root() {
    let server = pages().await;
    let session = "policy-upload";
    let work = runtime_dir().join("work");
    std::fs::create_dir_all(&work).expect("dir");
    std::fs::write(work.join("report.txt"), "hello").expect("file");
    let (status, answer) = run(rove(session).arg("open").arg(server.url("/files"))).await;
    assert_eq!(status, Some(0), "{answer}");
    let (status, answer) =
        run(rove(session)
            .current_dir(&work)
            .args(["upload", "e1", "report.txt"]))
        .await;
    assert_eq!(status, Some(0), "the shell's own folder: {answer}");
    let (status, answer) =
        run(rove(session)
            .current_dir("/")
            .args(["upload", "e1", "/etc/hostname"]))
        .await;
    assert_eq!(status, Some(2), "{answer}");
    assert_eq!(answer["error"]["code"], "UPLOAD_DENIED");
    close(session).await;
}

/// `rove mcp ARGS` under this file's runtime folder, with no domain
/// policy from the environment.
async fn start_mcp(args: &[&str]) -> McpClient {
    let mut command = McpClient::command(args);
    command
        .env("XDG_RUNTIME_DIR", runtime_dir())
        .env_remove("ROVE_ALLOWED_DOMAINS")
        .env_remove("ROVE_BLOCKED_DOMAINS");
    McpClient::start_command(command).await
}

/// A tool's error report (the first block of an error result).
async fn error_of(mcp: &mut McpClient, tool: &str, arguments: Value) -> Value {
    let result = mcp.call(tool, arguments).await;
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not a report ({e}): {text}"))
}

#[tokio::test]
async fn mcp_refuses_files_and_free_output_paths_by_default() {
    let server = pages().await;
    // `upload` is in the forms group.
    let mut mcp = start_mcp(&["--caps", "forms"]).await;
    for url in ["file:///etc/passwd", "/etc/passwd", "chrome://settings"] {
        let report = error_of(&mut mcp, "open", json!({"url": url})).await;
        assert_eq!(report["code"], "NAVIGATION_BLOCKED", "{url}: {report}");
    }
    let opened = mcp
        .request(
            "tools/call",
            json!({"name": "open", "arguments": {"url": server.url("/page")}}),
        )
        .await;
    assert_ne!(opened["isError"], true, "{opened}");
    let outside = std::env::temp_dir().join(format!("rove-mcp-shot-{}.png", std::process::id()));
    let report = error_of(
        &mut mcp,
        "screenshot",
        json!({"path": outside.display().to_string()}),
    )
    .await;
    assert_eq!(report["code"], "COMMAND_REJECTED", "{report}");
    assert!(!outside.exists(), "nothing written where the model said");
    // An upload from outside the roots, into a real file input: the policy
    // refuses it, and the input stays empty.
    let outside = runtime_dir().join("mcp-upload.txt");
    std::fs::write(&outside, "not for the page").expect("file");
    let opened = mcp
        .request(
            "tools/call",
            json!({"name": "open", "arguments": {"url": server.url("/files")}}),
        )
        .await;
    let view = opened["content"][0]["text"].as_str().unwrap_or_default();
    let input = view
        .lines()
        .find(|l| l.contains("\"Attach\""))
        .and_then(|l| {
            l.split_whitespace().find(|w| {
                w.strip_prefix('e')
                    .is_some_and(|n| n.parse::<u32>().is_ok())
            })
        })
        .unwrap_or_else(|| panic!("no file input in {opened}"))
        .to_owned();
    let report = error_of(
        &mut mcp,
        "upload",
        json!({"ref": input, "paths": [outside.display().to_string()]}),
    )
    .await;
    assert_eq!(report["code"], "UPLOAD_DENIED", "{report}");
    let held = mcp
        .request(
            "tools/call",
            json!({"name": "eval", "arguments": {"js": "document.querySelector('input[type=file]').files.length"}}),
        )
        .await;
    assert_ne!(held["isError"], true, "{held}");
    // The answer's text holds the value as JSON, among lines on what
    // changed.
    let text = held["content"][0]["text"].as_str().unwrap_or_default();
    let value: Value = text
        .find('{')
        .and_then(|at| {
            serde_json::Deserializer::from_str(&text[at..])
                .into_iter::<Value>()
                .next()
        })
        .and_then(Result::ok)
        .unwrap_or_else(|| panic!("no value in {held}"));
    assert_eq!(value["result"], 0, "files in the input: {held}");
}

#[tokio::test]
async fn mcp_takes_the_domain_policy_from_its_flags() {
    let server = pages().await;
    let mut mcp = start_mcp(&["--allowed-domains", "localhost"]).await;
    let report = error_of(&mut mcp, "open", json!({"url": server.url("/page")})).await;
    assert_eq!(report["code"], "NAVIGATION_BLOCKED", "{report}");
    let local = server.url("/page").replace("127.0.0.1", "localhost");
    let opened = mcp
        .request(
            "tools/call",
            json!({"name": "open", "arguments": {"url": local}}),
        )
        .await;
    assert_ne!(opened["isError"], true, "{opened}");
}
