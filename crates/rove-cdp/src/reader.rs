//! The read half of a connection's socket, as the texts the browser sends.
//!
//! What arrives is WebSocket frames; what the connection routes is CDP
//! texts. Between the two lie the frames to skip (pings, binary frames
//! that are not UTF-8) and the reasons a socket ends, told in words that
//! point at the cause. The connection's reader task asks this module for
//! one text after another and never sees a frame.

use futures_util::StreamExt;
use futures_util::stream::SplitStream;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::frame_cap::FrameCap;

/// The socket to a browser, its bytes under the frame cap.
pub(crate) type WsStream = WebSocketStream<FrameCap<MaybeTlsStream<TcpStream>>>;

/// The next text the browser sent, or why the socket ended. Dropping the
/// future between frames loses none: a frame is taken and handled
/// without a wait in between.
pub(crate) async fn next_text(stream: &mut SplitStream<WsStream>) -> Result<Utf8Bytes, String> {
    loop {
        match stream.next().await {
            None => return Err("the browser closed the socket".to_owned()),
            Some(Err(e)) => return Err(failure(&e)),
            Some(Ok(Message::Close(frame))) => {
                return Err(match frame {
                    Some(f) if !f.reason.is_empty() => {
                        format!("the browser closed the socket: {}", f.reason)
                    }
                    _ => "the browser closed the socket".to_owned(),
                });
            }
            Some(Ok(Message::Text(text))) => return Ok(text),
            Some(Ok(Message::Binary(bytes))) => {
                // CDP speaks text; a binary frame is tolerated if it is UTF-8.
                match String::from_utf8(bytes.to_vec()) {
                    Ok(s) => return Ok(s.into()),
                    Err(_) => {
                        tracing::warn!(target: "rove_cdp", len = bytes.len(), "skipping a binary frame that is not UTF-8");
                    }
                }
            }
            Some(Ok(_)) => {} // ping, pong, raw frame
        }
    }
}

/// Why the socket failed, in words that point at the cause: bytes that are
/// no WebSocket frame are most often an HTTP answer written onto the
/// socket, as a farm does when it ends a browser at its time limit
/// (browserless writes `408 Request Timeout`).
fn failure(e: &tokio_tungstenite::tungstenite::Error) -> String {
    use tokio_tungstenite::tungstenite::Error;
    use tokio_tungstenite::tungstenite::error::ProtocolError as Bad;
    match e {
        Error::Protocol(
            Bad::NonZeroReservedBits
            | Bad::MaskedFrameFromServer
            | Bad::UnknownControlFrameType(_)
            | Bad::UnknownDataFrameType(_),
        ) => format!(
            "the endpoint wrote something that is not WebSocket onto the socket, as a browser farm does when it ends the browser (its time limit) ({e})"
        ),
        Error::Capacity(_) => format!(
            "the browser sent a message in fragments over the {} MiB rove takes in one message ({e})",
            rove_base::limits::CDP_MESSAGE_BYTES >> 20
        ),
        _ => format!("the socket failed: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use tokio_tungstenite::tungstenite::Error;
    use tokio_tungstenite::tungstenite::error::ProtocolError;

    #[test]
    fn bytes_that_are_no_frame_are_told_apart_from_a_dropped_socket() {
        // What browserless's `HTTP/1.1 408` reads as.
        let http = super::failure(&Error::Protocol(ProtocolError::NonZeroReservedBits));
        assert!(
            http.contains("not WebSocket") && http.contains("farm"),
            "{http}"
        );
        let reset = super::failure(&Error::Protocol(
            ProtocolError::ResetWithoutClosingHandshake,
        ));
        assert!(reset.starts_with("the socket failed"), "{reset}");
    }
}
