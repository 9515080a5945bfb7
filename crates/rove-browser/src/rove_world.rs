//! rove's isolated world in a tab's main frame: where rove reads what it
//! must not let the page answer for it (its URL and status, its storage,
//! what its document is doing). An isolated world shares the page's DOM
//! and storage but has globals of its own: a page that replaces
//! `performance.getEntriesByType`, `Object.entries`, a `localStorage`
//! getter or `MutationObserver` changes nothing read here.
//!
//! The world is one per name and frame: the watch registers `activity.js`
//! in it for every new document ([`for_every_document`]), rove-page's
//! walker is installed in the same one, and `Page.createIsolatedWorld`
//! with the name finds it. A tab runs a script there with
//! `Tab::run_in_rove_world`.

use rove_cdp::protocol::page::AddScriptToEvaluateOnNewDocument;
use rove_cdp::protocol::runtime::Evaluate;

/// The name of rove's isolated world in every frame.
pub const ROVE_WORLD: &str = "rove";

/// `activity.js` with the click guard (`click_guard.js`), whose answers
/// `activity.rs` asks for (and installs them where a document has none). It lives with the world rather than there:
/// the watch registers it, and the watch sits below the tabs those
/// answers are asked through.
pub(crate) const ACTIVITY_SCRIPT: &str =
    concat!(include_str!("activity.js"), include_str!("click_guard.js"));

/// What the watch registers for every document of a tab, run in rove's
/// world from before the page's scripts, and now in the documents
/// already there.
pub(crate) fn for_every_document() -> AddScriptToEvaluateOnNewDocument {
    AddScriptToEvaluateOnNewDocument {
        source: ACTIVITY_SCRIPT.to_owned(),
        world_name: Some(ROVE_WORLD.to_owned()),
        run_immediately: Some(true),
        ..AddScriptToEvaluateOnNewDocument::default()
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
