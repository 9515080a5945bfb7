//! The byte stream under the WebSocket, with every frame larger than the
//! message limit ([`rove_base::limits::CDP_MESSAGE_BYTES`]) taken out.
//!
//! A WebSocket library that meets a frame over its limit can only fail the
//! socket: the frame's payload is still on the wire, and nothing after it
//! can be read. So the limit is kept one level down, on the bytes: the
//! header of each frame the peer sends is read here, and a frame over the
//! limit is read past without being kept (only its first and last bytes,
//! which name the call or the event it was) and replaced by a small text
//! frame, [`Oversized`], that the reader turns into a typed failure of that
//! one call. The socket, and every session on it, goes on. A 100 MB event
//! (a page's WebSocket frame as `Network.webSocketFrameReceived`) costs a
//! few KiB instead of its size.
//!
//! The handshake's HTTP answer passes as it is; frames start after its
//! blank line.
//!
//! Only whole messages in one frame are replaced (Chromium never splits a
//! message into fragments); a message in fragments over the limit is ended
//! by the WebSocket library's own limit, which fails the socket.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// How many bytes of an oversized payload's start and end are kept: enough
/// for `{"id":N,` or `{"method":"Domain.event",` and a closing `"sessionId"`.
const KEPT: usize = 256;

/// The text of the frame that stands for one taken out: what can be known
/// of the message without keeping it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Oversized {
    /// The payload's size in bytes.
    pub bytes: u64,
    /// The limit it passed.
    pub limit: u64,
    /// The call it answered, when its start said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// The event it was, when its start said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
}

/// A stand-in frame: one member no CDP message has.
#[derive(Serialize, Deserialize)]
pub(crate) struct StandIn {
    #[serde(rename = "roveOversized")]
    pub oversized: Oversized,
}

enum State {
    /// Passing the handshake's HTTP answer; `matched` bytes of its closing
    /// blank line seen. Frames start after it.
    Http { matched: usize },
    /// Reading a frame's header; `have` bytes of it so far.
    Header { bytes: [u8; 14], have: usize },
    /// Passing `left` bytes of a payload under the limit.
    Pass { left: u64 },
    /// Reading past `left` bytes of a payload over the limit.
    Skip {
        left: u64,
        total: u64,
        head: Vec<u8>,
        tail: Vec<u8>,
    },
}

/// A stream whose read side has no frame over `limit` bytes.
pub(crate) struct FrameCap<S> {
    inner: S,
    limit: u64,
    state: State,
    /// Bytes ready for the reader above: headers and payloads passed, and
    /// stand-in frames.
    out: Vec<u8>,
    out_at: usize,
    scratch: Box<[u8]>,
}

impl<S> FrameCap<S> {
    /// `inner`'s bytes, with frames over `limit` bytes replaced.
    pub(crate) fn new(inner: S, limit: usize) -> Self {
        FrameCap {
            inner,
            limit: limit as u64,
            state: State::Http { matched: 0 },
            out: Vec::new(),
            out_at: 0,
            scratch: vec![0; 64 * 1024].into_boxed_slice(),
        }
    }

