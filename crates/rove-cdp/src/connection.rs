//! One WebSocket connection to a browser, shared by every session on it.
//!
//! Invariants this module keeps:
//! - every call has a deadline, and a caller that gives up (deadline, drop,
//!   cancellation) leaves no entry in the pending table (see [`PendingGuard`]);
//! - when the socket closes, every pending call fails at once, and later calls
//!   fail immediately instead of waiting out their deadline;
//! - a call on a crashed or detached session fails fast with a typed error;
//! - the reader task is never blocked by a caller or a subscriber.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use futures_util::SinkExt;
use futures_util::stream::{SplitSink, SplitStream, StreamExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use tokio::sync::{broadcast, oneshot, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::SessionId;
use crate::events::EventStream;
use crate::health::{Death, SessionTable};
use crate::message::{Event, Request};
use crate::protocol::Command;
use crate::reader::{WsStream, next_text};
use crate::{CdpError, TransportConfig};

type Reply = Result<Box<RawValue>, CdpError>;

/// A live connection to a browser's DevTools endpoint. Cheap to clone; the
/// socket closes when the last clone is dropped or [`Connection::close`] is called.
#[derive(Clone)]
pub struct Connection {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("url", &self.inner.url)
            .field("closed", &self.close_reason())
            .finish()
    }
}

struct Inner {
    url: String,
    config: TransportConfig,
    /// The write half; taken (and so dropped) once the reader ended, so that
    /// the socket closes with the read half instead of lingering half-open
    /// (a farm frees a browser only when its socket closes).
    writer: tokio::sync::Mutex<Option<SplitSink<WsStream, Message>>>,
    /// Requests waiting for the writer. Whoever holds the writer sends all of
    /// them with one flush, so a burst of calls costs one write, not one each.
    outbox: Mutex<Vec<(u64, String)>>,
    next_id: AtomicU64,
    /// Whether the peer has sent one CDP message (an answer or an event):
    /// until it has, a frame that is none says the endpoint speaks no CDP.
    spoke_cdp: std::sync::atomic::AtomicBool,
    state: Mutex<State>,
    closed: watch::Sender<Option<String>>,
    // Dropping the sender (with the last `Connection`) stops the reader task.
    _stop_reader: oneshot::Sender<()>,
}

#[derive(Default)]
struct State {
    pending: HashMap<u64, Pending>,
    sessions: SessionTable,
    browser_events: Option<broadcast::Sender<Arc<Event>>>,
    session_events: HashMap<SessionId, broadcast::Sender<Arc<Event>>>,
    closed: Option<String>,
}

struct Pending {
    method: Box<str>,
    session: Option<SessionId>,
    reply: oneshot::Sender<Reply>,
    /// When it was sent, only while the `cdp` log layer is on (for the
    /// answer's latency).
    sent_at: Option<std::time::Instant>,
}

/// Counters for diagnostics and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionStats {
    /// Calls waiting for an answer right now.
    pub pending_calls: usize,
    /// Sessions with at least one event subscriber channel.
    pub event_channels: usize,
}

