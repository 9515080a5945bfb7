//! `rove mcp` where no tool reaches a page: the HTTP server's token, host
//! and origin checks, malformed JSON-RPC that never crashes it, and the
//! trace of tool calls that got no browser.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

use crate::mcp::{post, session_id};
use crate::support::mcp_client::McpClient;

#[tokio::test]
async fn http_needs_the_token_and_refuses_foreign_hosts_and_origins() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(["mcp", "--http", "--port", "0", "--json"])
        .env_remove("ROVE_MCP_TOKEN")
        .env_remove("ROVE_CDP_URL")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("server");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("started")
        .expect("read")
        .expect("a line");
    let started: Value = serde_json::from_str(&first).expect("json");
    let url = started["url"].as_str().expect("url");
    let token = started["token"].as_str().expect("token");
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(token.len() >= 32);
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let bearer = format!("Bearer {token}");
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).to_string();

    let (status, _) = post(&addr, &[], &init, None).await;
    assert_eq!(status, 401, "no token");
    let (status, _) = post(&addr, &[("Authorization", "Bearer wrong")], &init, None).await;
    assert_eq!(status, 401, "a wrong token");
    let (status, _) = post(
        &addr,
        &[
            ("Authorization", &bearer),
            ("Origin", "http://evil.example"),
        ],
        &init,
        None,
    )
    .await;
    assert_eq!(status, 403, "a foreign origin");
    let (status, _) = post(
        &addr,
        &[("Authorization", &bearer), ("Host", "evil.example")],
        &init,
        None,
    )
    .await;
    assert_eq!(status, 403, "a foreign host (DNS rebinding)");

    let (status, answer) = post(&addr, &[("Authorization", &bearer)], &init, Some(1)).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("\"serverInfo\""), "{answer}");
    let session = session_id(&answer);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    post(
        &addr,
        &[("Authorization", &bearer), ("Mcp-Session-Id", &session)],
        &initialized,
        None,
    )
    .await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    let (status, tools) = post(
        &addr,
        &[("Authorization", &bearer), ("Mcp-Session-Id", &session)],
        &list,
        Some(2),
    )
    .await;
    assert_eq!(status, 200);
    assert!(tools.contains("\"name\":\"snapshot\""), "{tools}");
    let _ = child.kill().await;
}

#[tokio::test]
async fn malformed_json_rpc_and_unknown_methods_never_crash_the_server() {
    let mut client = McpClient::start_bare(&[]).await;
    client
        .stdin
        .write_all(b"this is not json\n{\"jsonrpc\": \"2.0\", \"id\": \n")
        .await
        .expect("write");
    // Whatever it says about the garbage, the next requests are answered:
    // an unknown method with the protocol's error for it…
    let unknown = client.exchange("no/such/method", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let tools = client.request("tools/list", json!({})).await;
    assert!(tools["tools"].as_array().is_some_and(|t| !t.is_empty()));
    // …a tool rove does not know with an error of the protocol naming it
    // (a tool of a group not enabled is a tool result instead)…
    let bad_tool = client
        .exchange("tools/call", json!({"name": "teleport", "arguments": {}}))
        .await;
    assert!(bad_tool.get("result").is_none(), "{bad_tool}");
    assert_eq!(bad_tool["error"]["code"], -32602, "{bad_tool}");
    assert!(
        bad_tool["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("no tool named teleport")),
        "{bad_tool}"
    );
    // …and the server is still there afterwards (a moment later, so that
    // a crash that followed the answer has happened).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let again = client.request("tools/list", json!({})).await;
    assert_eq!(again, tools);
}

/// `rove mcp --trace` recorded nothing of a tool call that could not get a
/// browser (issue 37, item 18): the failure a trace is read for.
#[tokio::test]
async fn a_tool_call_that_gets_no_browser_is_in_the_trace() {
    let env = crate::support::Env::new("mcp-trace-no-browser").await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    let trace = env.dir.join("mcp.trace");
    let path = trace.to_string_lossy().into_owned();
    let mut mcp = McpClient::start(&env, &["--trace", &path, "--cdp-url", &url]).await;
    let result = mcp
        .call("open", json!({"url": "https://example.test/"}))
        .await;
    assert_eq!(result["isError"], true, "{result}");
    let status = mcp.interrupt().await;
    assert_eq!(status.code(), Some(130));
    let lines: Vec<Value> = std::fs::read_to_string(&trace)
        .expect("trace")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let kinds: Vec<&str> = lines.iter().filter_map(|l| l["kind"].as_str()).collect();
    assert_eq!(kinds, ["trace", "command", "end"], "{lines:?}");
    let open = &lines[1];
    assert_eq!(open["name"], "open", "{open}");
    assert_eq!(open["ok"], false, "{open}");
    assert_eq!(open["caller"], "model", "{open}");
    assert_eq!(open["error"]["code"], "BROWSER_DISCONNECTED", "{open}");
    assert_eq!(lines[2]["commands"], 1, "{:?}", lines[2]);
}
