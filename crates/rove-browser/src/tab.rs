//! One tab: a page target and the flattened session rove talks to it through.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rove_cdp::protocol::Command;
use rove_cdp::protocol::emulation::ClearDeviceMetricsOverride;
use rove_cdp::protocol::page::CreateIsolatedWorld;
use rove_cdp::protocol::page::{Enable, LoadEventFired, Navigate};
use rove_cdp::protocol::runtime::{Evaluate, RemoteObject};
use rove_cdp::protocol::target::AttachToTarget;
use rove_cdp::{CdpError, RoveScript, Session};

use crate::EmulationCall;
use crate::rove_world::{ROVE_WORLD, evaluation};
use crate::watch::TabWatch;
use crate::{Browser, BrowserError};

/// rove's id of a tab, shown as `t1`, `t2` …; never reused within a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TabId(pub u32);

impl fmt::Display for TabId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

impl std::str::FromStr for TabId {
    type Err = BrowserError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.strip_prefix('t')
            .and_then(|n| n.parse().ok())
            .map(TabId)
            .ok_or_else(|| BrowserError::Rejected(format!("{s:?} is not a tab id (like t1)")))
    }
}

/// A tab id travels as its text (`"t2"`), so a tool call's `tab` argument
/// deserializes straight into one.
impl serde::Serialize for TabId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for TabId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.trim().parse().map_err(serde::de::Error::custom)
    }
}

/// A handle to one tab. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Tab {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    id: TabId,
    target_id: String,
    browser: Browser,
    /// The session and the link generation it belongs to; a reconnect makes
    /// it stale and the next call re-attaches.
    attachment: tokio::sync::Mutex<Option<(u64, Session)>>,
    watch: tokio::sync::Mutex<Option<TabWatch>>,
    /// The context's domain policy, enforced by the watch.
    policy: crate::policy::SharedPolicy,
    /// The context's viewport and emulation, applied when the watch starts.
    emulation: crate::emulation::SharedEmulation,
    /// The session's block and mock rules, applied by the watch.
    rules: crate::network::SharedRules,
}

/// What a finished navigation reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The URL after redirects.
    pub url: String,
    /// The document title.
    pub title: String,
}

impl Tab {
    pub(crate) fn new(
        id: TabId,
        target_id: String,
        browser: Browser,
        policy: crate::policy::SharedPolicy,
        emulation: crate::emulation::SharedEmulation,
        rules: crate::network::SharedRules,
    ) -> Self {
        Tab {
            inner: Arc::new(Inner {
                id,
                target_id,
                browser,
                attachment: tokio::sync::Mutex::new(None),
                watch: tokio::sync::Mutex::new(None),
                policy,
                emulation,
                rules,
            }),
        }
    }

    /// rove's id of the tab.
    pub fn id(&self) -> TabId {
        self.inner.id
    }

    /// CDP's target id.
    pub fn target_id(&self) -> &str {
        &self.inner.target_id
    }

    /// The session to talk to this tab through, attaching on first use and
    /// after a reconnect.
    pub async fn session(&self) -> Result<Session, BrowserError> {
        let (conn, generation) = self.inner.browser.link().await?;
        let mut attachment = self.inner.attachment.lock().await;
        if let Some((g, session)) = &*attachment
            && *g == generation
        {
            return Ok(session.clone());
        }
        // The registry may not have heard of a brand-new tab yet, so only its
        // crash flag is trusted here; whether the target exists is the
        // browser's answer to the attach.
        let crashed = self
            .inner
            .browser
            .targets()
            .get(&self.inner.target_id)
            .is_some_and(|r| r.crashed);
        if crashed {
            return Err(BrowserError::TargetCrashed {
                tab: self.inner.id.to_string(),
                sent: false,
            });
        }
        let attached = conn
            .browser()
            .send(&AttachToTarget::flat(self.inner.target_id.clone()))
            .await
            .map_err(|e| match e {
                CdpError::Protocol { message, .. } => {
                    self.gone(&format!("it was closed ({message})"))
                }
                other => self.map_error(other),
            })?;
        let session = conn.session(attached.session_id);
        *attachment = Some((generation, session.clone()));
        Ok(session)
    }

