//! What a tab's pages requested, and the rules that block or mock requests.
//!
//! The tab watch feeds every `Network.*` event of the tab and its iframes to
//! [`NetLog::record`], which keeps one [`NetEntry`] per request (a redirect
//! starts a new entry, and the old one is marked with the status that sent
//! it on). The log is a ring of the newest [`NETWORK_CAP`] entries per tab.
//!
//! [`RequestRules`] are the session's block and mock rules, shared by its
//! tabs like the domain policy: when there are any, every tab pauses the
//! requests whose URL may match one (`Fetch` interception, each pattern
//! given to the browser as [`UrlPattern::interception_glob`] writes it) and
//! the watch fails or fulfils those that do.
//!
//! URLs and headers are kept as the browser sent them, up to a bound each
//! (a page may send megabytes of URL, body or header per request, and the
//! log lives as long as the tab); of a big request body only its first
//! bytes and its size are kept. What a face shows of them (redacted,
//! cleaned) is the command layer's business.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use rove_base::text::byte_prefix;
use rove_base::url_pattern::UrlPattern;
use rove_cdp::{Event, SessionId};

use crate::ring::{Numbered, SeqRing};

/// The most requests kept per tab; older ones are dropped (and counted).
pub const NETWORK_CAP: usize = 500;

/// Response bodies the browser keeps per tab for `network show`, in all
/// (the oldest are evicted first)…
pub(crate) const BODY_BUFFER_TOTAL: i64 = 16 * 1024 * 1024;
/// …and at most this much of one body (a bigger one is not kept).
pub(crate) const BODY_BUFFER_EACH: i64 = 2 * 1024 * 1024;

/// Where a request stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetState {
    /// Sent, no end yet.
    Pending,
    /// Its response arrived in full.
    Finished,
    /// It failed: the browser's reason (`net::ERR_BLOCKED_BY_CLIENT` …).
    Failed(String),
    /// The server redirected it; the next entry goes on.
    Redirected,
}

/// One request and what came of it.
#[derive(Debug, Clone, PartialEq)]
pub struct NetEntry {
    /// Its number in the tab's log (from 1): `network show` takes it.
    pub seq: u64,
    /// The browser's request id.
    pub request_id: String,
    /// The CDP session it was seen on (the tab's, or an iframe's).
    pub session: Option<SessionId>,
    /// `GET`, `POST` …
    pub method: String,
    /// The URL as requested.
    pub url: String,
    /// `Document`, `Script`, `Fetch`, `XHR`, `Image` …
    pub resource_type: String,
    /// The request's headers, in the order the browser gave them.
    pub request_headers: Vec<(String, String)>,
    /// The request's body, when the browser sent it with the event: its
    /// first bytes only, when it is big (see `post_data_size`).
    pub post_data: Option<String>,
    /// The whole body's size in bytes, when the event carried it.
    pub post_data_size: Option<u64>,
    /// Whether the request had a body at all.
    pub has_post_data: bool,
    /// The HTTP status, once a response came.
    pub status: Option<u16>,
    /// The status text.
    pub status_text: String,
    /// The response's headers.
    pub response_headers: Vec<(String, String)>,
    /// The response's MIME type.
    pub mime_type: String,
    /// The HTTP version (`http/1.1`, `h2` …).
    pub protocol: String,
    /// Bytes received (headers and body as sent), once finished.
    pub size: Option<u64>,
    /// When it was sent (seconds since the epoch).
    pub wall_time: f64,
    /// The browser's monotonic clock when it was sent and when it ended.
    pub started: f64,
    /// When it ended, on the same clock.
    pub ended: Option<f64>,
    /// Where it stands.
    pub state: NetState,
}

impl NetEntry {
    /// How long it took, in milliseconds, once it ended.
    pub fn duration_ms(&self) -> Option<f64> {
        self.ended
            .map(|end| ((end - self.started) * 1000.0).max(0.0))
    }
}

/// What a read of the log returns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NetRead {
    /// The entries, oldest first.
    pub entries: Vec<NetEntry>,
    /// Entries dropped from the ring before anyone read them.
    pub dropped: u64,
}

/// A tab's requests (see the module).
#[derive(Debug, Default)]
pub struct NetLog {
    ring: SeqRing<NetEntry, NETWORK_CAP>,
}

impl Numbered for NetEntry {
    fn seq(&self) -> u64 {
        self.seq
    }
    fn set_seq(&mut self, seq: u64) {
        self.seq = seq;
    }
}

/// The most bytes of a URL an entry keeps: a page may request URLs of
/// megabytes, and the log holds [`NETWORK_CAP`] entries per tab.
const URL_KEPT: usize = 8 * 1024;
/// The most bytes of a request body an entry keeps (its size is kept
/// whole).
const POST_DATA_KEPT: usize = 16 * 1024;
/// The most bytes an entry keeps of a method, a status text, a MIME type
/// (a page may use a method of any length, a server any status text).
const WORD_KEPT: usize = 256;
/// The most bytes of one header value an entry keeps…
const HEADER_VALUE_KEPT: usize = 2 * 1024;
/// …and of all of one list of headers (names and values).
const HEADERS_KEPT: usize = 16 * 1024;

