//! A minimal MCP client over `rove mcp`'s stdio, for the tests of the
//! opt-in tool groups: start the server with flags, list tools, call them.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{ChildStdin, ChildStdout};

pub struct McpClient {
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    next: u64,
    child: tokio::process::Child,
}

impl McpClient {
    /// `rove mcp ARGS` under `env`, initialized.
    pub async fn start(env: &super::Env, args: &[&str]) -> McpClient {
        let mut all = vec!["mcp"];
        all.extend_from_slice(args);
        let mut child = env
            .rove(&all)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut client = McpClient {
            stdin,
            stdout,
            next: 0,
            child,
        };
        let init = client
            .request("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}))
            .await;
        assert_eq!(init["serverInfo"]["name"], "rove");
        let line = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
        client
            .stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("write");
        client
    }

    /// A request's result (or its JSON-RPC error, as `{"error": …}`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("write");
        loop {
            let line = tokio::time::timeout(Duration::from_secs(60), self.stdout.next_line())
                .await
                .expect("an answer within 60 s")
                .expect("read")
                .expect("a line");
            let message: Value = serde_json::from_str(&line).expect("JSON-RPC");
            if message["id"] == json!(id) {
                return match message.get("error") {
                    Some(error) => json!({"error": error}),
                    None => message["result"].clone(),
                };
            }
        }
    }

    /// The names `tools/list` gives.
    pub async fn tool_names(&mut self) -> Vec<String> {
        let tools = self.request("tools/list", json!({})).await;
        tools["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect()
    }

    pub async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }

    /// Sends the server SIGINT and waits for it to end.
    pub async fn interrupt(&mut self) -> std::process::ExitStatus {
        super::interrupt(
            &mut self.child,
            std::time::Duration::from_secs(15),
            "the MCP server ended after SIGINT",
        )
        .await
    }
}

/// The text of a result's content block.
pub fn text(result: &Value, block: usize) -> String {
    result["content"][block]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}
