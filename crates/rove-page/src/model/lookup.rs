//! Finding elements: `find` by text and role, and refs resolved to elements.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::de::DeserializeOwned;
use serde_json::json;

use super::{Element, FindQuery, Mode, PageModel, View, ViewOptions, doc_key};
use crate::PageError;
use crate::frames::{self, CallFailure, Frame, World};
use crate::record::WalkOutput;
use crate::refs::{NodeKey, Ref};
use crate::render::RenderOptions;

/// How long one slice of `find`'s index build holds the page's thread: the
/// page's own tasks run between slices (a page of 100,000 rows takes about
/// half a second to index).
const FIND_SLICE_MS: u32 = 30;

/// At most this many slices; then `find` builds what is left at once.
const FIND_SLICES_MAX: usize = 200;

/// Builds the frame's find index in slices, until it is ready, or until a
/// slice finds its build started again (the page changed in between: then
/// `find` builds it whole, as on a page that never stops changing). Locators
/// read it too (on a huge document they look only where it points). With
/// `words`, a big document's scope for them is worked out in a slice of its
/// own, for the search that follows.
pub(super) async fn prepare_find(world: &World, words: Option<&str>) -> Result<(), CallFailure> {
    let call = match words {
        Some(words) => format!("prepareFind({FIND_SLICE_MS}, {})", json!(words)),
        None => format!("prepareFind({FIND_SLICE_MS})"),
    };
    in_slices(world, &call).await
}

/// Walks every shadow root of a big document in slices, for a locator
/// that matched nothing in the roots the find index knows (its answer says
/// `walk`): the locator's next call takes the roots from it.
pub(super) async fn prepare_hosts(world: &World) -> Result<(), CallFailure> {
    in_slices(world, &format!("prepareHosts({FIND_SLICE_MS})")).await
}

/// Calls `call`, a walker function that works for about `FIND_SLICE_MS`
/// and answers how far it has come (-1: done), until it is done or stops
/// coming further (a build started again). What is left is done at once
/// by the call that needs it.
async fn in_slices(world: &World, call: &str) -> Result<(), CallFailure> {
    let mut read_before = 0i64;
    for _ in 0..FIND_SLICES_MAX {
        let read: i64 = frames::call_walker(world, call).await?;
        if read < 0 || read <= read_before {
            break;
        }
        read_before = read;
    }
    Ok(())
}

/// Each search its own number (with the process's: two rove processes
/// may share a browser), so that a slice never goes on with a search an
/// earlier command left unfinished.
static RUNS: AtomicU64 = AtomicU64::new(0);

