//! MCP over stdio with a line-level front: every line the client sends gets
//! an answer.
//!
//! rmcp's own stdio transport drops a line it cannot parse, or one over its
//! size limit, without a word, so a client that sent one waits forever. The
//! front reads stdin itself, one line at a time and never more than
//! [`MAX_MESSAGE_BYTES`] of it, answers a line that is not UTF-8, not JSON
//! (control bytes, lone surrogates, cut short) or too long with a JSON-RPC
//! parse error (`-32700`, id `null`), and hands every well-formed line to
//! rmcp through an in-memory pipe. rmcp's output and the front's errors go
//! to stdout through one writer, a whole line at a time, so lines never
//! interleave.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::json;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::{McpError, RoveMcp};
use rmcp::ServiceExt;

/// The longest message rove reads: 16 MiB (16,777,216 bytes, not counting
/// the newline), over stdio and as an HTTP body. A longer line is answered
/// with a parse error and skipped; the server keeps serving the next line.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// Lines waiting for stdout (whole JSON-RPC messages).
const OUT_QUEUE: usize = 64;

impl RoveMcp {
    /// Serves one client over stdin and stdout until it disconnects, then
    /// ends the session and any browser it launched. Nothing but JSON-RPC is
    /// written to stdout, and every line read gets an answer (a line that is
    /// not JSON, or longer than [`crate::MAX_MESSAGE_BYTES`], a JSON-RPC
    /// error; see `stdio.rs`).
    pub async fn serve_stdio(self) -> Result<(), McpError> {
        let end = self.end_own_session();
        let ended = serve(self).await;
        end.await;
        ended
    }
}

/// Serves `server` over the process's stdin and stdout until stdin ends.
pub(crate) async fn serve(server: RoveMcp) -> Result<(), McpError> {
    serve_on(server, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves `server` over any byte streams (the tests use pipes).
pub(crate) async fn serve_on<R, W>(server: RoveMcp, input: R, output: W) -> Result<(), McpError>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    // rmcp reads good lines from `to_rmcp` and writes its answers into it;
    // the front holds the other end.
    let (front, to_rmcp) = tokio::io::duplex(64 * 1024);
    let (from_rmcp, into_rmcp) = tokio::io::split(front);
    let (rmcp_read, rmcp_write) = tokio::io::split(to_rmcp);
    let (lines, queue) = mpsc::channel::<Vec<u8>>(OUT_QUEUE);

    let writer = tokio::spawn(write_lines(queue, output));
    let pump = tokio::spawn(pump_rmcp_output(from_rmcp, lines.clone()));
    let reader = tokio::spawn(read_lines(input, into_rmcp, lines));

    let transport = rmcp::transport::async_rw::AsyncRwTransport::<rmcp::RoleServer, _, _>::new(
        rmcp_read, rmcp_write,
    )
    .with_max_line_length(MAX_MESSAGE_BYTES + 1);
    let served = match server.serve(transport).await {
        Ok(running) => running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| McpError::Protocol(e.to_string())),
        Err(e) => Err(McpError::Protocol(e.to_string())),
    };
    // rmcp is done (stdin ended): let the last answers reach stdout.
    reader.abort();
    let deadline = rove_base::limits::MCP_STDIO_FLUSH;
    let _ = tokio::time::timeout(deadline, pump).await;
    let _ = tokio::time::timeout(deadline, writer).await;
    served
}

/// Reads the client's lines: good ones go on to rmcp, bad ones are answered.
async fn read_lines<R, W>(input: R, mut to_rmcp: W, answers: mpsc::Sender<Vec<u8>>)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::with_capacity(64 * 1024, input);
    let mut line = Vec::new();
    loop {
        let read = match next_line(&mut input, &mut line, MAX_MESSAGE_BYTES).await {
            Ok(read) => read,
            Err(e) => {
                tracing::debug!(error = %e, "stdin failed; ending");
                break;
            }
        };
        let verdict = match read {
            Read::End => break,
            Read::TooLong => Err(format!(
                "the message is longer than {MAX_MESSAGE_BYTES} bytes (16 MiB), the limit; it was skipped"
            )),
            Read::Line => check(&line),
        };
        match verdict {
            Ok(Some(message)) => {
                let sent = async {
                    to_rmcp.write_all(message).await?;
                    to_rmcp.write_all(b"\n").await?;
                    to_rmcp.flush().await
                }
                .await;
                if sent.is_err() {
                    break;
                }
            }
            Ok(None) => {}
            Err(why) => {
                tracing::debug!(%why, "answered a line that is not a message");
                if answers.send(parse_error(&why)).await.is_err() {
                    break;
                }
            }
        }
        if line.capacity() > 1024 * 1024 {
            line = Vec::new();
        }
    }
    // stdin ended: rmcp reads the end of its input and stops.
    let _ = to_rmcp.shutdown().await;
}

