//! Turning a user's `--cdp-url` into a browser WebSocket address.
//!
//! `ws://…` is used as given. `http://host:port` is asked for
//! `/json/version`, and the WebSocket path it reports is joined to the host and
//! port the user gave: a browser in a container or behind a tunnel reports its
//! own internal address, which the user cannot reach.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::BrowserError;

const MAX_RESPONSE_BYTES: usize = 1 << 20;

/// Resolves a `--cdp-url` to a `ws://` browser endpoint.
pub async fn resolve_cdp_url(url: &str, timeout: Duration) -> Result<String, BrowserError> {
    if url.starts_with("ws://") {
        return Ok(url.to_owned());
    }
    if url.starts_with("wss://") || url.starts_with("https://") {
        return Err(BrowserError::Rejected(format!(
            "{url}: TLS endpoints are not supported; tunnel the browser to a local port and use http:// or ws://"
        )));
    }
    let Some(rest) = url.strip_prefix("http://") else {
        return Err(BrowserError::Rejected(format!(
            "{url}: expected http://host:port or ws://host:port/devtools/browser/<id>"
        )));
    };
    let authority = rest.split('/').next().unwrap_or_default();
    if authority.is_empty() || !authority.contains(':') {
        return Err(BrowserError::Rejected(format!(
            "{url}: give the host and the DevTools port, like http://127.0.0.1:9222"
        )));
    }
    let unreachable = |reason: String| BrowserError::Disconnected {
        reason: format!("{url}: {reason}"),
        sent: false,
    };
    let body = tokio::time::timeout(timeout, get(authority, "/json/version"))
        .await
        .map_err(|_| unreachable(format!("no answer within {} s", timeout.as_secs_f64())))?
        .map_err(|e| unreachable(e.to_string()))?;
    let version: serde_json::Value = serde_json::from_str(&body)
        .map_err(|e| unreachable(format!("/json/version is not JSON: {e}")))?;
    let reported = version
        .get("webSocketDebuggerUrl")
        .and_then(|v| v.as_str())
        .ok_or_else(|| unreachable("/json/version has no webSocketDebuggerUrl".into()))?;
    let path = reported
        .strip_prefix("ws://")
        .and_then(|r| r.find('/').map(|i| &r[i..]))
        .ok_or_else(|| unreachable(format!("unexpected webSocketDebuggerUrl {reported}")))?;
    Ok(format!("ws://{authority}{path}"))
}

/// A minimal HTTP/1.1 GET: DevTools' discovery endpoint needs nothing more, and
/// rove keeps its dependency tree small. Chromium keeps the connection open
/// whatever the request says, so the body is read by its `Content-Length`.
async fn get(authority: &str, path: &str) -> std::io::Result<String> {
    let mut stream = TcpStream::connect(authority).await?;
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    let mut chunk = [0u8; 8192];
    let mut body_start = None;
    let mut length = None;
    loop {
        if let (Some(start), Some(len)) = (body_start, length) {
            if raw.len() >= start + len {
                raw.truncate(start + len);
                break;
            }
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&chunk[..n]);
        if raw.len() > MAX_RESPONSE_BYTES {
            return Err(std::io::Error::other("response too large"));
        }
        if body_start.is_none() {
            if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                body_start = Some(end + 4);
                length = content_length(&String::from_utf8_lossy(&raw[..end]));
            }
        }
    }
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("malformed HTTP response"))?;
    let status_ok = head
        .lines()
        .next()
        .is_some_and(|status| status.split_whitespace().nth(1) == Some("200"));
    if !status_ok {
        let status = head.lines().next().unwrap_or_default();
        return Err(std::io::Error::other(format!("{path} answered {status}")));
    }
    Ok(body.to_owned())
}

fn content_length(head: &str) -> Option<usize> {
    head.lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse().ok())
}
