//! MCP over streamable HTTP, for hosts that connect by URL: bound to
//! 127.0.0.1 only, every request must carry the bearer token, and `Host`
//! and `Origin` are checked (a web page in the user's browser cannot reach
//! the server through DNS rebinding or a cross-site request). Each MCP
//! session gets its own rove session.
//!
//! Slow and many clients cannot wear it down ([`HttpLimits`]): request
//! headers and bodies have deadlines, a client that stops reading its
//! answer is dropped, the connections and the MCP sessions are capped, idle
//! sessions expire, and the accept loop backs off when the process is out
//! of file descriptors (`http_conns.rs`). An idle session holds no thread
//! and no browser (`session.rs`).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Empty, Full, Limited};
use hyper::body::Incoming;
use hyper::header::HeaderValue;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rove_base::limits;
use rove_commands::SessionConfig;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::http_auth::{self, Body, Credentials};
use crate::http_conns::{self, Activity, Busy, Connections, StallGuard, Ticket};
use crate::http_sessions::BoundedSessions;
use crate::{BrowserSource, MAX_MESSAGE_BYTES, McpError, RoveMcp};

/// How much the HTTP server gives its clients. The defaults are what `rove
/// mcp --http` uses.
#[derive(Debug, Clone)]
pub struct HttpLimits {
    /// A client must send a request's headers within this time of
    /// connecting, and on a kept-alive connection within this time of the
    /// last answer, or the connection is closed. Default 10 s.
    pub header_timeout: Duration,
    /// A request's body must arrive within this time (else `408`).
    /// Default 10 s.
    pub body_timeout: Duration,
    /// An answer the client takes no byte of for this long is abandoned and
    /// the connection closed. Default 30 s.
    pub write_timeout: Duration,
    /// Open connections at once; at the cap an idle one is closed to make
    /// room (`http_conns.rs`). Default 256.
    pub max_connections: usize,
    /// MCP sessions at once; one more is refused with `503` until one ends
    /// (HTTP `DELETE`) or expires. Default 256.
    pub max_sessions: usize,
    /// An MCP session with no request for this long ends, with its rove
    /// session and browser. Default 15 minutes (the daemon's idle time).
    pub session_idle: Duration,
    /// The largest request body (else `413`). Default
    /// [`MAX_MESSAGE_BYTES`], 16 MiB.
    pub max_body_bytes: usize,
}

impl Default for HttpLimits {
    fn default() -> HttpLimits {
        HttpLimits {
            header_timeout: limits::HTTP_HEADERS,
            body_timeout: limits::HTTP_BODY,
            write_timeout: limits::HTTP_WRITE_STALL,
            max_connections: 256,
            max_sessions: 256,
            session_idle: limits::IDLE,
            max_body_bytes: MAX_MESSAGE_BYTES,
        }
    }
}

/// A running HTTP server. Its `Debug` shows the token as `<redacted>`.
pub struct HttpServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The bearer token clients must send.
    pub token: String,
    accept: tokio::task::JoinHandle<()>,
    sessions: Arc<BoundedSessions>,
    connections: Arc<Connections>,
    stop: CancellationToken,
}

impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("addr", &self.addr)
            .field("token", &rove_base::redact::HIDDEN)
            .finish_non_exhaustive()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.accept.abort();
        self.stop.cancel();
    }
}

impl HttpServer {
    /// The URL to give to MCP hosts.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// MCP sessions alive now.
    pub async fn sessions(&self) -> usize {
        self.sessions.count().await
    }

    /// Connections open now.
    pub fn connections(&self) -> usize {
        self.connections.count()
    }

    /// Waits until the server stops (it stops only when dropped or aborted).
    pub async fn run(mut self) {
        let _ = (&mut self.accept).await;
    }
}

/// Listens on 127.0.0.1:`port` (0 for any free port) with the default
/// [`HttpLimits`]. `token` is the bearer token to require; `None` generates
/// one.
pub async fn serve_http(
    port: u16,
    token: Option<String>,
    source: BrowserSource,
    config: SessionConfig,
) -> Result<HttpServer, McpError> {
    serve_http_with(port, token, source, config, HttpLimits::default()).await
}

/// [`serve_http`] with limits of your own.
pub async fn serve_http_with(
    port: u16,
    token: Option<String>,
    source: BrowserSource,
    config: SessionConfig,
    limits: HttpLimits,
) -> Result<HttpServer, McpError> {
    let token = match token.filter(|t| !t.is_empty()) {
        Some(t) => t,
        None => http_auth::generate_token()
            .map_err(|e| McpError::Protocol(format!("no randomness for a token: {e}")))?,
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| McpError::Protocol(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| McpError::Protocol(e.to_string()))?;
    let port = addr.port();
    let stop = CancellationToken::new();
    let http_config = StreamableHttpServerConfig::default()
        .with_allowed_hosts([
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            "127.0.0.1".to_owned(),
            "localhost".to_owned(),
        ])
        .with_allowed_origins([
            format!("http://127.0.0.1:{port}"),
            format!("http://localhost:{port}"),
        ])
        .enforce_origin_validation()
        .with_max_request_body_bytes(limits.max_body_bytes)
        .with_cancellation_token(stop.clone());
    let sessions = Arc::new(BoundedSessions::new(
        limits.max_sessions,
        limits.session_idle,
    ));
    let service = StreamableHttpService::new(
        move || Ok(RoveMcp::new(source.clone(), config.clone())),
        sessions.clone(),
        http_config,
    );
    let connections = Connections::new(limits.max_connections);
    let front = Arc::new(Front {
        token: token.clone(),
        port,
        sessions: sessions.clone(),
        service,
        limits,
    });
    let accept = tokio::spawn(http_conns::accept_loop(
        listener,
        connections.clone(),
        move |stream, ticket| {
            tokio::spawn(serve_connection(front.clone(), stream, ticket));
        },
    ));
    Ok(HttpServer {
        addr,
        token,
        accept,
        sessions,
        connections,
        stop,
    })
}

/// What every request goes through before rmcp sees it.
struct Front {
    token: String,
    port: u16,
    sessions: Arc<BoundedSessions>,
    service: StreamableHttpService<RoveMcp, BoundedSessions>,
    limits: HttpLimits,
}

/// Serves one connection until it ends, times out, or is told to make room.
async fn serve_connection(front: Arc<Front>, stream: tokio::net::TcpStream, mut ticket: Ticket) {
    let activity = ticket.activity.clone();
    let (write_timeout, header_timeout) = (front.limits.write_timeout, front.limits.header_timeout);
    let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
        let front = front.clone();
        let activity = activity.clone();
        async move { Ok::<_, Infallible>(front.handle(&activity, request).await) }
    });
    let io = TokioIo::new(StallGuard::new(stream, write_timeout));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let connection = builder.serve_connection(io, handler);
    tokio::select! {
        served = connection => {
            if let Err(e) = served {
                tracing::debug!(error = %e, "connection ended");
            }
        }
        _ = &mut ticket.stop => tracing::debug!("closed an idle connection to make room"),
    }
}

