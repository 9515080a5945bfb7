//! Walking every frame and stitching the frames into one list of lines.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::json;

use super::{PageModel, Snapshot};
use crate::PageError;
use crate::frames::{self, CallFailure, Frame, Listeners, World};
use crate::record::{Line, WalkOutput};
use crate::refs::NodeKey;

/// One frame to walk: its world, the listeners already marked in it, and
/// when its click listeners are asked for.
pub(super) struct Job {
    frame: Frame,
    world: World,
    marked: std::collections::HashSet<i64>,
    listeners: Listeners,
}

/// What walking one frame gave: the listeners newly marked, the walk, and
/// the document version the listeners were asked for at (when asked).
type Walked = (
    Result<Vec<i64>, PageError>,
    Result<WalkOutput, CallFailure>,
    Option<i64>,
);

impl PageModel {
    /// Walks every frame and stitches the frames into one list of lines.
    pub(super) async fn snapshot(
        &mut self,
        walk: &serde_json::Value,
        after: Option<&(Frame, u32)>,
    ) -> Result<Snapshot, PageError> {
        // Optimistically walk the frames seen last time while asking for the
        // current frame list; the walks count only if the list is unchanged.
        let optimistic = match self.known_frames.clone() {
            Some(known) if after.is_none() => {
                let jobs = self.prepare(&known).await?;
                let (current, walked) =
                    tokio::join!(frames::frames(&self.tab), walk_jobs(&jobs, walk, after));
                let current = current?;
                let unchanged = same_frames(&current, &known);
                (current, unchanged.then_some((jobs, walked)))
            }
            _ => (frames::frames(&self.tab).await?, None),
        };
        let (frames, (jobs, walked)) = match optimistic {
            (frames, Some(done)) => (frames, done),
            (frames, None) => {
                self.worlds.retain_frames(&frames);
                let jobs = self.prepare(&frames).await?;
                let walked = walk_jobs(&jobs, walk, after).await;
                (frames, (jobs, walked))
            }
        };
        self.known_frames = Some(frames.clone());
        self.docs
            .retain(|key, _| frames.iter().any(|f| doc_key(f) == *key));
        let mut outputs: HashMap<String, (Arc<str>, WalkOutput)> = HashMap::new();
        // Whether this view's roles were approximated (any of its frames).
        self.approximate_roles = false;
        for (Job { frame, world, .. }, (fresh, output, listened)) in jobs.iter().zip(walked) {
            if let Some(version) = listened {
                self.worlds.listened(frame, version);
            }
            match fresh {
                Ok(ids) => self.worlds.add_marked(frame, ids),
                Err(e) => {
                    tracing::debug!(target: "rove_page", error = %e, "could not read click listeners")
                }
            }
            let mut output = match output {
                Ok(output) => output,
                Err(CallFailure::Stale) => {
                    // The frame navigated between listing and walking: rebuild
                    // its world and walk it once more.
                    self.worlds.invalidate(frame);
                    let world = self.worlds.ensure(frame).await?;
                    match frames::call_walker::<WalkOutput>(&world, &format!("walk({walk})")).await
                    {
                        Ok(output) => output,
                        Err(CallFailure::Stale) => continue,
                        Err(CallFailure::Failed(e)) => return Err(e),
                    }
                }
                Err(CallFailure::Failed(e)) => return Err(e),
            };
            if !output.hosts.is_empty()
                && frames::adopt_closed_roots(world, &output.hosts).await?
                && let Ok(again) =
                    frames::call_walker::<WalkOutput>(world, &format!("walk({walk})")).await
            {
                output = again;
            }
            self.approximate_roles |= !output.native;
            self.worlds.read_from(frame).await?;
            let token: Arc<str> = Arc::from(output.token.as_str());
            self.docs.insert(doc_key(frame), token.clone());
            self.refs.forget(&token, &output.dead);
            outputs.insert(frame.id.clone(), (token, output));
        }
        let live: Vec<Arc<str>> = self.docs.values().cloned().collect();
        self.refs.forget_docs(&live);
        let root = match after {
            Some((frame, _)) => frame.id.clone(),
            None => frames
                .iter()
                .find(|f| f.parent.is_none())
                .map(|f| f.id.clone())
                .unwrap_or_default(),
        };
        self.stitch(&frames, outputs, &root).await
    }

