//! A tiny HTTP/1.1 server bound to 127.0.0.1, for `rove doctor`, test fixtures
//! and benchmarks.
//!
//! Deliberately small: one response per connection (`Connection: close`), no
//! TLS, no chunking. Every read has a deadline, so a stuck client can never
//! hold a task forever. Routes are exact paths (the query string is ignored
//! for matching and handed to the handler).
//!
//! # Why not on hyper
//!
//! hyper is in rove's tree (reqwest's client, rove-mcp's HTTP server), and
//! this crate could be built on it. Measured (2026-12-06, a debug build
//! from nothing, one job, Cargo.lock's versions): tokio alone is 17 crates
//! and 18.6 s of CPU; with hyper (`server`, `http1`), hyper-util and
//! http-body-util, 28 crates and 21.4 s. So the cost is small: 11 crates
//! and about 3 s, paid only by a build of a crate whose normal tree lacks
//! hyper (rove-browser, rove-page, rove-input and rove-commands use this
//! server in their tests only); a workspace build compiles hyper anyway.
//! The gain is small too: hyper would replace the request reader and the
//! response writer, about 120 of these lines; routes, folders, the request
//! log and the deadlines stay. What decides it is what a test server is
//! for: the bytes on the wire are the ones written here (one response per
//! connection, the head as written, a delay before it, nothing
//! negotiated), which a fault test can rely on. So the hand-written server
//! stays, kept small.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const MAX_HEAD_BYTES: usize = 64 * 1024;
const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
const READ_TIMEOUT: Duration = Duration::from_secs(10);
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(120);

/// One parsed request.
#[derive(Debug, Clone)]
pub struct Request {
    /// `GET`, `POST` …
    pub method: String,
    /// The path without the query.
    pub path: String,
    /// The query string without `?`, possibly empty.
    pub query: String,
    /// Header names lower-cased, in order.
    pub headers: Vec<(String, String)>,
    /// The body, if one was sent with a `Content-Length`.
    pub body: Vec<u8>,
}

impl Request {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A response to send.
#[derive(Debug, Clone)]
pub struct Response {
    /// The HTTP status code.
    pub status: u16,
    /// Extra headers.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
    /// Wait this long before answering (for slow-page fixtures).
    pub delay: Option<Duration>,
}

impl Response {
    /// A `200` HTML page.
    pub fn html(body: impl Into<String>) -> Self {
        Response::with_type(200, "text/html; charset=utf-8", body.into().into_bytes())
    }

    /// A `200` plain-text body.
    pub fn text(body: impl Into<String>) -> Self {
        Response::with_type(200, "text/plain; charset=utf-8", body.into().into_bytes())
    }

    /// A body of any type and status.
    pub fn with_type(status: u16, content_type: &str, body: Vec<u8>) -> Self {
        Response {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body,
            delay: None,
        }
    }

    /// An empty response with `status`.
    pub fn status(status: u16) -> Self {
        Response::with_type(status, "text/plain; charset=utf-8", Vec::new())
    }

    /// A `302` redirect.
    pub fn redirect(location: &str) -> Self {
        Response::status(302).header("Location", location)
    }

    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Delays the answer.
    pub fn delayed(mut self, delay: Duration) -> Self {
        self.delay = Some(delay);
        self
    }
}

type Handler = Arc<dyn Fn(&Request) -> Response + Send + Sync>;

/// The routes of a server: exact paths to handlers, then folders served
/// from disk under a path prefix.
#[derive(Clone, Default)]
pub struct Routes {
    map: HashMap<String, Handler>,
    folders: Vec<(String, std::path::PathBuf)>,
    log: Option<RequestLog>,
}

/// Every request a server received, in order: what a test reads afterwards
/// to prove that something was never asked for.
#[derive(Debug, Clone, Default)]
pub struct RequestLog(Arc<std::sync::Mutex<Vec<Request>>>);

impl RequestLog {
    /// A new, empty log.
    pub fn new() -> Self {
        RequestLog::default()
    }

    /// The requests so far.
    pub fn requests(&self) -> Vec<Request> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn push(&self, request: &Request) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(request.clone());
    }
}

