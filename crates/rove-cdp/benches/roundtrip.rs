//! Round-trip cost of rove-cdp against the floor: a bare WebSocket loop over
//! the same kind of connection with no routing, no pending table, no deadline.
//!
//! Run with `cargo bench -p rove-cdp`. Prints a Markdown table for
//! docs/benchmarks.md. Not a timed test: numbers depend on the machine, the
//! ratios are what matter.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rove_browser::{Browser, LaunchOptions};
use rove_cdp::protocol::runtime::Evaluate;
use rove_cdp::protocol::target::{AttachToTarget, CreateTarget};
use rove_cdp::{Connection, Session, TransportConfig};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

const WARMUP: usize = 300;
const ROUNDS: usize = 20;
const PER_ROUND: usize = 250;
const PIPELINED: usize = 10_000;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(bench());
}

async fn bench() {
    let browser = Browser::launch(LaunchOptions::default())
        .await
        .expect("launch Chromium");
    let ws_url = browser.connection().await.expect("link").url().to_owned();
    let version = browser.version().await.expect("version").product;

    // rove-cdp: its own connection and page.
    let conn = Connection::connect(&ws_url, TransportConfig::default())
        .await
        .expect("connect");
    let page = new_page(&conn).await;
    // The floor: a bare socket to its own page.
    let (mut bare, bare_session) = bare_page(&ws_url).await;

    let evaluate = Evaluate::value("1+1");
    for _ in 0..WARMUP {
        page.send(&evaluate).await.expect("warm up rove-cdp");
        bare_call(&mut bare, &bare_session, 0).await;
    }

    // Alternate rounds so drift on the machine hits both sides alike.
    let mut rove_times = Vec::with_capacity(ROUNDS * PER_ROUND);
    let mut bare_times = Vec::with_capacity(ROUNDS * PER_ROUND);
    let mut next_id = 1_000_000u64;
    for _ in 0..ROUNDS {
        for _ in 0..PER_ROUND {
            next_id += 1;
            let started = Instant::now();
            bare_call(&mut bare, &bare_session, next_id).await;
            bare_times.push(started.elapsed());
        }
        for _ in 0..PER_ROUND {
            let started = Instant::now();
            let answer = page.send(&evaluate).await.expect("rove-cdp call");
            rove_times.push(started.elapsed());
            debug_assert_eq!(answer.result.value, Some(json!(2)));
        }
    }

    // Throughput: 10,000 calls in flight at once.
    let started = Instant::now();
    let calls = (0..PIPELINED).map(|_| page.send(&evaluate));
    for answer in futures_util::future::join_all(calls).await {
        answer.expect("pipelined call");
    }
    let rove_pipelined = started.elapsed();
    let bare_pipelined = bare_pipeline(&mut bare, &bare_session, PIPELINED).await;

    let (rove_p50, rove_p99) = percentiles(&mut rove_times);
    let (bare_p50, bare_p99) = percentiles(&mut bare_times);
    let per_sec = |d: Duration| PIPELINED as f64 / d.as_secs_f64();
    println!(
        "Browser: {version}; {} sequential calls each, {} pipelined.\n",
        ROUNDS * PER_ROUND,
        PIPELINED
    );
    println!("| `Runtime.evaluate(\"1+1\")` | p50 µs | p99 µs | 10,000 pipelined: s | calls/s |");
    println!("|---|---|---|---|---|");
    println!(
        "| bare WebSocket loop (floor) | {:.1} | {:.1} | {:.3} | {:.0} |",
        micros(bare_p50),
        micros(bare_p99),
        bare_pipelined.as_secs_f64(),
        per_sec(bare_pipelined)
    );
    println!(
        "| rove-cdp typed call | {:.1} | {:.1} | {:.3} | {:.0} |",
        micros(rove_p50),
        micros(rove_p99),
        rove_pipelined.as_secs_f64(),
        per_sec(rove_pipelined)
    );
    println!(
        "| ratio rove-cdp / floor | {:.3} | {:.3} | {:.3} | {:.3} |",
        rove_p50.as_secs_f64() / bare_p50.as_secs_f64(),
        rove_p99.as_secs_f64() / bare_p99.as_secs_f64(),
        rove_pipelined.as_secs_f64() / bare_pipelined.as_secs_f64(),
        per_sec(rove_pipelined) / per_sec(bare_pipelined),
    );
    conn.close().await;
    browser.close().await;
}

async fn new_page(conn: &Connection) -> Session {
    let target = conn
        .browser()
        .send(&CreateTarget {
            url: "about:blank".into(),
            ..CreateTarget::default()
        })
        .await
        .expect("target");
    let attached = conn
        .browser()
        .send(&AttachToTarget::flat(target.target_id))
        .await
        .expect("attach");
    conn.session(attached.session_id)
}

async fn bare_page(ws_url: &str) -> (Socket, String) {
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(ws_url, None, true)
        .await
        .expect("bare connect");
    let created = request(
        &mut socket,
        json!({"id": 1, "method": "Target.createTarget", "params": {"url": "about:blank"}}),
    )
    .await;
    let target = created["result"]["targetId"]
        .as_str()
        .expect("targetId")
        .to_owned();
    let attached = request(
        &mut socket,
        json!({"id": 2, "method": "Target.attachToTarget", "params": {"targetId": target, "flatten": true}}),
    )
    .await;
    let session = attached["result"]["sessionId"]
        .as_str()
        .expect("sessionId")
        .to_owned();
    (socket, session)
}

async fn request(socket: &mut Socket, message: serde_json::Value) -> serde_json::Value {
    let id = message["id"].clone();
    socket
        .send(Message::text(message.to_string()))
        .await
        .expect("send");
    loop {
        let Some(Ok(Message::Text(text))) = socket.next().await else {
            panic!("socket ended")
        };
        let value: serde_json::Value = serde_json::from_str(text.as_str()).expect("json");
        if value["id"] == id {
            return value;
        }
    }
}

/// One call on the bare socket: format, send, read until our answer. The
/// frame is matched by a substring test, cheaper than any routing.
async fn bare_call(socket: &mut Socket, session: &str, id: u64) {
    let text = format!(
        r#"{{"id":{id},"method":"Runtime.evaluate","sessionId":"{session}","params":{{"expression":"1+1","returnByValue":true,"awaitPromise":true}}}}"#
    );
    socket.send(Message::text(text)).await.expect("send");
    let needle = format!(r#""id":{id},"#);
    loop {
        let Some(Ok(Message::Text(text))) = socket.next().await else {
            panic!("socket ended")
        };
        if text.as_str().contains(&needle) {
            return;
        }
    }
}

async fn bare_pipeline(socket: &mut Socket, session: &str, count: usize) -> Duration {
    let started = Instant::now();
    for id in 0..count {
        let text = format!(
            r#"{{"id":{},"method":"Runtime.evaluate","sessionId":"{session}","params":{{"expression":"1+1","returnByValue":true,"awaitPromise":true}}}}"#,
            5_000_000 + id
        );
        socket.feed(Message::text(text)).await.expect("feed");
    }
    socket.flush().await.expect("flush");
    let mut answered = 0;
    while answered < count {
        let Some(Ok(Message::Text(text))) = socket.next().await else {
            panic!("socket ended")
        };
        if text.as_str().starts_with(r#"{"id":"#) {
            answered += 1;
        }
    }
    started.elapsed()
}

fn percentiles(times: &mut [Duration]) -> (Duration, Duration) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    (at(0.50), at(0.99))
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
