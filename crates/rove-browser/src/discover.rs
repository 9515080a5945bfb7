//! Turning a user's `--cdp-url` into a browser WebSocket address.
//!
//! `ws://…` and `wss://…` are used as given (a path-less one asks for `/`).
//! `http(s)://host:port[/path][?query]` is asked for `[/path]/json/version`
//! with the same query (a farm's token travels there) and the `--cdp-header`
//! headers; the WebSocket path it reports is joined to the host and port the
//! user gave, since a browser in a container or behind a farm reports its own
//! internal address, which the user cannot reach (see
//! [`Endpoint::websocket_for`]).

use std::time::Duration;

use rove_cdp::{Access, CdpError, Endpoint};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use crate::BrowserError;

const MAX_RESPONSE_BYTES: usize = 1 << 20;

/// Resolves a `--cdp-url` to a `ws://` or `wss://` browser endpoint.
pub async fn resolve_cdp_url(
    url: &str,
    access: &Access,
    timeout: Duration,
) -> Result<String, BrowserError> {
    let endpoint = Endpoint::parse(url).map_err(BrowserError::Rejected)?;
    if endpoint.is_websocket() {
        return Ok(endpoint.as_str().to_owned());
    }
    let shown = endpoint.redacted();
    let unreachable = |reason: String| BrowserError::lost(format!("{shown}: {reason}"));
    let answer = tokio::time::timeout(timeout, get_version(&endpoint, access))
        .await
        .map_err(|_| unreachable(format!("no answer within {} s", timeout.as_secs_f64())))?
        .map_err(|e| unreachable(rove_base::redact::scrub(&e.to_string())))?;
    if matches!(answer.status, 401 | 403) {
        return Err(BrowserError::Cdp(CdpError::Refused {
            url: shown,
            status: answer.status,
        }));
    }
    if answer.status == 429 {
        return Err(BrowserError::Cdp(CdpError::Busy {
            url: shown,
            status: answer.status,
        }));
    }
    if answer.status != 200 {
        return Err(unreachable(format!(
            "/json/version answered HTTP {}",
            answer.status
        )));
    }
    let version: serde_json::Value = serde_json::from_slice(&answer.body)
        .map_err(|e| unreachable(format!("/json/version is not JSON: {e}")))?;
    let reported = version
        .get("webSocketDebuggerUrl")
        .and_then(|v| v.as_str())
        .ok_or_else(|| unreachable("/json/version has no webSocketDebuggerUrl".into()))?;
    let ws = endpoint.websocket_for(reported).map_err(unreachable)?;
    Ok(ws.as_str().to_owned())
}

/// The path discovery asks for: `/json/version` under the user's path
/// (which may already be it).
fn version_path(endpoint: &Endpoint) -> String {
    let base = endpoint.path().trim_end_matches('/');
    let path = if base.ends_with("/json/version") {
        base.to_owned()
    } else {
        format!("{base}/json/version")
    };
    match endpoint.query() {
        Some(query) => format!("{path}?{query}"),
        None => path,
    }
}

struct Answer {
    status: u16,
    body: Vec<u8>,
}