pub(super) fn next_run() -> String {
    format!(
        "{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    )
}

/// A walker answer that may say the search has more to do.
pub(super) trait Sliced: DeserializeOwned {
    fn more(&self) -> bool;
}

impl Sliced for WalkOutput {
    fn more(&self) -> bool {
        self.more
    }
}

/// Calls `call(Some(FIND_SLICE_MS))`, a walker search that works for
/// about that long and answers `more` until it is done, while it does:
/// the page's tasks run between slices; after `FIND_SLICES_MAX` the rest
/// at once (`call(None)`).
pub(super) async fn in_search_slices<T: Sliced>(
    world: &World,
    call: impl Fn(Option<u32>) -> String,
) -> Result<T, CallFailure> {
    let slice = call(Some(FIND_SLICE_MS));
    for _ in 0..FIND_SLICES_MAX {
        let answer: T = frames::call_walker(world, &slice).await?;
        if !answer.more() {
            return Ok(answer);
        }
    }
    frames::call_walker(world, &call(None)).await
}

impl PageModel {
    /// Finds elements by text (name, value or content) and role, in every
    /// frame. Each result is one line with its context.
    pub async fn find(&mut self, query: &FindQuery) -> Result<View, PageError> {
        let watch = self.tab.watch().await?;
        super::unless_dialog(&watch, self.find_in_frames(query)).await
    }

    async fn find_in_frames(&mut self, query: &FindQuery) -> Result<View, PageError> {
        let limit = query.limit.unwrap_or(20).max(1);
        let call = json!({
            "text": query.text,
            "role": query.role.clone().unwrap_or_default(),
            "limit": limit,
            "run": next_run(),
        });
        let mut capped = false;
        let frames = frames::frames(&self.tab).await?;
        let mut text = String::new();
        let mut total = 0u64;
        let mut shown = 0usize;
        let mut matches = Vec::new();
        let mut found_names = Vec::new();
        for frame in &frames {
            let Some((world, token)) = self.world_with_token(frame).await? else {
                continue;
            };
            match prepare_find(&world, Some(&query.text)).await {
                Ok(()) => {}
                Err(CallFailure::Stale) => continue,
                Err(CallFailure::Failed(e)) => return Err(e),
            }
            let sliced = in_search_slices(&world, |ms| match ms {
                Some(ms) => format!("find({call}, {ms})"),
                None => format!("find({call})"),
            });
            let found: WalkOutput = match sliced.await {
                Ok(found) => found,
                Err(CallFailure::Stale) => continue,
                Err(CallFailure::Failed(e)) => return Err(e),
            };
            total += found.total.unwrap_or(found.records.len() as u64);
            capped |= found.capped;
            for record in found.records.into_iter().take(limit.saturating_sub(shown)) {
                let key = NodeKey {
                    doc: token.clone(),
                    uid: record.uid,
                };
                let r = self.refs.get_or_assign(&key);
                matches.push(r);
                found_names.push(super::Match {
                    reference: r,
                    role: record.role.clone(),
                    name: record.name.clone(),
                });
                let mut line = crate::render::describe(&record, Some(r), &RenderOptions::default());
                if let Some(context) = record.context.as_deref().filter(|c| !c.is_empty()) {
                    line.push_str(" — ");
                    line.push_str(context);
                }
                text.push_str(&line);
                text.push('\n');
                shown += 1;
            }
        }
        let mut out = format!(
            "[{}] find {}{}: {total}{} match{}{}\n",
            self.tab.id(),
            crate::render::quote(&query.text),
            query
                .role
                .as_deref()
                .map(|r| format!(" role {r}"))
                .unwrap_or_default(),
            if capped { "+" } else { "" },
            if total == 1 && !capped { "" } else { "es" },
            if (shown as u64) < total {
                format!(", first {shown} shown")
            } else {
                String::new()
            },
        );
        out.push_str(&text);
        let mut view = View::new(out, Mode::Full, "", "");
        view.matches = matches;
        view.found = found_names;
        Ok(view)
    }

    /// Resolves a ref to its element, for acting on it. A ref whose element is
    /// gone is `REF_NOT_FOUND`, with a fresh view attached.
    pub async fn element(&mut self, r: Ref) -> Result<Element, PageError> {
        if let Some(element) = self.element_where_last_seen(r).await {
            return Ok(element);
        }
        let (frame, uid) = self.locate(r).await?;
        let world = self.worlds.ensure(&frame).await?;
        // The caller releases the object (`Runtime.releaseObject`) when done.
        match frames::element_object(&world, uid, "rove-elements").await? {
            Some(object_id) => Ok(Element {
                reference: r,
                session: world.session.clone(),
                object_id,
                context: world.context,
                frame_id: frame.id.clone(),
            }),
            None => Err(self.not_found(r, "it was removed from the page").await),
        }
    }

    /// The element of a ref whose frame showed its document at the last
    /// view, with the document's token and the element asked in one round
    /// trip (the page answers both in order). `None` when that is not so,
    /// or anything is amiss: [`Self::element`] then takes the long way,
    /// which says why.
    async fn element_where_last_seen(&mut self, r: Ref) -> Option<Element> {
        let key = self.refs.key(r)?.clone();
        let frame = self
            .known_frames
            .as_ref()?
            .iter()
            .find(|f| self.docs.get(&doc_key(f)) == Some(&key.doc))?
            .clone();
        let world = self.worlds.ensure(&frame).await.ok()?;
        let (token, object) = tokio::join!(
            frames::call_walker::<String>(&world, "token"),
            frames::element_object(&world, key.uid, "rove-elements"),
        );
        let object_id = object.ok()??;
        if !token.is_ok_and(|t| *t == *key.doc) {
            // Another document: whatever it found there is not the ref's.
            let release = rove_cdp::protocol::runtime::ReleaseObject { object_id };
            let _ = world.session.send(&release).await;
            return None;
        }
        Some(Element {
            reference: r,
            session: world.session.clone(),
            object_id,
            context: world.context,
            frame_id: frame.id.clone(),
        })
    }

    /// The frame and uid a ref names, if its document is still current.
    pub(super) async fn locate(&mut self, r: Ref) -> Result<(Frame, u32), PageError> {
        let Some(key) = self.refs.key(r).cloned() else {
            let reason = if r.0 <= self.refs.last() {
                "its element was removed or its page was left"
            } else {
                "no such ref was handed out in this tab"
            };
            return Err(self.not_found(r, reason).await);
        };
        // The frame that held the document at the last view is checked first:
        // one call confirms it still shows that document. Only when it does
        // not are all frames listed and asked.
        let last_seen = self.known_frames.as_ref().and_then(|known| {
            known
                .iter()
                .find(|f| self.docs.get(&doc_key(f)) == Some(&key.doc))
                .cloned()
        });
        if let Some(frame) = last_seen
            && let Some((_, token)) = self.world_with_token(&frame).await?
            && token == key.doc
        {
            return Ok((frame, key.uid));
        }
        let frames = frames::frames(&self.tab).await?;
        for frame in frames {
            if let Some((_, token)) = self.world_with_token(&frame).await?
                && token == key.doc
            {
                return Ok((frame, key.uid));
            }
        }
        Err(self
            .not_found(r, "the page or frame it was on has navigated or closed")
            .await)
    }

    /// A `REF_NOT_FOUND` with a fresh full view attached.
    pub(super) async fn not_found(&mut self, r: Ref, reason: &str) -> PageError {
        let fresh = Box::pin(self.full_view(&ViewOptions::default()))
            .await
            .ok()
            .map(|v| v.text);
        PageError::RefNotFound {
            reference: r,
            reason: reason.to_owned(),
            fresh_view: fresh,
        }
    }

    /// The world of a frame and its current document token.
    pub(super) async fn world_with_token(
        &mut self,
        frame: &Frame,
    ) -> Result<Option<(World, Arc<str>)>, PageError> {
        for _ in 0..2 {
            let world = self.worlds.ensure(frame).await?;
            match frames::call_walker::<String>(&world, "token").await {
                Ok(token) => {
                    let token: Arc<str> = Arc::from(token);
                    self.docs.insert(doc_key(frame), token.clone());
                    return Ok(Some((world, token)));
                }
                Err(CallFailure::Stale) => self.worlds.invalidate(frame),
                Err(CallFailure::Failed(e)) => return Err(e),
            }
        }
        Ok(None)
    }
}
