//! The MCP client of the tests that speak to `rove mcp` over stdio: start
//! the server (under a test's `Env`, or as a bare command a test adjusts),
//! send requests and notifications, call tools, and keep every
//! notification the server sent on the way. Every line the server writes
//! must be JSON-RPC: a test reading through this client checks that too.
//! (The fault suite writes raw bytes on purpose and has its own client,
//! `mcp_faults::support::Stdio`.)

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

pub struct McpClient {
    /// The server's stdin, for a test that writes what no client would.
    pub stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    next: u64,
    /// Every notification read so far, in order.
    pub notes: Vec<Value>,
    /// What the server declared in its answer to `initialize`.
    pub capabilities: Value,
    pub child: Child,
}

impl McpClient {
    /// `rove mcp ARGS` under `env`, initialized.
    pub async fn start(env: &super::Env, args: &[&str]) -> McpClient {
        let mut all = vec!["mcp"];
        all.extend_from_slice(args);
        McpClient::start_command(env.rove(&all)).await
    }

    /// `rove mcp ARGS` with no test env around it, initialized.
    pub async fn start_bare(args: &[&str]) -> McpClient {
        McpClient::start_command(McpClient::command(args)).await
    }

    /// `rove mcp ARGS` with no test env around it (and no browser address
    /// or session name from the environment), for the caller to adjust.
    pub fn command(args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
        command
            .arg("mcp")
            .args(args)
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_SESSION")
            .kill_on_drop(true);
        command
    }

    /// Starts `command` (a `rove mcp`) and initializes it.
    pub async fn start_command(mut command: Command) -> McpClient {
        let mut child = command
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
            notes: Vec::new(),
            capabilities: Value::Null,
            child,
        };
        let init = client
            .request("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}))
            .await;
        assert_eq!(init["serverInfo"]["name"], "rove", "{init}");
        client.capabilities = init["capabilities"].clone();
        client.notify("notifications/initialized").await;
        client
    }

    /// Sends a notification (no answer comes).
    pub async fn notify(&mut self, method: &str) {
        let line = json!({"jsonrpc": "2.0", "method": method}).to_string() + "\n";
        self.stdin.write_all(line.as_bytes()).await.expect("write");
    }

    /// Reads one message (60 s at most), keeping it if it is a
    /// notification.
    pub async fn read(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(60), self.stdout.next_line())
            .await
            .expect("a message within 60 s")
            .expect("read")
            .expect("a line");
        let message: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {line}"));
        assert_eq!(message["jsonrpc"], "2.0", "{line}");
        if message.get("method").is_some() && message.get("id").is_none() {
            self.notes.push(message.clone());
        }
        message
    }

    /// A request's whole answer: `result` or `error`, as the server sent
    /// it.
    pub async fn exchange(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
            .to_string()
            + "\n";
        self.stdin.write_all(line.as_bytes()).await.expect("write");
        loop {
            let message = self.read().await;
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// A request's result (or its JSON-RPC error, as `{"error": …}`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let answer = self.exchange(method, params).await;
        match answer.get("error") {
            Some(error) => json!({"error": error}),
            None => answer["result"].clone(),
        }
    }

    /// A request's result and the notifications that came before it.
    pub async fn request_seeing(&mut self, method: &str, params: Value) -> (Value, Vec<Value>) {
        let before = self.notes.len();
        let result = self.request(method, params).await;
        (result, self.notes[before..].to_vec())
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

    /// The browser events received (`notifications/message`), as their
    /// `data`.
    pub fn events(&self) -> Vec<Value> {
        self.notes
            .iter()
            .filter(|n| n["method"] == "notifications/message")
            .map(|n| n["params"]["data"].clone())
            .collect()
    }

    /// Whether a browser event named `event` was received.
    pub fn saw(&self, event: &str) -> bool {
        self.events().iter().any(|e| e["event"] == event)
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