    /// Runs `input` through the frame reader, appending what passes to `out`.
    fn feed(&mut self, mut input: &[u8]) {
        while !input.is_empty() {
            match &mut self.state {
                State::Http { matched } => {
                    let byte = input[0];
                    self.out.push(byte);
                    input = &input[1..];
                    *matched = match (*matched, byte) {
                        (0 | 2, b'\r') => *matched + 1,
                        (1 | 3, b'\n') => *matched + 1,
                        (_, b'\r') => 1,
                        _ => 0,
                    };
                    if *matched == 4 {
                        self.state = State::Header {
                            bytes: [0; 14],
                            have: 0,
                        };
                    }
                }
                State::Header { bytes, have } => {
                    bytes[*have] = input[0];
                    *have += 1;
                    input = &input[1..];
                    let Some(len) = header_length(&bytes[..*have]) else {
                        continue;
                    };
                    if *have < len {
                        continue;
                    }
                    let header = bytes[..len].to_vec();
                    let payload = payload_length(&header);
                    let whole_data = header[0] & 0x80 != 0 && matches!(header[0] & 0x0f, 1 | 2);
                    let unmasked = header[1] & 0x80 == 0;
                    self.state = if payload > self.limit && whole_data && unmasked {
                        State::Skip {
                            left: payload,
                            total: payload,
                            head: Vec::with_capacity(KEPT),
                            tail: Vec::with_capacity(2 * KEPT),
                        }
                    } else {
                        self.out.extend_from_slice(&header);
                        State::Pass { left: payload }
                    };
                    self.end_of_payload();
                }
                State::Pass { left } => {
                    let n = input
                        .len()
                        .min(usize::try_from(*left).unwrap_or(usize::MAX));
                    self.out.extend_from_slice(&input[..n]);
                    *left -= n as u64;
                    input = &input[n..];
                    self.end_of_payload();
                }
                State::Skip {
                    left, head, tail, ..
                } => {
                    let n = input
                        .len()
                        .min(usize::try_from(*left).unwrap_or(usize::MAX));
                    let taken = &input[..n];
                    let room = KEPT - head.len();
                    head.extend_from_slice(&taken[..room.min(n)]);
                    tail.extend_from_slice(&taken[taken.len().saturating_sub(KEPT)..]);
                    if tail.len() > KEPT {
                        tail.drain(..tail.len() - KEPT);
                    }
                    *left -= n as u64;
                    input = &input[n..];
                    self.end_of_payload();
                }
            }
        }
        self.end_of_payload();
    }

    /// After a payload's last byte: a stand-in for a frame taken out, and
    /// the next header.
    fn end_of_payload(&mut self) {
        let next = State::Header {
            bytes: [0; 14],
            have: 0,
        };
        match &self.state {
            State::Pass { left: 0 } => self.state = next,
            State::Skip {
                left: 0,
                total,
                head,
                tail,
            } => {
                let oversized = describe(*total, self.limit, head, tail);
                tracing::warn!(
                    target: "rove_cdp",
                    bytes = oversized.bytes,
                    limit = oversized.limit,
                    id = ?oversized.id,
                    method = ?oversized.method,
                    "a message over the limit was read past, not kept"
                );
                push_text_frame(&mut self.out, &StandIn { oversized });
                self.state = next;
            }
            _ => {}
        }
    }
}

/// The header's full length once its first two bytes are known.
fn header_length(start: &[u8]) -> Option<usize> {
    let second = *start.get(1)?;
    let extended = match second & 0x7f {
        126 => 2,
        127 => 8,
        _ => 0,
    };
    let mask = if second & 0x80 != 0 { 4 } else { 0 };
    Some(2 + extended + mask)
}

fn payload_length(header: &[u8]) -> u64 {
    match header[1] & 0x7f {
        126 => u64::from(u16::from_be_bytes([header[2], header[3]])),
        127 => {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(&header[2..10]);
            u64::from_be_bytes(eight)
        }
        short => u64::from(short),
    }
}

/// What a message's first and last bytes say it was: `{"id":N,…` is an
/// answer (Chromium writes the id first); `{"method":"X",…` an event; an
/// id written last (`…,"id":N}`) is read too.
fn describe(total: u64, limit: u64, head: &[u8], tail: &[u8]) -> Oversized {
    let head = String::from_utf8_lossy(head);
    let tail = String::from_utf8_lossy(tail);
    let id = number_after(&head, "{\"id\":").or_else(|| {
        let at = tail.rfind(",\"id\":")?;
        number_after(&tail[at..], ",\"id\":")
    });
    let method = head
        .strip_prefix("{\"method\":\"")
        .and_then(|rest| rest.split('"').next())
        .map(|m| rove_base::text::char_prefix(m, 100).to_owned());
    Oversized {
        bytes: total,
        limit,
        id,
        method,
    }
}

