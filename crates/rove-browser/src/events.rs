//! Browser events for programs: what happened in the browser while nobody
//! asked (a navigation, a dialog, a download, a tab opened or closed, a
//! crash, the link lost or restored), as a subscription
//! ([`crate::Browser::events`]) and as the `events` log layer.
//!
//! One [`EventBus`] per browser handle, fed where rove already learns these
//! things: the target registry (tabs, navigations, crashes, downloads from
//! the browser-level session), each tab's watch (dialogs) and the link's
//! supervisor (disconnects, reconnects). Nothing is built when nobody
//! listens and the layer is off.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tokio::sync::broadcast;
use tracing::Level;

/// How many events a subscriber may fall behind before it is told it
/// missed some (`RecvError::Lagged`).
const BUFFER: usize = 256;

/// Something that happened in the browser. Each carries the browser
/// context it happened in, when rove knows it, so a program sharing a
/// browser can keep to its own.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum BrowserEvent {
    /// A page target appeared (a new tab, a popup).
    TabOpened {
        /// Its target id.
        target_id: String,
        /// Where it opened.
        url: String,
        /// Its browser context.
        context: Option<String>,
    },
    /// A page target went away.
    TabClosed {
        /// Its target id.
        target_id: String,
        /// Its browser context.
        context: Option<String>,
    },
    /// A page's main document changed address (a load, a same-document
    /// navigation).
    Navigated {
        /// The page's target id.
        target_id: String,
        /// The new address.
        url: String,
        /// Its browser context.
        context: Option<String>,
    },
    /// A JavaScript dialog opened and blocks the page.
    Dialog {
        /// The page's target id.
        target_id: String,
        /// `alert`, `confirm`, `prompt` or `beforeunload`.
        kind: String,
        /// Its text, as rove cleans page text.
        message: String,
        /// Its browser context.
        context: Option<String>,
    },
    /// A download began, finished or was cancelled.
    Download {
        /// The browser's id for it.
        guid: String,
        /// `started`, `completed` or `canceled`.
        state: String,
        /// Where it comes from (known when it starts).
        url: Option<String>,
        /// The name the page suggests (known when it starts).
        file_name: Option<String>,
        /// The browser context of the page that started it.
        context: Option<String>,
    },
    /// A page's renderer crashed.
    Crashed {
        /// The page's target id.
        target_id: String,
        /// The browser's word for how it ended.
        status: String,
        /// Its browser context.
        context: Option<String>,
    },
    /// The link to the browser was lost: for good (`reconnecting` false),
    /// or while rove restores it.
    Disconnected {
        /// Why.
        reason: String,
        /// Whether rove is trying to reconnect.
        reconnecting: bool,
    },
    /// The link to a remote browser was restored.
    Reconnected {
        /// Which attempt succeeded (1, 2, …).
        attempt: u32,
    },
}

impl BrowserEvent {
    /// Its name, as `event` in JSON.
    pub fn name(&self) -> &'static str {
        match self {
            BrowserEvent::TabOpened { .. } => "tab_opened",
            BrowserEvent::TabClosed { .. } => "tab_closed",
            BrowserEvent::Navigated { .. } => "navigated",
            BrowserEvent::Dialog { .. } => "dialog",
            BrowserEvent::Download { .. } => "download",
            BrowserEvent::Crashed { .. } => "crashed",
            BrowserEvent::Disconnected { .. } => "disconnected",
            BrowserEvent::Reconnected { .. } => "reconnected",
        }
    }

    /// How much it matters: crashes and lost links are warnings, dialogs
    /// and restored links news, the rest routine.
    pub fn level(&self) -> Level {
        match self {
            BrowserEvent::Crashed { .. } | BrowserEvent::Disconnected { .. } => Level::WARN,
            BrowserEvent::Dialog { .. } | BrowserEvent::Reconnected { .. } => Level::INFO,
            _ => Level::DEBUG,
        }
    }

    /// The browser context it happened in, when known.
    pub fn context(&self) -> Option<&str> {
        match self {
            BrowserEvent::TabOpened { context, .. }
            | BrowserEvent::TabClosed { context, .. }
            | BrowserEvent::Navigated { context, .. }
            | BrowserEvent::Dialog { context, .. }
            | BrowserEvent::Download { context, .. }
            | BrowserEvent::Crashed { context, .. } => context.as_deref(),
            BrowserEvent::Disconnected { .. } | BrowserEvent::Reconnected { .. } => None,
        }
    }
}

/// Where a browser's events are published. Cheap to clone.
#[derive(Debug, Clone)]
pub(crate) struct EventBus {
    sender: broadcast::Sender<BrowserEvent>,
    /// Downloads under way, by guid: the context of the page that started
    /// each (the progress events do not say).
    downloads: Arc<Mutex<HashMap<String, Option<String>>>>,
}

