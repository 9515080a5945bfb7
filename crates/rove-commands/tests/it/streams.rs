//! Settling on apps that answer over a WebSocket or an event stream (a
//! Streamlit app answers a click with frames): an action that asked the
//! server that way waits for the answer, and an answer that has not come
//! is never reported as "nothing visible changed". `open` waits for a page
//! whose content arrives over its WebSocket after the load.
//!
//! The server here is the test's own, on 127.0.0.1: plain HTTP for the
//! pages and the event stream, a WebSocket (tokio-tungstenite's handshake)
//! on `/ws`, each answer delayed as a busy server's would be.

use std::time::{Duration, Instant};

use rove_commands::SessionConfig;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::broadcast;

use crate::support::{Fixture, fixture_routes};

/// How long the server takes to answer: far past the DOM's and the
/// network's settling, well inside the streams' cap.
const ANSWER_DELAY: Duration = Duration::from_millis(800);

/// The pause inside an answer in two parts: longer than the quiet rove
/// allows between a server's frames by default.
const PAUSE_IN_ANSWER: Duration = Duration::from_millis(600);

/// A page that asks its server over a WebSocket.
const WS_PAGE: &str = "<title>Socket</title><p id=answer>No answer</p>\
    <button onclick=\"ws.send('ask')\">Ask</button>\
    <button onclick=\"ws.send('silence')\">Ask nobody</button>\
    <button onclick=\"ws.send('ticks')\">Ask for ticks</button>\
    <button onclick=\"document.title = document.title\">Local</button>\
    <button onclick=\"answer.textContent = 'Asked'; ws.send('parts')\">Ask in parts</button>\
    <script>const ws = new WebSocket('ws://' + location.host + '/ws');\
    ws.onmessage = (m) => { answer.textContent = m.data; };</script>";

/// An app shell that shows "Running…" until its server's first frames
/// build the page.
const WS_SHELL: &str = "<title>Dashboard</title><p>Running…</p><script>\
    const ws = new WebSocket('ws://' + location.host + '/ws');\
    ws.onopen = () => ws.send('hello');\
    ws.onmessage = (m) => { document.body.innerHTML = '<h1>' + m.data + '</h1><button>Refresh</button>'; };\
    </script>";

/// A page that listens on an event stream and asks with a request.
const SSE_PAGE: &str = "<title>Stream</title><p id=answer>No answer</p>\
    <button onclick=\"fetch('/ask', {method: 'POST'})\">Ask</button>\
    <script>const source = new EventSource('/events');\
    source.onmessage = (m) => { answer.textContent = m.data; };</script>";

/// A queued app, as Gradio's: the stream says at once that the work
/// started, the result comes late, and meanwhile a screen reader's status
/// region says "Loading" (its only sign of working).
const QUEUE_PAGE: &str = "<title>Queue</title><p id=answer>No answer</p>\
    <div role=status aria-live=polite id=working style='position:absolute;width:1px;height:1px;overflow:hidden'></div>\
    <button onclick=\"working.textContent = 'Loading'; fetch('/queue', {method: 'POST'})\">Compute</button>\
    <script>const source = new EventSource('/events');\
    source.onmessage = (m) => { answer.textContent = m.data;\
      if (m.data !== 'Started') working.textContent = ''; };</script>";

/// The test's server (see the module).
struct StreamServer {
    url: String,
}

impl StreamServer {
    async fn start() -> StreamServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let (asked, _) = broadcast::channel::<String>(16);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, asked.clone()));
            }
        });
        StreamServer { url }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }
}

