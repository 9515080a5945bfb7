//! The popup guard: a page a session's domain policy limits must not be able
//! to send a request to a forbidden host by opening a window.
//!
//! A tab's own watch intercepts its document requests, but a popup
//! (`window.open`, a `target=_blank` link or form) is a new target whose
//! first request leaves before anyone could attach to it: closing the popup
//! afterwards is too late (its query string has already gone out). So while
//! any context of the browser has a policy that limits hosts, rove asks the
//! browser to hold every new page before it runs
//! (`Target.setAutoAttach` on the browser session with
//! `waitForDebuggerOnStart`; a page session's auto-attach does not reach
//! popups). A held page of a guarded context gets document interception
//! (`Fetch.enable`) under its context's policy and is then released; its
//! requests are judged for the rest of its life. Any other page is released
//! at once and left alone, so pages of other sessions (or of other clients
//! of a shared browser) only wait for one round trip.
//!
//! The same hold gives a popup (a page another page opened) its context's
//! emulation (a viewport, a device, dark media … that `set` made) before
//! its first script runs: made later, by the tab's own watch, the page
//! would already have read the browser's own size and media while it
//! loaded. The session that made it is let go once the tab's own watch has
//! made the same emulation, so later settings are the watch's alone (two
//! sessions' overrides would fight). For a guarded popup that is a second
//! session: the guard's own stays for the page's life.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rove_cdp::protocol::page::Close;
use rove_cdp::protocol::runtime::RunIfWaitingForDebugger;
use rove_cdp::protocol::target::{AttachedToTarget, DetachFromTarget, SetAutoAttach};
use rove_cdp::protocol::{EventType, fetch};
use rove_cdp::{Connection, EventStreamError, SessionId};

use crate::BrowserError;
use crate::emulation::SharedEmulation;
use crate::policy::SharedPolicy;

/// The contexts whose popups are guarded, and the connection the guard
/// runs on.
#[derive(Debug, Default)]
pub(crate) struct PopupGuard {
    contexts: Arc<Mutex<HashMap<String, SharedPolicy>>>,
    /// The contexts whose emulation new pages get before they run.
    emulated: Arc<Mutex<HashMap<String, SharedEmulation>>>,
    /// Popups held for their emulation, by target id, until their tab's
    /// watch has made it too.
    handed: Handed,
    /// The link generation on which auto-attach is on.
    running_on: tokio::sync::Mutex<Option<u64>>,
}

/// The sessions that gave popups their emulation, by target id.
type Handed = Arc<Mutex<HashMap<String, Holding>>>;

/// A session that gave a popup its emulation before it ran.
#[derive(Debug)]
enum Holding {
    /// Still being attached (a guarded popup's second session): a tab's
    /// watch waits for it, so it is never left holding.
    Attaching(tokio::sync::watch::Receiver<bool>),
    /// Holding: detached once the tab's watch has made the emulation.
    Held(rove_cdp::Session),
}

impl PopupGuard {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, SharedPolicy>> {
        self.contexts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Guards (or stops guarding) the popups of one context.
    pub(crate) fn set(&self, context_id: &str, policy: &SharedPolicy) {
        let limited = crate::policy::current(policy).needs_interception();
        let mut contexts = self.lock();
        if limited {
            contexts.insert(context_id.to_owned(), policy.clone());
        } else {
            contexts.remove(context_id);
        }
    }

    /// Gives (or stops giving) new pages of one context its emulation
    /// before they run: while `set` has made any setting.
    pub(crate) fn set_emulated(&self, context_id: &str, emulation: &SharedEmulation) {
        let any = !emulation
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .settings
            .is_empty();
        let mut emulated = self.emulated.lock().unwrap_or_else(|p| p.into_inner());
        if any {
            emulated.insert(context_id.to_owned(), emulation.clone());
        } else {
            emulated.remove(context_id);
        }
    }

    /// Stops guarding a context that was disposed.
    pub(crate) fn forget(&self, context_id: &str) {
        self.lock().remove(context_id);
        self.emulated
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(context_id);
    }

