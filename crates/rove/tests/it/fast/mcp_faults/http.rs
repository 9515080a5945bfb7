//! Slow, many and careless clients of `rove mcp --http` that call no tool:
//! deadlines on headers and bodies, a crowd of half-open connections, the
//! descriptor limit, caps, expiry, and the answers of the authorization
//! spec.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::mcp_faults::support::{
    Answer, HttpProcess, allow_open_files, cpu_time, half_open, initialize, open_session,
    read_answer, request, tools_list,
};

#[tokio::test]
async fn http_closes_a_half_sent_request_within_10_seconds() {
    let server = HttpProcess::start().await;
    let mut held = half_open(&server.addr, 1).await;
    let stream = held.first_mut().expect("a connection");
    let took = closed_by_server(stream, Duration::from_secs(30)).await;
    assert!(
        took <= Duration::from_secs(12),
        "half a request held the connection for {took:?}"
    );
}

#[tokio::test]
async fn http_answers_a_body_that_stops_coming_with_408() {
    let server = HttpProcess::start().await;
    let mut stream = TcpStream::connect(&server.addr).await.expect("connect");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 500\r\n\r\n{{\"jsonrpc\":",
        server.addr,
        server.bearer()
    );
    stream.write_all(head.as_bytes()).await.expect("send");
    let started = Instant::now();
    let answer = read_answer(&mut stream, None).await;
    assert_eq!(answer.status, 408, "{answer:?}");
    assert!(
        started.elapsed() <= Duration::from_secs(12),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn http_refuses_a_body_over_16_mib_with_413() {
    let server = HttpProcess::start().await;
    let mut stream = TcpStream::connect(&server.addr).await.expect("connect");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n",
        server.addr,
        server.bearer(),
        rove_mcp::MAX_MESSAGE_BYTES + 1
    );
    stream.write_all(head.as_bytes()).await.expect("send");
    let answer = read_answer(&mut stream, None).await;
    assert_eq!(answer.status, 413, "{answer:?}");
}

#[tokio::test]
async fn http_answers_the_token_holder_while_1000_half_open_connections_are_held() {
    allow_open_files(4096);
    let server = HttpProcess::start().await;
    let held = half_open(&server.addr, 1000).await;
    let started = Instant::now();
    let session = open_session(&server.addr, &server.bearer()).await;
    let (answer, listed) = tools_list(&server.addr, &server.bearer(), &session).await;
    let total = started.elapsed();
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(tools_in(&answer) > 10, "{answer:?}");
    assert!(
        total < Duration::from_secs(5),
        "initialize and tools/list took {total:?} (tools/list {listed:?})"
    );
    // The server holds no more than its cap of connections (256), however
    // many are knocking.
    let descriptors = std::fs::read_dir(format!("/proc/{}/fd", server.pid()))
        .expect("fds")
        .count();
    assert!(descriptors < 256 + 64, "{descriptors} descriptors open");
    drop(held);
}

#[tokio::test]
async fn http_accept_backs_off_at_the_file_descriptor_limit() {
    allow_open_files(1024);
    let server = HttpProcess::start_with(|command| {
        // SAFETY: setrlimit is async-signal-safe and touches only the child.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 64,
                    rlim_max: 64,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    })
    .await;
    let held = half_open(&server.addr, 300).await;
    // The server is past its 64 descriptors with connections still queued:
    // over two seconds it must mostly sleep, not spin on accept.
    let before = cpu_time(server.pid());
    let window = Instant::now();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let used = cpu_time(server.pid()) - before;
    let elapsed = window.elapsed();
    assert!(
        used < elapsed / 4,
        "the server used {used:?} of CPU in {elapsed:?} at the descriptor limit"
    );
    // And a client with the token still gets in.
    let started = Instant::now();
    let session = open_session(&server.addr, &server.bearer()).await;
    let (answer, _) = tools_list(&server.addr, &server.bearer(), &session).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(tools_in(&answer) > 10, "{answer:?}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    drop(held);
}

#[tokio::test]
async fn http_delete_ends_a_session_with_204_and_an_unknown_one_is_404() {
    let server = HttpProcess::start().await;
    let bearer = server.bearer();
    let session = open_session(&server.addr, &bearer).await;
    let delete = |id: String| {
        let (addr, bearer) = (server.addr.clone(), bearer.clone());
        async move {
            request(
                &addr,
                "DELETE",
                &[("Authorization", &bearer), ("Mcp-Session-Id", &id)],
                "",
                None,
            )
            .await
        }
    };
    let ended = delete(session.clone()).await;
    assert_eq!(ended.status, 204, "{ended:?}");
    let again = delete(session.clone()).await;
    assert_eq!(again.status, 404, "{again:?}");
    let (gone, _) = tools_list(&server.addr, &bearer, &session).await;
    assert_eq!(gone.status, 404, "{gone:?}");
}

#[tokio::test]
async fn http_accepts_the_bearer_scheme_in_any_case() {
    let server = HttpProcess::start().await;
    for scheme in ["bearer", "BEARER", "BeArEr"] {
        let authorization = format!("{scheme} {}", server.token);
        let session = open_session(&server.addr, &authorization).await;
        let (answer, _) = tools_list(&server.addr, &authorization, &session).await;
        assert_eq!(answer.status, 200, "{scheme}: {answer:?}");
    }
    // The token itself is compared exactly.
    let shouting = format!("Bearer {}", server.token.to_uppercase());
    let refused = request(
        &server.addr,
        "POST",
        &[("Authorization", &shouting)],
        &initialize(1),
        None,
    )
    .await;
    assert_eq!(refused.status, 401, "{refused:?}");
}

#[tokio::test]
async fn http_401_challenges_with_www_authenticate_and_serves_the_resource_metadata() {
    let server = HttpProcess::start().await;
    let missing = request(&server.addr, "POST", &[], &initialize(1), None).await;
    assert_eq!(missing.status, 401);
    let challenge = missing.header("www-authenticate").expect("a challenge");
    let metadata_url = format!(
        "http://{}/.well-known/oauth-protected-resource/mcp",
        server.addr
    );
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    assert!(
        challenge.contains(&format!("resource_metadata=\"{metadata_url}\"")),
        "{challenge}"
    );
    assert!(
        !challenge.contains("error="),
        "no token is not an error code: {challenge}"
    );

    let wrong = request(
        &server.addr,
        "POST",
        &[("Authorization", "Bearer nope")],
        &initialize(1),
        None,
    )
    .await;
    assert_eq!(wrong.status, 401);
    let challenge = wrong.header("www-authenticate").expect("a challenge");
    assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");
    let body: Value = serde_json::from_str(&wrong.body).expect("a JSON body");
    assert_eq!(body["error"], "invalid_token");

    // The metadata needs no token and names this resource.
    let mut stream = TcpStream::connect(&server.addr).await.expect("connect");
    let get = format!(
        "GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    );
    stream.write_all(get.as_bytes()).await.expect("send");
    let answer = read_answer(&mut stream, None).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let metadata: Value = serde_json::from_str(&answer.body).expect("JSON");
    assert_eq!(metadata["resource"], format!("http://{}/mcp", server.addr));
    assert_eq!(metadata["bearer_methods_supported"], json!(["header"]));
}

#[tokio::test]
async fn http_sessions_beyond_the_cap_are_refused_with_503() {
    let server = small_server(rove_mcp::HttpLimits {
        max_sessions: 3,
        ..rove_mcp::HttpLimits::default()
    })
    .await;
    let addr = server.addr.to_string();
    let mut sessions = Vec::new();
    for _ in 0..3 {
        sessions.push(open_session(&addr, "Bearer s3cret").await);
    }
    let refused = request(
        &addr,
        "POST",
        &[("Authorization", "Bearer s3cret")],
        &initialize(1),
        None,
    )
    .await;
    assert_eq!(refused.status, 503, "{refused:?}");
    assert!(refused.header("retry-after").is_some(), "{refused:?}");
    // The sessions in hand still work; ending one makes room.
    let (answer, _) = tools_list(&addr, "Bearer s3cret", &sessions[2]).await;
    assert_eq!(answer.status, 200);
    let ended = request(
        &addr,
        "DELETE",
        &[
            ("Authorization", "Bearer s3cret"),
            ("Mcp-Session-Id", &sessions[0]),
        ],
        "",
        None,
    )
    .await;
    assert_eq!(ended.status, 204, "{ended:?}");
    open_session(&addr, "Bearer s3cret").await;
    assert_eq!(server.sessions().await, 3);
}

#[tokio::test]
async fn idle_http_sessions_expire() {
    let server = small_server(rove_mcp::HttpLimits {
        session_idle: Duration::from_secs(1),
        ..rove_mcp::HttpLimits::default()
    })
    .await;
    let addr = server.addr.to_string();
    let session = open_session(&addr, "Bearer s3cret").await;
    assert_eq!(server.sessions().await, 1);
    // Watching the count does not touch the session (a request would keep
    // it alive).
    let deadline = Instant::now() + Duration::from_secs(30);
    while server.sessions().await > 0 {
        assert!(Instant::now() < deadline, "the idle session never expired");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (gone, _) = tools_list(&addr, "Bearer s3cret", &session).await;
    assert_eq!(gone.status, 404, "{gone:?}");
}

#[tokio::test]
async fn the_http_servers_idle_time_follows_the_idle_option() {
    let server = HttpProcess::start_with(|c| {
        c.args(["--idle", "1"]);
    })
    .await;
    let session = open_session(&server.addr, &server.bearer()).await;
    let (listed, _) = tools_list(&server.addr, &server.bearer(), &session).await;
    assert_eq!(listed.status, 200, "{listed:?}");
    // Left alone for longer than --idle, the session is gone; with the
    // default (15 minutes) it would still answer. A request that finds it
    // keeps it alive, so each look comes after more than the idle second
    // of quiet; the first look that finds it gone ends the wait.
    let deadline = Instant::now() + Duration::from_secs(30);
    let gone = loop {
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let (answer, _) = tools_list(&server.addr, &server.bearer(), &session).await;
        if answer.status == 404 || Instant::now() > deadline {
            break answer;
        }
    };
    assert_eq!(gone.status, 404, "{gone:?}");
}

#[tokio::test]
async fn http_at_the_connection_cap_with_every_connection_busy_a_new_one_gets_503() {
    let server = small_server(rove_mcp::HttpLimits {
        max_connections: 1,
        ..rove_mcp::HttpLimits::default()
    })
    .await;
    let addr = server.addr.to_string();
    let session = open_session(&addr, "Bearer s3cret").await;
    // The one connection: the session's event stream, open for as long as
    // the client wants it.
    let mut stream = TcpStream::connect(&addr).await.expect("connect");
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer s3cret\r\nAccept: text/event-stream\r\nMcp-Session-Id: {session}\r\n\r\n"
    );
    stream.write_all(get.as_bytes()).await.expect("send");
    let mut head = Vec::new();
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let mut chunk = [0u8; 1024];
        let n = tokio::time::timeout(Duration::from_secs(30), stream.read(&mut chunk))
            .await
            .expect("the stream's head")
            .expect("read");
        assert!(
            n > 0,
            "the stream closed: {}",
            String::from_utf8_lossy(&head)
        );
        head.extend_from_slice(&chunk[..n]);
    }
    assert!(
        head.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    // No room and nothing idle to close: the newcomer is told so.
    let (answer, _) = tools_list(&addr, "Bearer s3cret", &session).await;
    assert_eq!(answer.status, 503, "{answer:?}");
    assert_eq!(server.connections(), 1);
}

#[tokio::test]
async fn the_http_servers_debug_output_never_shows_its_token() {
    let server = small_server(rove_mcp::HttpLimits::default()).await;
    assert_eq!(server.token, "s3cret");
    let shown = format!("{server:?} {server:#?}");
    assert!(!shown.contains("s3cret"), "{shown}");
    assert!(shown.contains("<redacted>"), "{shown}");
}

/// Waits until the server closes `stream`; how long that took.
async fn closed_by_server(stream: &mut TcpStream, within: Duration) -> Duration {
    let started = Instant::now();
    let mut sink = [0u8; 1024];
    loop {
        match tokio::time::timeout(within, stream.read(&mut sink)).await {
            Err(_) => panic!("the server kept the connection open for {within:?}"),
            Ok(Ok(0)) | Ok(Err(_)) => return started.elapsed(),
            Ok(Ok(_)) => {}
        }
    }
}

fn tools_in(answer: &Answer) -> usize {
    answer
        .body
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .find_map(|m| m["result"]["tools"].as_array().map(Vec::len))
        .unwrap_or(0)
}

/// A server in this process with limits small enough to reach in a test.
async fn small_server(limits: rove_mcp::HttpLimits) -> rove_mcp::HttpServer {
    rove_mcp::serve_http_with(
        0,
        Some("s3cret".into()),
        rove_mcp::BrowserSource::Launch(rove_browser::LaunchOptions::default()),
        rove_commands::SessionConfig::default(),
        limits,
    )
    .await
    .expect("server")
}