    /// The tab's dialogs and iframe sessions, followed from its events. Started
    /// on first use, and again after the tab's session changed (a reconnect).
    pub async fn watch(&self) -> Result<TabWatch, BrowserError> {
        let session = self.session().await?;
        let mut slot = self.inner.watch.lock().await;
        if let Some(watch) = &*slot
            && Some(watch.session_id()) == session.id()
        {
            return Ok(watch.clone());
        }
        // After a reconnect the popup guard must hold pages on the new
        // connection too; a tab's watch starting is when rove learns of it.
        self.inner.browser.guard_popups().await?;
        let watch = TabWatch::start(
            &session,
            &self.inner.target_id,
            self.inner.policy.clone(),
            self.inner.rules.clone(),
            self.inner.browser.targets().clone(),
        )
        .await
        .map_err(|e| match e {
            BrowserError::Cdp(c) => self.map_error(c),
            other => other,
        })?;
        *slot = Some(watch.clone());
        drop(slot);
        self.apply_viewport_on(&session, false).await?;
        // A popup held for its emulation has it from this session now; the
        // holding session's going undoes what both set, so it is made
        // again, from scratch (the same values again would be ignored).
        let popups = &self.inner.browser.shared.popups;
        if popups.handed_over(&self.inner.target_id).await {
            let _ = session.send(&ClearDeviceMetricsOverride {}).await;
            self.apply_viewport_on(&session, false).await?;
        }
        Ok(watch)
    }

    /// Applies the session's block and mock rules to the tab, if its watch
    /// has started (one that starts later applies them itself).
    pub(crate) async fn refresh_interception(&self) -> Result<(), BrowserError> {
        let watch = self.inner.watch.lock().await.clone();
        match watch {
            Some(watch) => watch.refresh_interception().await,
            None => Ok(()),
        }
    }

    /// Sets the context's viewport on this tab (a session's emulation lasts
    /// as long as the session, so this runs again with each new one).
    pub(crate) async fn apply_viewport(&self) -> Result<(), BrowserError> {
        let session = self.session().await?;
        self.apply_viewport_on(&session, true).await
    }

    /// `clear`: also undo an earlier size when the context has none. The
    /// emulation settings follow the size, so a device's metrics win.
    async fn apply_viewport_on(&self, session: &Session, clear: bool) -> Result<(), BrowserError> {
        let (size, calls) = {
            let emulation = self
                .inner
                .emulation
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            (emulation.viewport, emulation.calls())
        };
        let answer = match size {
            Some(v) => EmulationCall::size(v).send_to(session).await,
            None if clear => session.send(&ClearDeviceMetricsOverride {}).await.map(drop),
            None => Ok(()),
        };
        answer.map_err(|e| self.map_error(e))?;
        for call in calls {
            call.send_to(session).await.map_err(|e| self.map_error(e))?;
        }
        Ok(())
    }

    /// The tab's watch if it has been started on the tab's current
    /// session, without starting one (starting it calls the page, which a
    /// hung page would not answer).
    pub async fn current_watch(&self) -> Option<TabWatch> {
        let session_id = {
            let attachment = self.inner.attachment.lock().await;
            attachment.as_ref()?.1.id().cloned()?
        };
        let slot = self.inner.watch.lock().await;
        slot.as_ref()
            .filter(|w| *w.session_id() == session_id)
            .cloned()
    }

    /// Whether the browser reported the tab's renderer crashed.
    pub fn crashed(&self) -> bool {
        self.inner
            .browser
            .targets()
            .get(&self.inner.target_id)
            .is_some_and(|r| r.crashed)
    }

    /// Sends a typed command to the tab.
    pub async fn send<C: Command>(&self, command: &C) -> Result<C::Response, BrowserError> {
        let session = self.session().await?;
        session.send(command).await.map_err(|e| self.map_error(e))
    }

    /// Sends a typed command with its own deadline.
    pub async fn send_within<C: Command>(
        &self,
        command: &C,
        timeout: Duration,
    ) -> Result<C::Response, BrowserError> {
        let session = self.session().await?;
        session
            .send_within(command, timeout)
            .await
            .map_err(|e| self.map_error(e))
    }

    /// Evaluates a JavaScript expression in the page and returns its value as
    /// JSON. Promises are awaited. A thrown exception is `EVALUATION_FAILED`.
    pub async fn evaluate(&self, expression: &str) -> Result<serde_json::Value, BrowserError> {
        let answer = self.send(&Evaluate::value(expression)).await?;
        if let Some(details) = answer.exception_details {
            return Err(BrowserError::Evaluation(details.message()));
        }
        Ok(answer.result.value.unwrap_or(serde_json::Value::Null))
    }

