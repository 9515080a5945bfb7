//! Browser events over MCP with the real binary and real Chromium: the
//! server declares the logging capability, a client that sent
//! `logging/setLevel` receives its page's navigation and dialog as
//! `notifications/message`, and a client that did not receives none.

use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{ChildStdin, ChildStdout, Command};

/// A stdio MCP client that keeps every notification it reads.
struct Client {
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    next: u64,
    notes: Vec<Value>,
    capabilities: Value,
    _child: tokio::process::Child,
}

impl Client {
    async fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rove"))
            .arg("mcp")
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_SESSION")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut client = Client {
            stdin,
            stdout,
            next: 0,
            notes: Vec::new(),
            capabilities: Value::Null,
            _child: child,
        };
        let init = client
            .request("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}))
            .await;
        client.capabilities = init["capabilities"].clone();
        let line =
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string() + "\n";
        client
            .stdin
            .write_all(line.as_bytes())
            .await
            .expect("write");
        client
    }

    /// Reads one message (60 s at most), keeping it if it is a notification.
    async fn read(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(60), self.stdout.next_line())
            .await
            .expect("a message within 60 s")
            .expect("read")
            .expect("a line");
        let message: Value = serde_json::from_str(&line).expect("JSON-RPC");
        if message.get("method").is_some() && message.get("id").is_none() {
            self.notes.push(message.clone());
        }
        message
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
            .to_string()
            + "\n";
        self.stdin.write_all(line.as_bytes()).await.expect("write");
        loop {
            let message = self.read().await;
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{message}");
                return message["result"].clone();
            }
        }
    }

    async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }

    /// The browser events received, as their `data`.
    fn events(&self) -> Vec<Value> {
        self.notes
            .iter()
            .filter(|n| n["method"] == "notifications/message")
            .map(|n| n["params"]["data"].clone())
            .collect()
    }

    fn saw(&self, event: &str) -> bool {
        self.events().iter().any(|e| e["event"] == event)
    }
}

/// Opens `url` and clicks its Save button (which opens an alert).
async fn open_and_click(client: &mut Client, url: &str) {
    let opened = client.call("open", json!({"url": url})).await;
    let view = opened["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let save = view
        .lines()
        .find(|l| l.contains("button \"Save\""))
        .and_then(|l| l.split_whitespace().find(|w| w.starts_with('e')))
        .unwrap_or_else(|| panic!("no Save button in {view}"))
        .to_owned();
    let clicked = client.call("click", json!({"ref": save})).await;
    assert_ne!(clicked["isError"], true, "{clicked}");
}

#[tokio::test]
async fn only_a_client_that_set_a_level_receives_browser_events() {
    let pages = LocalServer::start(Routes::new().page(
        "/form",
        Response::html("<title>Form</title><button onclick=\"alert('Saved')\">Save</button>"),
    ))
    .await
    .expect("pages");
    let url = pages.url("/form");

    let mut listening = Client::start().await;
    assert!(
        listening.capabilities.get("logging").is_some(),
        "{}",
        listening.capabilities
    );
    listening
        .request("logging/setLevel", json!({"level": "debug"}))
        .await;
    open_and_click(&mut listening, &url).await;
    // The events travel beside the answers: read on until both came.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !(listening.saw("navigated") && listening.saw("dialog"))
        && tokio::time::Instant::now() < deadline
    {
        let _ = tokio::time::timeout(Duration::from_secs(1), listening.read()).await;
    }
    let events = listening.events();
    let navigated = events
        .iter()
        .find(|e| e["event"] == "navigated" && e["url"] == url.as_str())
        .unwrap_or_else(|| panic!("no navigation to {url} in {events:?}"));
    assert!(navigated["target_id"].is_string(), "{navigated}");
    let dialog = events
        .iter()
        .find(|e| e["event"] == "dialog")
        .unwrap_or_else(|| panic!("no dialog in {events:?}"));
    assert_eq!(dialog["kind"], "alert");
    assert_eq!(dialog["message"], "Saved");
    let note = listening
        .notes
        .iter()
        .find(|n| n["params"]["data"]["event"] == "dialog")
        .expect("the dialog's notification");
    assert_eq!(note["params"]["logger"], "rove.events");
    assert_eq!(note["params"]["level"], "info");

    // The same actions on a client that never asked: by the time the
    // listening client had its events, these have had as long, and a
    // round trip after them brings nothing either. Absence is the point,
    // so the wait is bounded (half a second), not on an event.
    let mut quiet = Client::start().await;
    open_and_click(&mut quiet, &url).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    quiet.request("tools/list", json!({})).await;
    assert!(quiet.events().is_empty(), "{:?}", quiet.events());

    // A level above an event's holds it back: warnings only, and a
    // navigation is routine.
    let mut strict = Client::start().await;
    strict
        .request("logging/setLevel", json!({"level": "warning"}))
        .await;
    open_and_click(&mut strict, &url).await;
    // Absence again, bounded as above.
    tokio::time::sleep(Duration::from_millis(500)).await;
    strict.request("tools/list", json!({})).await;
    assert!(strict.events().is_empty(), "{:?}", strict.events());
}
