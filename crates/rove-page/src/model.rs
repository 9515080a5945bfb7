//! The page model of one tab: views, find, and refs that never lie.

use std::collections::HashMap;
use std::sync::Arc;

use rove_browser::Tab;
use serde_json::json;

use crate::diff::{diff, render_changes};
use crate::frames::{self, CallFailure, Frame, World, Worlds};
use crate::record::{Line, WalkOutput};
use crate::refs::{NodeKey, Ref, RefTable};
use crate::render::{RenderOptions, render};
use crate::{PageError, tokens};

/// The default budget of a view, in o200k tokens. Chosen from measurements
/// (docs/benchmarks.md): every MiniWoB++ page and typical app screens fit well
/// inside it; documentation pages and long listings are cut, with `find` and
/// paging to reach the rest.
pub const DEFAULT_BUDGET: usize = 4_000;

/// Tokens kept free for the note a cut view ends with.
const NOTE_RESERVE: usize = 64;

/// A diff is sent only while it is smaller than this share of the full view.
const DIFF_SHARE: f64 = 0.7;

/// How much of a page a diff baseline covers, in walker characters.
const BASELINE_CHARS: usize = 2_000_000;

/// Which view to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The whole page (within the budget).
    Full,
    /// Only what can be acted on, with the nearest heading as context.
    Interactive,
    /// The subtree under one ref.
    Scope(Ref),
    /// What changed since this model's last full or diff view.
    Diff,
}

/// Options of a view.
#[derive(Debug, Clone)]
pub struct ViewOptions {
    /// Which view.
    pub mode: Mode,
    /// Token budget; `None` for [`DEFAULT_BUDGET`], `Some(0)` for no limit.
    pub budget: Option<usize>,
    /// Show link targets.
    pub urls: bool,
    /// Continue after this ref (the next part of a view that was cut).
    pub after: Option<Ref>,
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            mode: Mode::Full,
            budget: None,
            urls: false,
            after: None,
        }
    }
}

impl ViewOptions {
    /// A view of `mode` with defaults otherwise.
    pub fn mode(mode: Mode) -> Self {
        ViewOptions {
            mode,
            ..ViewOptions::default()
        }
    }

    fn budget(&self) -> Option<usize> {
        match self.budget {
            None => Some(DEFAULT_BUDGET),
            Some(0) => None,
            Some(n) => Some(n),
        }
    }
}

/// A rendered view.
#[derive(Debug, Clone)]
pub struct View {
    /// The text the agent reads.
    pub text: String,
    /// Its estimated token count.
    pub tokens: usize,
    /// The mode that was rendered (a diff may turn into a full view).
    pub mode: Mode,
    /// The page's URL.
    pub url: String,
    /// The page's title.
    pub title: String,
}

/// What `find` looks for.
#[derive(Debug, Clone, Default)]
pub struct FindQuery {
    /// Text contained in the name, value or text (case-insensitive).
    pub text: String,
    /// Only this role (`button`, `link`, `heading` …).
    pub role: Option<String>,
    /// At most this many results (default 20).
    pub limit: Option<usize>,
}

/// An element resolved from a ref, for acting on it.
#[derive(Debug, Clone)]
pub struct Element {
    /// The ref.
    pub reference: Ref,
    /// The session of the frame it lives in.
    pub session: rove_cdp::Session,
    /// Its object in rove's isolated world of that frame.
    pub object_id: String,
    /// The world's execution context.
    pub context: i64,
}

/// One observation of the whole page.
#[derive(Debug, Clone, Default)]
struct Snapshot {
    lines: Vec<Line>,
    url: String,
    title: String,
    /// The walker stopped early (its uid), with an estimate of interactive
    /// elements left out.
    walker_cut: Option<u64>,
    /// The session's tabs line, when the model knows its context.
    tabs: Option<String>,
}

