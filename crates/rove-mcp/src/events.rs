//! Browser events as MCP logging: a client that sends `logging/setLevel`
//! gets each [`BrowserEvent`] of its session at or above that level as
//! `notifications/message` (logger `rove.events`, the event as `data`). A
//! client that never asked gets none.
//!
//! The session thread relays its browser's events (across restarts of the
//! browser) into one channel per session; the first `setLevel` starts a
//! task that forwards them to that client until the session or the client
//! goes. Page text in an event (a dialog's message, an address) passes the
//! session's secret redaction, as everything else a client sees does.

// MCP logging is deprecated by a later revision of the protocol that rmcp
// already marks; clients in use still rely on it.
#![allow(deprecated)]

use std::sync::{Arc, Mutex};

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::{Peer, RoleServer};
use rove_browser::{Browser, BrowserEvent};
use tokio::sync::broadcast;

/// How many events wait for a slow client before it misses some.
const BUFFER: usize = 256;

/// One session's events, whichever browser it has at the moment.
#[derive(Debug, Clone)]
pub(crate) struct Relay {
    sender: broadcast::Sender<BrowserEvent>,
    /// The session's browser context, once known: in a shared browser,
    /// events of other contexts are not this client's business.
    context: Arc<Mutex<Option<String>>>,
}

impl Default for Relay {
    fn default() -> Self {
        Relay {
            sender: broadcast::channel(BUFFER).0,
            context: Arc::default(),
        }
    }
}

impl Relay {
    /// Receives the relayed events from now on.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<BrowserEvent> {
        self.sender.subscribe()
    }

    /// Notes the session's context.
    pub(crate) fn set_context(&self, id: &str) {
        let mut context = self.context.lock().unwrap_or_else(|p| p.into_inner());
        if context.as_deref() != Some(id) {
            *context = Some(id.to_owned());
        }
    }

    /// Relays `browser`'s events until it is gone (a task on the caller's
    /// runtime).
    pub(crate) fn follow(&self, browser: &Browser) {
        let mut events = browser.events();
        let relay = self.clone();
        tokio::spawn(async move {
            loop {
                match events.recv().await {
                    Ok(event) => {
                        let ours = {
                            let context = relay.context.lock().unwrap_or_else(|p| p.into_inner());
                            match (event.context(), context.as_deref()) {
                                (Some(theirs), Some(ours)) => theirs == ours,
                                _ => true,
                            }
                        };
                        if ours {
                            // Nobody listening is fine.
                            let _ = relay.sender.send(event);
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        });
    }
}

/// The level a client asked for, shared with its forwarding task.
#[derive(Debug, Default)]
pub(crate) struct ClientLevel {
    level: Mutex<Option<LoggingLevel>>,
}

impl ClientLevel {
    /// Sets the level; true the first time (the forwarding starts then).
    pub(crate) fn set(&self, level: LoggingLevel) -> bool {
        let mut current = self.level.lock().unwrap_or_else(|p| p.into_inner());
        current.replace(level).is_none()
    }

    fn get(&self) -> Option<LoggingLevel> {
        *self.level.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Forwards `events` to `peer` while the client's level lets them through,
/// until the session's relay or the client is gone.
pub(crate) fn forward(
    mut events: broadcast::Receiver<BrowserEvent>,
    peer: Peer<RoleServer>,
    level: Arc<ClientLevel>,
    secrets: rove_commands::Secrets,
) {
    tokio::spawn(async move {
        loop {
            let event = match events.recv().await {
                Ok(event) => event,
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return,
            };
            let ours = mcp_level(event.level());
            let Some(wanted) = level.get() else { continue };
            if rank(ours) < rank(wanted) {
                continue;
            }
            let data = secrets.redact_json(&serde_json::to_value(&event).unwrap_or_default());
            let message =
                LoggingMessageNotificationParam::new(ours, data).with_logger("rove.events");
            if peer.notify_logging_message(message).await.is_err() {
                return;
            }
        }
    });
}

fn mcp_level(level: tracing::Level) -> LoggingLevel {
    match level {
        tracing::Level::ERROR => LoggingLevel::Error,
        tracing::Level::WARN => LoggingLevel::Warning,
        tracing::Level::INFO => LoggingLevel::Info,
        _ => LoggingLevel::Debug,
    }
}

/// Syslog's order, which MCP's levels follow.
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}