/// rmcp's output, split into lines for the single writer.
async fn pump_rmcp_output<R: AsyncRead + Unpin>(from_rmcp: R, lines: mpsc::Sender<Vec<u8>>) {
    let mut from_rmcp = BufReader::new(from_rmcp);
    loop {
        let mut line = Vec::new();
        match from_rmcp.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !line.ends_with(b"\n") {
                    line.push(b'\n');
                }
                let line = with_null_id(line);
                if lines.send(line).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// rmcp answers a well-formed message that is not a valid request with an
/// error that has no `id` at all; JSON-RPC wants `"id": null` there.
fn with_null_id(line: Vec<u8>) -> Vec<u8> {
    const PREFIX: &[u8] = br#"{"jsonrpc":"2.0","error":"#;
    if !line.starts_with(PREFIX) {
        return line;
    }
    let mut fixed = br#"{"jsonrpc":"2.0","id":null,"error":"#.to_vec();
    fixed.extend_from_slice(&line[PREFIX.len()..]);
    fixed
}

/// The only writer of stdout: one whole line at a time.
async fn write_lines<W: AsyncWrite + Unpin>(mut queue: mpsc::Receiver<Vec<u8>>, mut output: W) {
    while let Some(line) = queue.recv().await {
        let written = async {
            output.write_all(&line).await?;
            output.flush().await
        }
        .await;
        if let Err(e) = written {
            tracing::debug!(error = %e, "stdout closed");
            return;
        }
    }
}

/// What [`next_line`] found.
#[derive(Debug, PartialEq)]
enum Read {
    /// A line (without its newline) is in the buffer.
    Line,
    /// A line longer than the limit went by; it was not kept.
    TooLong,
    /// The input ended.
    End,
}

/// Reads one line into `line` without ever holding more than `limit` bytes
/// of it. A last line without a newline still counts as a line.
async fn next_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Read> {
    line.clear();
    let mut too_long = false;
    let mut seen = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (seen, too_long) {
                (false, _) => Read::End,
                (true, true) => Read::TooLong,
                (true, false) => Read::Line,
            });
        }
        seen = true;
        let newline = available.iter().position(|b| *b == b'\n');
        let part = &available[..newline.unwrap_or(available.len())];
        if !too_long {
            if line.len() + part.len() > limit {
                too_long = true;
                *line = Vec::new();
            } else {
                line.extend_from_slice(part);
            }
        }
        let used = part.len() + usize::from(newline.is_some());
        input.consume(used);
        if newline.is_some() {
            return Ok(if too_long { Read::TooLong } else { Read::Line });
        }
    }
}

/// A line's fate: `Ok(Some(message))` to pass on, `Ok(None)` to skip (a
/// blank line), `Err(why)` to answer with a parse error.
fn check(line: &[u8]) -> Result<Option<&[u8]>, String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let text = std::str::from_utf8(line)
        .map_err(|e| format!("the line is not UTF-8 (byte {})", e.valid_up_to()))?;
    let mut json = serde_json::Deserializer::from_str(text);
    Checked::deserialize_from(&mut json).map_err(|e| e.to_string())?;
    json.end().map_err(|e| e.to_string())?;
    Ok(Some(line))
}

/// A JSON-RPC parse error with no id, as one line.
fn parse_error(why: &str) -> Vec<u8> {
    let mut line = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": format!("Parse error: {why}")},
    })
    .to_string()
    .into_bytes();
    line.push(b'\n');
    line
}

/// Walks a JSON document without building it, reading every string as text
/// so that invalid escapes (a lone surrogate) are errors, as they are when
/// rmcp reads the message. Memory stays at the nesting depth. (serde's
/// `IgnoredAny` will not do: serde_json skips an ignored string's escapes
/// without checking them.)
struct Checked;

impl Checked {
    fn deserialize_from<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(CheckedVisitor)
    }
}

impl<'de> de::Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Checked, D::Error> {
        Checked::deserialize_from(deserializer).map(|()| Checked)
    }
}

struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key::<Checked>()?.is_some() {
            map.next_value::<Checked>()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_json_passes_and_blank_lines_are_skipped() {
        let good = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"a":["\ud83d\ude00",1.5,null,true]}}"#;
        assert_eq!(check(good), Ok(Some(&good[..])));
        assert_eq!(check(b"  \r"), Ok(None));
        assert_eq!(check(b"{}\r"), Ok(Some(&b"{}"[..])));
    }

    #[test]
    fn broken_lines_are_refused_with_a_reason() {
        for bad in [
            &b"{not json"[..],
            b"\x01\x02\x03",
            b"{\"a\":\"x\x01y\"}",
            br#"{"a":"\ud800"}"#,
            br#""\udc00 alone""#,
            b"{\"a\":\"\xff\xfe\"}",
            b"{} {}",
            b"{\"a\":",
        ] {
            assert!(check(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn an_error_without_an_id_gets_a_null_one() {
        let fixed = with_null_id(
            br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}"#.to_vec(),
        );
        let parsed: serde_json::Value = serde_json::from_slice(&fixed).expect("JSON");
        assert!(parsed["id"].is_null() && parsed.as_object().is_some_and(|m| m.contains_key("id")));
        let answer = br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601}}"#.to_vec();
        assert_eq!(with_null_id(answer.clone()), answer);
    }

    #[tokio::test]
    async fn a_long_line_is_skipped_without_being_kept() {
        let mut input = b"12345\n1234567890123\nabc".as_slice();
        let mut line = Vec::new();
        assert_eq!(
            next_line(&mut input, &mut line, 10).await.ok(),
            Some(Read::Line)
        );
        assert_eq!(line, b"12345");
        assert_eq!(
            next_line(&mut input, &mut line, 10).await.ok(),
            Some(Read::TooLong)
        );
        assert!(line.capacity() <= 10);
        assert_eq!(
            next_line(&mut input, &mut line, 10).await.ok(),
            Some(Read::Line)
        );
        assert_eq!(line, b"abc");
        assert_eq!(
            next_line(&mut input, &mut line, 10).await.ok(),
            Some(Read::End)
        );
    }
}
