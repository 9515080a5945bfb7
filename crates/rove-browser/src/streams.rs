//! What a tab's long-lived connections are doing: its WebSockets (opening,
//! the frames each sent and received) and its event streams (`EventSource`),
//! and when the page last received anything over them or over a response
//! still arriving in chunks.
//!
//! Settling after input uses this to wait for a server's answer that comes
//! over a connection rather than as a new request (a Streamlit app answers a
//! click with WebSocket frames; an app on server-sent events answers a
//! request on its stream), and to say honestly that the page is still
//! receiving when the wait ends first. The tab watch feeds every
//! `Network.*` event of the tab and its iframes to [`Streams::record`].

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use rove_cdp::protocol::EventType;
use rove_cdp::protocol::network::{
    DataReceived, EventSourceMessageReceived, LoadingFailed, LoadingFinished, RequestWillBeSent,
    ResourceType, WebSocketClosed, WebSocketCreated, WebSocketFrameReceived, WebSocketFrameSent,
    WebSocketHandshakeResponseReceived,
};
use rove_cdp::{Event, SessionId};

/// A connection by the session it was seen on and its request id.
type Key = (Option<SessionId>, String);

/// One WebSocket.
#[derive(Debug, Clone, Default)]
struct Socket {
    /// Its handshake has not been answered yet.
    connecting: bool,
    /// When it last sent a frame.
    last_sent: Option<Instant>,
    /// When it last received one.
    last_received: Option<Instant>,
}

impl Socket {
    /// It is opening, or it sent a frame that nothing has answered since.
    fn awaiting(&self) -> bool {
        self.connecting
            || match (self.last_sent, self.last_received) {
                (Some(sent), Some(received)) => sent > received,
                (Some(_), None) => true,
                (None, _) => false,
            }
    }
}

/// The tab's connections (see the module).
#[derive(Debug, Default)]
pub(crate) struct Streams {
    sockets: HashMap<Key, Socket>,
    /// Event streams open.
    event_streams: HashSet<Key>,
    /// Everything received so far over sockets and streams, and chunks of
    /// responses: frames, messages, chunks.
    incoming: u64,
    /// When the last of them arrived.
    last_incoming: Option<Instant>,
    /// When the page last asked something (a frame sent, a request).
    last_asked: Option<Instant>,
    /// The pauses seen inside answers (between two things arriving with
    /// nothing asked in between, up to [`PAUSE_LIMIT`]), newest last, at
    /// most [`PAUSES_KEPT`]: how slowly this page's server answers in parts.
    pauses: std::collections::VecDeque<(Instant, std::time::Duration)>,
}

/// A longer silence between two frames is not a pause inside one answer.
const PAUSE_LIMIT: std::time::Duration = rove_base::limits::SETTLE_STREAM_QUIET_MAX;
/// How many pauses are remembered (for how long: [`PAUSE_MEMORY`]).
const PAUSES_KEPT: usize = 64;
use rove_base::limits::SETTLE_STREAM_PAUSE_MEMORY as PAUSE_MEMORY;

/// What the tab's connections are doing now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StreamState {
    /// How many frames, messages and chunks the tab has received (a count
    /// that only grows: compare two to learn whether anything came between).
    pub incoming: u64,
    /// When the last of them arrived.
    pub last_incoming: Option<Instant>,
    /// A WebSocket is opening, or sent a frame not answered yet.
    pub awaiting: bool,
    /// Event streams open.
    pub event_streams: usize,
    /// WebSockets open.
    pub sockets: usize,
    /// The longest pause between two parts of one answer this page's
    /// server made in the last minute (nothing asked in between).
    pub longest_pause: Option<std::time::Duration>,
}

impl StreamState {
    /// How long the connections must stay silent for an answer to count
    /// as complete on this page: `floor`, or half again the longest pause
    /// its server made inside an answer lately (a server that answers in
    /// slow parts gets a longer window), at most
    /// [`rove_base::limits::SETTLE_STREAM_QUIET_MAX`].
    pub fn answer_quiet(&self, floor: std::time::Duration) -> std::time::Duration {
        let learned = self.longest_pause.map_or(floor, |p| p + p / 2);
        floor.max(learned.min(rove_base::limits::SETTLE_STREAM_QUIET_MAX))
    }

    /// Whether nothing is awaited and nothing arrived for `quiet`.
    pub fn quiet_for(&self, quiet: std::time::Duration) -> bool {
        !self.awaiting && self.last_incoming.is_none_or(|at| at.elapsed() >= quiet)
    }
}