/// The page model of one tab.
#[derive(Debug)]
pub struct PageModel {
    tab: Tab,
    refs: RefTable,
    worlds: Worlds,
    /// Which frame each iframe element shows.
    iframes: HashMap<NodeKey, String>,
    /// The current document token of each frame (by session and frame id).
    docs: HashMap<(String, String), Arc<str>>,
    last: Option<Snapshot>,
    /// The frames of the last snapshot, walked optimistically by the next.
    known_frames: Option<Vec<Frame>>,
    approximate_roles: bool,
    /// The session's context, for the tabs line of views and diffs.
    context: Option<rove_browser::BrowserContext>,
}

impl PageModel {
    /// A model for `tab`. Refs start at `e1` and grow for the tab's life.
    pub fn new(tab: Tab) -> Self {
        PageModel {
            tab,
            refs: RefTable::default(),
            worlds: Worlds::default(),
            iframes: HashMap::new(),
            docs: HashMap::new(),
            last: None,
            known_frames: None,
            approximate_roles: false,
            context: None,
        }
    }

    /// A model that also reports the other tabs of its session's context: a
    /// `tabs:` line when there is more than one, and tab changes in diffs.
    pub fn in_context(tab: Tab, context: rove_browser::BrowserContext) -> Self {
        PageModel {
            context: Some(context),
            ..PageModel::new(tab)
        }
    }

    /// `tabs: t1* Title, t2 Other` when the session has several tabs (`*`
    /// marks this model's tab).
    async fn tabs_line(&self) -> Option<String> {
        let context = self.context.as_ref()?;
        if context.tabs().len() < 2 {
            return None;
        }
        let tabs = context.tabs_refreshed().await.ok()?;
        let listed: Vec<String> = tabs
            .iter()
            .map(|t| {
                let mark = if t.id == self.tab.id() { "*" } else { "" };
                let title = t.title.split_whitespace().collect::<Vec<_>>().join(" ");
                format!(
                    "{}{mark} {}",
                    t.id,
                    if title.is_empty() {
                        t.url.clone()
                    } else {
                        title
                    }
                )
            })
            .collect();
        Some(format!("tabs: {}\n", listed.join(", ")))
    }

    /// The tab this model reads.
    pub fn tab(&self) -> &Tab {
        &self.tab
    }

    /// Whether roles and names are approximated because the browser lacks
    /// Chromium's computed accessibility API (a browser rove did not launch).
    pub fn approximate_roles(&self) -> bool {
        self.approximate_roles
    }

    /// Produces a view. A JavaScript dialog that blocks the page yields a view
    /// that says so instead of a tree.
    pub async fn view(&mut self, opts: &ViewOptions) -> Result<View, PageError> {
        let header = self.dialog_header().await?;
        if let Some(header) = header {
            return Ok(View {
                tokens: tokens::estimate(&header),
                text: header,
                mode: opts.mode,
                url: String::new(),
                title: String::new(),
            });
        }
        match opts.mode {
            Mode::Full | Mode::Interactive => self.full_view(opts).await,
            Mode::Scope(r) => self.scope_view(r, opts).await,
            Mode::Diff => self.diff_view(opts).await,
        }
    }

    async fn dialog_header(&self) -> Result<Option<String>, PageError> {
        let watch = self.tab.watch().await?;
        Ok(watch.dialog().map(|d| {
            format!(
                "[{}] a {} dialog blocks the page: {}\nanswer it with dialog accept or dialog dismiss{}\n",
                self.tab.id(),
                d.kind,
                crate::render::quote(&d.message),
                if d.kind == "prompt" {
                    format!(" (prompt default {})", crate::render::quote(&d.default_prompt))
                } else {
                    String::new()
                }
            )
        }))
    }

    /// `[t1] Title URL`: the tab, then what the page calls itself and where
    /// it is. The URL always starts with its scheme, so it is never mistaken
    /// for the end of the title.
    fn header(&self, url: &str, title: &str) -> String {
        let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
        format!("[{}] {title} {url}\n", self.tab.id())
    }