impl Connection {
    /// Connects to a `ws://` or `wss://` DevTools endpoint, with the
    /// configured handshake deadline, headers and TLS roots.
    pub async fn connect(url: &str, config: TransportConfig) -> Result<Connection, CdpError> {
        let endpoint = crate::Endpoint::parse(url).map_err(|reason| CdpError::Connect {
            url: rove_base::redact::hide_endpoint_credentials(url),
            reason,
        })?;
        let shown = endpoint.redacted();
        let connect_error = |reason: String| CdpError::Connect {
            url: shown.clone(),
            reason,
        };
        if !endpoint.is_websocket() {
            return Err(connect_error(
                "a WebSocket address (ws:// or wss://) is needed here".into(),
            ));
        }
        let request = handshake_request(&endpoint, &config.access).map_err(connect_error)?;
        // Frames over the limit never reach the WebSocket layer (`FrameCap`
        // reads past them); its own limits, a little wider, end only a
        // message sent in fragments over the limit.
        let backstop = config.max_message_bytes.saturating_add(64 * 1024);
        let ws_config = WebSocketConfig::default()
            .max_message_size(Some(backstop))
            .max_frame_size(Some(backstop));
        let handshake = async {
            let stream = config
                .access
                .open(&endpoint)
                .await
                .map_err(|e| connect_error(e.to_string()))?;
            let stream = crate::frame_cap::FrameCap::new(stream, config.max_message_bytes);
            tokio_tungstenite::client_async_with_config(request, stream, Some(ws_config))
                .await
                .map_err(|e| handshake_error(&shown, e))
        };
        let (stream, _response) = tokio::time::timeout(config.connect_timeout, handshake)
            .await
            .map_err(|_| {
                connect_error(format!(
                    "no handshake within {} s",
                    config.connect_timeout.as_secs_f64()
                ))
            })??;
        Ok(Connection::from_stream(shown, stream, config))
    }

    /// Wraps an already-open WebSocket (its bytes under the frame cap).
    pub(crate) fn from_stream(
        url: String,
        stream: WsStream,
        config: TransportConfig,
    ) -> Connection {
        let (sink, reader) = stream.split();
        let (stop_tx, stop_rx) = oneshot::channel();
        let (closed, _) = watch::channel(None);
        let inner = Arc::new(Inner {
            url,
            config,
            writer: tokio::sync::Mutex::new(Some(sink)),
            outbox: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
            spoke_cdp: std::sync::atomic::AtomicBool::new(false),
            state: Mutex::new(State::default()),
            closed,
            _stop_reader: stop_tx,
        });
        tokio::spawn(read_until_closed(Arc::downgrade(&inner), reader, stop_rx));
        Connection { inner }
    }

    /// The endpoint this connection was opened to, its credentials hidden.
    pub fn url(&self) -> &str {
        &self.inner.url
    }

    /// The settings in force.
    pub fn config(&self) -> &TransportConfig {
        &self.inner.config
    }

    /// Sends a typed command and decodes its answer.
    pub async fn send<C: Command>(
        &self,
        session: Option<&SessionId>,
        command: &C,
        timeout: Option<Duration>,
    ) -> Result<C::Response, CdpError> {
        let raw = self.call_raw(session, C::METHOD, command, timeout).await?;
        decode(C::METHOD, &raw)
    }

    /// Sends any method with any parameters and returns the raw `result` text:
    /// the one path every call takes, typed or not.
    pub(crate) async fn call_raw<P: Serialize + ?Sized>(
        &self,
        session: Option<&SessionId>,
        method: &str,
        params: &P,
        timeout: Option<Duration>,
    ) -> Result<Box<RawValue>, CdpError> {
        let timeout = timeout.unwrap_or(self.inner.config.call_timeout);
        // The command's meter counts this round trip until it returns.
        let _phase = crate::meter::call_starts();
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let text = serde_json::to_string(&Request {
            id,
            method,
            session_id: session.map(SessionId::as_str),
            params,
        })
        .map_err(|e| CdpError::Encode {
            method: method.to_owned(),
            reason: e.to_string(),
        })?;

        let (reply_tx, reply_rx) = oneshot::channel();
        self.inner.register(
            id,
            Pending {
                method: method.into(),
                session: session.cloned(),
                reply: reply_tx,
                sent_at: crate::wire_log::on().then(std::time::Instant::now),
            },
        )?;
        let _guard = PendingGuard {
            inner: &self.inner,
            id,
        };

        let sent = AtomicBool::new(false);
        let exchange = async {
            crate::wire_log::sent(id, session, method, &text);
            self.inner.write(id, text, method).await?;
            sent.store(true, Ordering::Release);
            match reply_rx.await {
                Ok(reply) => reply,
                // The entry was dropped without an answer: only a closing
                // connection does that.
                Err(_) => Err(CdpError::ConnectionClosed {
                    reason: self.close_reason().unwrap_or_else(|| "closed".into()),
                    sent: true,
                }),
            }
        };
        match tokio::time::timeout(timeout, exchange).await {
            Ok(reply) => reply,
            Err(_) => Err(CdpError::Timeout {
                method: method.to_owned(),
                after: timeout,
                sent: sent.load(Ordering::Acquire),
            }),
        }
    }

