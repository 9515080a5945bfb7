//! Event subscriptions: bounded, fan-out, never blocking the reader.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

use crate::protocol::EventType;
use crate::{CdpError, Event};

/// Why [`EventStream::recv`] returned no event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventStreamError {
    /// This subscriber fell behind and missed this many events. The stream goes
    /// on with the oldest event still buffered.
    #[error("the subscriber fell behind and missed {0} events")]
    Lagged(u64),
    /// The session or the connection ended; no more events will come.
    #[error("the event stream ended")]
    Closed,
}

/// The events of one session, in the order the browser sent them.
#[derive(Debug)]
pub struct EventStream {
    rx: broadcast::Receiver<Arc<Event>>,
}

impl EventStream {
    pub(crate) fn new(rx: broadcast::Receiver<Arc<Event>>) -> Self {
        EventStream { rx }
    }

    /// The next event. A lag is reported once, then the stream continues.
    pub async fn recv(&mut self) -> Result<Arc<Event>, EventStreamError> {
        match self.rx.recv().await {
            Ok(event) => Ok(event),
            Err(RecvError::Lagged(n)) => Err(EventStreamError::Lagged(n)),
            Err(RecvError::Closed) => Err(EventStreamError::Closed),
        }
    }

    /// The next event already buffered, without waiting.
    pub fn try_recv(&mut self) -> Option<Result<Arc<Event>, EventStreamError>> {
        match self.rx.try_recv() {
            Ok(event) => Some(Ok(event)),
            Err(broadcast::error::TryRecvError::Empty) => None,
            Err(broadcast::error::TryRecvError::Lagged(n)) => {
                Some(Err(EventStreamError::Lagged(n)))
            }
            Err(broadcast::error::TryRecvError::Closed) => Some(Err(EventStreamError::Closed)),
        }
    }

    /// Waits for the next event of type `E`, skipping others, until `timeout`.
    /// Lagging is tolerated here (the wanted event may still come); a closed
    /// stream or the deadline is an error.
    pub async fn wait_for<E: EventType>(&mut self, timeout: Duration) -> Result<E, CdpError> {
        let search = async {
            loop {
                match self.recv().await {
                    Ok(event) => {
                        if let Some(parsed) = event.as_event::<E>() {
                            return parsed;
                        }
                    }
                    Err(EventStreamError::Lagged(n)) => {
                        tracing::debug!(target: "rove_cdp", missed = n, wanted = E::METHOD, "event subscriber lagged");
                    }
                    Err(EventStreamError::Closed) => {
                        return Err(CdpError::ConnectionClosed {
                            reason: format!("event stream ended while waiting for {}", E::METHOD),
                            sent: true,
                        });
                    }
                }
            }
        };
        tokio::time::timeout(timeout, search)
            .await
            .unwrap_or_else(|_| {
                Err(CdpError::Timeout {
                    method: E::METHOD.to_owned(),
                    after: timeout,
                    sent: true,
                })
            })
    }
}
