//! An HTTP client of `rove mcp --http` whose first tool call starts its
//! session's thread and browser: idle sessions hold no thread until then,
//! and ending the session ends its thread.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::mcp_faults::support::{HttpProcess, open_session, request, thread_names};

#[tokio::test]
async fn idle_http_sessions_hold_no_thread_until_their_first_tool_call() {
    let server = HttpProcess::start().await;
    let pid = server.pid();
    let session_threads = || {
        thread_names(pid)
            .iter()
            .filter(|n| n.starts_with("rove-mcp-sess"))
            .count()
    };
    let threads_before = thread_names(pid).len();
    let mut sessions = Vec::new();
    for _ in 0..50 {
        sessions.push(open_session(&server.addr, &server.bearer()).await);
    }
    assert_eq!(session_threads(), 0);
    let threads_after = thread_names(pid).len();
    assert!(
        threads_after <= threads_before + 2,
        "50 idle sessions: {threads_before} threads became {threads_after}"
    );
    // The first tool call starts the session's thread (and its browser).
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "tab", "arguments": {}}}).to_string();
    let answer = request(
        &server.addr,
        "POST",
        &[
            ("Authorization", &server.bearer()),
            ("Mcp-Session-Id", &sessions[0]),
        ],
        &call,
        Some(3),
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(answer.body.contains("\"id\":3"), "{answer:?}");
    assert_eq!(session_threads(), 1);
    // Ending the session ends its thread.
    let ended = request(
        &server.addr,
        "DELETE",
        &[
            ("Authorization", &server.bearer()),
            ("Mcp-Session-Id", &sessions[0]),
        ],
        "",
        None,
    )
    .await;
    assert_eq!(ended.status, 204, "{ended:?}");
    let deadline = Instant::now() + Duration::from_secs(30);
    while session_threads() > 0 {
        assert!(
            Instant::now() < deadline,
            "the session's thread outlived it"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
