//! Cancellation over stdio: a cancelled call stops its running command and
//! frees the session for the next one (real Chromium runs the commands).

use std::time::{Duration, Instant};

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::json;

use crate::mcp_faults::support::Stdio;

pub(crate) async fn client() -> Stdio {
    Stdio::start(&[], std::process::Stdio::null()).await
}

/// Opens a page on `server`, measures a snapshot (the floor), sends `call`
/// as request 4, waits for `started`, cancels it, and returns how long the
/// next snapshot took to answer after the cancel, with the floor.
async fn cancel_then_snapshot(
    server: &LocalServer,
    call: serde_json::Value,
    started: impl std::future::Future<Output = ()>,
) -> (Duration, Duration) {
    cancel_then_snapshot_in(client().await, server, call, started).await
}

/// [`cancel_then_snapshot`] with a client of one's own.
async fn cancel_then_snapshot_in(
    mut client: Stdio,
    server: &LocalServer,
    call: serde_json::Value,
    started: impl std::future::Future<Output = ()>,
) -> (Duration, Duration) {
    let opened = client
        .request(
            2,
            "tools/call",
            json!({"name": "open", "arguments": {"url": server.url("/p")}}),
        )
        .await;
    assert_eq!(opened["result"]["isError"], false, "{opened}");
    let begun = Instant::now();
    let floor = client
        .request(
            3,
            "tools/call",
            json!({"name": "snapshot", "arguments": {}}),
        )
        .await;
    let floor_time = begun.elapsed();
    assert_eq!(floor["result"]["isError"], false, "{floor}");

    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": call}).to_string(),
        )
        .await;
    tokio::time::timeout(Duration::from_secs(30), started)
        .await
        .expect("the command began");
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4, "reason": "the user moved on"}}).to_string())
        .await;
    let cancelled_at = Instant::now();
    client
        .send(&json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "snapshot", "arguments": {}}}).to_string())
        .await;
    loop {
        let message = client.next().await;
        assert_ne!(
            message["id"],
            json!(4),
            "a cancelled request gets no answer: {message}"
        );
        if message["id"] == json!(6) {
            assert_eq!(message["result"]["isError"], false, "{message}");
            break;
        }
    }
    (cancelled_at.elapsed(), floor_time)
}

#[tokio::test]
async fn a_cancelled_call_stops_its_running_command() {
    // The command announces that it runs (the page fetches /started), then
    // would take 30 s.
    let started = std::sync::Arc::new(tokio::sync::Notify::new());
    let signal = started.clone();
    let server = LocalServer::start(
        Routes::new()
            .page(
                "/p",
                Response::html("<!doctype html><title>Slow</title><p>slow</p>"),
            )
            .handle("/started", move |_| {
                signal.notify_one();
                Response::text("ok")
            }),
    )
    .await
    .expect("server");
    let call = json!({"name": "eval", "arguments": {"js": "() => { fetch('/started'); return new Promise(r => setTimeout(r, 30000)); }"}});
    let (freed, floor) = cancel_then_snapshot(&server, call, started.notified()).await;
    // Well below the command's own 30 s, whatever the machine's load (a
    // bound near the snapshot's own time would measure the load).
    assert!(
        freed < Duration::from_secs(10),
        "the session was busy {freed:?} after the cancel (a snapshot alone takes {floor:?}): the 30 s command kept running"
    );
}

#[tokio::test]
async fn a_cancelled_wait_frees_the_session() {
    let server = LocalServer::start(Routes::new().page(
        "/p",
        Response::html("<!doctype html><title>Slow</title><p>slow</p>"),
    ))
    .await
    .expect("server");
    // A 12 s wait for text that never comes, cancelled as soon as it was
    // sent.
    let call = json!({"name": "wait", "arguments": {"text": "never appears", "ms": 12000}});
    let (freed, floor) = cancel_then_snapshot(&server, call, async {}).await;
    // Well below the wait's own 12 s.
    assert!(
        freed < Duration::from_secs(6),
        "the session was busy {freed:?} after the cancel (a snapshot alone takes {floor:?}): the 12 s wait kept running"
    );
}

#[tokio::test]
async fn a_cancelled_wait_frees_a_session_shared_with_the_shell() {
    // The session is a daemon's, named by the host: the cancel reaches the
    // daemon as the forwarded call's connection closing.
    let env = crate::support::Env::with_routes(
        "mcp-shared-cancel",
        Routes::new().page(
            "/p",
            Response::html("<!doctype html><title>Slow</title><p>slow</p>"),
        ),
    )
    .await;
    let runtime = env.dir.to_string_lossy().into_owned();
    let client = Stdio::start_with_args(
        &["--session", "shared"],
        &[
            ("XDG_RUNTIME_DIR", &runtime),
            ("ROVE_IDLE", "60"),
            ("RUST_LOG", "warn,rove=info"),
        ],
        std::process::Stdio::null(),
    )
    .await;
    let call = json!({"name": "wait", "arguments": {"text": "never appears", "ms": 12000}});
    // Cancelled once the daemon runs it.
    let log = env.log("shared");
    let started = crate::support::wait_for_line(&log, "running command=\"wait\"");
    let (freed, floor) = cancel_then_snapshot_in(client, &env.server, call, started).await;
    env.close("shared").await;
    // Well below the wait's own 12 s.
    assert!(
        freed < Duration::from_secs(6),
        "the session was busy {freed:?} after the cancel (a snapshot alone takes {floor:?}): the 12 s wait kept running in the daemon"
    );
}
