//! A scriptable WebSocket peer that speaks just enough CDP for transport tests.
#![allow(dead_code, unused_imports)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use futures_util::{SinkExt, StreamExt};
use rove_cdp::{Connection, TransportConfig};
use tokio::net::TcpListener;
use tokio::sync::{Notify, mpsc, watch};
use tokio_tungstenite::tungstenite::Message;

/// The fake browser's knobs, shared with its connection task.
#[derive(Default)]
pub struct Knobs {
    /// Swallow requests without answering.
    pub mute: AtomicBool,
    /// Send a burst of junk frames before each answer.
    pub junk: AtomicBool,
    /// Answer every request with text that is not JSON, as an endpoint
    /// that speaks no CDP does.
    pub garbage: AtomicBool,
}

pub struct FakeBrowser {
    pub url: String,
    pub knobs: Arc<Knobs>,
    out: mpsc::UnboundedSender<Message>,
    hang_up: Arc<Notify>,
    /// The method of every request it has read, in order (muted or not).
    received: watch::Receiver<Vec<String>>,
}

impl FakeBrowser {
    /// Listens on 127.0.0.1 and serves one WebSocket client. Each request
    /// `{id, method, params, sessionId?}` is answered with
    /// `{id, sessionId?, result: {method, params}}` unless muted.
    pub async fn start() -> FakeBrowser {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!(
            "ws://{}/devtools/browser/fake",
            listener.local_addr().expect("addr")
        );
        let knobs = Arc::new(Knobs::default());
        let (out, mut out_rx) = mpsc::unbounded_channel::<Message>();
        let hang_up = Arc::new(Notify::new());
        let (seen, received) = watch::channel(Vec::new());
        let (task_knobs, task_out, task_hang_up) = (knobs.clone(), out.clone(), hang_up.clone());
        tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.expect("accept");
            let ws = tokio_tungstenite::accept_async(tcp)
                .await
                .expect("handshake");
            let (mut sink, mut stream) = ws.split();
            let writer = tokio::spawn(async move {
                while let Some(msg) = out_rx.recv().await {
                    if sink.send(msg).await.is_err() {
                        return;
                    }
                }
            });
            loop {
                let frame = tokio::select! {
                    _ = task_hang_up.notified() => break,
                    frame = stream.next() => frame,
                };
                let Some(Ok(Message::Text(text))) = frame else {
                    break;
                };
                let request: serde_json::Value =
                    serde_json::from_str(text.as_str()).expect("request is JSON");
                let method = request["method"].as_str().unwrap_or_default().to_owned();
                seen.send_modify(|methods| methods.push(method));
                if task_knobs.mute.load(Ordering::SeqCst) {
                    continue;
                }
                if task_knobs.garbage.load(Ordering::SeqCst) {
                    let _ = task_out.send(Message::text("<html>not a browser</html>"));
                    continue;
                }
                if task_knobs.junk.load(Ordering::SeqCst) {
                    for junk in junk_frames() {
                        let _ = task_out.send(junk);
                    }
                }
                let mut reply = serde_json::json!({
                    "id": request["id"],
                    "result": {"method": request["method"], "params": request["params"]},
                });
                if let Some(session) = request.get("sessionId") {
                    reply["sessionId"] = session.clone();
                }
                let _ = task_out.send(Message::text(reply.to_string()));
            }
            writer.abort();
        });
        FakeBrowser {
            url,
            knobs,
            out,
            hang_up,
            received,
        }
    }

    /// Waits (10 s at most) until it has read `count` requests for
    /// `method`: the client has sent them, so each is in its pending table
    /// (a call is registered before it is written).
    pub async fn received(&self, method: &str, count: usize) {
        let mut received = self.received.clone();
        let arrived = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            received.wait_for(|methods| methods.iter().filter(|m| *m == method).count() >= count),
        )
        .await;
        assert!(
            matches!(arrived, Ok(Ok(_))),
            "the fake browser did not receive {count} {method} requests: {:?}",
            *self.received.borrow()
        );
    }

    /// Sends a raw text frame to the client.
    pub fn push(&self, text: impl Into<String>) {
        let _ = self.out.send(Message::text(text.into()));
    }

    /// Sends an event.
    pub fn event(&self, method: &str, session: Option<&str>, params: serde_json::Value) {
        let mut frame = serde_json::json!({"method": method, "params": params});
        if let Some(s) = session {
            frame["sessionId"] = s.into();
        }
        self.push(frame.to_string());
    }

    /// Drops the socket abruptly.
    pub fn hang_up(&self) {
        self.hang_up.notify_one();
    }

    pub async fn connect(&self, config: TransportConfig) -> Connection {
        Connection::connect(&self.url, config)
            .await
            .expect("connect to fake browser")
    }
}

/// Frames a transport must survive: not JSON, wrong shapes, unknown ids and
/// events, binary junk.
pub fn junk_frames() -> Vec<Message> {
    vec![
        Message::text("this is not json"),
        Message::text("{\"id\": 987654321, \"result\": {}}"),
        Message::text("{\"id\": \"not-a-number\"}"),
        Message::text("{\"method\": \"Made.up\", \"params\": {\"x\": [1, 2, 3]}}"),
        Message::text(
            "{\"method\": \"Target.attachedToTarget\", \"params\": {\"nonsense\": true}}",
        ),
        Message::text("[1, 2, 3]"),
        Message::text("{}"),
        Message::text("{\"id\": 1e400}"),
        Message::text("{\"truncated\": "),
        Message::binary(vec![0xff, 0xfe, 0x00, 0x01]),
        Message::binary(b"{\"id\": 424242, \"result\": {}}".to_vec()),
    ]
}

/// The tests that move a message of hundreds of megabytes take turns: one
/// such message keeps a core busy for tens of seconds in a debug build, and
/// two at once in one process (they share a test binary) would each miss
/// their deadline on a 2-core machine.
pub async fn one_big_message_at_a_time() -> tokio::sync::MutexGuard<'static, ()> {
    static BIG_MESSAGE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    BIG_MESSAGE.lock().await
}

pub fn quick(timeout_ms: u64) -> TransportConfig {
    TransportConfig {
        call_timeout: std::time::Duration::from_millis(timeout_ms),
        ..TransportConfig::default()
    }
}