    async fn full_view(&mut self, opts: &ViewOptions) -> Result<View, PageError> {
        let budget = opts.budget();
        let interactive = opts.mode == Mode::Interactive;
        let walk = json!({
            "mode": if interactive { "interactive" } else { "full" },
            "maxChars": budget.map(|b| b * 4 + 2_000),
        });
        let after = match opts.after {
            Some(r) => Some(self.locate(r).await?),
            None => None,
        };
        let snapshot = self.snapshot(&walk, after.as_ref()).await?;
        let mut lines = snapshot.lines.clone();
        if interactive {
            lines = interactive_lines(lines);
        }
        let view = self.render_snapshot(&snapshot, &lines, opts, budget);
        if opts.mode == Mode::Full && opts.after.is_none() {
            self.last = Some(snapshot);
        }
        Ok(view)
    }

    fn render_snapshot(
        &mut self,
        snapshot: &Snapshot,
        lines: &[Line],
        opts: &ViewOptions,
        budget: Option<usize>,
    ) -> View {
        // The interactive view is for acting; the URL is left to the full view.
        let header = if opts.mode == Mode::Interactive {
            let title = snapshot
                .title
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            format!("[{}] {title}\n", self.tab.id())
        } else {
            self.header(&snapshot.url, &snapshot.title)
        };
        let render_opts = RenderOptions {
            urls: opts.urls,
            // The note that says how to get the rest must fit too.
            budget: budget.map(|b| {
                let tabs = snapshot.tabs.as_deref().map(tokens::estimate).unwrap_or(0);
                b.saturating_sub(tokens::estimate(&header) + tabs + NOTE_RESERVE)
            }),
            origin: origin_of(&snapshot.url),
        };
        let rendered = render(lines, &mut self.refs, &render_opts);
        let mut text = header;
        if let Some(tabs) = &snapshot.tabs {
            text.push_str(tabs);
        }
        text.push_str(&rendered.text);
        let walker_more = snapshot.walker_cut;
        if rendered.cut_at.is_some() || walker_more.is_some() {
            let left = rendered
                .cut_at
                .map(|i| {
                    lines[i..]
                        .iter()
                        .filter(|l| is_interactive(&l.record.r))
                        .count() as u64
                })
                .unwrap_or(0)
                + walker_more.unwrap_or(0);
            let next = rendered
                .last_ref
                .map(|r| format!(" Next part: snapshot --after {r}."))
                .unwrap_or_default();
            text.push_str(&format!(
                "… cut at the {}-token budget; about {left} more interactive elements below.{next} To reach one directly: find \"text\".\n",
                budget.unwrap_or(0)
            ));
        }
        let tokens = tokens::estimate(&text);
        View {
            text,
            tokens,
            mode: opts.mode,
            url: snapshot.url.clone(),
            title: snapshot.title.clone(),
        }
    }

    async fn scope_view(&mut self, r: Ref, opts: &ViewOptions) -> Result<View, PageError> {
        let (frame, uid) = self.locate(r).await?;
        let walk = json!({
            "mode": "full",
            "scope": uid,
            "maxChars": opts.budget().map(|b| b * 4 + 2_000),
        });
        let snapshot = self.walk_from(&frame, &walk).await?;
        let Some(snapshot) = snapshot else {
            return Err(self.not_found(r, "it was removed from the page").await);
        };
        let budget = opts.budget();
        Ok(self.render_snapshot(&snapshot, &snapshot.lines, opts, budget))
    }