    /// Subscribes to the events of one session (`None`: browser-level events).
    /// Each subscriber gets every event sent after this call, in order; one that
    /// falls more than [`TransportConfig::event_buffer`] events behind is told how
    /// many it missed.
    pub fn subscribe(&self, session: Option<&SessionId>) -> EventStream {
        let mut state = self.inner.lock();
        if state.closed.is_some() || session.is_some_and(|id| state.sessions.is_detached(id)) {
            // Nothing will ever arrive: hand out a stream that ends at once.
            return EventStream::new(broadcast::channel(1).1);
        }
        let capacity = self.inner.config.event_buffer.max(1);
        let sender = match session {
            None => state
                .browser_events
                .get_or_insert_with(|| broadcast::channel(capacity).0),
            Some(id) => state
                .session_events
                .entry(id.clone())
                .or_insert_with(|| broadcast::channel(capacity).0),
        };
        EventStream::new(sender.subscribe())
    }

    /// Why the connection closed, or `None` while it is open.
    pub fn close_reason(&self) -> Option<String> {
        self.inner.lock().closed.clone()
    }

    /// Resolves when the connection has closed, with the reason.
    pub async fn closed(&self) -> String {
        self.close_signal().wait().await
    }

    /// A handle that learns when the connection closes without keeping it open.
    pub fn close_signal(&self) -> CloseSignal {
        CloseSignal {
            rx: self.inner.closed.subscribe(),
        }
    }

    /// A handle that does not keep the connection open.
    pub fn downgrade(&self) -> WeakConnection {
        WeakConnection {
            inner: Arc::downgrade(&self.inner),
        }
    }

    /// Closes the socket. Pending calls fail with `ConnectionClosed`.
    pub async fn close(&self) {
        // A writer stuck on a peer that stopped reading must not stall the
        // close: the lock and the close frame share one short deadline.
        let close_frame = async {
            let mut writer = self.inner.writer.lock().await;
            // The peer may already be gone; either way the socket is done.
            if let Some(sink) = writer.as_mut() {
                let _ = sink.close().await;
            }
        };
        let _ = tokio::time::timeout(rove_base::limits::CDP_CLOSE, close_frame).await;
        self.inner.fail_all("closed by rove".into());
    }

    /// Counters for diagnostics and tests.
    pub fn stats(&self) -> ConnectionStats {
        let state = self.inner.lock();
        ConnectionStats {
            pending_calls: state.pending.len(),
            event_channels: state.session_events.len()
                + usize::from(state.browser_events.is_some()),
        }
    }
}

/// Learns when a connection closes, without keeping it open.
#[derive(Debug, Clone)]
pub struct CloseSignal {
    rx: watch::Receiver<Option<String>>,
}

impl CloseSignal {
    /// Resolves when the connection has closed (or was dropped), with the reason.
    pub async fn wait(&mut self) -> String {
        match self.rx.wait_for(Option::is_some).await {
            Ok(reason) => reason.clone().unwrap_or_default(),
            Err(_) => "the connection was dropped".into(),
        }
    }
}

/// A connection handle that does not keep the socket open.
#[derive(Debug, Clone)]
pub struct WeakConnection {
    inner: std::sync::Weak<Inner>,
}

impl WeakConnection {
    /// The connection, if some strong handle still holds it open.
    pub fn upgrade(&self) -> Option<Connection> {
        self.inner.upgrade().map(|inner| Connection { inner })
    }
}

