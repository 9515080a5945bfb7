//! The one reader task of a connection.
//!
//! It owns the read half of the socket and does nothing but route frames, so
//! no caller and no subscriber can ever block it. It holds only a weak handle:
//! when the last `Connection` is dropped it stops, and the socket closes.

use std::sync::Weak;

use futures_util::StreamExt;
use futures_util::stream::SplitStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;

use crate::connection::{Inner, WsStream};

pub(crate) async fn run(
    inner: Weak<Inner>,
    mut stream: SplitStream<WsStream>,
    mut stop: oneshot::Receiver<()>,
) {
    let reason = loop {
        let frame = tokio::select! {
            biased;
            _ = &mut stop => return,
            frame = stream.next() => frame,
        };
        let text = match frame {
            None => break "the browser closed the socket".to_owned(),
            Some(Err(e)) => break failure(&e),
            Some(Ok(Message::Close(frame))) => {
                break match frame {
                    Some(f) if !f.reason.is_empty() => {
                        format!("the browser closed the socket: {}", f.reason)
                    }
                    _ => "the browser closed the socket".to_owned(),
                };
            }
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(bytes))) => {
                // CDP speaks text; a binary frame is tolerated if it is UTF-8.
                match String::from_utf8(bytes.to_vec()) {
                    Ok(s) => s.into(),
                    Err(_) => {
                        tracing::warn!(target: "rove_cdp", len = bytes.len(), "skipping a binary frame that is not UTF-8");
                        continue;
                    }
                }
            }
            Some(Ok(_)) => continue, // ping, pong, raw frame
        };
        let Some(inner) = inner.upgrade() else { return };
        if let Err(reason) = inner.route(text.as_str()) {
            break reason;
        }
    };
    if let Some(inner) = inner.upgrade() {
        inner.fail_all(reason);
        inner.drop_writer().await;
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
