//! Which flattened sessions are alive, crashed or detached.
//!
//! The reader task learns this from the protocol's own lifecycle events, so a
//! call on a dead tab fails at once instead of waiting out its deadline. This
//! is transport knowledge (which session ids still answer), not page knowledge.

use std::collections::{HashMap, VecDeque};

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::protocol::target::{AttachedToTarget, DetachedFromTarget};
use crate::protocol::{EventType, inspector, target};
use crate::{CdpError, SessionId};

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Death {
    /// The target's renderer crashed; the session may still be attached, but
    /// nothing on it will answer.
    Crashed,
    /// The session was detached (tab closed, or detached by a client).
    Detached,
}

impl Death {
    pub(crate) fn error(self, session: SessionId, sent: bool) -> CdpError {
        match self {
            Death::Crashed => CdpError::TargetCrashed { session, sent },
            Death::Detached => CdpError::SessionClosed { session, sent },
        }
    }
}

/// How many ended sessions are remembered, so that late callers still get the
/// precise error. Older ones are forgotten; a call on a forgotten id is sent and
/// the browser answers it with a protocol error.
const REMEMBERED_DEATHS: usize = 4096;

#[derive(Default)]
pub(crate) struct SessionTable {
    /// Live sessions and the target each is attached to.
    targets: HashMap<SessionId, String>,
    dead: HashMap<SessionId, Death>,
    dead_order: VecDeque<SessionId>,
}

#[derive(Deserialize)]
struct Attached<'a> {
    #[serde(rename = "sessionId")]
    session_id: &'a str,
    #[serde(rename = "targetInfo")]
    target_info: TargetRef<'a>,
}

#[derive(Deserialize)]
struct TargetRef<'a> {
    #[serde(rename = "targetId")]
    target_id: &'a str,
}

#[derive(Deserialize)]
struct Detached<'a> {
    #[serde(rename = "sessionId")]
    session_id: &'a str,
}

#[derive(Deserialize)]
struct Crashed<'a> {
    #[serde(rename = "targetId")]
    target_id: &'a str,
}

impl SessionTable {
    pub(crate) fn death(&self, session: &SessionId) -> Option<Death> {
        self.dead.get(session).copied()
    }

    pub(crate) fn is_detached(&self, session: &SessionId) -> bool {
        self.death(session) == Some(Death::Detached)
    }

    /// Updates the table from one event. Returns a session that just died, so
    /// the caller can fail its pending calls.
    pub(crate) fn observe(
        &mut self,
        method: &str,
        session: Option<&str>,
        params: Option<&RawValue>,
    ) -> Vec<(SessionId, Death)> {
        let params = params.map(RawValue::get).unwrap_or("{}");
        self.observe_inner(method, session, params)
            .unwrap_or_default()
    }

    fn observe_inner(
        &mut self,
        method: &str,
        session: Option<&str>,
        params: &str,
    ) -> Option<Vec<(SessionId, Death)>> {
        match method {
            <AttachedToTarget as EventType>::METHOD => {
                let a: Attached<'_> = serde_json::from_str(params).ok()?;
                let id = SessionId::new(a.session_id);
                self.forget_death(&id);
                self.targets.insert(id, a.target_info.target_id.to_owned());
                None
            }
            <DetachedFromTarget as EventType>::METHOD => {
                let d: Detached<'_> = serde_json::from_str(params).ok()?;
                let id = SessionId::new(d.session_id);
                self.targets.remove(&id);
                self.record(id.clone(), Death::Detached);
                Some(vec![(id, Death::Detached)])
            }
            <target::TargetCrashed as EventType>::METHOD => {
                let c: Crashed<'_> = serde_json::from_str(params).ok()?;
                let victims: Vec<SessionId> = self
                    .targets
                    .iter()
                    .filter(|(_, t)| t.as_str() == c.target_id)
                    .map(|(s, _)| s.clone())
                    .collect();
                for id in &victims {
                    self.record(id.clone(), Death::Crashed);
                }
                Some(victims.into_iter().map(|id| (id, Death::Crashed)).collect())
            }
            <inspector::TargetCrashed as EventType>::METHOD => {
                let id = SessionId::new(session?);
                self.record(id.clone(), Death::Crashed);
                Some(vec![(id, Death::Crashed)])
            }
            _ => None,
        }
    }

    fn record(&mut self, id: SessionId, death: Death) {
        // Detached is final; a crash report after it changes nothing.
        if self.dead.get(&id) == Some(&Death::Detached) {
            return;
        }
        if self.dead.insert(id.clone(), death).is_none() {
            self.dead_order.push_back(id);
            while self.dead_order.len() > REMEMBERED_DEATHS {
                if let Some(old) = self.dead_order.pop_front() {
                    self.dead.remove(&old);
                }
            }
        }
    }

    fn forget_death(&mut self, id: &SessionId) {
        if self.dead.remove(id).is_some() {
            self.dead_order.retain(|d| d != id);
        }
    }
}
