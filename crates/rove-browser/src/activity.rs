//! What a document is doing, asked where the page cannot reach it.
//!
//! `activity.js` runs in rove's isolated world ([`crate::ROVE_WORLD`]) of every
//! frame from the document's start (the tab watch registers it with
//! `Page.addScriptToEvaluateOnNewDocument`): it counts the document's
//! mutations from its load event on and answers three questions, all with
//! the world's own intrinsics, which the page's scripts cannot replace:
//!
//! - [`Activity::mark`]: the counts now, taken before input;
//! - [`Activity::settle`]: whether the document changed since a mark, and
//!   when it did, waiting until it stopped (see the script);
//! - [`Activity::busy_within`]: whether the page shows it is working;
//! - [`Activity::guard_verdict`]: what a click's guard saw (armed by the
//!   click's actionability check, `rove-input`).
//!
//! The same world holds rove's walker (`rove-page`): a world is one per
//! name and frame, so the walker's `Page.createIsolatedWorld` finds the
//! world this script made.

use std::time::Duration;

use rove_cdp::Session;
use rove_cdp::protocol::runtime::CallFunctionOn;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::rove_world::{ACTIVITY_SCRIPT, evaluation};
use crate::{BrowserError, Tab};

/// What rove calls the script in errors.
const NAME: &str = "activity.js";

/// The document's mutation counts at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
pub struct Mark {
    /// Every mutation record since the load event.
    pub all: u64,
    /// Those that added, removed or changed nodes or text (not attributes).
    pub structural: u64,
    /// When, in milliseconds of the document's clock (`performance.now()`).
    #[serde(default)]
    pub at: u64,
}

/// Resources the browser finished loading after an input, which a settle
/// waits for the document to have received (see `activity.js`).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Awaited {
    /// Their addresses, as the document's resource timing names them.
    pub urls: Vec<String>,
    /// When the input was sent, in the document's clock ([`Mark::at`]).
    pub since: u64,
}

/// What the document did since a mark.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Settle {
    /// Mutation records since the mark (of the kind asked about).
    pub changed: u64,
    /// Whether it stopped changing before the cap.
    pub quiet: bool,
    /// Whether the page shows it is working (a busy element, a spinner).
    pub busy: bool,
    /// Where the last change was: its landmark, or the heading before it.
    #[serde(rename = "where")]
    pub place: Option<String>,
    /// Why the script could not watch the document, when it could not.
    pub failed: Option<String>,
    /// The counts when it answered: the mark for the next question.
    pub mark: Mark,
}

/// What a click's guard saw of the press it was armed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GuardVerdict {
    /// The press reached the target; the gesture went on.
    Reached,
    /// Something else was under the pointer; the gesture was stopped
    /// before any of the page's listeners saw it.
    Blocked,
    /// No press came to the target's document, and something else is at
    /// the click point: the press went there (a frame drawn over it).
    Unseen,
    /// The press came after the guard lapsed, unjudged (the page held its
    /// thread for seconds after the pointer came).
    Expired,
}

/// A guard's verdict, with what took the press when it was not the target.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Guarded {
    /// What the guard saw.
    pub verdict: GuardVerdict,
    /// What was under the pointer instead, described.
    pub taken: Option<String>,
    /// With [`GuardVerdict::Unseen`]: the document sees only the target
    /// itself at the click point (it may hold a frame in a closed shadow
    /// tree, which only the protocol can see).
    #[serde(default)]
    pub host: bool,
}

/// Where to ask: the world of the frame an object of rove's world lives in
/// (an element rove resolved), or the tab's main frame.
#[derive(Debug, Clone)]
pub enum Where<'a> {
    /// The frame of this object, which lives in rove's world.
    Object {
        /// The session of the object's frame.
        session: &'a Session,
        /// The object.
        object_id: &'a str,
    },
    /// The tab's main frame.
    MainFrame,
}

/// Asking one frame's document what it is doing.
#[derive(Debug, Clone)]
pub struct Activity<'a> {
    tab: &'a Tab,
    at: Where<'a>,
}

#[derive(Deserialize)]
struct Missing {
    #[serde(default)]
    missing: bool,
}