    /// Walks one frame (for scope) and the frames inside it. `None` if the
    /// scoped element is gone.
    pub(super) async fn walk_from(
        &mut self,
        frame: &Frame,
        walk: &serde_json::Value,
    ) -> Result<Option<Snapshot>, PageError> {
        let frames = frames::frames(&self.tab).await?;
        let world = self.worlds.ensure(frame).await?;
        let output = match frames::call_walker::<WalkOutput>(&world, &format!("walk({walk})")).await
        {
            Ok(output) => output,
            Err(CallFailure::Stale) => return Ok(None),
            Err(CallFailure::Failed(e)) => return Err(e),
        };
        if output.gone {
            return Ok(None);
        }
        let token: Arc<str> = Arc::from(output.token.as_str());
        let mut outputs = HashMap::new();
        // Frames inside the scope are walked whole.
        let inner: Vec<Frame> = frames
            .iter()
            .filter(|f| f.id != frame.id)
            .cloned()
            .collect();
        let jobs = self.prepare(&inner).await?;
        for Job {
            frame: child,
            world,
            ..
        } in &jobs
        {
            if let Ok(out) = frames::call_walker::<WalkOutput>(world, "walk({})").await {
                outputs.insert(child.id.clone(), (Arc::from(out.token.as_str()), out));
            }
        }
        outputs.insert(frame.id.clone(), (token, output));
        self.stitch(&frames, outputs, &frame.id).await.map(Some)
    }

    /// Readies the next view while the page is still settling: lists the
    /// frames and makes each one's world (the walker installed, the
    /// accessibility tree kept, elements with click listeners marked), so
    /// that the view after a navigation costs one walk a frame. The view checks all of it again (the frames
    /// against a fresh list, each world against its document); a failure
    /// here is left for the view to meet and report.
    pub async fn prepare_view(&mut self) {
        let frames = match frames::frames(&self.tab).await {
            Ok(frames) => frames,
            Err(e) => {
                tracing::debug!(target: "rove_page", error = %e, "could not list the frames ahead of the view");
                return;
            }
        };
        self.worlds.retain_frames(&frames);
        let jobs = match self.prepare(&frames).await {
            Ok(jobs) => jobs,
            Err(e) => {
                tracing::debug!(target: "rove_page", error = %e, "could not ready the worlds ahead of the view");
                return;
            }
        };
        // Elements with click listeners marked now walk as clickable in
        // the view's first walk; those the page adds meanwhile make the
        // view walk twice, as without this.
        for job in jobs
            .iter()
            .filter(|j| matches!(j.listeners, Listeners::Beside(_)))
        {
            if let Ok(fresh) = frames::mark_clickable(&job.world, &job.marked).await {
                self.worlds.add_marked(&job.frame, fresh);
            }
        }
        self.known_frames = Some(frames);
    }

    pub(super) async fn prepare(&mut self, frames: &[Frame]) -> Result<Vec<Job>, PageError> {
        let mut jobs = Vec::with_capacity(frames.len());
        for frame in frames {
            match self.worlds.ensure(frame).await {
                Ok(world) => jobs.push(Job {
                    frame: frame.clone(),
                    world,
                    marked: self.worlds.marked(frame),
                    listeners: self.worlds.listeners(frame),
                }),
                // A frame that vanished while listing (about:blank races,
                // detached iframes) is skipped; the main frame must work.
                Err(e)
                    if frame.parent.is_none() && frame.session.id() == frames[0].session.id() =>
                {
                    return Err(e);
                }
                Err(e) => {
                    tracing::debug!(target: "rove_page", frame = %frame.id, error = %e, "skipping a frame")
                }
            }
        }
        Ok(jobs)
    }

    /// Joins frame outputs into lines, starting at frame `root`; an iframe's
    /// lines follow its `frame` line, one level deeper.
    pub(super) async fn stitch(
        &mut self,
        frames: &[Frame],
        mut outputs: HashMap<String, (Arc<str>, WalkOutput)>,
        root: &str,
    ) -> Result<Snapshot, PageError> {
        let Some((token, output)) = outputs.remove(root) else {
            return Err(PageError::Script("the main frame could not be read".into()));
        };
        let mut snapshot = Snapshot {
            doc: Some(token.clone()),
            url: output.url.clone(),
            title: output.title.clone(),
            tabs: self.tabs_line().await,
            ..Snapshot::default()
        };
        let mut gathered = crate::captcha::Gathered::default();
        let mut stack = vec![(token, Arc::new(output), 0u16, 0usize)];
        // Iterative, so deeply nested frames cannot overflow the stack.
        while let Some((token, output, offset, start)) = stack.pop() {
            if start == 0 {
                snapshot.announced.extend(output.announced.iter().map(|a| {
                    let key = NodeKey {
                        doc: token.clone(),
                        uid: a.u,
                    };
                    (key, a.t.clone())
                }));
            }
            if start == 0 {
                gathered.add(&token, &output.captchas);
            }
            if start == 0 && output.cut.is_some() {
                snapshot.cut_docs.insert(token.clone());
                snapshot.walker_cut =
                    Some(snapshot.walker_cut.unwrap_or(0) + output.more_interactive.unwrap_or(0));
            }
            let mut text_runs: HashMap<u32, u16> = HashMap::new();
            let records = &output.records;
            let mut i = start;
            while i < records.len() {
                let record = &records[i];
                let key = NodeKey {
                    doc: token.clone(),
                    uid: record.uid,
                };
                let text_index = if record.is_text() {
                    let n = text_runs.entry(record.uid).or_insert(0);
                    // Lines of one element past 65,535 (a `pre` read
                    // without a budget) are left out: numbered alike they
                    // would be one line to a diff.
                    if *n == u16::MAX {
                        i += 1;
                        continue;
                    }
                    *n += 1;
                    *n
                } else {
                    0
                };
                let depth = record.depth + offset;
                snapshot.lines.push(Line {
                    key: key.clone(),
                    text_index,
                    depth,
                    record: record.clone(),
                });
                i += 1;
                if record.role == "frame" {
                    let child = self.child_frame(frames, &key).await;
                    if let Some(child_output) = child.and_then(|id| outputs.remove(&id)) {
                        if let Some(inner) = &child_output.1.captcha_frame {
                            gathered.add_inner(key.clone(), &child_output.0, inner);
                        }
                        // Finish this frame after the child: push the rest back.
                        stack.push((token.clone(), Arc::clone(&output), offset, i));
                        stack.push((child_output.0, Arc::new(child_output.1), depth + 1, 0));
                        break;
                    }
                }
            }
        }
        // First, so the wall is the first thing read and no budget cuts it.
        let (challenges, parts) = gathered.lines();
        snapshot.lines.splice(0..0, challenges);
        snapshot.challenge_parts = parts;
        Ok(snapshot)
    }