impl std::fmt::Debug for Routes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Routes")
            .field("paths", &self.map.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Routes {
    /// No routes: every path is a 404.
    pub fn new() -> Self {
        Routes::default()
    }

    /// Records every request in `log` (before it is answered).
    pub fn log_requests(mut self, log: RequestLog) -> Self {
        self.log = Some(log);
        self
    }

    /// Serves a fixed response at `path`.
    pub fn page(self, path: &str, response: Response) -> Self {
        self.handle(path, move |_| response.clone())
    }

    /// Serves the files under `folder` at `prefix` (`/docs` → `/docs/a.html`).
    /// Paths that climb out of the folder are refused.
    pub fn folder(mut self, prefix: &str, folder: impl Into<std::path::PathBuf>) -> Self {
        self.folders
            .push((prefix.trim_end_matches('/').to_owned(), folder.into()));
        self
    }

    fn serve_file(&self, path: &str) -> Option<Response> {
        for (prefix, folder) in &self.folders {
            let Some(rest) = path.strip_prefix(prefix.as_str()) else {
                continue;
            };
            let rest = percent_decode(rest.trim_start_matches('/'));
            // Judged after decoding: `%2Fetc%2Fpasswd` is an absolute path
            // and `%2e%2e` a parent, and joining either would leave the
            // folder.
            let plain = std::path::Path::new(&rest)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !plain {
                return Some(Response::status(403));
            }
            let file = folder.join(&rest);
            let file = if file.is_dir() {
                file.join("index.html")
            } else {
                file
            };
            return Some(match std::fs::read(&file) {
                Ok(body) => Response::with_type(200, content_type(&file), body),
                Err(_) => Response::status(404),
            });
        }
        None
    }

    /// Serves `path` with a handler.
    pub fn handle(
        mut self,
        path: &str,
        handler: impl Fn(&Request) -> Response + Send + Sync + 'static,
    ) -> Self {
        self.map.insert(path.to_owned(), Arc::new(handler));
        self
    }
}

/// A running server. Stops accepting when dropped.
#[derive(Debug)]
pub struct LocalServer {
    addr: SocketAddr,
    accept: tokio::task::JoinHandle<()>,
}

impl LocalServer {
    /// Binds 127.0.0.1 on a free port and starts serving.
    pub async fn start(routes: Routes) -> std::io::Result<LocalServer> {
        LocalServer::start_on(routes, 0).await
    }

    /// Binds 127.0.0.1 on `port` (0: a free one) and starts serving.
    pub async fn start_on(routes: Routes, port: u16) -> std::io::Result<LocalServer> {
        let listener = TcpListener::bind(("127.0.0.1", port)).await?;
        let addr = listener.local_addr()?;
        let routes = Arc::new(routes);
        let accept = tokio::spawn(async move {
            loop {
                let (stream, _) = match listener.accept().await {
                    Ok(pair) => pair,
                    Err(e) => {
                        tracing::debug!(target: "rove_localserver", error = %e, "accept failed");
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                };
                let routes = Arc::clone(&routes);
                tokio::spawn(async move {
                    // The whole exchange has a deadline (beyond any delay the
                    // route asks for), so a client that stops reading cannot
                    // hold a task forever.
                    match tokio::time::timeout(CONNECTION_TIMEOUT, serve(stream, &routes)).await {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => {
                            tracing::debug!(target: "rove_localserver", error = %e, "connection failed")
                        }
                        Err(_) => {
                            tracing::debug!(target: "rove_localserver", "connection timed out")
                        }
                    }
                });
            }
        });
        Ok(LocalServer { addr, accept })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

async fn serve(mut stream: TcpStream, routes: &Routes) -> std::io::Result<()> {
    let Some(request) = tokio::time::timeout(READ_TIMEOUT, read_request(&mut stream))
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "request timed out"))??
    else {
        return Ok(());
    };
    if let Some(log) = &routes.log {
        log.push(&request);
    }
    let response = match routes.map.get(&request.path) {
        Some(handler) => handler(&request),
        None => routes
            .serve_file(&request.path)
            .unwrap_or_else(|| Response::status(404)),
    };
    if let Some(delay) = response.delay {
        tokio::time::sleep(delay).await;
    }
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        response.status,
        reason(response.status)
    );
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n",
        response.body.len()
    ));
    stream.write_all(head.as_bytes()).await?;
    if request.method != "HEAD" {
        stream.write_all(&response.body).await?;
    }
    stream.shutdown().await
}