impl Default for EventBus {
    fn default() -> Self {
        EventBus {
            sender: broadcast::channel(BUFFER).0,
            downloads: Arc::default(),
        }
    }
}

impl EventBus {
    /// A receiver of every event from now on.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<BrowserEvent> {
        self.sender.subscribe()
    }

    /// Publishes the event `make` builds, and logs it under the `events`
    /// target; `make` is not called when nobody listens and the layer is
    /// off at the event's level.
    pub(crate) fn emit(&self, level: Level, make: impl FnOnce() -> BrowserEvent) {
        let logged = match level {
            Level::WARN => tracing::enabled!(target: "events", Level::WARN),
            Level::INFO => tracing::enabled!(target: "events", Level::INFO),
            _ => tracing::enabled!(target: "events", Level::DEBUG),
        };
        if !logged && self.sender.receiver_count() == 0 {
            return;
        }
        let event = make();
        if logged {
            log(&event);
        }
        // No subscriber is not an error.
        let _ = self.sender.send(event);
    }
}

/// One line of the `events` layer. Addresses pass the log redaction (a
/// token in a query string).
fn log(event: &BrowserEvent) {
    let detail = serde_json::to_string(event).unwrap_or_default();
    let detail = rove_base::redact::scrub(&detail);
    let name = event.name();
    match event.level() {
        Level::WARN => {
            tracing::warn!(target: "events", event = name, detail = %detail, "browser event")
        }
        Level::INFO => {
            tracing::info!(target: "events", event = name, detail = %detail, "browser event")
        }
        _ => tracing::debug!(target: "events", event = name, detail = %detail, "browser event"),
    }
}

impl EventBus {
    /// Announces what a browser-level CDP event means, reading what the
    /// registry knew of each target (`known`) before the event is applied
    /// (the address a page had, the context of a target about to be
    /// forgotten).
    pub(crate) fn announce_target_event(
        &self,
        known: &dyn Fn(&str) -> Option<rove_cdp::protocol::target::TargetInfo>,
        event: &rove_cdp::Event,
    ) {
        use rove_cdp::protocol::browser::{DownloadProgress, DownloadWillBegin};
        use rove_cdp::protocol::target::{
            TargetCrashed, TargetCreated, TargetDestroyed, TargetInfoChanged,
        };
        let context_of = |id: &str| known(id).and_then(|info| info.browser_context_id);
        if let Some(Ok(created)) = event.as_event::<TargetCreated>() {
            let info = created.target_info;
            if info.kind == "page" {
                self.emit(Level::DEBUG, || BrowserEvent::TabOpened {
                    target_id: info.target_id,
                    url: info.url,
                    context: info.browser_context_id,
                });
            }
        } else if let Some(Ok(changed)) = event.as_event::<TargetInfoChanged>() {
            let info = changed.target_info;
            let before = known(&info.target_id).map(|known| known.url);
            if info.kind == "page" && before.as_deref() != Some(info.url.as_str()) {
                self.emit(Level::DEBUG, || BrowserEvent::Navigated {
                    target_id: info.target_id,
                    url: info.url,
                    context: info.browser_context_id,
                });
            }
        } else if let Some(Ok(destroyed)) = event.as_event::<TargetDestroyed>() {
            if known(&destroyed.target_id).is_some_and(|info| info.kind == "page") {
                self.emit(Level::DEBUG, || BrowserEvent::TabClosed {
                    context: context_of(&destroyed.target_id),
                    target_id: destroyed.target_id,
                });
            }
        } else if let Some(Ok(crashed)) = event.as_event::<TargetCrashed>() {
            self.emit(Level::WARN, || BrowserEvent::Crashed {
                context: context_of(&crashed.target_id),
                target_id: crashed.target_id,
                status: crashed.status,
            });
        } else if let Some(Ok(d)) = event.as_event::<DownloadWillBegin>() {
            let context = Some(d.frame_id.as_str())
                .filter(|f| !f.is_empty())
                .and_then(context_of);
            let mut downloads = self.lock_downloads();
            // Downloads that never reported an end must not pile up.
            if downloads.len() >= BUFFER {
                downloads.clear();
            }
            downloads.insert(d.guid.clone(), context.clone());
            drop(downloads);
            self.emit(Level::DEBUG, || BrowserEvent::Download {
                guid: d.guid,
                state: "started".into(),
                url: Some(d.url),
                file_name: Some(d.suggested_filename),
                context,
            });
        } else if let Some(Ok(d)) = event.as_event::<DownloadProgress>() {
            let state = d.state.as_str().to_owned();
            if state != "completed" && state != "canceled" {
                return;
            }
            let context = self.lock_downloads().remove(&d.guid).flatten();
            self.emit(Level::DEBUG, || BrowserEvent::Download {
                guid: d.guid,
                state,
                url: None,
                file_name: None,
                context,
            });
        }
    }

    fn lock_downloads(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<String>>> {
        self.downloads.lock().unwrap_or_else(|p| p.into_inner())
    }
}
