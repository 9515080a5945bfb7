//! What each of a tab's page and target events changes in its watch:
//! dialogs opened and closed, iframe sessions attached and gone, requests
//! in flight, and the main frame's navigation and load. Part of the tab
//! watch (`watch.rs`); console, network log and interception events are
//! recorded there, not here.
//!
//! Each handler answers whether the watch learnt something (`Some`), so
//! that `apply` wakes the waiters once, and only then: an event that
//! does not parse, or changes nothing, leaves them asleep.

use rove_cdp::protocol::EventType;
use rove_cdp::protocol::network::{
    LoadingFailed, LoadingFinished, RequestWillBeSent, ResourceType,
};
use rove_cdp::protocol::page::{
    FrameDetached, FrameDetachedReason, FrameNavigated, FrameStartedNavigating,
    FrameStoppedLoading, JavascriptDialogClosed, JavascriptDialogOpening, LoadEventFired,
    NavigatedWithinDocument,
};
use rove_cdp::protocol::target::{AttachedToTarget, DetachedFromTarget};
use rove_cdp::{Event, Session};

use super::{DialogInfo, FrameSession, State, TabWatch};

/// Learnt something: the watch's waiters are woken.
const CHANGED: Option<()> = Some(());

impl TabWatch {
    /// Applies one event; an iframe session it attached is returned, for
    /// the caller to follow and enable.
    pub(super) fn apply(&self, event: &Event) -> Option<Session> {
        let changed = match event.method.as_str() {
            AttachedToTarget::METHOD => {
                let attached: AttachedToTarget = event.parse().ok()?;
                if attached.target_info.kind != "iframe" {
                    return None;
                }
                return self.adopt(attached);
            }
            JavascriptDialogOpening::METHOD => self.dialog_opened(event),
            JavascriptDialogClosed::METHOD => self.dialog_closed(event),
            DetachedFromTarget::METHOD => self.session_detached(event),
            FrameDetached::METHOD => self.frame_detached(event),
            RequestWillBeSent::METHOD => self.request_started(event),
            LoadingFinished::METHOD | LoadingFailed::METHOD => self.request_ended(event),
            FrameNavigated::METHOD => self.main_frame_committed(event),
            FrameStartedNavigating::METHOD => self.main_frame_started(event),
            LoadEventFired::METHOD => self.main_frame_loaded(event),
            FrameStoppedLoading::METHOD | NavigatedWithinDocument::METHOD => {
                self.main_frame_settled(event)
            }
            _ => None,
        };
        if changed.is_some() {
            self.bump();
        }
        None
    }

    fn adopt(&self, attached: AttachedToTarget) -> Option<Session> {
        // The iframe's session lives on the tab's connection.
        let session = self.conn.upgrade()?.session(attached.session_id);
        self.lock().frames.insert(
            attached.target_info.target_id.clone(),
            FrameSession {
                frame_id: attached.target_info.target_id,
                session: session.clone(),
            },
        );
        self.bump();
        Some(session)
    }

    fn dialog_opened(&self, event: &Event) -> Option<()> {
        let d: JavascriptDialogOpening = event.parse().ok()?;
        // The page wrote these; cleaned once here, so no face
        // shows a line break or a hidden character of them.
        let mut info = DialogInfo {
            kind: d.kind.as_str().to_owned(),
            message: rove_base::text::clean(d.message),
            default_prompt: rove_base::text::clean(d.default_prompt.unwrap_or_default()),
            url: d.url,
            opened: 0,
        };
        self.registry
            .events()
            .emit(tracing::Level::INFO, || crate::BrowserEvent::Dialog {
                target_id: self.main_frame.to_string(),
                kind: info.kind.clone(),
                message: info.message.clone(),
                context: self
                    .registry
                    .get(&self.main_frame)
                    .and_then(|r| r.info.browser_context_id),
            });
        let mut state = self.lock();
        state.dialogs_opened += 1;
        info.opened = state.dialogs_opened;
        state.dialogs.push((known(d.frame_id), info));
        CHANGED
    }

    fn dialog_closed(&self, event: &Event) -> Option<()> {
        let closed: JavascriptDialogClosed = event.parse().ok()?;
        let frame = known(closed.frame_id);
        let mut state = self.lock();
        // The closed one is the oldest of its frame.
        let at = state
            .dialogs
            .iter()
            .position(|(f, _)| frame.is_some() && *f == frame)
            .or((!state.dialogs.is_empty()).then_some(0));
        if let Some(at) = at {
            state.dialogs.remove(at);
        }
        CHANGED
    }