/// One connection: a page, the event stream, a request that asks on it,
/// or the WebSocket.
async fn serve(stream: TcpStream, asked: broadcast::Sender<String>) {
    let mut head = [0u8; 2048];
    let Ok(n) = stream.peek(&mut head).await else {
        return;
    };
    let head = String::from_utf8_lossy(&head[..n]).to_string();
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
    if path == "/ws" {
        return socket(stream).await;
    }
    let mut stream = stream;
    // The request itself (no page here sends a body but `/ask`'s empty one).
    let mut buf = vec![0u8; n];
    let _ = stream.read_exact(&mut buf).await;
    let page = |body: &str| {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    match path.as_str() {
        "/ws-page" => {
            let _ = stream.write_all(page(WS_PAGE).as_bytes()).await;
        }
        "/ws-shell" => {
            let _ = stream.write_all(page(WS_SHELL).as_bytes()).await;
        }
        "/sse-page" => {
            let _ = stream.write_all(page(SSE_PAGE).as_bytes()).await;
        }
        "/queue-page" => {
            let _ = stream.write_all(page(QUEUE_PAGE).as_bytes()).await;
        }
        "/queue" => {
            let _ = stream
                .write_all(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
                .await;
            let _ = asked.send("Started".into());
            tokio::spawn(async move {
                tokio::time::sleep(ANSWER_DELAY).await;
                let _ = asked.send("Result: 7".into());
            });
        }
        "/ask" => {
            let _ = stream
                .write_all(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
                .await;
            tokio::spawn(async move {
                tokio::time::sleep(ANSWER_DELAY).await;
                let _ = asked.send("Answer: 42 (by stream)".into());
            });
        }
        "/events" => {
            let mut answers = asked.subscribe();
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\r\n: open\n\n")
                .await;
            while let Ok(answer) = answers.recv().await {
                if stream
                    .write_all(format!("data: {answer}\n\n").as_bytes())
                    .await
                    .is_err()
                {
                    return;
                }
            }
        }
        _ => {
            let _ = stream
                .write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                )
                .await;
        }
    }
}

/// The WebSocket: `ask` is answered after [`ANSWER_DELAY`], `hello` too
/// (with the page's content), `ticks` with a frame every 100 ms for 6 s,
/// `parts` in two parts numbered by how often it was asked, `silence`
/// never.
async fn socket(stream: TcpStream) {
    let Some((out, mut incoming)) = crate::support::websocket_texts(stream).await else {
        return;
    };
    let mut asked_for_parts = 0;
    while let Some(text) = incoming.recv().await {
        let out = out.clone();
        if text == "parts" {
            asked_for_parts += 1;
        }
        let parts = asked_for_parts;
        tokio::spawn(async move {
            match text.as_str() {
                "ask" => {
                    tokio::time::sleep(ANSWER_DELAY).await;
                    let _ = out.send("Answer: 42".into());
                }
                "parts" => {
                    // A server that answers in two parts with a long pause
                    // between them (a Streamlit run under load).
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    let _ = out.send("Working".into());
                    tokio::time::sleep(PAUSE_IN_ANSWER).await;
                    let _ = out.send(format!("Answer: in parts {parts}"));
                }
                "hello" => {
                    tokio::time::sleep(ANSWER_DELAY).await;
                    let _ = out.send("Sales by region".into());
                }
                "ticks" => {
                    for n in 0..60 {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        let _ = out.send(format!("Tick {n}"));
                    }
                }
                _ => {}
            }
        });
    }
}

async fn start() -> (Fixture, StreamServer) {
    let server = StreamServer::start().await;
    let fixture = Fixture::with(fixture_routes(), SessionConfig::default()).await;
    (fixture, server)
}

async fn open(f: &mut Fixture, url: &str) -> rove_commands::Outcome {
    f.ok(json!({"command": "open", "url": url})).await
}

#[tokio::test]
async fn a_click_answered_over_a_websocket_reports_the_answer() {
    let (mut f, server) = start().await;
    open(&mut f, &server.url("/ws-page")).await;
    let ask = f.find("Ask", "button").await;
    let out = f.ok(json!({"command": "click", "ref": ask})).await;
    let text = out.text();
    assert!(
        text.contains("Answer: 42"),
        "the click waits for the server's answer frame:\n{text}"
    );
    assert!(!text.contains("nothing visible changed"), "{text}");
    f.close().await;
}

#[tokio::test]
async fn a_click_the_server_never_answers_says_so_and_not_that_nothing_changed() {
    let (mut f, server) = start().await;
    open(&mut f, &server.url("/ws-page")).await;
    let ask = f.find("Ask nobody", "button").await;
    let started = Instant::now();
    let out = f.ok(json!({"command": "click", "ref": ask})).await;
    let text = out.text();
    assert!(
        !text.contains("nothing visible changed"),
        "no answer is not no change:\n{text}"
    );
    assert!(
        text.contains("no change yet after 3 s; the page is still waiting for its server's answer"),
        "{text}"
    );
    // Bounded: the cap, not the command's deadline.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    f.close().await;
}

#[tokio::test]
async fn a_click_whose_answer_keeps_streaming_says_the_page_is_still_receiving() {
    // Frames come every 100 ms; a machine under load may hold one back for
    // longer than the default quiet window, which would end the answer
    // there. This session asks for a second of quiet.
    let server = StreamServer::start().await;
    let config = SessionConfig {
        settle: rove_input::SettleLimits {
            stream_quiet: Duration::from_secs(1),
            ..rove_input::SettleLimits::default()
        },
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(fixture_routes(), config).await;
    open(&mut f, &server.url("/ws-page")).await;
    let ask = f.find("Ask for ticks", "button").await;
    let out = f.ok(json!({"command": "click", "ref": ask})).await;
    let text = out.text();
    assert!(
        text.contains("Tick "),
        "the ticks so far are shown:\n{text}"
    );
    assert!(
        text.contains("the page is still receiving its server's answer; more may change"),
        "{text}"
    );
    assert!(!text.contains("nothing visible changed"), "{text}");
    f.close().await;
}

#[tokio::test]
async fn a_click_that_asks_nothing_of_the_socket_settles_as_fast_as_before() {
    let (mut f, server) = start().await;
    open(&mut f, &server.url("/ws-page")).await;
    let local = f.find("Local", "button").await;
    let started = Instant::now();
    let out = f.ok(json!({"command": "click", "ref": local})).await;
    assert!(
        out.text().contains("nothing visible changed"),
        "{}",
        out.text()
    );
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "no wait for a server nobody asked: {:?}",
        started.elapsed()
    );
    f.close().await;
}

#[tokio::test]
async fn a_request_answered_on_an_event_stream_reports_the_answer() {
    let (mut f, server) = start().await;
    open(&mut f, &server.url("/sse-page")).await;
    let ask = f.find("Ask", "button").await;
    let out = f.ok(json!({"command": "click", "ref": ask})).await;
    let text = out.text();
    assert!(
        text.contains("Answer: 42 (by stream)"),
        "the click waits for the message on the stream:\n{text}"
    );
    assert!(!text.contains("nothing visible changed"), "{text}");
    f.close().await;
}

/// Issue 35, item 3: between the stream's "Started" and its result (later
/// than the quiet rove allows between frames) the page's status region
/// says "Loading": the click's answer is the result, not "Started".
#[tokio::test]
async fn a_click_waits_while_a_status_region_says_the_app_is_loading() {
    let (mut f, server) = start().await;
    open(&mut f, &server.url("/queue-page")).await;
    let compute = f.find("Compute", "button").await;
    let out = f.ok(json!({"command": "click", "ref": compute})).await;
    let text = out.text();
    assert!(
        text.contains("Result: 7"),
        "the click waits for the result, not the frame saying it started:\n{text}"
    );
    f.close().await;
}

/// Issue 35, item 3: the quiet that ends a server's answer is scaled to
/// how this page's server answered before. Once it has paused 600 ms
/// inside an answer (past the default 300 ms), the next click waits
/// through such a pause and answers with the whole answer.
#[tokio::test]
async fn the_quiet_window_grows_with_the_pauses_a_server_made_before() {
    let (mut f, server) = start().await;
    open(&mut f, &server.url("/ws-page")).await;
    let ask = f.find("Ask in parts", "button").await;
    // The first answer may end at its pause; what came after it is seen.
    f.ok(json!({"command": "click", "ref": ask})).await;
    tokio::time::sleep(PAUSE_IN_ANSWER * 2).await;
    let out = f.ok(json!({"command": "click", "ref": ask})).await;
    let text = out.text();
    // Numbered: the second answer differs from the first, wherever the
    // first click's answer ended.
    assert!(
        text.contains("Answer: in parts 2"),
        "the second click waits through the pause it has seen:\n{text}"
    );
    f.close().await;
}

#[tokio::test]
async fn open_waits_for_content_that_arrives_over_the_websocket() {
    let (mut f, server) = start().await;
    let out = open(&mut f, &server.url("/ws-shell")).await;
    let text = out.text();
    assert!(
        text.contains("Sales by region") && !text.contains("Running…"),
        "open shows the page the server's frames built, not the shell:\n{text}"
    );
    f.close().await;
}
