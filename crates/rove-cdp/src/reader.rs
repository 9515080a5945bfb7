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
            Some(Err(e)) => break format!("the socket failed: {e}"),
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
        inner.route(text.as_str());
    };
    if let Some(inner) = inner.upgrade() {
        inner.fail_all(reason);
    }
}