    /// The tab of `target_id` has made its emulation itself: the session
    /// that held it as a popup lets go of it. Returns whether one did:
    /// letting go undoes that session's emulation on the page, so the tab
    /// makes its own again.
    pub(crate) async fn handed_over(&self, target_id: &str) -> bool {
        let attaching = match self
            .handed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(target_id)
        {
            Some(Holding::Attaching(done)) => Some(done.clone()),
            _ => None,
        };
        if let Some(mut done) = attaching {
            let _ =
                tokio::time::timeout(rove_base::limits::POPUP_ATTACH, done.wait_for(|d| *d)).await;
        }
        // Not attached in time: the entry goes, and its task lets the
        // session go as soon as it is attached.
        let held = match self
            .handed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(target_id)
        {
            Some(Holding::Held(session)) => Some(session),
            Some(Holding::Attaching(_)) | None => None,
        };
        if let Some(session) = held {
            let id = session.id().cloned();
            let detached = session.connection().browser().send(&detach(id)).await;
            if let Err(e) = detached {
                tracing::debug!(target: "rove_browser", error = %e, "a popup's holding session was not detached");
            }
            return true;
        }
        false
    }

    /// Whether any context's new pages are held.
    fn holds_any(&self) -> bool {
        !self.lock().is_empty()
            || !self
                .emulated
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_empty()
    }

