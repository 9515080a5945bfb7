//! The page model of one tab: views, find, and refs that never lie.

mod changes;
mod locate;
mod lookup;
mod walk;

pub use locate::Located;

use walk::doc_key;

use std::collections::HashMap;
use std::sync::Arc;

use rove_browser::Tab;
use serde_json::json;

use crate::frames::{Frame, Worlds};
use crate::record::{Flags, Line};
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

/// `work` (a read of the page), unless a JavaScript dialog is open or
/// opens meanwhile: a dialog stops the page's scripts, so the answer is
/// the dialog at once rather than a wait for the deadline.
async fn unless_dialog<T>(
    watch: &rove_browser::TabWatch,
    work: impl std::future::Future<Output = Result<T, PageError>>,
) -> Result<T, PageError> {
    let blocked = |d: rove_browser::DialogInfo| PageError::DialogOpen {
        kind: d.kind,
        message: d.message,
    };
    if let Some(dialog) = watch.dialog() {
        return Err(blocked(dialog));
    }
    tokio::select! {
        done = work => done,
        Some(dialog) = watch.wait_for_dialog(rove_base::limits::DIALOG_WATCH) => Err(blocked(dialog)),
    }
}

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

    pub(crate) fn budget(&self) -> Option<usize> {
        match self.budget {
            None => Some(DEFAULT_BUDGET),
            Some(0) => None,
            Some(n) => Some(n),
        }
    }
}

/// How many characters the walker may collect for a budget of `tokens`:
/// saturating, since a budget is anyone's number (`u64::MAX` means "no
/// limit" in effect, never an overflow).
fn walk_chars(tokens: usize) -> usize {
    tokens.saturating_mul(4).saturating_add(2_000)
}

/// How many characters a full view or a diff reads for a budget of
/// `tokens`: [`READING_REACH`] budgets' worth.
fn reading_chars(tokens: usize) -> usize {
    walk_chars(tokens).saturating_mul(READING_REACH)
}

/// How far a full view and a diff read, in budgets: a full view shows one
/// and reads on, so that the next diff compares what the two readings
/// covered by content (a line the view did not show, changed since, is
/// news; one merely not read before is not); the rest of a huge page is
/// read by neither (a 1 MB log costs its first pages, not its whole text,
/// on every click).
const READING_REACH: usize = 4;

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
    /// For `find`: the refs it matched, in the order shown. Empty otherwise.
    pub matches: Vec<Ref>,
    /// For a diff: nothing changed since the last view.
    pub unchanged: bool,
    /// For a diff: the page runs past what it read (a few budgets' worth):
    /// "unchanged" speaks only of that part.
    pub partial: bool,
    /// For `find`: each match's role and name, in the order of `matches`.
    pub found: Vec<Match>,
    /// What the page's hidden live regions announced since the last view
    /// (never lines of the view: see walker.js `announcer`).
    pub announced: Vec<String>,
    /// The challenges (captchas, bot walls) on the page, as its
    /// `captcha eN` lines say; empty for a scope or a `find`.
    pub challenges: Vec<crate::Challenge>,
}

/// One element `find` matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// Its ref.
    pub reference: Ref,
    /// Its role as the view shows it.
    pub role: String,
    /// Its accessible name.
    pub name: String,
}

impl View {
    pub(crate) fn new(mut text: String, mode: Mode, url: &str, title: &str) -> Self {
        // A final newline is a token that says nothing; whoever prints the
        // view ends the line.
        text.truncate(text.trim_end_matches('\n').len());
        View {
            tokens: tokens::estimate(&text),
            text,
            mode,
            url: url.to_owned(),
            title: title.to_owned(),
            matches: Vec::new(),
            unchanged: false,
            partial: false,
            found: Vec::new(),
            announced: Vec::new(),
            challenges: Vec::new(),
        }
    }
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
    /// The frame it lives in.
    pub frame_id: String,
}

/// One observation of the whole page.
#[derive(Debug, Clone, Default)]
struct Snapshot {
    lines: Vec<Line>,
    /// The main frame's document (its walker token).
    doc: Option<Arc<str>>,
    url: String,
    title: String,
    /// The walker stopped early (its uid), with an estimate of interactive
    /// elements left out.
    walker_cut: Option<u64>,
    /// The session's tabs line, when the model knows its context.
    tabs: Option<String>,
    /// What each hidden live region said (walker.js `announcer`).
    announced: Vec<(NodeKey, String)>,
    /// Lines the agent was never shown (past a budget's cut): a change of
    /// one is news, shown as added, not as a change of something it saw.
    unseen: std::collections::HashSet<(NodeKey, u16)>,
    /// What each challenge is answered through, by its widget.
    challenge_parts: HashMap<NodeKey, crate::captcha::WidgetParts>,
    /// The documents whose walk stopped at its character budget: lines
    /// past the cut were not read, neither seen nor gone.
    cut_docs: std::collections::HashSet<Arc<str>>,
}