/// The first `max` bytes of `text`, with `…` when cut.
fn kept(text: &str, max: usize) -> String {
    let short = byte_prefix(text, max);
    if short.len() == text.len() {
        short.to_owned()
    } else {
        format!("{short}…")
    }
}

/// Headers as the log keeps them: each value cut, and no more in all than
/// [`HEADERS_KEPT`] (the first ones, in the browser's order).
fn headers_of(value: &Value) -> Vec<(String, String)> {
    let mut total = 0;
    let mut headers = Vec::new();
    for (name, value) in value.as_object().into_iter().flatten() {
        let name = kept(name, HEADER_VALUE_KEPT);
        let value = kept(value.as_str().unwrap_or_default(), HEADER_VALUE_KEPT);
        total += name.len() + value.len();
        if total > HEADERS_KEPT {
            break;
        }
        headers.push((name, value));
    }
    headers
}

/// An HTTP status as the log keeps it (none for 0, which no answer has).
fn status_of(status: i64) -> Option<u16> {
    u16::try_from(status).ok().filter(|s| *s > 0)
}

impl NetLog {
    /// Takes in a `Network.*` event.
    pub fn record(&mut self, event: &Event) {
        use rove_cdp::protocol::EventType;
        use rove_cdp::protocol::network::{
            LoadingFailed, LoadingFinished, RequestWillBeSent, ResponseReceived,
        };
        match event.method.as_str() {
            RequestWillBeSent::METHOD => {
                let Ok(p) = event.parse::<RequestWillBeSent>() else {
                    return;
                };
                let id = p.request_id.as_str();
                if id.is_empty() {
                    return;
                }
                if let Some(redirect) = &p.redirect_response
                    && let Some(prior) = self.latest(id)
                {
                    prior.status = status_of(redirect.status);
                    prior.status_text = kept(&redirect.status_text, WORD_KEPT);
                    prior.response_headers = headers_of(&redirect.headers);
                    prior.ended = Some(p.timestamp);
                    prior.state = NetState::Redirected;
                }
                let request = &p.request;
                let kind = p.kind.map(|k| k.as_str()).filter(|k| !k.is_empty());
                self.push(NetEntry {
                    seq: 0,
                    request_id: id.to_owned(),
                    session: event.session_id.clone(),
                    method: kept(
                        Some(request.method.as_str())
                            .filter(|m| !m.is_empty())
                            .unwrap_or("GET"),
                        WORD_KEPT,
                    ),
                    url: kept(&request.url, URL_KEPT),
                    resource_type: kept(kind.unwrap_or("Other"), WORD_KEPT),
                    request_headers: headers_of(&request.headers),
                    post_data: request
                        .post_data
                        .as_deref()
                        .map(|d| byte_prefix(d, POST_DATA_KEPT).to_owned()),
                    post_data_size: request.post_data.as_deref().map(|d| d.len() as u64),
                    has_post_data: request.has_post_data.unwrap_or(false),
                    status: None,
                    status_text: String::new(),
                    response_headers: Vec::new(),
                    mime_type: String::new(),
                    protocol: String::new(),
                    size: None,
                    wall_time: p.wall_time,
                    started: p.timestamp,
                    ended: None,
                    state: NetState::Pending,
                });
            }
            ResponseReceived::METHOD => {
                let Ok(p) = event.parse::<ResponseReceived>() else {
                    return;
                };
                let Some(entry) = self.latest(&p.request_id) else {
                    return;
                };
                let response = &p.response;
                entry.status = status_of(response.status);
                entry.status_text = kept(&response.status_text, WORD_KEPT);
                entry.response_headers = headers_of(&response.headers);
                entry.mime_type = kept(&response.mime_type, WORD_KEPT);
                entry.protocol = kept(response.protocol.as_deref().unwrap_or_default(), WORD_KEPT);
                if !p.kind.as_str().is_empty() {
                    entry.resource_type = p.kind.as_str().to_owned();
                }
                // The headers as sent, when the browser knows them better.
                let sent = headers_of(response.request_headers.as_ref().unwrap_or(&Value::Null));
                if !sent.is_empty() {
                    entry.request_headers = sent;
                }
            }
            LoadingFinished::METHOD => {
                let Ok(p) = event.parse::<LoadingFinished>() else {
                    return;
                };
                let Some(entry) = self.latest(&p.request_id) else {
                    return;
                };
                entry.size = Some(p.encoded_data_length.max(0.0) as u64);
                entry.ended = Some(p.timestamp);
                entry.state = NetState::Finished;
            }
            LoadingFailed::METHOD => {
                let Ok(p) = event.parse::<LoadingFailed>() else {
                    return;
                };
                let Some(entry) = self.latest(&p.request_id) else {
                    return;
                };
                entry.ended = Some(p.timestamp);
                let reason = Some(p.error_text.as_str())
                    .filter(|t| !t.is_empty())
                    .unwrap_or("failed");
                let reason = match p.blocked_reason.as_ref().and_then(Value::as_str) {
                    Some(why) => format!("{reason} ({why})"),
                    None => reason.to_owned(),
                };
                entry.state = NetState::Failed(reason);
            }
            _ => {}
        }
    }

