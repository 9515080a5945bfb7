//! What a tab is doing, learned from its events: the JavaScript dialog that
//! blocks it, the sessions of its out-of-process iframes, and the requests it
//! has in flight and its WebSockets and event streams (`streams.rs`; both
//! for settling after input), what its pages logged
//! (`console.rs`) and requested (`network.rs`), and the answers to requests
//! the domain policy or the session's block and mock rules intercept.
//!
//! Started on first use by [`crate::Tab::watch`]: it enables the `Page` domain,
//! turns on flattened auto-attach (so cross-site iframes get sessions of their
//! own, recursively), and follows the events of the tab's session and of every
//! iframe session in one task. Nothing here polls.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rove_cdp::protocol::page::Enable;
use rove_cdp::protocol::target::{AttachedToTarget, SetAutoAttach};
use rove_cdp::protocol::{EventType, fetch, log, network, runtime};
use rove_cdp::{Event, EventStreamError, Session, SessionId, WeakConnection};
use tokio::sync::{mpsc, watch};

use crate::BrowserError;

#[path = "watch_events.rs"]
mod events;
#[path = "watch_intercept.rs"]
mod intercept;

/// A JavaScript dialog (`alert`, `confirm`, `prompt`, `beforeunload`) that
/// blocks the page until answered.
#[derive(Debug, Clone, PartialEq)]
pub struct DialogInfo {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    pub kind: String,
    /// The dialog's text.
    pub message: String,
    /// The prompt's default answer.
    pub default_prompt: String,
    /// The URL of the frame that opened it.
    pub url: String,
    /// How many dialogs the tab had opened, this one included: two dialogs
    /// with the same text (a page that asks twice) are still two.
    pub opened: u64,
}

/// The session of one out-of-process iframe.
#[derive(Debug, Clone)]
pub struct FrameSession {
    /// The iframe's frame id (equal to its target id).
    pub frame_id: String,
    /// The flattened session to talk to it through.
    pub session: Session,
}

#[derive(Debug, Default)]
struct State {
    /// Open dialogs in the order they opened, with the frame that opened
    /// each; answering one reveals the next.
    dialogs: Vec<(Option<String>, DialogInfo)>,
    /// Dialogs opened so far (numbers each, `DialogInfo::opened`).
    dialogs_opened: u64,
    frames: HashMap<String, FrameSession>,
    /// Requests in flight, by session and request id. Event streams
    /// (`EventSource`) never finish and are not counted.
    requests: std::collections::HashSet<(Option<SessionId>, String)>,
    /// When each of them started, for the ones pending too long.
    pending: crate::pending::Pending,
    /// Document URLs the domain policy blocked, not yet reported.
    blocked: Vec<String>,
    /// The main frame's navigation and load (`main_frame.rs`).
    main: crate::main_frame::MainFrame,
    /// The execution context of rove's isolated world in the main frame's
    /// document (`activity.rs`), once the browser reported it.
    rove_world: Option<i64>,
}

/// A live view of one tab's dialogs and iframe sessions. Cheap to clone.
#[derive(Debug, Clone)]
pub struct TabWatch {
    state: Arc<Mutex<State>>,
    version: Arc<watch::Sender<u64>>,
    session: SessionId,
    /// The main frame's id (the tab's target id).
    main_frame: Arc<str>,
    conn: WeakConnection,
    policy: crate::policy::SharedPolicy,
    console: Arc<Mutex<crate::console::ConsoleLog>>,
    rules: crate::network::SharedRules,
    net: Arc<Mutex<crate::network::NetLog>>,
    /// The tab's WebSockets and event streams (`streams.rs`).
    streams: Arc<Mutex<crate::streams::Streams>>,
    /// The browser's targets, and its event bus (dialogs are announced).
    registry: crate::TargetRegistry,
}

