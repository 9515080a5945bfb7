//! An event-driven registry of the browser's targets.
//!
//! Fed by `Target.setDiscoverTargets` events (created, info changed, destroyed,
//! crashed); never by polling. If its subscriber ever lags, it resyncs with one
//! `Target.getTargets` call. Waiters learn of changes through a version counter.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rove_cdp::protocol::target::{
    GetTargets, SetDiscoverTargets, TargetCrashed, TargetCreated, TargetDestroyed, TargetInfo,
    TargetInfoChanged,
};
use rove_cdp::{CdpError, Connection, EventStreamError};
use tokio::sync::watch;

/// What rove knows about one target.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetRecord {
    /// CDP's description, as last reported.
    pub info: TargetInfo,
    /// The renderer crashed and the target was not reloaded since.
    pub crashed: bool,
}

/// The browser's targets, kept current from events. Cheap to clone.
#[derive(Debug, Clone)]
pub struct TargetRegistry {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    state: Mutex<State>,
    version: watch::Sender<u64>,
    /// Where what the browser reports is published (see `events`).
    events: crate::events::EventBus,
}

/// How many destroyed target ids are remembered. A tab handle whose target is
/// known destroyed leaves its context's list; one older than this lingers
/// until its next call fails with `NO_TAB`.
const REMEMBERED_DESTROYED: usize = 4096;

#[derive(Debug, Default)]
struct State {
    targets: HashMap<String, TargetRecord>,
    destroyed: HashSet<String>,
    destroyed_order: VecDeque<String>,
}

impl State {
    fn destroy(&mut self, target_id: &str) {
        self.targets.remove(target_id);
        if self.destroyed.insert(target_id.to_owned()) {
            self.destroyed_order.push_back(target_id.to_owned());
            while self.destroyed_order.len() > REMEMBERED_DESTROYED {
                if let Some(old) = self.destroyed_order.pop_front() {
                    self.destroyed.remove(&old);
                }
            }
        }
    }
}

impl Default for TargetRegistry {
    fn default() -> Self {
        TargetRegistry {
            inner: Arc::new(Inner {
                state: Mutex::new(State::default()),
                version: watch::channel(0).0,
                events: crate::events::EventBus::default(),
            }),
        }
    }
}

impl TargetRegistry {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether the target is known to be gone. A target the registry has not
    /// heard of yet (a tab created a moment ago) is not.
    pub fn is_destroyed(&self, target_id: &str) -> bool {
        self.lock().destroyed.contains(target_id)
    }

    fn bump(&self) {
        self.inner.version.send_modify(|v| *v += 1);
    }

    /// The browser's event bus.
    pub(crate) fn events(&self) -> &crate::events::EventBus {
        &self.inner.events
    }

    /// One target, if it exists.
    pub fn get(&self, target_id: &str) -> Option<TargetRecord> {
        self.lock().targets.get(target_id).cloned()
    }

    /// The page targets of one browser context, in no particular order.
    pub fn pages_in(&self, browser_context_id: &str) -> Vec<TargetRecord> {
        self.lock()
            .targets
            .values()
            .filter(|r| {
                r.info.kind == "page"
                    && r.info.browser_context_id.as_deref() == Some(browser_context_id)
            })
            .cloned()
            .collect()
    }

    /// Every known target.
    pub fn all(&self) -> Vec<TargetRecord> {
        self.lock().targets.values().cloned().collect()
    }