    async fn diff_view(&mut self, opts: &ViewOptions) -> Result<View, PageError> {
        let walk = json!({"mode": "full", "maxChars": BASELINE_CHARS});
        let snapshot = self.snapshot(&walk, None).await?;
        let Some(previous) = self.last.take() else {
            // Nothing to compare with: the first view is a full one.
            let mut view = self.render_snapshot(&snapshot, &snapshot.lines, opts, opts.budget());
            view.text
                .insert_str(0, "(no earlier view to compare with; full view)\n");
            view.mode = Mode::Full;
            self.last = Some(snapshot);
            return Ok(view);
        };
        let changes = diff(&previous.lines, &snapshot.lines);
        let render_opts = RenderOptions {
            urls: opts.urls,
            budget: None,
            origin: origin_of(&snapshot.url),
        };
        let (body, body_tokens) = render_changes(&changes, &mut self.refs, &render_opts);
        let full = self.render_snapshot(&snapshot, &snapshot.lines, opts, opts.budget());
        // The header appears only when the URL or title changed; `+`, `-`
        // and `~` lines say by themselves that this is a diff.
        let mut text = String::new();
        if previous.url != snapshot.url || previous.title != snapshot.title {
            text.push_str(&self.header(&snapshot.url, &snapshot.title));
        }
        if previous.tabs != snapshot.tabs {
            text.push_str(snapshot.tabs.as_deref().unwrap_or("tabs: only this one\n"));
        }
        let view =
            if changes.is_empty() && previous.tabs == snapshot.tabs && previous.url == snapshot.url
            {
                text.push_str(&format!(
                    "[{}] no changes since the last view\n",
                    self.tab.id()
                ));
                View {
                    tokens: tokens::estimate(&text),
                    text,
                    mode: Mode::Diff,
                    url: full.url.clone(),
                    title: full.title.clone(),
                }
            } else if body_tokens as f64 > DIFF_SHARE * full.tokens as f64 {
                let mut view = full;
                view.mode = Mode::Full;
                view.text.insert_str(
                0,
                &format!(
                    "(the diff has {} changes, more than {:.0}% of the page; full view instead)\n",
                    changes.len(),
                    DIFF_SHARE * 100.0
                ),
            );
                view.tokens = tokens::estimate(&view.text);
                view
            } else {
                text.push_str(&body);
                View {
                    tokens: tokens::estimate(&text),
                    text,
                    mode: Mode::Diff,
                    url: full.url.clone(),
                    title: full.title.clone(),
                }
            };
        self.last = Some(snapshot);
        Ok(view)
    }

    /// Finds elements by text (name, value or content) and role, in every
    /// frame. Each result is one line with its context.
    pub async fn find(&mut self, query: &FindQuery) -> Result<View, PageError> {
        if let Some(header) = self.dialog_header().await? {
            return Err(PageError::DialogOpen {
                kind: "javascript".into(),
                message: header,
            });
        }
        let limit = query.limit.unwrap_or(20).max(1);
        let call = format!(
            "find({})",
            json!({"text": query.text, "role": query.role.clone().unwrap_or_default(), "limit": limit})
        );
        let frames = frames::frames(&self.tab).await?;
        let mut text = String::new();
        let mut total = 0u64;
        let mut shown = 0usize;
        for frame in &frames {
            let Some((world, token)) = self.world_with_token(frame).await? else {
                continue;
            };
            let found: WalkOutput = match frames::call_walker(&world, &call).await {
                Ok(found) => found,
                Err(CallFailure::Stale) => continue,
                Err(CallFailure::Failed(e)) => return Err(e),
            };
            total += found.total.unwrap_or(found.records.len() as u64);
            for record in found.records.into_iter().take(limit.saturating_sub(shown)) {
                let key = NodeKey {
                    doc: token.clone(),
                    uid: record.u,
                };
                let r = self.refs.get_or_assign(&key);
                let mut line = crate::render::describe(&record, Some(r), &RenderOptions::default());
                if let Some(context) = record.x.as_deref().filter(|c| !c.is_empty()) {
                    line.push_str(" — ");
                    line.push_str(context);
                }
                text.push_str(&line);
                text.push('\n');
                shown += 1;
            }
        }
        let mut out = format!(
            "[{}] find {}{}: {total} match{}{}\n",
            self.tab.id(),
            crate::render::quote(&query.text),
            query
                .role
                .as_deref()
                .map(|r| format!(" role {r}"))
                .unwrap_or_default(),
            if total == 1 { "" } else { "es" },
            if (shown as u64) < total {
                format!(", first {shown} shown")
            } else {
                String::new()
            },
        );
        out.push_str(&text);
        Ok(View {
            tokens: tokens::estimate(&out),
            text: out,
            mode: Mode::Full,
            url: String::new(),
            title: String::new(),
        })
    }