impl Snapshot {
    /// What the page's hidden live regions say now that they did not say
    /// in `previous`: a region of a document `previous` saw whose text
    /// changed, or that appeared with text. A document's first reading
    /// announces nothing: what its regions held then is not news.
    fn news_since(&self, previous: &Snapshot) -> Vec<String> {
        let seen_docs: std::collections::HashSet<&Arc<str>> = previous
            .lines
            .iter()
            .map(|l| &l.key.doc)
            .chain(previous.announced.iter().map(|(k, _)| &k.doc))
            .collect();
        let mut news: Vec<String> = Vec::new();
        for (key, text) in &self.announced {
            if text.is_empty() || !seen_docs.contains(&key.doc) {
                continue;
            }
            let before = previous.announced.iter().find(|(k, _)| k == key);
            if before.is_none_or(|(_, t)| t != text) && !news.contains(text) {
                news.push(text.clone());
            }
        }
        news
    }
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
    /// The next full view names the URL even if the last view was of the
    /// same document at the same URL ([`PageModel::name_url_next`]).
    url_news: bool,
    /// The frames of the last snapshot, walked optimistically by the next.
    known_frames: Option<Vec<Frame>>,
    approximate_roles: bool,
    /// The session's context, for the tabs line of views and diffs.
    context: Option<rove_browser::BrowserContext>,
    /// Values the agent was told a control took since the last view (`fill`
    /// reports what it read back): a control removed before the next view
    /// is shown with that value, not the one the view before held.
    told: HashMap<NodeKey, String>,
    /// Where the last rendering cut its lines (the index of the first line
    /// left out).
    rendered_cut: Option<usize>,
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
            url_news: false,
            known_frames: None,
            approximate_roles: false,
            context: None,
            told: HashMap::new(),
            rendered_cut: None,
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
                let title = crate::render::title_text(&t.title);
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

    /// This model's refs come from `numbers`, shared with the session's other
    /// tabs (and with the session after a browser restart): a ref names one
    /// element session-wide, and an old one never names a new element.
    pub fn counting_refs(mut self, numbers: rove_browser::Counter) -> Self {
        self.refs = RefTable::counting(numbers);
        self
    }

    /// Notes that the agent was told `r` holds `value` (an edit read back).
    pub fn told_value(&mut self, r: Ref, value: &str) {
        if let Some(key) = self.refs.key(r) {
            let shown: String = value.chars().take(300).collect();
            self.told.insert(key.clone(), shown);
        }
    }

    /// Whether `r` names an element of this tab (handed out here and not
    /// known gone).
    pub fn knows(&self, r: Ref) -> bool {
        self.refs.key(r).is_some()
    }

    /// The role and name the last view showed for `r`, to record what an
    /// action aimed at (and find it again when refs differ).
    pub fn describe(&self, r: Ref) -> Option<(String, String)> {
        let key = self.refs.key(r)?;
        let last = self.last.as_ref()?;
        last.lines
            .iter()
            .find(|l| &l.key == key && !l.record.is_text())
            .map(|l| (l.record.role.clone(), l.record.name.clone()))
    }

    /// The tab this model reads.
    pub fn tab(&self) -> &Tab {
        &self.tab
    }

    /// Whether the last view's roles and names were approximated: the
    /// browser lacks Chromium's computed accessibility API (a browser rove
    /// did not launch), or the document is huge.
    pub fn approximate_roles(&self) -> bool {
        self.approximate_roles
    }