impl TabWatch {
    /// Starts watching `session` (a tab's page session).
    pub(crate) async fn start(
        session: &Session,
        main_frame: &str,
        policy: crate::policy::SharedPolicy,
        rules: crate::network::SharedRules,
        registry: crate::TargetRegistry,
    ) -> Result<TabWatch, BrowserError> {
        let Some(id) = session.id().cloned() else {
            return Err(BrowserError::Rejected(
                "a tab watch needs a page session".into(),
            ));
        };
        let watch = TabWatch {
            state: Arc::default(),
            version: Arc::new(watch::channel(0).0),
            session: id,
            main_frame: Arc::from(main_frame),
            conn: session.connection().downgrade(),
            policy,
            console: Arc::default(),
            rules,
            net: Arc::default(),
            streams: Arc::default(),
            registry,
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let weak = tx.downgrade();
        forward(session, tx);
        tokio::spawn(follow(watch.clone(), rx, weak));
        let mut early = session.subscribe();
        enable(session, watch.fetch_patterns()).await?;
        // Chromium reports the iframes that already run in other processes
        // before it answers `setAutoAttach`. Adopt them now: the follow task
        // gets to them a moment later, and a view taken right after a watch
        // starts on a loaded page must not miss their frames. (The follow
        // task adopts them again and enables their sessions.)
        while let Some(Ok(event)) = early.try_recv() {
            if event.method == AttachedToTarget::METHOD {
                let _ = watch.apply(&event);
            }
        }
        Ok(watch)
    }

    /// The requests of the tab's pages since the last call (or every one
    /// kept, with `all`); see `network.rs`.
    pub fn network(&self, all: bool) -> crate::network::NetRead {
        self.network_where(all, |_| true)
    }

    /// As [`TabWatch::network`], of the requests `wanted` keeps; the others
    /// stay unread for a later read that wants them.
    pub fn network_where(
        &self,
        all: bool,
        wanted: impl Fn(&crate::network::NetEntry) -> bool,
    ) -> crate::network::NetRead {
        self.net
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .read_where(all, wanted)
    }

    /// Every request kept, without marking any read.
    pub fn network_kept(&self) -> Vec<crate::network::NetEntry> {
        self.net.lock().unwrap_or_else(|p| p.into_inner()).kept()
    }

    /// The request numbered `seq`, if still kept.
    pub fn request(&self, seq: u64) -> Option<crate::network::NetEntry> {
        self.net.lock().unwrap_or_else(|p| p.into_inner()).get(seq)
    }

    /// Forgets the requests seen so far.
    pub fn clear_network(&self) {
        self.net.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    /// Document URLs the domain policy blocked since the last call.
    pub fn take_blocked(&self) -> Vec<String> {
        std::mem::take(&mut self.lock().blocked)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn bump(&self) {
        self.version.send_modify(|v| *v += 1);
    }

    /// Where the main frame is navigating to, while a navigation has
    /// started and its new document has not committed yet. One pending for
    /// longer than [`rove_base::limits::NAVIGATION_PENDING`] is taken for a missed end (a
    /// navigation that never reported one) and no longer counts.
    pub fn navigating(&self) -> Option<String> {
        self.lock().main.navigating()
    }

    /// Where the main frame's document is in its load, while it loads:
    /// parsing (from its commit) or read for the first time after its load
    /// event (from the event); see `main_frame.rs`. A renderer parsing and
    /// laying out a big document answers nothing meanwhile, and is not
    /// hung.
    pub fn load_phase(&self) -> Option<crate::LoadPhase> {
        self.lock().main.load_phase()
    }

    /// rove read a view of the page (its main thread answered the walk).
    pub fn page_answered(&self) {
        self.lock().main.answered();
    }

    /// Waits up to `timeout` for a pending main-frame navigation to commit
    /// or stop; the URL it is still going to, if it did not.
    pub async fn navigation_settled(&self, timeout: std::time::Duration) -> Option<String> {
        let mut changes = self.changes();
        let _ =
            tokio::time::timeout(timeout, changes.wait_for(|_| self.navigating().is_none())).await;
        self.navigating()
    }

    /// The console messages of the tab's pages since the last call (or
    /// every one kept, with `all`); see `console.rs`.
    pub fn console(&self, all: bool) -> crate::console::ConsoleRead {
        self.console_where(all, |_| true)
    }

    /// As [`TabWatch::console`], of the messages `wanted` keeps; the others
    /// stay unread.
    pub fn console_where(
        &self,
        all: bool,
        wanted: impl Fn(&crate::ConsoleEntry) -> bool,
    ) -> crate::console::ConsoleRead {
        self.console
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .read_where(all, wanted)
    }

    /// The console messages and requests numbered after `marks` (as
    /// [`TabWatch::marks`] gave them), without marking any read: what a
    /// trace shows of one interval.
    pub fn after(
        &self,
        marks: (u64, u64),
    ) -> (
        Vec<crate::console::ConsoleEntry>,
        Vec<crate::network::NetEntry>,
    ) {
        let console = self
            .console
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .after(marks.0);
        let net = self
            .net
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .after(marks.1);
        (console, net)
    }

    /// The numbers of the newest console message and request so far.
    pub fn marks(&self) -> (u64, u64) {
        let console = self
            .console
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .last_seq();
        let net = self
            .net
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .last_seq();
        (console, net)
    }

    /// The session this watch follows.
    pub fn session_id(&self) -> &SessionId {
        &self.session
    }

    /// The dialog currently blocking the page, if any (the oldest still open).
    pub fn dialog(&self) -> Option<DialogInfo> {
        self.lock().dialogs.first().map(|(_, d)| d.clone())
    }

    /// Waits up to `timeout` for a dialog to block the page; the dialog, or
    /// `None` if none opened in time.
    pub async fn wait_for_dialog(&self, timeout: std::time::Duration) -> Option<DialogInfo> {
        let mut changes = self.changes();
        let opened =
            tokio::time::timeout(timeout, changes.wait_for(|_| self.dialog().is_some())).await;
        opened.ok().and_then(|_| self.dialog())
    }

    /// The session of the out-of-process iframe with this frame id.
    pub fn frame_session(&self, frame_id: &str) -> Option<FrameSession> {
        self.lock().frames.get(frame_id).cloned()
    }

    /// Every out-of-process iframe session.
    pub fn frame_sessions(&self) -> Vec<FrameSession> {
        self.lock().frames.values().cloned().collect()
    }

    /// The execution context of rove's isolated world in the main frame's
    /// current document, when the browser has reported it.
    pub fn rove_world(&self) -> Option<i64> {
        self.lock().rove_world
    }

    /// Follows the contexts of rove's world in the main frame.
    fn note_context(&self, event: &Event) {
        if event.session_id.as_ref() != Some(&self.session) {
            return;
        }
        match event.method.as_str() {
            runtime::ExecutionContextCreated::METHOD => {
                let Ok(created) = event.parse::<runtime::ExecutionContextCreated>() else {
                    return;
                };
                let context = created.context;
                let frame = context
                    .aux_data
                    .as_ref()
                    .and_then(|a| a.get("frameId"))
                    .and_then(|f| f.as_str());
                if context.name == crate::ROVE_WORLD && frame == Some(&*self.main_frame) {
                    self.lock().rove_world = Some(context.id);
                }
            }
            runtime::ExecutionContextDestroyed::METHOD => {
                let Ok(destroyed) = event.parse::<runtime::ExecutionContextDestroyed>() else {
                    return;
                };
                let mut state = self.lock();
                if state.rove_world == Some(destroyed.execution_context_id) {
                    state.rove_world = None;
                }
            }
            runtime::ExecutionContextsCleared::METHOD => self.lock().rove_world = None,
            _ => {}
        }
    }

    /// How many requests the tab (and its iframes) have in flight.
    pub fn requests_in_flight(&self) -> usize {
        self.lock().requests.len()
    }

    /// Requests pending longer than `bound` and not told before (each is
    /// told once).
    pub fn overdue_requests(&self, bound: std::time::Duration) -> Vec<crate::pending::Overdue> {
        self.lock().pending.overdue(bound)
    }

    /// What the tab's WebSockets and event streams are doing now.
    pub fn streams(&self) -> crate::streams::StreamState {
        self.lock_streams().state()
    }

    fn lock_streams(&self) -> MutexGuard<'_, crate::streams::Streams> {
        self.streams.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits until the tab's connections are quiet: no WebSocket awaiting
    /// an answer (opening, or a frame sent and none received since) and
    /// nothing received for `quiet`; and, with `answer_after`, until
    /// something arrived beyond that count of [`StreamState::incoming`]
    /// (the server answered). Up to `cap`; whether they went quiet.
    ///
    /// [`StreamState::incoming`]: crate::StreamState::incoming
    pub async fn streams_quiet(
        &self,
        quiet: std::time::Duration,
        answer_after: Option<u64>,
        cap: std::time::Duration,
    ) -> bool {
        let mut changes = self.changes();
        let wait = async {
            loop {
                let state = self.streams();
                let answered = answer_after.is_none_or(|mark| state.incoming > mark);
                if answered && state.quiet_for(quiet) {
                    return;
                }
                // Woken by any change, or when the quiet window would end.
                let pause = match state.last_incoming {
                    // Zero only once the window has passed: the next look
                    // finds it quiet.
                    Some(at) if answered && !state.awaiting => quiet.saturating_sub(at.elapsed()),
                    _ => quiet,
                };
                let _ = tokio::time::timeout(pause, changes.changed()).await;
            }
        };
        tokio::time::timeout(cap, wait).await.is_ok()
    }

    /// Waits until no request has been in flight for `quiet`, up to `cap`;
    /// whether the network went quiet in time.
    pub async fn network_quiet(
        &self,
        quiet: std::time::Duration,
        cap: std::time::Duration,
    ) -> bool {
        let mut changes = self.changes();
        let wait = async {
            loop {
                if self.requests_in_flight() == 0 {
                    // Quiet unless something starts within the window.
                    let started = tokio::time::timeout(
                        quiet,
                        changes.wait_for(|_| self.requests_in_flight() > 0),
                    )
                    .await;
                    if started.is_err() {
                        return;
                    }
                } else if changes
                    .wait_for(|_| self.requests_in_flight() == 0)
                    .await
                    .is_err()
                {
                    return;
                }
            }
        };
        tokio::time::timeout(cap, wait).await.is_ok()
    }

    /// A receiver that changes whenever the watch learns something.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }
}

/// Page, network, console and log events, and auto-attach, for a page or
/// iframe session. Response bodies are kept within a bound, for `network`
/// to show on demand. Requests matching `patterns` (documents under a domain
/// policy, the URLs of block and mock rules) pause for the watch to answer.
async fn enable(session: &Session, patterns: Option<fetch::Enable>) -> Result<(), BrowserError> {
    // Sent together: the browser takes a session's commands in the order
    // they were written (interception first, then the page domain, rove's
    // script before the runtime reports contexts), and a tab's first
    // `Page.enable` waits for its renderer, which the rest need not wait
    // behind one by one.
    let intercept = async {
        match &patterns {
            Some(patterns) => session.send(patterns).await.map(|_| ()),
            None => Ok(()),
        }
    };
    let network = network::Enable {
        max_total_buffer_size: Some(crate::network::BODY_BUFFER_TOTAL),
        max_resource_buffer_size: Some(crate::network::BODY_BUFFER_EACH),
        ..network::Enable::default()
    };
    let attach = SetAutoAttach {
        auto_attach: true,
        wait_for_debugger_on_start: false,
        flatten: Some(true),
        filter: None,
    };
    // rove's watch on what each document does, in rove's own world, from
    // before the page's scripts run (`activity.rs`); and now in the
    // documents already there. The runtime and the log replay what the
    // page logged before they were enabled, so a watch started after the
    // load still has its messages.
    let page = Enable::default();
    let script = crate::rove_world::for_every_document();
    // Biased: polled first in this order, so written in it. Boxed: seven
    // calls in flight make a large future, which every caller's would
    // otherwise hold inline.
    Box::pin(async {
        tokio::try_join!(
            biased;
        intercept,
        session.send(&page),
        session.send(&script),
        session.send(&runtime::Enable {}),
        session.send(&log::Enable {}),
        session.send(&network),
        session.send(&attach),
        )
    })
    .await?;
    Ok(())
}

fn forward(session: &Session, tx: mpsc::UnboundedSender<Arc<Event>>) {
    let mut events = session.subscribe();
    tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(event) => {
                    if tx.send(event).is_err() {
                        return;
                    }
                }
                Err(EventStreamError::Lagged(n)) => {
                    tracing::debug!(target: "rove_browser", missed = n, "tab watch lagged");
                }
                Err(EventStreamError::Closed) => return,
            }
        }
    });
}

async fn follow(
    watch: TabWatch,
    mut rx: mpsc::UnboundedReceiver<Arc<Event>>,
    tx: mpsc::WeakUnboundedSender<Arc<Event>>,
) {
    // Only the forwarders keep the channel open: when every watched session
    // has ended, the channel closes and this task ends.
    while let Some(event) = rx.recv().await {
        if event.method == fetch::RequestPaused::METHOD {
            watch.answer_paused(&event);
            continue;
        }
        if event.method.starts_with("Network.") {
            watch
                .net
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .record(&event);
            if watch.lock_streams().record(&event) {
                watch.bump();
            }
        }
        if event.method.starts_with("Runtime.executionContext") {
            watch.note_context(&event);
            continue;
        }
        if event.method.starts_with("Runtime.") || event.method.starts_with("Log.") {
            watch
                .console
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .record(&event);
            continue;
        }
        if let Some(child) = watch.apply(&event) {
            let Some(tx) = tx.upgrade() else { return };
            forward(&child, tx);
            let patterns = watch.fetch_patterns();
            tokio::spawn(async move {
                if let Err(e) = enable(&child, patterns).await {
                    tracing::debug!(target: "rove_browser", error = %e, "could not enable an iframe session");
                }
            });
        }
    }
}