    /// Resolves a ref to its element, for acting on it. A ref whose element is
    /// gone is `REF_NOT_FOUND`, with a fresh view attached.
    pub async fn element(&mut self, r: Ref) -> Result<Element, PageError> {
        let (frame, uid) = self.locate(r).await?;
        let world = self.worlds.ensure(&frame).await?;
        match frames::element_object(&world, uid, "rove-elements").await? {
            Some(object_id) => Ok(Element {
                reference: r,
                session: world.session.clone(),
                object_id,
                context: world.context,
            }),
            None => Err(self.not_found(r, "it was removed from the page").await),
        }
    }

    /// The frame and uid a ref names, if its document is still current.
    async fn locate(&mut self, r: Ref) -> Result<(Frame, u32), PageError> {
        let Some(key) = self.refs.key(r).cloned() else {
            let reason = if r.0 <= self.refs.last() {
                "its element was removed or its page was left"
            } else {
                "no such ref was handed out in this tab"
            };
            return Err(self.not_found(r, reason).await);
        };
        let frames = frames::frames(&self.tab).await?;
        for frame in frames {
            if let Some((_, token)) = self.world_with_token(&frame).await? {
                if token == key.doc {
                    return Ok((frame, key.uid));
                }
            }
        }
        Err(self
            .not_found(r, "the page or frame it was on has navigated or closed")
            .await)
    }