    /// Navigates and waits for the load event, up to `timeout`. A basic
    /// navigation for bring-up and checks; the command layer builds the full
    /// `open` with HTTP status and settling on top of the same calls. The
    /// tab's watch starts first, as before `open`'s navigation, so that the
    /// new document has rove's activity script from its start.
    pub async fn goto(&self, url: &str, timeout: Duration) -> Result<Loaded, BrowserError> {
        self.watch().await?;
        let session = self.session().await?;
        session
            .send(&Enable {
                ..Default::default()
            })
            .await
            .map_err(|e| self.map_error(e))?;
        let mut events = session.subscribe();
        let failed = |reason: String| BrowserError::NavigationFailed {
            url: url.to_owned(),
            reason,
        };
        let navigated = session
            .send_within(
                &Navigate {
                    url: url.to_owned(),
                    ..Default::default()
                },
                timeout,
            )
            .await
            .map_err(|e| self.map_error(e))?;
        if let Some(error) = navigated.error_text.filter(|e| !e.is_empty()) {
            return Err(failed(error));
        }
        events
            .wait_for::<LoadEventFired>(timeout)
            .await
            .map_err(|e| match e {
                CdpError::Timeout { .. } => failed(format!(
                    "the page did not finish loading within {} s",
                    timeout.as_secs_f64()
                )),
                other => self.map_error(other),
            })?;
        let facts = self
            .evaluate_in_rove_world("({url: location.href, title: document.title})")
            .await?;
        Ok(Loaded {
            url: facts["url"].as_str().unwrap_or_default().to_owned(),
            title: rove_base::text::clean(facts["title"].as_str().unwrap_or_default().to_owned()),
        })
    }

    /// Evaluates `expression` in rove's world of the main frame and returns
    /// its value as JSON; promises are awaited. An exception is
    /// `EVALUATION_FAILED` (the page's state made it throw: storage a
    /// sandbox denies, a quota), as [`Tab::evaluate`] says it.
    pub async fn evaluate_in_rove_world(
        &self,
        expression: &str,
    ) -> Result<serde_json::Value, BrowserError> {
        let call = |context| evaluation(expression, context, "a read in rove's world");
        let answer = self
            .run_in_rove_world(call, None)
            .await
            .map_err(|e| match e {
                BrowserError::Cdp(CdpError::Script { message, .. }) => {
                    BrowserError::Evaluation(message)
                }
                other => other,
            })?;
        Ok(answer.value.unwrap_or(serde_json::Value::Null))
    }

    /// Runs the call `make` builds for the context of rove's world in the
    /// main frame: the one the watch saw created, or, when that is gone or
    /// unknown, the one `Page.createIsolatedWorld` finds or makes. A page that
    /// did not answer in time is an answer, not a reason to ask again.
    pub(crate) async fn run_in_rove_world<C: RoveScript>(
        &self,
        make: impl Fn(i64) -> C,
        within: Option<Duration>,
    ) -> Result<RemoteObject, BrowserError> {
        let session = self.session().await?;
        let watch = self.watch().await?;
        if let Some(context) = watch.rove_world() {
            // A context the watch saw may have gone with its document a moment
            // ago (its end not yet reported).
            match session.run_checked(&make(context), within).await {
                Ok(value) => return Ok(value),
                Err(e @ (CdpError::Timeout { .. } | CdpError::Script { .. })) => {
                    return Err(e.into());
                }
                Err(e) => {
                    tracing::debug!(target: "rove_browser", error = %e, "rove's world went with its document")
                }
            }
        }
        let created = session
            .send(&CreateIsolatedWorld {
                frame_id: self.target_id().to_owned(),
                world_name: Some(ROVE_WORLD.to_owned()),
                grant_univeral_access: Some(false),
                ..Default::default()
            })
            .await?;
        Ok(session
            .run_checked(&make(created.execution_context_id), within)
            .await?)
    }

    fn gone(&self, reason: &str) -> BrowserError {
        BrowserError::NoTab {
            tab: self.inner.id.to_string(),
            reason: reason.to_owned(),
        }
    }

    /// Names the tab in session-level failures.
    fn map_error(&self, e: CdpError) -> BrowserError {
        match e {
            CdpError::TargetCrashed { sent, .. } => BrowserError::TargetCrashed {
                tab: self.inner.id.to_string(),
                sent,
            },
            CdpError::SessionClosed { .. } => self.gone("it was closed"),
            other => other.into(),
        }
    }
}