    /// The frame an iframe element shows.
    pub(super) async fn child_frame(
        &mut self,
        frames: &[Frame],
        iframe: &NodeKey,
    ) -> Option<String> {
        if let Some(id) = self.iframes.get(iframe) {
            return Some(id.clone());
        }
        let owner = frames
            .iter()
            .find(|f| self.docs.get(&doc_key(f)) == Some(&iframe.doc))?
            .clone();
        let world = self.worlds.ensure(&owner).await.ok()?;
        let id = frames::iframe_frame_id(&world, iframe.uid).await.ok()??;
        self.iframes.insert(iframe.clone(), id.clone());
        Some(id)
    }
}

/// Marks click listeners and walks each frame, both at once: the common case
/// (no new listeners) costs one round trip, and a document whose version
/// is the one its listeners were last asked at does not wait for their
/// answer ([`Listeners::Beside`]). When new listeners were found, the
/// frame is walked again so their elements count as clickable. A huge
/// document is walked first, and its listeners asked for only when its
/// version changed since they last were ([`Listeners::WhenChanged`]).
async fn walk_jobs(
    jobs: &[Job],
    walk: &serde_json::Value,
    after: Option<&(Frame, u32)>,
) -> Vec<Walked> {
    futures_util::future::join_all(jobs.iter().map(|job| {
        let mut walk = walk.clone();
        if let Some((target, uid)) = after
            && target.id == job.frame.id
        {
            walk["after"] = json!(uid);
        }
        async move {
            let call = format!("walk({walk})");
            let (world, marked) = (&job.world, &job.marked);
            let (fresh, output, listened) = match job.listeners {
                Listeners::Beside(asked_at) => {
                    let mut listen = std::pin::pin!(frames::mark_clickable(world, marked));
                    let mut walked =
                        std::pin::pin!(frames::call_walker::<WalkOutput>(world, &call));
                    // Biased: the walk goes out first, and the listeners'
                    // answer then speaks of a document at least as new.
                    let (output, heard) = tokio::select! {
                        biased;
                        output = &mut walked => (output, None),
                        fresh = &mut listen => ((&mut walked).await, Some(fresh)),
                    };
                    let version = output.as_ref().map_or(-1, |o| o.v);
                    if heard.is_none() && version >= 0 && asked_at == Some(version) {
                        return (Ok(Vec::new()), output, None);
                    }
                    let fresh = match heard {
                        Some(fresh) => fresh,
                        None => listen.await,
                    };
                    let listened = fresh.is_ok().then_some(version);
                    (fresh, output, listened)
                }
                Listeners::WhenChanged(asked_at) => {
                    let output = frames::call_walker::<WalkOutput>(world, &call).await;
                    let version = output.as_ref().map_or(-1, |o| o.v);
                    if version >= 0 && asked_at == Some(version) {
                        return (Ok(Vec::new()), output, None);
                    }
                    let fresh = frames::mark_clickable(world, marked).await;
                    let listened = fresh.is_ok().then_some(version);
                    (fresh, output, listened)
                }
            };
            let output = match &fresh {
                Ok(ids) if !ids.is_empty() => frames::call_walker::<WalkOutput>(world, &call).await,
                _ => output,
            };
            (fresh, output, listened)
        }
    }))
    .await
}

/// The same frames, each with the same document.
fn same_frames(a: &[Frame], b: &[Frame]) -> bool {
    a.len() == b.len()
        && a.iter().all(|f| {
            b.iter()
                .any(|g| g.id == f.id && g.loader == f.loader && g.session.id() == f.session.id())
        })
}

pub(super) fn doc_key(frame: &Frame) -> (String, String) {
    (
        frame
            .session
            .id()
            .map(|s| s.as_str().to_owned())
            .unwrap_or_default(),
        frame.id.clone(),
    )
}