/// The handshake's request: the address, the user's headers, and Basic
/// authorization from `user:password@` unless an Authorization header is
/// given.
fn handshake_request(
    endpoint: &crate::Endpoint,
    access: &crate::Access,
) -> Result<tokio_tungstenite::tungstenite::handshake::client::Request, String> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::http::{HeaderName, HeaderValue};
    let mut request = endpoint
        .as_str()
        .into_client_request()
        .map_err(|e| format!("not a usable WebSocket address: {e}"))?;
    let headers = request.headers_mut();
    for (name, value) in access.headers() {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("{name:?} is not a header name"))?;
        let value = HeaderValue::from_str(value)
            .map_err(|_| format!("the value of {name} is not a header value"))?;
        headers.append(name, value);
    }
    if let Some(basic) = endpoint.basic_authorization()
        && !access.has_header("authorization")
    {
        let value = HeaderValue::from_str(&basic)
            .map_err(|_| "the user name or password is not a header value".to_owned())?;
        headers.insert("authorization", value);
    }
    Ok(request)
}

/// A failed handshake, by cause: a refused credential is its own error.
fn handshake_error(shown: &str, error: tokio_tungstenite::tungstenite::Error) -> CdpError {
    use tokio_tungstenite::tungstenite::Error;
    match &error {
        Error::Http(response) if matches!(response.status().as_u16(), 401 | 403) => {
            CdpError::Refused {
                url: shown.to_owned(),
                status: response.status().as_u16(),
            }
        }
        Error::Http(response) if response.status().as_u16() == 429 => CdpError::Busy {
            url: shown.to_owned(),
            status: 429,
        },
        Error::Http(response) => CdpError::Connect {
            url: shown.to_owned(),
            reason: format!("the endpoint answered HTTP {}", response.status()),
        },
        _ => CdpError::Connect {
            url: shown.to_owned(),
            reason: rove_base::redact::scrub(&error.to_string()),
        },
    }
}

/// The connection's one reader task. It does nothing but route texts, so
/// no caller and no subscriber can ever block it, and it holds only a
/// weak handle: when the last `Connection` is dropped it stops, and the
/// socket closes.
async fn read_until_closed(
    inner: std::sync::Weak<Inner>,
    mut stream: SplitStream<WsStream>,
    mut stop: oneshot::Receiver<()>,
) {
    let reason = loop {
        let text = tokio::select! {
            biased;
            _ = &mut stop => return,
            text = next_text(&mut stream) => text,
        };
        let text = match text {
            Ok(text) => text,
            Err(reason) => break reason,
        };
        let Some(inner) = inner.upgrade() else { return };
        if let Err(reason) = inner.route(text.as_str()) {
            break reason;
        }
    };
    if let Some(inner) = inner.upgrade() {
        inner.fail_all(reason);
        inner.drop_writer().await;
    }
}

/// Decodes a raw `result` into a typed response.
pub(crate) fn decode<T: DeserializeOwned>(method: &str, raw: &RawValue) -> Result<T, CdpError> {
    crate::lossy_json::from_json(raw.get()).map_err(|e| CdpError::Decode {
        method: method.to_owned(),
        reason: e.to_string(),
    })
}