fn number_after(text: &str, prefix: &str) -> Option<u64> {
    let rest = text.trim_start().strip_prefix(prefix)?;
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// One unmasked text frame holding `value` as JSON.
fn push_text_frame(out: &mut Vec<u8>, value: &StandIn) {
    let text = serde_json::to_vec(value).unwrap_or_default();
    out.push(0x81);
    if text.len() < 126 {
        out.push(text.len() as u8);
    } else {
        // A stand-in is a few hundred bytes: two length bytes always do.
        out.push(126);
        let len = u16::try_from(text.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&len.to_be_bytes());
    }
    out.extend_from_slice(&text);
}

impl<S: AsyncRead + Unpin> AsyncRead for FrameCap<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.out_at < this.out.len() {
                let n = buf.remaining().min(this.out.len() - this.out_at);
                buf.put_slice(&this.out[this.out_at..this.out_at + n]);
                this.out_at += n;
                if this.out_at == this.out.len() {
                    this.out.clear();
                    this.out_at = 0;
                }
                return Poll::Ready(Ok(()));
            }
            let mut scratch = ReadBuf::new(&mut this.scratch);
            match Pin::new(&mut this.inner).poll_read(cx, &mut scratch) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {
                    let filled = scratch.filled().len();
                    if filled == 0 {
                        // The end of the stream.
                        return Poll::Ready(Ok(()));
                    }
                    let scratch = std::mem::take(&mut this.scratch);
                    this.feed(&scratch[..filled]);
                    this.scratch = scratch;
                }
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for FrameCap<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
        let mut f = vec![0x80 | opcode];
        match payload.len() {
            n if n < 126 => f.push(n as u8),
            n if n <= 0xffff => {
                f.push(126);
                f.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                f.push(127);
                f.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        f.extend_from_slice(payload);
        f
    }

    fn run(limit: usize, bytes: &[u8], chunk: usize) -> Vec<u8> {
        const HTTP: &[u8] = b"HTTP/1.1 101 Switching\r\nUpgrade: websocket\r\n\r\n";
        let mut cap = FrameCap::new((), limit);
        let mut wire = HTTP.to_vec();
        wire.extend_from_slice(bytes);
        for piece in wire.chunks(chunk) {
            cap.feed(piece);
        }
        assert_eq!(&cap.out[..HTTP.len()], HTTP, "the handshake passes");
        cap.out.split_off(HTTP.len())
    }

    #[test]
    fn frames_within_the_limit_pass_unchanged_in_any_chunking() {
        let mut wire = frame(1, br#"{"id":1,"result":{}}"#);
        wire.extend(frame(2, &[7u8; 300]));
        wire.extend(frame(9, b"ping"));
        for chunk in [1, 3, 64, 4096] {
            assert_eq!(run(1000, &wire, chunk), wire, "chunk {chunk}");
        }
    }

    #[test]
    fn a_frame_over_the_limit_becomes_a_stand_in_naming_its_call() {
        let mut big = br#"{"id":42,"result":{"data":""#.to_vec();
        big.extend(std::iter::repeat_n(b'x', 70_000));
        big.extend(br#""},"sessionId":"AB"}"#);
        let after = frame(1, br#"{"id":43,"result":{}}"#);
        let mut wire = frame(1, &big);
        wire.extend(&after);
        for chunk in [1, 7, 4096, 1 << 20] {
            let out = run(1000, &wire, chunk);
            let stand_in = frame(
                1,
                &serde_json::to_vec(&StandIn {
                    oversized: Oversized {
                        bytes: big.len() as u64,
                        limit: 1000,
                        id: Some(42),
                        method: None,
                    },
                })
                .expect("json"),
            );
            let mut want = stand_in;
            want.extend(&after);
            assert_eq!(out, want, "chunk {chunk}");
        }
    }

    #[test]
    fn an_event_over_the_limit_is_named_by_its_method() {
        let mut big = br#"{"method":"Network.webSocketFrameReceived","params":{"x":""#.to_vec();
        big.extend(std::iter::repeat_n(b'y', 5_000));
        big.extend(br#""}}"#);
        let o = describe(5_000, 10, &big[..KEPT], &big[big.len() - KEPT..]);
        assert_eq!(o.method.as_deref(), Some("Network.webSocketFrameReceived"));
        assert_eq!(o.id, None);
        let last = describe(1, 1, b"{\"result\":{", b"\"},\"id\":7}");
        assert_eq!(last.id, Some(7));
    }
}