/// Reads one request. `None` when the client closed without sending one.
async fn read_request(stream: &mut TcpStream) -> std::io::Result<Option<Request>> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_HEAD_BYTES {
            return Err(std::io::Error::other("request head too large"));
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split_whitespace();
    let method = first.next().unwrap_or_default().to_owned();
    let target = first.next().unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    if length > MAX_BODY_BYTES {
        return Err(std::io::Error::other("request body too large"));
    }
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(length);
    Ok(Some(Request {
        method,
        path: path.to_owned(),
        query: query.to_owned(),
        headers,
        body,
    }))
}

fn content_type(file: &std::path::Path) -> &'static str {
    match file
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        409 => "Conflict",
        422 => "Unprocessable Content",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn exchange(server: &LocalServer, request: &str) -> String {
        let mut stream = TcpStream::connect(server.addr()).await.expect("connect");
        stream.write_all(request.as_bytes()).await.expect("write");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("read");
        answer
    }

    #[tokio::test]
    async fn routes_answer_and_unknown_paths_are_404() {
        let server = LocalServer::start(
            Routes::new()
                .page("/a", Response::html("<p>a</p>"))
                .handle("/echo", |req| {
                    Response::text(format!("{} {} {}", req.method, req.query, req.body.len()))
                })
                .page("/moved", Response::redirect("/a")),
        )
        .await
        .expect("start");
        let a = exchange(&server, "GET /a?x=1 HTTP/1.1\r\nHost: x\r\n\r\n").await;
        assert!(a.starts_with("HTTP/1.1 200 OK\r\n"), "{a}");
        assert!(
            a.contains("Content-Length: 8\r\n") && a.ends_with("<p>a</p>"),
            "{a}"
        );
        let echo = exchange(
            &server,
            "POST /echo?q=2 HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello",
        )
        .await;
        assert!(echo.ends_with("POST q=2 5"), "{echo}");
        let missing = exchange(&server, "GET /nope HTTP/1.1\r\n\r\n").await;
        assert!(missing.starts_with("HTTP/1.1 404 Not Found"), "{missing}");
        let moved = exchange(&server, "GET /moved HTTP/1.1\r\n\r\n").await;
        assert!(
            moved.starts_with("HTTP/1.1 302 Found") && moved.contains("Location: /a\r\n"),
            "{moved}"
        );
        assert!(server.url("/a").starts_with("http://127.0.0.1:"));
    }

    #[tokio::test]
    async fn folders_serve_files_and_refuse_to_climb_out() {
        let dir =
            std::env::temp_dir().join(format!("rove-localserver-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
        std::fs::write(dir.join("sub/page one.html"), "<p>one</p>").expect("write");
        let server = LocalServer::start(Routes::new().folder("/files", &dir))
            .await
            .expect("start");
        let one = exchange(&server, "GET /files/sub/page%20one.html HTTP/1.1\r\n\r\n").await;
        assert!(
            one.starts_with("HTTP/1.1 200 OK")
                && one.contains("text/html")
                && one.ends_with("<p>one</p>"),
            "{one}"
        );
        for climb in [
            "/files/../etc/passwd",
            "/files/%2Fetc%2Fpasswd",
            "/files/%2e%2e/%2e%2e/etc/passwd",
            "/files/sub/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        ] {
            let up = exchange(&server, &format!("GET {climb} HTTP/1.1\r\n\r\n")).await;
            assert!(up.starts_with("HTTP/1.1 403"), "{climb}: {up}");
            assert!(!up.contains("root:"), "{climb}: {up}");
        }
        let missing = exchange(&server, "GET /files/nope.html HTTP/1.1\r\n\r\n").await;
        assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