impl Streams {
    /// Takes in a `Network.*` event; whether it changed anything.
    pub(crate) fn record(&mut self, event: &Event) -> bool {
        let key = |id: String| (event.session_id.clone(), id);
        let now = Instant::now();
        match event.method.as_str() {
            WebSocketCreated::METHOD => {
                let Ok(created) = event.parse::<WebSocketCreated>() else {
                    return false;
                };
                self.sockets.insert(
                    key(created.request_id),
                    Socket {
                        connecting: true,
                        ..Socket::default()
                    },
                );
            }
            WebSocketHandshakeResponseReceived::METHOD => {
                let Ok(answered) = event.parse::<WebSocketHandshakeResponseReceived>() else {
                    return false;
                };
                let socket = self.sockets.entry(key(answered.request_id)).or_default();
                socket.connecting = false;
            }
            WebSocketFrameSent::METHOD => {
                let Ok(sent) = event.parse::<WebSocketFrameSent>() else {
                    return false;
                };
                let socket = self.sockets.entry(key(sent.request_id)).or_default();
                socket.connecting = false;
                socket.last_sent = Some(now);
                self.last_asked = Some(now);
            }
            WebSocketFrameReceived::METHOD => {
                let Ok(received) = event.parse::<WebSocketFrameReceived>() else {
                    return false;
                };
                let socket = self.sockets.entry(key(received.request_id)).or_default();
                socket.connecting = false;
                socket.last_received = Some(now);
                self.arrived(now);
            }
            WebSocketClosed::METHOD => {
                let Ok(closed) = event.parse::<WebSocketClosed>() else {
                    return false;
                };
                if self.sockets.remove(&key(closed.request_id)).is_none() {
                    return false;
                }
            }
            RequestWillBeSent::METHOD => {
                let Ok(request) = event.parse::<RequestWillBeSent>() else {
                    return false;
                };
                self.last_asked = Some(now);
                if request.kind != Some(ResourceType::EventSource) {
                    return false;
                }
                self.event_streams.insert(key(request.request_id));
            }
            EventSourceMessageReceived::METHOD => {
                if event.parse::<EventSourceMessageReceived>().is_err() {
                    return false;
                }
                self.arrived(now);
            }
            DataReceived::METHOD => {
                if event.parse::<DataReceived>().is_err() {
                    return false;
                }
                self.arrived(now);
            }
            LoadingFinished::METHOD | LoadingFailed::METHOD => {
                let request_id = if event.method == LoadingFinished::METHOD {
                    event.parse::<LoadingFinished>().map(|f| f.request_id)
                } else {
                    event.parse::<LoadingFailed>().map(|f| f.request_id)
                };
                let Ok(request_id) = request_id else {
                    return false;
                };
                // A socket whose handshake failed may end this way too.
                let before = self.event_streams.len() + self.sockets.len();
                self.event_streams.retain(|(_, id)| *id != request_id);
                self.sockets.retain(|(_, id), _| *id != request_id);
                if self.event_streams.len() + self.sockets.len() == before {
                    return false;
                }
            }
            _ => return false,
        }
        true
    }

    fn arrived(&mut self, now: Instant) {
        if let Some(last) = self.last_incoming {
            let pause = now.saturating_duration_since(last);
            let asked_between = self.last_asked.is_some_and(|asked| asked > last);
            if !asked_between && pause <= PAUSE_LIMIT {
                if self.pauses.len() == PAUSES_KEPT {
                    self.pauses.pop_front();
                }
                self.pauses.push_back((now, pause));
            }
        }
        self.incoming += 1;
        self.last_incoming = Some(now);
    }

    /// The longest pause inside an answer this page's server made lately.
    fn longest_pause(&self) -> Option<std::time::Duration> {
        self.pauses
            .iter()
            .filter(|(at, _)| at.elapsed() <= PAUSE_MEMORY)
            .map(|(_, pause)| *pause)
            .max()
    }

    /// Forgets the connections of a session that went away, or of the tab's
    /// own session when its main frame navigated: a new document has none of
    /// the old one's.
    pub(crate) fn forget(&mut self, session: Option<&SessionId>) {
        self.sockets.retain(|(s, _), _| s.as_ref() != session);
        self.event_streams.retain(|(s, _)| s.as_ref() != session);
    }

    /// What the connections are doing now.
    pub(crate) fn state(&self) -> StreamState {
        StreamState {
            incoming: self.incoming,
            last_incoming: self.last_incoming,
            awaiting: self.sockets.values().any(Socket::awaiting),
            event_streams: self.event_streams.len(),
            sockets: self.sockets.len(),
            longest_pause: self.longest_pause(),
        }
    }
}
