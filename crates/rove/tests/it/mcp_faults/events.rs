//! Browser events over `rove mcp --http`: a session that sent
//! `logging/setLevel` gets its navigation as `notifications/message` on
//! its event stream (the `GET /mcp` the streamable HTTP transport keeps
//! for messages outside a request).

use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::mcp_faults::support::{HttpProcess, open_session, request};

#[tokio::test]
async fn http_a_session_that_set_a_level_gets_its_navigation_on_its_event_stream() {
    let pages =
        LocalServer::start(Routes::new().page("/form", Response::html("<title>Form</title><p>hi")))
            .await
            .expect("pages");
    let url = pages.url("/form");
    let server = HttpProcess::start().await;
    let (addr, bearer) = (server.addr.clone(), server.bearer());
    let session = open_session(&addr, &bearer).await;
    let headers = [
        ("Authorization", bearer.as_str()),
        ("Mcp-Session-Id", session.as_str()),
    ];
    let set = json!({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "debug"}});
    let answer = request(&addr, "POST", &headers, &set.to_string(), Some(3)).await;
    assert_eq!(answer.status, 200, "{answer:?}");

    // The session's event stream.
    let mut stream = TcpStream::connect(&addr).await.expect("connect");
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: {addr}\r\nAuthorization: {bearer}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {session}\r\n\r\n"
    );
    stream.write_all(get.as_bytes()).await.expect("send");
    // Its head first: the stream is in place before anything happens.
    let mut got = Vec::new();
    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
        let mut chunk = [0u8; 1024];
        let n = tokio::time::timeout(Duration::from_secs(30), stream.read(&mut chunk))
            .await
            .expect("the stream's head")
            .expect("read");
        assert!(
            n > 0,
            "the stream closed: {}",
            String::from_utf8_lossy(&got)
        );
        got.extend_from_slice(&chunk[..n]);
    }
    assert!(
        got.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&got)
    );

    let open = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "open", "arguments": {"url": url}}});
    let answer = request(&addr, "POST", &headers, &open.to_string(), Some(4)).await;
    assert_eq!(answer.status, 200, "{answer:?}");

    // Read the stream until the navigation's message came (30 s at most).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let navigated = loop {
        let text = String::from_utf8_lossy(&got).into_owned();
        if let Some(line) = text.lines().find(|l| {
            l.starts_with("data:")
                && l.contains("notifications/message")
                && l.contains("\"navigated\"")
        }) {
            break line.trim_start_matches("data:").trim().to_owned();
        }
        let mut chunk = [0u8; 8192];
        match tokio::time::timeout_at(deadline, stream.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => got.extend_from_slice(&chunk[..n]),
            _ => panic!("no navigation on the event stream: {text}"),
        }
    };
    let message: serde_json::Value = serde_json::from_str(&navigated).expect("JSON-RPC");
    assert_eq!(message["params"]["logger"], "rove.events", "{message}");
    assert_eq!(message["params"]["data"]["url"], url.as_str(), "{message}");
}