    /// An iframe's session ended: its frame, requests and streams go.
    fn session_detached(&self, event: &Event) -> Option<()> {
        let d: DetachedFromTarget = event.parse().ok()?;
        let mut state = self.lock();
        state
            .frames
            .retain(|_, f| f.session.id() != Some(&d.session_id));
        state
            .requests
            .retain(|(session, _)| session.as_ref() != Some(&d.session_id));
        self.lock_streams().forget(Some(&d.session_id));
        // A frame taken away takes its dialogs with it; no close
        // event comes for them.
        if let Some(target) = &d.target_id {
            state
                .dialogs
                .retain(|(frame, _)| frame.as_ref() != Some(target));
        }
        CHANGED
    }

    fn frame_detached(&self, event: &Event) -> Option<()> {
        let detached: FrameDetached = event.parse().ok()?;
        // A swap moves the frame to another process; it lives on.
        if detached.reason == FrameDetachedReason::Swap {
            return None;
        }
        let frame = known(detached.frame_id);
        let mut state = self.lock();
        let before = state.dialogs.len();
        state.dialogs.retain(|(f, _)| *f != frame);
        (state.dialogs.len() != before).then_some(())
    }

    fn request_started(&self, event: &Event) -> Option<()> {
        let r: RequestWillBeSent = event.parse().ok()?;
        // Event streams never finish; the browser's own favicon
        // fetch is no page activity.
        let favicon = r.kind == Some(ResourceType::Other)
            && r.request
                .url
                .split(['?', '#'])
                .next()
                .unwrap_or_default()
                .ends_with("/favicon.ico");
        if r.kind == Some(ResourceType::EventSource) || favicon {
            return None;
        }
        let mut state = self.lock();
        let inserted = state
            .requests
            .insert((event.session_id.clone(), r.request_id.clone()));
        if inserted {
            state
                .pending
                .start(&r.request_id, &r.request.method, &r.request.url);
        }
        // Not inserted: a redirect, the same request going on.
        inserted.then_some(())
    }

    fn request_ended(&self, event: &Event) -> Option<()> {
        let request_id = if event.method == LoadingFinished::METHOD {
            event.parse::<LoadingFinished>().ok()?.request_id
        } else {
            event.parse::<LoadingFailed>().ok()?.request_id
        };
        // An iframe's document is requested from the parent's
        // session and finishes in the iframe's own (out-of-process)
        // one: the request id is what they share.
        let mut state = self.lock();
        let before = state.requests.len();
        state.requests.retain(|(_, id)| *id != request_id);
        state.pending.end(&request_id);
        (state.requests.len() != before).then_some(())
    }

    /// A new main document: requests of the old one are moot.
    fn main_frame_committed(&self, event: &Event) -> Option<()> {
        let frame_is_main = event
            .parse::<FrameNavigated>()
            .is_ok_and(|n| n.frame.parent_id.is_none());
        if !frame_is_main || event.session_id.as_ref() != Some(&self.session) {
            return None;
        }
        self.lock_streams().forget(Some(&self.session));
        let mut state = self.lock();
        state
            .requests
            .retain(|(s, _)| s.as_ref() != Some(&self.session));
        let State {
            requests, pending, ..
        } = &mut *state;
        pending.keep(|id| requests.iter().any(|(_, r)| r == id));
        state.main.committed();
        CHANGED
    }

    fn main_frame_started(&self, event: &Event) -> Option<()> {
        let started: FrameStartedNavigating = event.parse().ok()?;
        let main = event.session_id.as_ref() == Some(&self.session)
            && started.frame_id == *self.main_frame;
        if !main || started.navigation_type.as_str().starts_with("same") {
            return None;
        }
        self.lock().main.started(started.url);
        CHANGED
    }

    fn main_frame_loaded(&self, event: &Event) -> Option<()> {
        let main = event.session_id.as_ref() == Some(&self.session);
        (main && self.lock().main.loaded()).then_some(())
    }

    /// The main frame stopped loading, or moved within its document.
    fn main_frame_settled(&self, event: &Event) -> Option<()> {
        let stopped = event.method == FrameStoppedLoading::METHOD;
        let frame_id = if stopped {
            event.parse::<FrameStoppedLoading>().ok()?.frame_id
        } else {
            event.parse::<NavigatedWithinDocument>().ok()?.frame_id
        };
        let main = event.session_id.as_ref() == Some(&self.session) && frame_id == *self.main_frame;
        if !main {
            return None;
        }
        let mut state = self.lock();
        let changed = match stopped {
            true => state.main.stopped(),
            false => state.main.moved_within(),
        };
        changed.then_some(())
    }
}

/// A frame id an event gave, `None` when it gave none.
fn known(frame_id: String) -> Option<String> {
    Some(frame_id).filter(|f| !f.is_empty())
}