    /// The newest entry of a request id (an iframe's document is requested
    /// on the parent's session and finished on its own: the id is shared).
    fn latest(&mut self, request_id: &str) -> Option<&mut NetEntry> {
        self.ring
            .entries_mut()
            .iter_mut()
            .rev()
            .find(|e| e.request_id == request_id)
    }

    fn push(&mut self, entry: NetEntry) {
        self.ring.push(entry);
    }

    /// The entries since the last such read (or all kept, with `all`); marks
    /// them read.
    pub fn read(&mut self, all: bool) -> NetRead {
        self.read_where(all, |_| true)
    }

    /// As [`NetLog::read`], of the entries `wanted` keeps; the others stay
    /// unread.
    pub fn read_where(&mut self, all: bool, wanted: impl Fn(&NetEntry) -> bool) -> NetRead {
        let (entries, dropped) = self.ring.read_where(all, wanted);
        NetRead { entries, dropped }
    }

    /// Every entry kept, oldest first, without marking any read.
    pub fn kept(&self) -> Vec<NetEntry> {
        self.ring.entries().iter().cloned().collect()
    }

    /// The entries numbered after `seq`, without marking any read.
    pub fn after(&self, seq: u64) -> Vec<NetEntry> {
        self.ring.after(seq)
    }

    /// The number the newest entry got (0 before any).
    pub fn last_seq(&self) -> u64 {
        self.ring.last_seq()
    }

    /// The entry numbered `seq`, if still kept.
    pub fn get(&self, seq: u64) -> Option<NetEntry> {
        self.ring.entries().iter().find(|e| e.seq == seq).cloned()
    }

    /// Forgets every entry (numbers go on from where they were).
    pub fn clear(&mut self) {
        self.ring.clear();
    }
}

/// What a rule does to a matching request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleAction {
    /// Fail it as blocked by the client.
    Block,
    /// Answer it with this response; the server never sees it.
    Mock {
        /// The HTTP status.
        status: u16,
        /// The `Content-Type`.
        content_type: String,
        /// The body.
        body: Vec<u8>,
    },
}

/// One rule: a URL pattern and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRule {
    /// A glob over the whole URL, as [`rove_base::url_pattern`] reads it
    /// (`*` any run, `\` escapes, every other character itself).
    pub pattern: String,
    /// What to do.
    pub action: RuleAction,
}

/// The session's rules, the newest first (it wins over older ones).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestRules(pub Vec<RequestRule>);

/// The rules as the context and its tabs share them.
pub(crate) type SharedRules = Arc<Mutex<RequestRules>>;

/// The rules as they stand.
pub(crate) fn current_rules(rules: &SharedRules) -> RequestRules {
    rules.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

impl RequestRules {
    /// The rule for `url`, if one matches.
    pub fn matching(&self, url: &str) -> Option<&RequestRule> {
        self.0
            .iter()
            .find(|r| UrlPattern::new(&r.pattern).matches(url))
    }
}

/// Answers a paused request by `action`, from a task of its own (the watch's
/// event loop never waits on the browser).
pub(crate) fn answer_by_rule(session: rove_cdp::Session, request_id: String, action: RuleAction) {
    use base64::Engine;
    use rove_cdp::protocol::fetch::{FailRequest, FulfillRequest, HeaderEntry};
    use rove_cdp::protocol::network::ErrorReason;
    if request_id.is_empty() {
        return;
    }
    let fail = |reason| FailRequest {
        request_id: request_id.clone(),
        error_reason: reason,
    };
    let failed = fail(ErrorReason::Failed);
    let blocked = fail(ErrorReason::BlockedByClient);
    tokio::spawn(async move {
        let answer = match action {
            RuleAction::Block => session.send(&blocked).await,
            RuleAction::Mock {
                status,
                content_type,
                body,
            } => {
                // Any origin may read a mocked answer: a page's script calls
                // APIs on other hosts, and the mock stands in for them.
                let header = |name: &str, value: String| HeaderEntry {
                    name: name.to_owned(),
                    value,
                };
                let fulfill = FulfillRequest {
                    request_id,
                    response_code: i64::from(status),
                    response_headers: Some(vec![
                        header("Content-Type", content_type),
                        header("Access-Control-Allow-Origin", "*".to_owned()),
                        header("Content-Length", body.len().to_string()),
                    ]),
                    body: Some(base64::engine::general_purpose::STANDARD.encode(&body)),
                    ..FulfillRequest::default()
                };
                session.send(&fulfill).await
            }
        };
        if let Err(e) = answer {
            tracing::debug!(target: "rove_browser", error = %e, "could not answer a request by rule");
            // A request left paused never ends: the page would wait on it
            // for good. Fail it instead.
            let _ = session.send(&failed).await;
        }
    });
}