    /// A receiver whose value changes whenever any target changes.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.inner.version.subscribe()
    }

    /// Waits until `predicate` holds for the registry, up to `timeout`.
    pub async fn wait_until(
        &self,
        timeout: Duration,
        mut predicate: impl FnMut(&TargetRegistry) -> bool,
    ) -> bool {
        let mut changes = self.changes();
        let wait = async {
            loop {
                if predicate(self) {
                    return true;
                }
                if changes.changed().await.is_err() {
                    return predicate(self);
                }
            }
        };
        tokio::time::timeout(timeout, wait).await.unwrap_or(false)
    }

    fn upsert(&self, info: TargetInfo) {
        let mut state = self.lock();
        if state.destroyed.contains(&info.target_id) {
            // A late info change for a target already gone.
            return;
        }
        match state.targets.get_mut(&info.target_id) {
            Some(record) => record.info = info,
            None => {
                state.targets.insert(
                    info.target_id.clone(),
                    TargetRecord {
                        info,
                        crashed: false,
                    },
                );
            }
        }
    }

    fn replace_all(&self, infos: Vec<TargetInfo>) {
        let mut state = self.lock();
        let gone: Vec<String> = state
            .targets
            .keys()
            .filter(|id| !infos.iter().any(|i| &i.target_id == *id))
            .cloned()
            .collect();
        for id in gone {
            state.destroy(&id);
        }
        for info in infos {
            let crashed = state
                .targets
                .get(&info.target_id)
                .is_some_and(|r| r.crashed);
            state
                .targets
                .insert(info.target_id.clone(), TargetRecord { info, crashed });
        }
    }

    /// Starts following `conn`: subscribes, turns discovery on, loads the
    /// current list, then applies events in a background task until the
    /// connection closes. Returns when the registry is complete.
    pub(crate) async fn follow(&self, conn: &Connection) -> Result<(), CdpError> {
        let mut events = conn.subscribe(None);
        let browser = conn.browser();
        browser
            .send(&SetDiscoverTargets {
                discover: true,
                ..Default::default()
            })
            .await?;
        let list = browser
            .send(&GetTargets {
                ..Default::default()
            })
            .await?;
        self.replace_all(list.target_infos);
        self.bump();

        let registry = self.clone();
        let weak = conn.downgrade();
        tokio::spawn(async move {
            loop {
                match events.recv().await {
                    Ok(event) => {
                        // Before applying: the news is told against what
                        // the registry knew (a page's old address).
                        registry
                            .events()
                            .announce_target_event(&|id| registry.get(id).map(|r| r.info), &event);
                        if registry.apply(&event) {
                            registry.bump();
                        }
                    }
                    Err(EventStreamError::Lagged(missed)) => {
                        tracing::debug!(target: "rove_browser", missed, "target registry lagged; resyncing");
                        let Some(conn) = weak.upgrade() else { return };
                        match conn
                            .browser()
                            .send(&GetTargets {
                                ..Default::default()
                            })
                            .await
                        {
                            Ok(list) => {
                                registry.replace_all(list.target_infos);
                                registry.bump();
                            }
                            Err(e) => {
                                tracing::debug!(target: "rove_browser", error = %e, "target resync failed")
                            }
                        }
                    }
                    Err(EventStreamError::Closed) => return,
                }
            }
        });
        Ok(())
    }

    /// Reloads every target's facts with one `Target.getTargets`. Chromium
    /// does not report title changes as events, so a listing that shows
    /// titles asks for them.
    pub(crate) async fn refresh(&self, conn: &Connection) -> Result<(), CdpError> {
        let list = conn
            .browser()
            .send(&GetTargets {
                ..Default::default()
            })
            .await?;
        self.replace_all(list.target_infos);
        self.bump();
        Ok(())
    }

    /// Applies one browser-level event. True if the registry changed.
    fn apply(&self, event: &rove_cdp::Event) -> bool {
        if let Some(Ok(created)) = event.as_event::<TargetCreated>() {
            self.upsert(created.target_info);
        } else if let Some(Ok(changed)) = event.as_event::<TargetInfoChanged>() {
            self.upsert(changed.target_info);
        } else if let Some(Ok(destroyed)) = event.as_event::<TargetDestroyed>() {
            self.lock().destroy(&destroyed.target_id);
        } else if let Some(Ok(crashed)) = event.as_event::<TargetCrashed>() {
            tracing::debug!(target: "rove_browser", target_id = %crashed.target_id, status = %crashed.status, "target crashed");
            if let Some(record) = self.lock().targets.get_mut(&crashed.target_id) {
                record.crashed = true;
            }
        } else {
            return false;
        }
        true
    }

    /// Forgets every target when the link to the browser is gone for good.
    /// They are not marked destroyed: what became of them is unknown, and a
    /// tab handle that still names one must fail as the link does
    /// (`BROWSER_DISCONNECTED`), not as a closed tab (`NO_TAB`).
    pub(crate) fn forget_all(&self) {
        self.lock().targets.clear();
        self.bump();
    }
}