/// A minimal HTTP/1.1 GET: DevTools' discovery endpoint needs nothing more,
/// and rove keeps its dependency tree small. Chromium keeps the connection
/// open whatever the request says, so the body is read by its
/// `Content-Length`, or its chunks (a farm's proxy), or to the end.
async fn get_version(endpoint: &Endpoint, access: &Access) -> std::io::Result<Answer> {
    let mut stream = access.open(endpoint).await?;
    let mut request = format!(
        "GET {} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\nConnection: close\r\n",
        version_path(endpoint),
        endpoint.authority()
    );
    for (name, value) in access.headers() {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(basic) = endpoint.basic_authorization()
        && !access.has_header("authorization")
    {
        request.push_str(&format!("Authorization: {basic}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await?;
    stream.flush().await?;
    read_answer(&mut stream).await
}

async fn read_answer<S: AsyncRead + Unpin>(stream: &mut S) -> std::io::Result<Answer> {
    let mut raw = Vec::new();
    let mut chunk = [0u8; 8192];
    let mut head: Option<(usize, Framing)> = None;
    loop {
        if let Some((start, framing)) = &head
            && let Some(body) = framing.complete(&raw[*start..])?
        {
            let status = head_status(&raw[..*start])?;
            return Ok(Answer { status, body });
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&chunk[..n]);
        if raw.len() > MAX_RESPONSE_BYTES {
            return Err(std::io::Error::other("response too large"));
        }
        if head.is_none()
            && let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n")
        {
            head = Some((end + 4, Framing::of(&String::from_utf8_lossy(&raw[..end]))));
        }
    }
    // The peer closed: whatever came is the whole answer.
    let Some((start, framing)) = head else {
        return Err(std::io::Error::other("malformed HTTP response"));
    };
    let status = head_status(&raw[..start])?;
    let body = match framing {
        Framing::Chunked => framing
            .complete(&raw[start..])?
            .ok_or_else(|| std::io::Error::other("the chunked answer was cut short"))?,
        _ => raw[start..].to_vec(),
    };
    Ok(Answer { status, body })
}

fn head_status(head: &[u8]) -> std::io::Result<u16> {
    String::from_utf8_lossy(head)
        .lines()
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| std::io::Error::other("malformed HTTP status line"))
}

/// How an answer's body ends.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Framing {
    Length(usize),
    Chunked,
    UntilClose,
}

impl Framing {
    fn of(head: &str) -> Framing {
        let header = |wanted: &str| {
            head.lines()
                .filter_map(|line| line.split_once(':'))
                .find(|(name, _)| name.trim().eq_ignore_ascii_case(wanted))
                .map(|(_, value)| value.trim().to_ascii_lowercase())
        };
        if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
            return Framing::Chunked;
        }
        match header("content-length").and_then(|v| v.parse().ok()) {
            Some(length) => Framing::Length(length),
            None => Framing::UntilClose,
        }
    }

    /// The body, once `raw` holds all of it.
    fn complete(&self, raw: &[u8]) -> std::io::Result<Option<Vec<u8>>> {
        match *self {
            Framing::Length(length) => Ok((raw.len() >= length).then(|| raw[..length].to_vec())),
            Framing::UntilClose => Ok(None),
            Framing::Chunked => dechunk(raw),
        }
    }
}

/// The body of a chunked answer, or `None` while its last chunk has not
/// come. Extensions after a chunk's size and trailers are skipped.
fn dechunk(mut raw: &[u8]) -> std::io::Result<Option<Vec<u8>>> {
    let mut body = Vec::new();
    loop {
        let Some(line_end) = raw.windows(2).position(|w| w == b"\r\n") else {
            return Ok(None);
        };
        let line = String::from_utf8_lossy(&raw[..line_end]);
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| std::io::Error::other(format!("bad chunk size {size_text:?}")))?;
        // The size is the peer's word: one past the answer's limit is
        // refused before any arithmetic on it can overflow.
        if size > MAX_RESPONSE_BYTES {
            return Err(std::io::Error::other(format!(
                "a chunk of {size} bytes is past the {MAX_RESPONSE_BYTES}-byte limit"
            )));
        }
        raw = &raw[line_end + 2..];
        if size == 0 {
            return Ok(Some(body));
        }
        if raw.len() < size + 2 {
            return Ok(None);
        }
        body.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_keeps_the_query_and_the_path() {
        let path = |url: &str| version_path(&Endpoint::parse(url).expect("parses"));
        assert_eq!(path("http://h:9222"), "/json/version");
        assert_eq!(path("http://h:3000?token=T"), "/json/version?token=T");
        assert_eq!(
            path("https://h/farm/?token=T&x=1"),
            "/farm/json/version?token=T&x=1"
        );
        assert_eq!(path("http://h:1/json/version"), "/json/version");
    }

    #[tokio::test]
    async fn answers_are_read_by_length_chunks_or_close() {
        let cases: [(&[u8], u16, &[u8]); 4] = [
            (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}extra", 200, b"{}"),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\n{\"a\r\n4\r\n\":1}\r\n0\r\n\r\n",
                200,
                b"{\"a\":1}",
            ),
            (b"HTTP/1.1 401 Unauthorized\r\n\r\nno", 401, b"no"),
            (b"HTTP/1.0 200 OK\r\n\r\n{\"b\":2}", 200, b"{\"b\":2}"),
        ];
        for (wire, status, body) in cases {
            let mut reader = wire;
            let answer = read_answer(&mut reader).await.expect("reads");
            assert_eq!(answer.status, status);
            assert_eq!(answer.body, body);
        }
        let mut cut: &[u8] = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab";
        assert!(read_answer(&mut cut).await.is_err());
        let mut bad: &[u8] = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n";
        assert!(read_answer(&mut bad).await.is_err());
    }

    #[tokio::test]
    async fn a_chunk_size_past_the_limit_is_an_error_not_a_panic() {
        // A hostile endpoint's sizes: one that overflows when its CRLF is
        // added, one just under it, and one merely past the answer's limit.
        for size in ["ffffffffffffffff", "fffffffffffffffe", "200000"] {
            let wire = format!("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n{size}\r\nab");
            let mut reader = wire.as_bytes();
            let error = read_answer(&mut reader)
                .await
                .err()
                .unwrap_or_else(|| panic!("{size} is refused"));
            assert!(error.to_string().contains("chunk"), "{size}: {error}");
        }
    }
}