impl<'a> Activity<'a> {
    /// The document of the frame `at` names, in `tab`.
    pub fn of(tab: &'a Tab, at: Where<'a>) -> Activity<'a> {
        Activity { tab, at }
    }

    /// The counts now.
    pub async fn mark(&self) -> Result<Mark, BrowserError> {
        self.ask("(a) => a.mark()", Vec::new(), None).await
    }

    /// Whether the document changed since `since` (its load, when `None`),
    /// and if it did, once it stopped: quiet for `quiet` after a frame, or
    /// `cap`. `structural` counts only nodes and text, not attributes.
    /// With `awaited`, first until the document has received those
    /// resources and has nothing queued (each wait bounded, within `cap`).
    pub async fn settle(
        &self,
        since: Option<Mark>,
        structural: bool,
        quiet: Duration,
        cap: Duration,
        awaited: Option<&Awaited>,
    ) -> Result<Settle, BrowserError> {
        let args = vec![
            serde_json::to_value(since).unwrap_or(serde_json::Value::Null),
            structural.into(),
            (quiet.as_millis() as u64).into(),
            (cap.as_millis() as u64).into(),
            serde_json::to_value(awaited).unwrap_or(serde_json::Value::Null),
        ];
        self.ask(
            "(a, since, structural, quiet, cap, awaited) => a.settle(since, structural, quiet, cap, awaited)",
            args,
            Some(cap),
        )
        .await
    }

    /// Whether the page shows it is working, now or within `window`.
    pub async fn busy_within(&self, window: Duration) -> Result<bool, BrowserError> {
        let args = vec![(window.as_millis() as u64).into()];
        self.ask("(a, window) => a.busyWithin(window)", args, Some(window))
            .await
    }

    /// What the click guard armed in this document saw, once (it is
    /// disarmed by the asking); `None` when none was armed.
    pub async fn guard_verdict(&self) -> Result<Option<Guarded>, BrowserError> {
        self.ask("(a) => a.verdict()", Vec::new(), None).await
    }

    /// Calls `function` with the world's activity object and `args`;
    /// installs the script first where the world has none (a document rove
    /// met before it registered the script).
    async fn ask<T: DeserializeOwned>(
        &self,
        function: &str,
        args: Vec<serde_json::Value>,
        waits: Option<Duration>,
    ) -> Result<T, BrowserError> {
        let within = waits.map(|w| w + rove_base::limits::SETTLE_DOM_SLACK);
        let call = |install: bool| {
            let install = if install { ACTIVITY_SCRIPT } else { "" };
            format!(
                "function(...args) {{ {install}\n const a = globalThis.__roveActivity; \
                 if (!a) return {{missing: true}}; return ({function})(a, ...args); }}"
            )
        };
        for install in [false, true] {
            let value = self.call(&call(install), &args, within).await?;
            let missing = serde_json::from_value::<Missing>(value.clone())
                .map(|m| m.missing)
                .unwrap_or(false);
            if missing {
                continue;
            }
            return serde_json::from_value(value).map_err(|e| {
                BrowserError::Rejected(format!("{NAME} answered something unexpected: {e}"))
            });
        }
        Err(BrowserError::Rejected(format!(
            "{NAME} could not be installed in rove's world"
        )))
    }

    async fn call(
        &self,
        function: &str,
        args: &[serde_json::Value],
        within: Option<Duration>,
    ) -> Result<serde_json::Value, BrowserError> {
        let answer = match self.at {
            Where::Object { session, object_id } => {
                let mut call = CallFunctionOn::on(NAME, function, object_id)
                    .awaiting()
                    .by_value();
                for arg in args {
                    call = call.value(arg.clone());
                }
                session.run_checked(&call, within).await?
            }
            Where::MainFrame => {
                // One round trip: the arguments are JSON, which is also
                // JavaScript.
                let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                let expression = format!("({function})({})", args.join(", "));
                let call = |context| evaluation(&expression, context, NAME);
                self.tab.run_in_rove_world(call, within).await?
            }
        };
        Ok(answer.value.unwrap_or(serde_json::Value::Null))
    }
}
