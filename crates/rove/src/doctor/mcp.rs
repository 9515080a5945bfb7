//! `rove doctor`'s MCP check: start `rove mcp` as a host would, shake hands,
//! list the tools, and end it. No browser starts: it is launched on the
//! first tool call.

use rove_base::limits::DOCTOR;
use rove_errors::ErrorCode;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::failure::Failure;

pub async fn handshake() -> Result<((), String), Failure> {
    let fail = |why: String| {
        Failure::new(
            ErrorCode::LaunchFailed,
            format!("rove mcp: {why}"),
            "run `rove mcp` by hand and send it an initialize request to see what it says",
        )
    };
    let exe = std::env::current_exe().map_err(|e| fail(e.to_string()))?;
    let mut child = tokio::process::Command::new(exe)
        .arg("mcp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| fail(e.to_string()))?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(fail("no pipes".into()));
    };
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "rove-doctor", "version": env!("CARGO_PKG_VERSION")}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    let mut lines = BufReader::new(stdout).lines();
    let talk = async {
        for message in &messages {
            stdin
                .write_all(format!("{message}\n").as_bytes())
                .await
                .map_err(|e| fail(e.to_string()))?;
        }
        let mut server = String::new();
        loop {
            let line = lines
                .next_line()
                .await
                .map_err(|e| fail(e.to_string()))?
                .ok_or_else(|| fail("it ended before answering".into()))?;
            let answer: Value = serde_json::from_str(&line)
                .map_err(|e| fail(format!("not JSON-RPC ({e}): {line}")))?;
            match answer["id"].as_u64() {
                Some(1) => {
                    server = answer["result"]["serverInfo"]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned();
                }
                Some(2) => {
                    let tools = answer["result"]["tools"].as_array().map_or(0, Vec::len);
                    return Ok(format!("server {server:?}, {tools} tools over stdio"));
                }
                _ => {}
            }
        }
    };
    let result = tokio::time::timeout(DOCTOR, talk)
        .await
        .unwrap_or_else(|_| Err(fail(format!("no answer within {} s", DOCTOR.as_secs()))));
    let _ = child.kill().await;
    result.map(|detail| ((), detail))
}