    /// A `REF_NOT_FOUND` with a fresh full view attached.
    async fn not_found(&mut self, r: Ref, reason: &str) -> PageError {
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
    async fn world_with_token(
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

    /// Walks every frame and stitches the frames into one list of lines.
    async fn snapshot(
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
        for ((frame, world, _), (fresh, output)) in jobs.iter().zip(walked) {
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
            if !output.hosts.is_empty() && frames::adopt_closed_roots(world, &output.hosts).await? {
                if let Ok(again) =
                    frames::call_walker::<WalkOutput>(world, &format!("walk({walk})")).await
                {
                    output = again;
                }
            }
            self.approximate_roles |= !output.native;
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
    async fn walk_from(
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
        for (child, world, _) in &jobs {
            if let Ok(out) = frames::call_walker::<WalkOutput>(world, "walk({})").await {
                outputs.insert(child.id.clone(), (Arc::from(out.token.as_str()), out));
            }
        }
        outputs.insert(frame.id.clone(), (token, output));
        self.stitch(&frames, outputs, &frame.id).await.map(Some)
    }

    async fn prepare(
        &mut self,
        frames: &[Frame],
    ) -> Result<Vec<(Frame, World, std::collections::HashSet<i64>)>, PageError> {
        let mut jobs = Vec::with_capacity(frames.len());
        for frame in frames {
            match self.worlds.ensure(frame).await {
                Ok(world) => jobs.push((frame.clone(), world, self.worlds.marked(frame))),
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
    async fn stitch(
        &mut self,
        frames: &[Frame],
        mut outputs: HashMap<String, (Arc<str>, WalkOutput)>,
        root: &str,
    ) -> Result<Snapshot, PageError> {
        let Some((token, output)) = outputs.remove(root) else {
            return Err(PageError::Script("the main frame could not be read".into()));
        };
        let mut snapshot = Snapshot {
            url: output.url.clone(),
            title: output.title.clone(),
            tabs: self.tabs_line().await,
            ..Snapshot::default()
        };
        let mut stack = vec![(token, Arc::new(output), 0u16, 0usize)];
        // Iterative, so deeply nested frames cannot overflow the stack.
        while let Some((token, output, offset, start)) = stack.pop() {
            if start == 0 && output.cut.is_some() {
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
                    uid: record.u,
                };
                let text_index = if record.is_text() {
                    let n = text_runs.entry(record.u).or_insert(0);
                    *n += 1;
                    *n
                } else {
                    0
                };
                let depth = record.d + offset;
                snapshot.lines.push(Line {
                    key: key.clone(),
                    text_index,
                    depth,
                    record: record.clone(),
                });
                i += 1;
                if record.r == "frame" {
                    let child = self.child_frame(frames, &key).await;
                    if let Some(child_output) = child.and_then(|id| outputs.remove(&id)) {
                        // Finish this frame after the child: push the rest back.
                        stack.push((token.clone(), Arc::clone(&output), offset, i));
                        stack.push((child_output.0, Arc::new(child_output.1), depth + 1, 0));
                        break;
                    }
                }
            }
        }
        Ok(snapshot)
    }

    /// The frame an iframe element shows.
    async fn child_frame(&mut self, frames: &[Frame], iframe: &NodeKey) -> Option<String> {
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
/// (no new listeners) costs one round trip. When new listeners were found,
/// the frame is walked again so their elements count as clickable.
async fn walk_jobs(
    jobs: &[(Frame, World, std::collections::HashSet<i64>)],
    walk: &serde_json::Value,
    after: Option<&(Frame, u32)>,
) -> Vec<(Result<Vec<i64>, PageError>, Result<WalkOutput, CallFailure>)> {
    futures_util::future::join_all(jobs.iter().map(|(frame, world, marked)| {
        let mut walk = walk.clone();
        if let Some((target, uid)) = after {
            if target.id == frame.id {
                walk["after"] = json!(uid);
            }
        }
        async move {
            let call = format!("walk({walk})");
            let (fresh, output) = tokio::join!(
                frames::mark_clickable(world, marked),
                frames::call_walker::<WalkOutput>(world, &call)
            );
            let output = match &fresh {
                Ok(ids) if !ids.is_empty() => frames::call_walker::<WalkOutput>(world, &call).await,
                _ => output,
            };
            (fresh, output)
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

fn doc_key(frame: &Frame) -> (String, String) {
    (
        frame
            .session
            .id()
            .map(|s| s.as_str().to_owned())
            .unwrap_or_default(),
        frame.id.clone(),
    )
}

fn is_interactive(role: &str) -> bool {
    matches!(
        role,
        "button"
            | "link"
            | "textbox"
            | "searchbox"
            | "checkbox"
            | "radio"
            | "combobox"
            | "listbox"
            | "option"
            | "menuitem"
            | "menuitemcheckbox"
            | "menuitemradio"
            | "tab"
            | "switch"
            | "slider"
            | "spinbutton"
            | "treeitem"
            | "clickable"
    )
}

/// Keeps actionable lines, each heading only if something actionable follows
/// it before the next heading. Headings go flush left with their controls one
/// level in; a control inside another kept control (an icon in a clickable
/// row) stays one level deeper than it.
fn interactive_lines(lines: Vec<Line>) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut pending_heading: Option<Line> = None;
    // Original depths of the kept controls that enclose the current line.
    let mut enclosing: Vec<u16> = Vec::new();
    let mut under_heading = false;
    for mut line in lines {
        while enclosing.last().is_some_and(|d| *d >= line.depth) {
            enclosing.pop();
        }
        if line.record.r == "heading" {
            pending_heading = Some(line);
            continue;
        }
        if is_interactive(&line.record.r) || line.record.r == "frame" || line.record.r == "more" {
            if let Some(mut heading) = pending_heading.take() {
                heading.depth = 0;
                out.push(heading);
                under_heading = true;
                enclosing.clear();
            }
            let original = line.depth;
            line.depth = u16::from(under_heading) + enclosing.len() as u16;
            enclosing.push(original);
            out.push(line);
        }
    }
    out
}

fn origin_of(url: &str) -> Option<String> {
    let scheme_end = url.find("://")? + 3;
    let rest = &url[scheme_end..];
    let host_end = rest.find('/').unwrap_or(rest.len());
    Some(url[..scheme_end + host_end].to_owned())
}