impl Front {
    /// The answer to one request; the connection counts as busy until the
    /// answer's body has been written or dropped.
    async fn handle(&self, activity: &Arc<Activity>, request: Request<Incoming>) -> Response<Body> {
        let busy = activity.begin();
        let response = self.answer(request).await;
        response.map(|body| Tracked { body, _busy: busy }.boxed())
    }

    async fn answer(&self, request: Request<Incoming>) -> Response<Body> {
        let base = self.base(&request);
        let path = request.uri().path();
        if request.method() == Method::GET
            && (path == http_auth::METADATA_PATH || path == http_auth::METADATA_ROOT_PATH)
        {
            return http_auth::metadata(&base);
        }
        match http_auth::credentials(request.headers(), &self.token) {
            Credentials::Right => {}
            other => return http_auth::unauthorized(&base, &other),
        }
        let session = request
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if request.method() == Method::DELETE {
            if let Some(id) = &session
                && !self.sessions.known(id).await
            {
                return error(
                    StatusCode::NOT_FOUND,
                    "no MCP session with that id (it ended or expired)",
                );
            }
        } else if request.method() == Method::POST
            && session.is_none()
            && self.sessions.full().await
        {
            let mut response = error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "too many MCP sessions ({}): end one with an HTTP DELETE or wait until an idle one expires",
                    self.sessions.max()
                ),
            );
            response
                .headers_mut()
                .insert(hyper::header::RETRY_AFTER, HeaderValue::from_static("10"));
            return response;
        }
        let declared = request
            .headers()
            .get(hyper::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > self.limits.max_body_bytes as u64) {
            return too_large(self.limits.max_body_bytes);
        }
        let method = request.method().clone();
        let (parts, body) = request.into_parts();
        let limited = Limited::new(body, self.limits.max_body_bytes);
        let bytes = match tokio::time::timeout(self.limits.body_timeout, limited.collect()).await {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
                return too_large(self.limits.max_body_bytes);
            }
            Ok(Err(e)) => {
                let mut response = error(
                    StatusCode::BAD_REQUEST,
                    &format!("the body could not be read: {e}"),
                );
                close_after(&mut response);
                return response;
            }
            Err(_) => {
                let mut response = error(
                    StatusCode::REQUEST_TIMEOUT,
                    &format!(
                        "the body did not arrive within {} s",
                        self.limits.body_timeout.as_secs()
                    ),
                );
                close_after(&mut response);
                return response;
            }
        };
        use tower_service::Service;
        let mut service = self.service.clone();
        let response = match service
            .call(Request::from_parts(parts, Full::new(bytes)))
            .await
        {
            Ok(response) => response,
            Err(never) => match never {},
        };
        if method == Method::DELETE && response.status().is_success() {
            let mut ended = Response::new(Empty::new().boxed());
            *ended.status_mut() = StatusCode::NO_CONTENT;
            return ended;
        }
        response
    }

    /// The server's own origin as the client named it (`127.0.0.1` or
    /// `localhost`), for the URLs in the authorization answers.
    fn base(&self, request: &Request<Incoming>) -> String {
        let port = self.port;
        let named = request
            .headers()
            .get(hyper::header::HOST)
            .and_then(|v| v.to_str().ok())
            .filter(|host| *host == format!("localhost:{port}"));
        match named {
            Some(host) => format!("http://{host}"),
            None => format!("http://127.0.0.1:{port}"),
        }
    }
}

/// An answer's body that keeps its connection counted as busy until it is
/// written or dropped (sizes pass through, so small answers keep their
/// `Content-Length`).
struct Tracked {
    body: Body,
    _busy: Busy,
}

impl hyper::body::Body for Tracked {
    type Data = hyper::body::Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        std::pin::Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// A JSON error answer of rove's own.
fn error(status: StatusCode, message: &str) -> Response<Body> {
    http_auth::json_response(status, &json!({ "error": message }))
}

/// `413`, and the connection closes (the rest of the body is not read).
fn too_large(limit: usize) -> Response<Body> {
    let mut response = error(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("the body is longer than {limit} bytes, the limit"),
    );
    close_after(&mut response);
    response
}

/// Asks hyper to close the connection after this answer (the request body
/// was not read to its end).
fn close_after(response: &mut Response<Body>) {
    response
        .headers_mut()
        .insert(hyper::header::CONNECTION, HeaderValue::from_static("close"));
}