/// Removes a call's entry when the caller stops waiting for any reason. After
/// a normal answer the reader has already removed it and this does nothing.
struct PendingGuard<'a> {
    inner: &'a Inner,
    id: u64,
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        self.inner.lock().pending.remove(&self.id);
        // A caller that gave up before its request was written takes it back,
        // so "not sent" stays true.
        let mut outbox = self.inner.lock_outbox();
        if !outbox.is_empty() {
            outbox.retain(|(id, _)| *id != self.id);
        }
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the tables half-updated
        // in a way that matters more than hanging every caller would.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn register(&self, id: u64, pending: Pending) -> Result<(), CdpError> {
        let mut state = self.lock();
        if let Some(reason) = &state.closed {
            return Err(CdpError::ConnectionClosed {
                reason: reason.clone(),
                sent: false,
            });
        }
        if let Some(session) = &pending.session
            && let Some(death) = state.sessions.death(session)
        {
            return Err(death.error(session.clone(), false));
        }
        state.pending.insert(id, pending);
        Ok(())
    }

    /// Queues a request and makes sure it is on the socket before returning.
    /// If another caller holding the writer already sent it in its batch,
    /// there is nothing left to do.
    async fn write(&self, id: u64, text: String, method: &str) -> Result<(), CdpError> {
        self.lock_outbox().push((id, text));
        let mut writer = self.writer.lock().await;
        let batch = std::mem::take(&mut *self.lock_outbox());
        if batch.is_empty() {
            return Ok(());
        }
        let Some(writer) = writer.as_mut() else {
            return Err(CdpError::ConnectionClosed {
                reason: self
                    .lock()
                    .closed
                    .clone()
                    .unwrap_or_else(|| "closed".into()),
                sent: false,
            });
        };
        let failed = |e: tokio_tungstenite::tungstenite::Error| {
            tracing::debug!(target: "rove_cdp", method, error = %e, "write failed");
            CdpError::ConnectionClosed {
                reason: self
                    .lock()
                    .closed
                    .clone()
                    .unwrap_or_else(|| format!("write failed: {e}")),
                sent: false,
            }
        };
        for (_, text) in batch {
            writer.feed(Message::text(text)).await.map_err(failed)?;
        }
        writer.flush().await.map_err(failed)
    }

    fn lock_outbox(&self) -> MutexGuard<'_, Vec<(u64, String)>> {
        self.outbox.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Routes one text frame. Once the peer has spoken CDP, never fails: a
    /// bad frame is logged and skipped. Before that, a frame that is no
    /// CDP message (not JSON, or JSON with neither an id nor a method) is
    /// the endpoint speaking something else: `Err` with the reason, and
    /// the reader ends the connection, so that every call fails at once
    /// instead of at its deadline.
    fn route(&self, text: &str) -> Result<(), String> {
        use std::sync::atomic::Ordering;
        let spoke = self.spoke_cdp.load(Ordering::Acquire);
        let not_cdp = |why: &str| {
            format!(
                "the endpoint speaks no CDP: its first message {why} ({:?}); check that --cdp-url is a browser's DevTools address",
                rove_base::redact::scrub(rove_base::text::char_prefix(text, 80))
            )
        };
        if text.starts_with("{\"roveOversized\"") {
            self.fail_oversized(text);
            return Ok(());
        }
        let incoming: crate::message::Incoming<'_> = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(_) if !spoke => return Err(not_cdp("is not JSON")),
            Err(e) => {
                tracing::warn!(target: "rove_cdp", error = %e, frame = %preview(text), "skipping a frame that does not parse");
                return Ok(());
            }
        };
        if incoming.id.is_none() && incoming.method.is_none() && !spoke {
            return Err(not_cdp("has neither an id nor a method"));
        }
        self.spoke_cdp.store(true, Ordering::Release);
        self.route_message(text, incoming);
        Ok(())
    }

    /// A message read past for its size (`FrameCap`'s stand-in): the call
    /// it answered fails, naming the limit; an event is only logged there.
    fn fail_oversized(&self, text: &str) {
        let Ok(stand_in) = serde_json::from_str::<crate::frame_cap::StandIn>(text) else {
            return;
        };
        let over = stand_in.oversized;
        let Some(pending) = over.id.and_then(|id| self.lock().pending.remove(&id)) else {
            return;
        };
        let _ = pending.reply.send(Err(CdpError::TooLarge {
            method: pending.method.into(),
            bytes: over.bytes,
            limit: over.limit,
        }));
    }

    fn route_message(&self, text: &str, incoming: crate::message::Incoming<'_>) {
        if let Some(id) = incoming.id {
            let Some(pending) = self.lock().pending.remove(&id) else {
                tracing::debug!(target: "rove_cdp", id, "skipping a response to an unknown or abandoned call");
                return;
            };
            crate::wire_log::answered(
                id,
                pending.session.as_ref(),
                &pending.method,
                pending.sent_at,
                incoming.error.is_some(),
                text,
            );
            let reply = match incoming.error {
                Some(err) => Err(CdpError::Protocol {
                    method: pending.method.into(),
                    code: err.code,
                    message: err.message,
                    data: err.data.map(|d| match d {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    }),
                }),
                None => Ok(incoming
                    .result
                    .map(RawValue::to_owned)
                    .unwrap_or_else(crate::message::empty_object)),
            };
            // The caller may have given up in the meantime; that is fine.
            let _ = pending.reply.send(reply);
            return;
        }
        let Some(method) = incoming.method else {
            tracing::debug!(target: "rove_cdp", frame = %preview(text), "skipping a frame with neither id nor method");
            return;
        };
        crate::wire_log::event(incoming.session_id.as_deref(), &method, text);
        self.dispatch_event(&method, incoming.session_id.as_deref(), incoming.params);
    }

    fn dispatch_event(&self, method: &str, session: Option<&str>, params: Option<&RawValue>) {
        let target = {
            let mut state = self.lock();
            for (victim, death) in state.sessions.observe(method, session, params) {
                self.bury_session(&mut state, victim, death);
            }
            match session {
                None => state.browser_events.as_ref().map(|s| (None, s.clone())),
                Some(id) => state
                    .session_events
                    .get_key_value(id)
                    .map(|(k, s)| (Some(k.clone()), s.clone())),
            }
        };
        // Copy the parameters outside the lock: events can be large.
        if let Some((session_id, sender)) = target
            && sender.receiver_count() > 0
        {
            let params = params
                .map(RawValue::to_owned)
                .unwrap_or_else(crate::message::empty_object);
            // A full channel overwrites its oldest event and tells laggards.
            let _ = sender.send(Arc::new(Event::new(method.to_owned(), session_id, params)));
        }
    }

    /// Fails every call waiting on a session that crashed or was detached.
    fn bury_session(&self, state: &mut State, session: SessionId, death: Death) {
        tracing::debug!(target: "rove_cdp", %session, ?death, "session ended");
        let doomed: Vec<u64> = state
            .pending
            .iter()
            .filter(|(_, p)| p.session.as_ref() == Some(&session))
            .map(|(id, _)| *id)
            .collect();
        for id in doomed {
            if let Some(p) = state.pending.remove(&id) {
                let _ = p.reply.send(Err(death.error(session.clone(), true)));
            }
        }
        if death == Death::Detached {
            // Subscribers see the end of their stream.
            state.session_events.remove(&session);
        }
    }

    /// Drops the write half, once the reader ended: with both halves gone
    /// the socket closes. Bounded, as a writer stuck on a peer that stopped
    /// reading holds the lock; then the socket closes with the connection.
    async fn drop_writer(&self) {
        if let Ok(mut writer) =
            tokio::time::timeout(rove_base::limits::CDP_CLOSE, self.writer.lock()).await
        {
            writer.take();
        }
    }

    /// Marks the connection closed and fails everything waiting on it.
    fn fail_all(&self, reason: String) {
        let pending = {
            let mut state = self.lock();
            if state.closed.is_some() {
                return;
            }
            tracing::debug!(target: "rove_cdp", url = %self.url, %reason, "connection closed");
            state.closed = Some(reason.clone());
            state.browser_events = None;
            state.session_events.clear();
            std::mem::take(&mut state.pending)
        };
        for (_, p) in pending {
            let _ = p.reply.send(Err(CdpError::ConnectionClosed {
                reason: reason.clone(),
                sent: true,
            }));
        }
        self.closed.send_replace(Some(reason));
    }
}

/// The start of a frame, for logs: enough to recognise it, never megabytes.
fn preview(text: &str) -> &str {
    rove_base::text::byte_prefix(text, 200)
}
