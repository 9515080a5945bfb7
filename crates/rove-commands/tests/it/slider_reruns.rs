//! Issue 35, item 10: a slider whose app takes a value at every key press,
//! as Streamlit's `st.slider` does (react-aria ends a change at each
//! press, and Streamlit sends the widget's value to its server for each),
//! served by a server that reruns its script for every value it receives
//! while the older runs go on beside the new one (Streamlit's fast
//! reruns). Under load an older run can apply its value after the newer
//! one did, and the server then holds 68 while the slider shows 70.
//!
//! This server makes that interleaving certain instead of rare: a run that
//! a newer one overlapped applies its value only after the newer one has.
//! `fill` must still leave the server holding the value it reports: the
//! press that lands on it is sent only once the server has answered every
//! earlier one. The server here is the test's own, on 127.0.0.1: plain
//! HTTP for the page, a WebSocket (tokio-tungstenite's handshake) on `/ws`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

use crate::support::Fixture;

/// How long one run of the app's script takes: longer than the presses of
/// a held key are apart, so a burst of them overlaps.
const RUN: Duration = Duration::from_millis(200);

/// Two sliders that send their value over the socket at every press that
/// moves them: an ARIA slider, and a range input whose keys the page
/// handles itself (Streamlit's: a visually hidden range input inside
/// react-aria's thumb). Arrows move by 1, Page keys by 10. While a run of
/// the server's is going, the page shows Streamlit's running indicator.
const PAGE: &str = r#"<!doctype html><title>Reruns</title>
<div role=img aria-label="Running..." id=running hidden>🏃</div>
<p><span id=levelName>Level</span>
<span role=slider tabindex=0 id=level aria-labelledby=levelName aria-valuemin=0 aria-valuemax=100 aria-valuenow=10>10</span></p>
<p><input type=range id=amount aria-label=Amount min=0 max=100 step=1 value=10></p>
<script>
const ws = new WebSocket('ws://' + location.host + '/ws');
const MOVES = {ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 10, PageDown: -10};
function keys(el, read, write) {
  el.addEventListener('keydown', (e) => {
    const now = read();
    let next = e.key in MOVES ? now + MOVES[e.key] : e.key === 'Home' ? 0 : e.key === 'End' ? 100 : null;
    if (next === null) return;
    e.preventDefault();
    next = Math.min(100, Math.max(0, next));
    if (next === now) return;
    write(next);
    ws.send(el.id + '=' + next);
  });
}
keys(level, () => Number(level.getAttribute('aria-valuenow')), (v) => { level.setAttribute('aria-valuenow', v); level.textContent = v; });
keys(amount, () => Number(amount.value), (v) => { amount.value = v; });
let runs = 0;
ws.onmessage = (m) => { runs += m.data.startsWith('started') ? 1 : -1; running.hidden = runs === 0; };
</script>"#;

/// What the server holds and is doing.
#[derive(Debug, Default)]
struct Runs {
    next: u64,
    /// The runs going on, by the order they started in.
    running: BTreeSet<u64>,
    /// Each slider's value, as the last run that applied one left it.
    held: BTreeMap<String, String>,
    /// The values received, in order.
    received: Vec<String>,
}

#[derive(Debug, Default)]
struct App {
    runs: Mutex<Runs>,
    /// Woken when a run ends.
    ended: Notify,
}

impl App {
    fn held(&self, slider: &str) -> Option<String> {
        let runs = self.runs.lock().expect("runs");
        runs.held.get(slider).cloned()
    }

    /// Waits (at most 10 s) until no run is going.
    async fn idle(&self) {
        let started = Instant::now();
        while !self.runs.lock().expect("runs").running.is_empty() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the server's runs end"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

async fn start_server() -> (String, Arc<App>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    let app = Arc::new(App::default());
    let shared = Arc::clone(&app);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve(stream, Arc::clone(&shared)));
        }
    });
    (url, app)
}

/// One connection: the page or the WebSocket.
async fn serve(stream: TcpStream, app: Arc<App>) {
    let mut head = [0u8; 2048];
    let Ok(n) = stream.peek(&mut head).await else {
        return;
    };
    let head = String::from_utf8_lossy(&head[..n]).to_string();
    if head.split_whitespace().nth(1) == Some("/ws") {
        return socket(stream, app).await;
    }
    let mut stream = stream;
    let mut request = vec![0u8; n];
    let _ = stream.read_exact(&mut request).await;
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{PAGE}",
        PAGE.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
}

/// The socket: every `<slider>=<value>` starts a run at once, beside those
/// still going.
async fn socket(stream: TcpStream, app: Arc<App>) {
    let Some((out, mut incoming)) = crate::support::websocket_texts(stream).await else {
        return;
    };
    while let Some(text) = incoming.recv().await {
        let Some((slider, value)) = text.split_once('=') else {
            continue;
        };
        let id = {
            let mut runs = app.runs.lock().expect("runs");
            runs.next += 1;
            let id = runs.next;
            runs.running.insert(id);
            runs.received.push(text.to_string());
            id
        };
        let _ = out.send(format!("started {id}"));
        tokio::spawn(run(
            Arc::clone(&app),
            id,
            slider.to_owned(),
            value.to_owned(),
            out.clone(),
        ));
    }
}

/// One run of the script with `value`. A run that a newer one overlapped
/// applies its value after that one has: the losing interleaving of
/// Streamlit's side-by-side runs, every time.
async fn run(
    app: Arc<App>,
    id: u64,
    slider: String,
    value: String,
    out: tokio::sync::mpsc::UnboundedSender<String>,
) {
    tokio::time::sleep(RUN).await;
    loop {
        // Registered before the look, so an end between them is not missed.
        let ended = app.ended.notified();
        let newer_running = app
            .runs
            .lock()
            .expect("runs")
            .running
            .range(id + 1..)
            .next()
            .is_some();
        if !newer_running {
            break;
        }
        ended.await;
    }
    {
        let mut runs = app.runs.lock().expect("runs");
        runs.held.insert(slider, value);
        runs.running.remove(&id);
    }
    app.ended.notify_waiters();
    let _ = out.send(format!("finished {id}"));
}

async fn fill_and_check(f: &mut Fixture, app: &App, name: &str, role: &str, id: &str) {
    let slider = f.find(name, role).await;
    for wanted in ["70", "45", "100", "3"] {
        let out = f
            .ok(json!({"command": "fill", "ref": slider, "text": wanted}))
            .await;
        let text = out.text();
        assert!(
            text.contains(&format!(": {wanted}")),
            "fill reports {wanted}:\n{text}"
        );
        app.idle().await;
        let received = app.runs.lock().expect("runs").received.clone();
        assert_eq!(
            app.held(id).as_deref(),
            Some(wanted),
            "the server holds what fill reported for {name}; it received {received:?}"
        );
    }
}

#[tokio::test]
async fn a_slider_whose_server_reruns_per_press_holds_the_value_fill_reports() {
    let (url, app) = start_server().await;
    let mut f = Fixture::start().await;
    f.ok(json!({"command": "open", "url": format!("{url}/")}))
        .await;
    fill_and_check(&mut f, &app, "Level", "slider", "level").await;
    fill_and_check(&mut f, &app, "Amount", "slider", "amount").await;
    f.close().await;
}
