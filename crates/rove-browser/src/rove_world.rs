//! rove's isolated world in a tab's main frame: where rove reads what it
//! must not let the page answer for it (its URL and status, its storage,
//! what its document is doing). An isolated world shares the page's DOM
//! and storage but has globals of its own: a page that replaces
//! `performance.getEntriesByType`, `Object.entries`, a `localStorage`
//! getter or `MutationObserver` changes nothing read here.
//!
//! The world is one per name and frame: the watch registers `activity.js`
//! in it for every new document, rove-page's walker is installed in the
//! same one, and `Page.createIsolatedWorld` with the name finds it.

use std::time::Duration;

use rove_cdp::protocol::page::CreateIsolatedWorld;
use rove_cdp::protocol::runtime::{Evaluate, RemoteObject};
use rove_cdp::{CdpError, RoveScript};

use crate::{BrowserError, Tab};

/// The name of rove's isolated world in every frame.
pub const ROVE_WORLD: &str = "rove";

impl Tab {
    /// Evaluates `expression` in rove's world of the main frame and returns
    /// its value as JSON; promises are awaited. An exception is
    /// `EVALUATION_FAILED` (the page's state made it throw: storage a
    /// sandbox denies, a quota), as [`Tab::evaluate`] says it.
    pub async fn evaluate_in_rove_world(
        &self,
        expression: &str,
    ) -> Result<serde_json::Value, BrowserError> {
        let call = |context| evaluation(expression, context, "a read in rove's world");
        let answer = run(self, call, None).await.map_err(|e| match e {
            BrowserError::Cdp(CdpError::Script { message, .. }) => {
                BrowserError::Evaluation(message)
            }
            other => other,
        })?;
        Ok(answer.value.unwrap_or(serde_json::Value::Null))
    }
}

/// `expression` evaluated in `context`, its promise awaited, its value
/// returned as JSON; `name` says whose script it is in errors.
pub(crate) fn evaluation(
    expression: &str,
    context: i64,
    name: &'static str,
) -> rove_cdp::ScriptCall<Evaluate> {
    Evaluate {
        expression: expression.to_owned(),
        context_id: Some(context),
        await_promise: Some(true),
        return_by_value: Some(true),
        ..Evaluate::default()
    }
    .named(name)
}

/// Runs the call `make` builds for the context of rove's world in the
/// main frame: the one the watch saw created, or, when that is gone or
/// unknown, the one `Page.createIsolatedWorld` finds or makes. A page that
/// did not answer in time is an answer, not a reason to ask again.
pub(crate) async fn run<C: RoveScript>(
    tab: &Tab,
    make: impl Fn(i64) -> C,
    within: Option<Duration>,
) -> Result<RemoteObject, BrowserError> {
    let session = tab.session().await?;
    let watch = tab.watch().await?;
    if let Some(context) = watch.rove_world() {
        // A context the watch saw may have gone with its document a moment
        // ago (its end not yet reported).
        match session.run_checked(&make(context), within).await {
            Ok(value) => return Ok(value),
            Err(e @ (CdpError::Timeout { .. } | CdpError::Script { .. })) => return Err(e.into()),
            Err(e) => {
                tracing::debug!(target: "rove_browser", error = %e, "rove's world went with its document")
            }
        }
    }
    let created = session
        .send(&CreateIsolatedWorld {
            frame_id: tab.target_id().to_owned(),
            world_name: Some(ROVE_WORLD.to_owned()),
            grant_univeral_access: Some(false),
            ..Default::default()
        })
        .await?;
    Ok(session
        .run_checked(&make(created.execution_context_id), within)
        .await?)
}