    /// Makes sure the browser holds new pages on this connection, when any
    /// context is guarded. Called when a guarded context gets its policy and
    /// when a tab's watch starts (after a reconnect, on the new
    /// connection).
    pub(crate) async fn ensure(
        &self,
        conn: &Connection,
        generation: u64,
    ) -> Result<(), BrowserError> {
        if !self.holds_any() {
            return Ok(());
        }
        let mut running_on = self.running_on.lock().await;
        if *running_on == Some(generation) {
            return Ok(());
        }
        // Subscribed before asking, so no attach event is missed.
        let events = conn.subscribe(None);
        let held = Held {
            policies: self.contexts.clone(),
            emulated: self.emulated.clone(),
            handed: self.handed.clone(),
        };
        tokio::spawn(follow(conn.downgrade(), events, held));
        let pages = rove_cdp::protocol::target::FilterEntry {
            kind: Some("page".to_owned()),
            exclude: Some(false),
        };
        conn.browser()
            .send(&SetAutoAttach {
                auto_attach: true,
                wait_for_debugger_on_start: true,
                flatten: Some(true),
                filter: Some(vec![pages]),
            })
            .await?;
        *running_on = Some(generation);
        Ok(())
    }
}

/// What a held page of each context gets: its policy's guard, its
/// emulation.
struct Held {
    policies: Arc<Mutex<HashMap<String, SharedPolicy>>>,
    emulated: Arc<Mutex<HashMap<String, SharedEmulation>>>,
    handed: Handed,
}

/// Follows the browser session's attach events for the life of the
/// connection.
async fn follow(conn: rove_cdp::WeakConnection, mut events: rove_cdp::EventStream, held: Held) {
    loop {
        let event = match events.recv().await {
            Ok(event) => event,
            Err(EventStreamError::Lagged(n)) => {
                tracing::warn!(target: "rove_browser", missed = n, "the popup guard lagged behind the browser's events");
                continue;
            }
            Err(EventStreamError::Closed) => return,
        };
        let Some(Ok(attached)) = event.as_event::<AttachedToTarget>() else {
            continue;
        };
        let Some(conn) = conn.upgrade() else { return };
        let context = attached.target_info.browser_context_id.as_ref();
        let policy = context.and_then(|id| {
            held.policies
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(id)
                .cloned()
        });
        // Only a popup: rove's own new tabs are emulated by their watch
        // before anything loads in them.
        let popup = attached.target_info.opener_id.is_some();
        let emulation = context.filter(|_| popup).and_then(|id| {
            held.emulated
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(id)
                .map(|e| e.lock().unwrap_or_else(|p| p.into_inner()).first_calls())
        });
        // Only pages the browser holds for us are ours to handle. Every
        // other attach event (pages that already ran when the guard
        // started, and rove's own explicit attaches, which report here too)
        // is left alone: detaching would cut a tab's own session.
        if !attached.waiting_for_debugger {
            continue;
        }
        let session = conn.session(attached.session_id.clone());
        match (policy, emulation) {
            (Some(policy), None) => {
                tokio::spawn(guard(session, policy));
            }
            (Some(policy), Some(emulation)) => {
                // The guard's session stays for the page's life (it answers
                // its requests), so the emulation comes from a second one,
                // let go like an unguarded popup's. Marked before anything
                // is awaited, so a tab's watch that starts now waits for it.
                let target = attached.target_info.target_id.clone();
                let (done, attaching) = tokio::sync::watch::channel(false);
                held.handed
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(target.clone(), Holding::Attaching(attaching));
                let handed = held.handed.clone();
                tokio::spawn(async move {
                    emulate_apart(&conn, &target, emulation, &handed).await;
                    let _ = done.send(true);
                    guard(session, policy).await;
                });
            }
            (None, Some(emulation)) => {
                held.handed
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(
                        attached.target_info.target_id.clone(),
                        Holding::Held(session.clone()),
                    );
                tokio::spawn(async move {
                    emulate(&session, emulation).await;
                    if let Err(e) = session.send(&RunIfWaitingForDebugger {}).await {
                        tracing::debug!(target: "rove_browser", error = %e, "an emulated popup went away before it ran");
                    }
                });
            }
            (None, None) => {
                // Another session's page (or another client's): let it go.
                tokio::spawn(async move {
                    let _ = session.send(&RunIfWaitingForDebugger {}).await;
                    let _ = session
                        .connection()
                        .browser()
                        .send(&detach(Some(attached.session_id)))
                        .await;
                });
            }
        }
    }
}

/// Makes a held page's emulation before it runs; a call the page refuses
/// is left out (its tab's watch makes them all again, and says if one
/// fails).
async fn emulate(session: &rove_cdp::Session, calls: Vec<crate::EmulationCall>) {
    for call in calls {
        if let Err(e) = call.send_to(session).await {
            tracing::debug!(target: "rove_browser", method = call.method(), error = %e, "a popup did not take an emulation call");
        }
    }
}

/// Gives a held, guarded page its emulation through a session of its own,
/// kept in `handed` until the tab's watch lets it go (or let go at once,
/// when the watch stopped waiting for it).
async fn emulate_apart(
    conn: &Connection,
    target: &str,
    calls: Vec<crate::EmulationCall>,
    handed: &Handed,
) {
    let attach = rove_cdp::protocol::target::AttachToTarget::flat(target);
    let extra = match conn.browser().send(&attach).await {
        Ok(attached) => conn.session(attached.session_id),
        Err(e) => {
            tracing::debug!(target: "rove_browser", error = %e, "a guarded popup got no emulation before it ran");
            handed
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(target);
            return;
        }
    };
    emulate(&extra, calls).await;
    let kept = {
        let mut holding = handed.lock().unwrap_or_else(|p| p.into_inner());
        let waited_for = matches!(holding.get(target), Some(Holding::Attaching(_)));
        if waited_for {
            holding.insert(target.to_owned(), Holding::Held(extra.clone()));
        }
        waited_for
    };
    if kept {
        return;
    }
    let id = extra.id().cloned();
    let _ = conn.browser().send(&detach(id)).await;
}

/// Intercepts a held page's document requests under `policy`, releases it,
/// and answers its requests until it goes away. A page whose interception
/// cannot be set up is closed rather than let run unguarded.
async fn guard(session: rove_cdp::Session, policy: SharedPolicy) {
    let mut events = session.subscribe();
    let enabled = session.send(&crate::policy::interception_patterns()).await;
    if let Err(e) = enabled {
        tracing::warn!(target: "rove_browser", error = %e, "could not guard a popup; closing it");
        let _ = session.send(&Close {}).await;
        return;
    }
    // The release is answered only once the page's first request has been
    // answered, so it must not hold up the loop that answers it.
    let release = session.clone();
    tokio::spawn(async move {
        if let Err(e) = release.send(&RunIfWaitingForDebugger {}).await {
            tracing::debug!(target: "rove_browser", error = %e, "a guarded popup went away before it ran");
        }
    });
    loop {
        match events.recv().await {
            Ok(event) if event.method == fetch::RequestPaused::METHOD => {
                let current = crate::policy::current(&policy);
                if let Some(url) = crate::policy::answer_paused(
                    session.clone(),
                    &event,
                    &current,
                    crate::policy::FailAs::BlockedByClient,
                ) {
                    tracing::info!(target: "rove_browser", %url, "refused a popup's request outside the domain policy");
                }
            }
            Ok(_) | Err(EventStreamError::Lagged(_)) => {}
            Err(EventStreamError::Closed) => return,
        }
    }
}

/// Detaches the session `id` (from the browser session).
fn detach(id: Option<SessionId>) -> DetachFromTarget {
    DetachFromTarget {
        session_id: id,
        ..DetachFromTarget::default()
    }
}
