//! A hostile client on stdio that calls no tool: every bad line gets a
//! JSON-RPC parse error on stdout, the server keeps serving, stdout stays
//! whole lines of JSON-RPC, stderr stays plain.

use std::time::Duration;

use serde_json::json;

use crate::mcp_faults::stdio::client;
use crate::mcp_faults::support::{Stdio, assert_parse_error};

#[tokio::test]
async fn stdio_answers_a_line_that_is_not_json_with_a_parse_error() {
    answered_then_served(b"{not json").await;
}

#[tokio::test]
async fn stdio_answers_raw_control_bytes_with_a_parse_error() {
    answered_then_served(b"\x01\x02\x1b[31m\x00\x7f").await;
}

#[tokio::test]
async fn stdio_answers_a_lone_surrogate_with_a_parse_error() {
    answered_then_served(
        br#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"x":"\ud800"}}"#,
    )
    .await;
}

#[tokio::test]
async fn stdio_answers_invalid_utf8_with_a_parse_error() {
    answered_then_served(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"\xff\xfe\xc3\"}").await;
}

#[tokio::test]
async fn stdio_answers_json_that_is_no_request_with_invalid_request_and_a_null_id() {
    let mut client = client().await;
    client.send(r#"{"hello": "world"}"#).await;
    let error = client.next().await;
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert!(
        error.as_object().is_some_and(|m| m.contains_key("id")) && error["id"].is_null(),
        "{error}"
    );
    let tools = client.request(7, "tools/list", json!({})).await;
    assert!(tools["result"]["tools"].is_array(), "{tools}");
}

#[tokio::test]
async fn stdio_answers_a_line_over_16_mib_with_an_error_and_serves_the_next() {
    let mut client = client().await;
    // A request 1 byte over the limit, with an id the server must not
    // answer as if it had read it.
    let filler = "x".repeat(rove_mcp::MAX_MESSAGE_BYTES);
    let huge =
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"pad": filler}})
            .to_string();
    assert!(huge.len() > rove_mcp::MAX_MESSAGE_BYTES);
    client.send(&huge).await;
    let error = client.next().await;
    assert_parse_error(&error);
    assert!(
        error["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("16777216 bytes")),
        "{error}"
    );
    // A line of exactly the limit is still read.
    let mut exact =
        json!({"jsonrpc": "2.0", "id": 6, "method": "ping", "params": {"pad": ""}}).to_string();
    let room = rove_mcp::MAX_MESSAGE_BYTES - exact.len();
    exact = exact.replace("\"pad\":\"\"", &format!("\"pad\":\"{}\"", "y".repeat(room)));
    assert_eq!(exact.len(), rove_mcp::MAX_MESSAGE_BYTES);
    client.send(&exact).await;
    let pong = client.answer_to(6).await;
    assert!(pong["error"].is_null(), "{pong}");
    let tools = client.request(7, "tools/list", json!({})).await;
    assert!(tools["result"]["tools"].is_array(), "{tools}");
}

#[tokio::test]
async fn stdout_stays_whole_json_rpc_lines_when_bad_and_good_lines_mix() {
    let mut client = client().await;
    let mut expected_errors = 0;
    for i in 0..200u64 {
        if i % 2 == 0 {
            client.send_bytes(b"{\"broken\": ").await;
            expected_errors += 1;
        } else {
            client
                .send(&json!({"jsonrpc": "2.0", "id": 100 + i, "method": "tools/list"}).to_string())
                .await;
        }
    }
    client
        .send(&json!({"jsonrpc": "2.0", "id": 9999, "method": "ping"}).to_string())
        .await;
    let (mut errors, mut lists) = (0, 0);
    loop {
        // `next` fails the test on any line that is not JSON-RPC.
        let message = client.next().await;
        if message["id"] == json!(9999) {
            break;
        }
        if message["error"]["code"] == -32700 {
            errors += 1;
        } else if message["result"]["tools"].is_array() {
            lists += 1;
        }
    }
    // The ping comes after everything sent before it was read; answers to
    // the lists may still trail it, the parse errors may not.
    assert_eq!(errors, expected_errors);
    while lists < 100 {
        let message = client.next().await;
        assert!(message["result"]["tools"].is_array(), "{message}");
        lists += 1;
    }
}

#[tokio::test]
async fn resources_and_prompts_lists_are_empty_and_log_no_warning() {
    let log =
        std::env::temp_dir().join(format!("rove-mcp-faults-lists-{}.log", std::process::id()));
    let file = std::fs::File::create(&log).expect("log file");
    let mut client = Stdio::start(&[], std::process::Stdio::from(file)).await;
    let resources = client.request(2, "resources/list", json!({})).await;
    assert_eq!(resources["result"]["resources"], json!([]), "{resources}");
    let templates = client
        .request(3, "resources/templates/list", json!({}))
        .await;
    assert_eq!(
        templates["result"]["resourceTemplates"],
        json!([]),
        "{templates}"
    );
    let prompts = client.request(4, "prompts/list", json!({})).await;
    assert_eq!(prompts["result"]["prompts"], json!([]), "{prompts}");
    drop(client.stdin);
    let _ = tokio::time::timeout(Duration::from_secs(30), client.child.wait()).await;
    let logged = std::fs::read_to_string(&log).expect("log");
    let _ = std::fs::remove_file(&log);
    assert!(!logged.contains("WARN"), "{logged}");
}

#[tokio::test]
async fn stderr_has_no_colour_codes_when_it_is_not_a_terminal() {
    let log = std::env::temp_dir().join(format!("rove-mcp-faults-ansi-{}.log", std::process::id()));
    let file = std::fs::File::create(&log).expect("log file");
    let mut client = Stdio::start(&[("RUST_LOG", "debug")], std::process::Stdio::from(file)).await;
    let tools = client.request(2, "tools/list", json!({})).await;
    assert!(tools["result"]["tools"].is_array());
    drop(client.stdin);
    let _ = tokio::time::timeout(Duration::from_secs(30), client.child.wait()).await;
    let logged = std::fs::read_to_string(&log).expect("log");
    let _ = std::fs::remove_file(&log);
    assert!(logged.contains("DEBUG"), "the server logged: {logged}");
    assert!(!logged.contains('\u{1b}'), "{logged}");
}

/// Sends `bad`, expects a parse error for it, then a normal answer.
async fn answered_then_served(bad: &[u8]) {
    let mut client = client().await;
    client.send_bytes(bad).await;
    assert_parse_error(&client.next().await);
    let tools = client.request(7, "tools/list", json!({})).await;
    assert!(
        tools["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty()),
        "{tools}"
    );
}