    /// Before rove navigates this tab: the accessibility tree kept for this
    /// document is let go, so that the next one loads without it (see
    /// `frames::Worlds::before_navigation`); the caller awaits what this
    /// returns alongside the navigation. A dialog's page is left alone.
    pub async fn before_navigation(&mut self) -> Option<impl Future<Output = ()> + Send + 'static> {
        let watch = self.tab.watch().await.ok()?;
        if watch.dialog().is_some() {
            return None;
        }
        let session = self.tab.session().await.ok()?;
        Some(self.worlds.before_navigation(&session))
    }

    /// Produces a view. A JavaScript dialog that blocks the page yields a view
    /// that says so instead of a tree.
    pub async fn view(&mut self, opts: &ViewOptions) -> Result<View, PageError> {
        let header = self.dialog_header().await?;
        if let Some(header) = header {
            return Ok(View::new(header, opts.mode, "", ""));
        }
        // A dialog that opens while the page is read stops the scripts that
        // read it: the view is then the dialog, not a wait for the deadline.
        let watch = self.tab.watch().await?;
        let opened = watch.wait_for_dialog(rove_base::limits::DIALOG_WATCH);
        // Boxed: walking and stitching every frame is a large future, and
        // each command that shows a view would hold it inline.
        let read = Box::pin(async {
            match opts.mode {
                Mode::Full | Mode::Interactive => self.full_view(opts).await,
                Mode::Scope(r) => self.scope_view(r, opts).await,
                Mode::Diff => self.diff_view(opts).await,
            }
        });
        tokio::select! {
            view = read => view,
            Some(_) = opened => {
                let header = self.dialog_header().await?.unwrap_or_default();
                Ok(View::new(header, opts.mode, "", ""))
            }
        }
    }

    async fn dialog_header(&self) -> Result<Option<String>, PageError> {
        let watch = self.tab.watch().await?;
        Ok(watch.dialog().map(|d| {
            format!(
                "[{}] {} dialog blocks the page: {}\nanswer it with dialog(accept=true) or dialog(accept=false){}, or leave the page with open(url=URL)\n",
                self.tab.id(),
                rove_errors::with_article(&d.kind),
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
        let title = crate::render::title_text(title);
        format!("[{}] {title} {url}\n", self.tab.id())
    }

    /// Makes the next full view name the URL: whoever reads it may not
    /// have read the last one (a tab switched back to, a view rove took
    /// for itself).
    pub fn name_url_next(&mut self) {
        self.url_news = true;
    }

    /// `[t1] Title`: the header of a view whose URL is no news.
    fn header_without_url(&self, title: &str) -> String {
        let title = crate::render::title_text(title);
        format!("[{}] {title}\n", self.tab.id())
    }

    async fn full_view(&mut self, opts: &ViewOptions) -> Result<View, PageError> {
        let budget = opts.budget();
        let interactive = opts.mode == Mode::Interactive;
        // A full view reads as far as a diff will (it is the diff's
        // baseline); it shows the budget's worth.
        let reach = if interactive {
            budget.map(walk_chars)
        } else {
            budget.map(reading_chars)
        };
        let walk = json!({
            "mode": if interactive { "interactive" } else { "full" },
            "maxChars": reach,
            "lineChars": budget.map(walk_chars),
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
        let mut view = self.render_snapshot(&snapshot, &lines, opts, budget);
        if opts.mode == Mode::Full && opts.after.is_none() {
            let mut snapshot = snapshot;
            snapshot.unseen = unseen_after(&snapshot.lines, self.rendered_cut);
            if let Some(previous) = &self.last {
                view.announced = snapshot.news_since(previous);
            }
            self.told.clear();
            self.refs.rebase();
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
        // The interactive view is for acting; the URL is left to the full
        // view, which names it when it is news: the document is not the one
        // the last view showed, or its URL changed since.
        let known = !self.url_news
            && self
                .last
                .as_ref()
                .is_some_and(|last| last.url == snapshot.url && last.doc == snapshot.doc);
        if opts.mode != Mode::Interactive {
            self.url_news = false;
        }
        let header = if opts.mode == Mode::Interactive || known {
            self.header_without_url(&snapshot.title)
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
            names_once: opts.mode != Mode::Interactive,
        };
        let rendered = render(lines, &mut self.refs, &render_opts);
        self.rendered_cut = rendered.cut_at;
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
                        .filter(|l| crate::roles::is_interactive(&l.record.role))
                        .count() as u64
                })
                .unwrap_or(0)
                + walker_more.unwrap_or(0);
            let next = rendered
                .last_ref
                .map(|r| format!(" Next part: snapshot(after={r})."))
                .unwrap_or_default();
            text.push_str(&format!(
                "… cut at the {}-token budget; about {left} more interactive elements below.{next} To reach one directly: find \"text\".\n",
                budget.unwrap_or(0)
            ));
        }
        let mut view = View::new(text, opts.mode, &snapshot.url, &snapshot.title);
        view.challenges =
            crate::captcha::challenges(&snapshot.lines, &snapshot.challenge_parts, &mut self.refs);
        view
    }

    async fn scope_view(&mut self, r: Ref, opts: &ViewOptions) -> Result<View, PageError> {
        let (frame, uid) = self.locate(r).await?;
        let walk = json!({
            "mode": "full",
            "scope": uid,
            "maxChars": opts.budget().map(walk_chars),
        });
        let snapshot = self.walk_from(&frame, &walk).await?;
        let Some(snapshot) = snapshot else {
            return Err(self.not_found(r, "it was removed from the page").await);
        };
        let budget = opts.budget();
        Ok(self.render_snapshot(&snapshot, &snapshot.lines, opts, budget))
    }
}

/// The lines a rendering cut at `cut` left out.
fn unseen_after(lines: &[Line], cut: Option<usize>) -> std::collections::HashSet<(NodeKey, u16)> {
    match cut {
        Some(cut) => lines
            .iter()
            .skip(cut)
            .map(|l| (l.key.clone(), l.text_index))
            .collect(),
        None => Default::default(),
    }
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
        if line.record.role == "heading" {
            pending_heading = Some(line);
            continue;
        }
        let clickable_item = line.record.flags.has(Flags::CLICKABLE);
        if crate::roles::is_interactive(&line.record.role)
            || clickable_item
            || line.record.role == "frame"
            || line.record.role == crate::captcha::CHALLENGE_ROLE
            || line.record.role == "more"
        {
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
