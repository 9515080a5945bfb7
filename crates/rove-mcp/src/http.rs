//! MCP over streamable HTTP, for hosts that connect by URL: bound to
//! 127.0.0.1 only, every request must carry the bearer token, and `Host`
//! and `Origin` are checked (a web page in the user's browser cannot reach
//! the server through DNS rebinding or a cross-site request). Each MCP
//! session gets its own rove session.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rove_commands::SessionConfig;

use crate::{BrowserSource, McpError, RoveMcp};

/// A running HTTP server.
#[derive(Debug)]
pub struct HttpServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The bearer token clients must send.
    pub token: String,
    accept: tokio::task::JoinHandle<()>,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl HttpServer {
    /// The URL to give to MCP hosts.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// Waits until the server stops (it stops only when dropped or aborted).
    pub async fn run(mut self) {
        let _ = (&mut self.accept).await;
    }
}

/// Listens on 127.0.0.1:`port` (0 for any free port). `token` is the bearer
/// token to require; `None` generates one.
pub async fn serve_http(
    port: u16,
    token: Option<String>,
    source: BrowserSource,
    config: SessionConfig,
) -> Result<HttpServer, McpError> {
    let token = match token.filter(|t| !t.is_empty()) {
        Some(t) => t,
        None => generate_token()?,
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| McpError::Protocol(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| McpError::Protocol(e.to_string()))?;
    let port = addr.port();
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
        .enforce_origin_validation();
    let service = StreamableHttpService::new(
        move || Ok(RoveMcp::new(source.clone(), config.clone())),
        Arc::new(LocalSessionManager::default()),
        http_config,
    );
    let expected = Arc::new(format!("Bearer {token}"));
    let accept = tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let service = service.clone();
            let expected = expected.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let mut service = service.clone();
                    let expected = expected.clone();
                    async move {
                        if !authorized(&request, &expected) {
                            return Ok::<_, Infallible>(unauthorized());
                        }
                        use tower_service::Service;
                        let response = service.call(request).await?;
                        Ok(response.map(|body| body.boxed()))
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
            });
        }
    });
    Ok(HttpServer {
        addr,
        token,
        accept,
    })
}

/// The request carries `Authorization: Bearer <token>`, compared in
/// constant time.
fn authorized(request: &Request<Incoming>, expected: &str) -> bool {
    let Some(given) = request
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

fn unauthorized() -> Response<http_body_util::combinators::BoxBody<Bytes, Infallible>> {
    let body = r#"{"error":"missing or wrong bearer token: send Authorization: Bearer <token> (printed when rove mcp --http starts)"}"#;
    let mut response = Response::new(Full::new(Bytes::from_static(body.as_bytes())).boxed());
    *response.status_mut() = StatusCode::UNAUTHORIZED;
    response.headers_mut().insert(
        hyper::header::WWW_AUTHENTICATE,
        hyper::header::HeaderValue::from_static("Bearer"),
    );
    response
}

/// 32 random bytes from the kernel, as hex.
fn generate_token() -> Result<String, McpError> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| McpError::Protocol(format!("no randomness for a token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
