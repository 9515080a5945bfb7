//! Locators resolved to refs: every frame's walker is asked which elements
//! a `css=`, `role=` or `text=` locator matches, and exactly one element
//! the view shows must answer. It gets the ref it has, or the next number
//! (as `find` gives one), so the command after it acts on a ref like any
//! other.

use serde::Deserialize;
use serde_json::{Value, json};

use super::lookup::{Sliced, in_search_slices};
use super::{PageModel, ViewOptions};
use crate::PageError;
use crate::frames::{self, CallFailure};
use crate::locator::{Locator, NameMatch};
use crate::refs::{NodeKey, Ref};

/// How many candidates an ambiguous locator's error names.
const CANDIDATES: usize = 5;

/// The element a locator resolved to.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// Its ref (handed out now if it had none).
    pub reference: Ref,
    /// Its role as the view shows it.
    pub role: String,
    /// Its name (cut at 80 characters).
    pub name: String,
}

impl Located {
    /// As a view names it: `e7 button "Save"`.
    pub fn describe(&self) -> String {
        describe(&self.reference.to_string(), &self.role, &self.name)
    }
}

/// The main frame's answer to `at` (locate.js).
#[derive(Debug, Deserialize)]
struct AtAnswer {
    token: String,
    #[serde(default)]
    records: Vec<Found>,
}

/// One frame's answer to `locate` (locate.js).
#[derive(Debug, Deserialize)]
struct Answer {
    token: String,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    records: Vec<Found>,
    #[serde(default)]
    shown: u64,
    #[serde(default)]
    capped: bool,
    #[serde(default)]
    hidden: Option<Hidden>,
    #[serde(default, rename = "closedRoots")]
    closed_roots: bool,
    /// Nothing matched where the find index looked: every shadow root is
    /// to be walked (in slices) before the locator is asked again.
    #[serde(default)]
    walk: bool,
    /// The search has more to do: rove calls it again (a slice each).
    #[serde(default)]
    more: bool,
}

impl Sliced for Answer {
    fn more(&self) -> bool {
        self.more
    }
}

/// A match the view shows.
#[derive(Debug, Deserialize)]
struct Found {
    u: u32,
    #[serde(default)]
    r: String,
    #[serde(default)]
    n: String,
}

/// The first match the view does not show, and why.
#[derive(Debug, Deserialize)]
struct Hidden {
    tag: String,
    #[serde(default)]
    r: String,
    #[serde(default)]
    n: String,
    why: String,
}

/// The query locate.js reads: always data, never code.
fn query(locator: &Locator) -> Value {
    match locator {
        Locator::Css(selector) => json!({"css": selector}),
        Locator::Role { role, name: None } => json!({"role": role}),
        Locator::Role {
            role,
            name: Some(NameMatch::Exact(name)),
        } => json!({"role": role, "name": name, "contains": false}),
        Locator::Role {
            role,
            name: Some(NameMatch::Contains(name)),
        } => json!({"role": role, "name": name, "contains": true}),
        Locator::Text { text, exact } => json!({"text": text, "exact": exact}),
    }
}

/// The words a locator searches for, which find's index can point to.
fn words(locator: &Locator) -> Option<&str> {
    match locator {
        Locator::Css(_) | Locator::Role { name: None, .. } => None,
        Locator::Role {
            name: Some(NameMatch::Exact(name) | NameMatch::Contains(name)),
            ..
        } => Some(name),
        Locator::Text { text, .. } => Some(text),
    }
}

/// `e7 button "Save"`, or `<div#x> "Save"` for an element without a ref.
fn describe(head: &str, role: &str, name: &str) -> String {
    let mut line = head.to_owned();
    if !role.is_empty() {
        line.push(' ');
        line.push_str(role);
    }
    if !name.is_empty() {
        line.push(' ');
        line.push_str(&crate::render::quote(name));
    }
    line
}

impl PageModel {
    /// The one element the view shows that `locator` matches, with its ref.
    /// No match is `NoMatch` (with a fresh view), several are `Ambiguous`
    /// (naming a few by ref), only hidden ones are `NotShown`, a selector
    /// the browser cannot parse is `BadSelector`.
    pub async fn resolve(&mut self, locator: &Locator) -> Result<Located, PageError> {
        let watch = self.tab.watch().await?;
        super::unless_dialog(&watch, self.resolve_in_frames(locator)).await
    }

    async fn resolve_in_frames(&mut self, locator: &Locator) -> Result<Located, PageError> {
        let q = query(locator);
        // The search, in slices; `walk`: it may ask for every shadow root
        // to be walked first.
        let search = |walk: bool| {
            let run = super::lookup::next_run();
            let q = &q;
            move |ms: Option<u32>| {
                format!(
                    "locate({q}, {})",
                    json!({"walk": walk, "ms": ms, "run": run})
                )
            }
        };
        let frames = frames::frames(&self.tab).await?;
        let mut shown = 0u64;
        let mut capped = false;
        let mut kept: Vec<(NodeKey, Found)> = Vec::new();
        let mut hidden: Option<Hidden> = None;
        let mut closed_roots = false;
        for frame in &frames {
            let Some((world, _)) = self.world_with_token(frame).await? else {
                continue;
            };
            match super::lookup::prepare_find(&world, words(locator)).await {
                Ok(()) => {}
                Err(CallFailure::Stale) => continue,
                Err(CallFailure::Failed(e)) => return Err(e),
            }
            let mut answer: Answer = match in_search_slices(&world, search(true)).await {
                Ok(answer) => answer,
                Err(CallFailure::Stale) => continue,
                Err(CallFailure::Failed(e)) => return Err(e),
            };
            if answer.walk {
                let asked = match super::lookup::prepare_hosts(&world).await {
                    Ok(()) => in_search_slices(&world, search(false)).await,
                    Err(e) => Err(e),
                };
                answer = match asked {
                    Ok(answer) => answer,
                    Err(CallFailure::Stale) => continue,
                    Err(CallFailure::Failed(e)) => return Err(e),
                };
            }
            if let Some(reason) = answer.error {
                return Err(PageError::BadSelector {
                    locator: locator.to_string(),
                    reason,
                });
            }
            let doc: std::sync::Arc<str> = answer.token.into();
            shown += answer.shown;
            capped |= answer.capped;
            closed_roots |= answer.closed_roots;
            if hidden.is_none() {
                hidden = answer.hidden;
            }
            for found in answer.records {
                let key = NodeKey {
                    doc: doc.clone(),
                    uid: found.u,
                };
                kept.push((key, found));
            }
        }
        match shown {
            0 => Err(self.nothing_shown(locator, hidden, closed_roots).await),
            1 => {
                let Some((key, found)) = kept.into_iter().next() else {
                    return Err(PageError::Script(
                        "locate counted a match it did not answer".into(),
                    ));
                };
                Ok(Located {
                    reference: self.refs.get_or_assign(&key),
                    role: found.r,
                    name: found.n,
                })
            }
            _ => {
                let candidates = kept
                    .into_iter()
                    .take(CANDIDATES)
                    .map(|(key, found)| {
                        let r = self.refs.get_or_assign(&key);
                        describe(&r.to_string(), &found.r, &found.n)
                    })
                    .collect();
                Err(PageError::Ambiguous {
                    locator: locator.to_string(),
                    count: shown,
                    capped,
                    candidates,
                })
            }
        }
    }

    /// The element under a point of the viewport (CSS pixels), with its
    /// ref: the innermost one the main frame hit-tests there, or its nearest
    /// ancestor with a role views show; `None` over nothing named (a blank
    /// margin) or a page that did not answer.
    pub async fn element_at(&mut self, x: f64, y: f64) -> Result<Option<Located>, PageError> {
        let watch = self.tab.watch().await?;
        super::unless_dialog(&watch, self.element_at_in_main(x, y)).await
    }

    async fn element_at_in_main(&mut self, x: f64, y: f64) -> Result<Option<Located>, PageError> {
        let frames = frames::frames(&self.tab).await?;
        let Some(main) = frames.first() else {
            return Ok(None);
        };
        let Some((world, _)) = self.world_with_token(main).await? else {
            return Ok(None);
        };
        let call = format!("at({})", json!({"x": x, "y": y}));
        let answer: AtAnswer = match frames::call_walker(&world, &call).await {
            Ok(answer) => answer,
            Err(CallFailure::Stale) => return Ok(None),
            Err(CallFailure::Failed(e)) => return Err(e),
        };
        let doc: std::sync::Arc<str> = answer.token.into();
        // The page wrote the name: cleaned as a view's names are.
        Ok(answer.records.into_iter().next().map(|found| Located {
            reference: self.refs.get_or_assign(&NodeKey {
                doc: doc.clone(),
                uid: found.u,
            }),
            role: crate::record::clean(found.r),
            name: crate::record::clean(found.n),
        }))
    }

    /// The error for a locator that matched nothing the view shows.
    async fn nothing_shown(
        &mut self,
        locator: &Locator,
        hidden: Option<Hidden>,
        closed_roots: bool,
    ) -> PageError {
        if let Some(hidden) = hidden {
            return PageError::NotShown {
                locator: locator.to_string(),
                element: describe(&hidden.tag, &hidden.r, &hidden.n),
                reason: hidden.why,
            };
        }
        let note = match locator {
            Locator::Css(_) if closed_roots => {
                Some("css= cannot reach inside a closed shadow root; try role= or text=".to_owned())
            }
            _ => None,
        };
        let fresh_view = Box::pin(self.full_view(&ViewOptions::default()))
            .await
            .ok()
            .map(|v| v.text);
        PageError::NoMatch {
            locator: locator.to_string(),
            note,
            fresh_view,
        }
    }
}
