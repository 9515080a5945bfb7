//! Frames, their isolated worlds, and running the walker in them.
//!
//! Every frame, in-process or out-of-process, gets an isolated world named
//! `rove` holding the walker. Worlds are cached per (session, frame, loader): a
//! navigation gives the frame a new loader and so a new world. A world that
//! vanished under us (the frame navigated between two calls) is detected by
//! the error and rebuilt once.

use std::collections::{HashMap, HashSet};

use rove_base::limits;
use rove_browser::Tab;
use rove_cdp::Session;
use rove_cdp::protocol::accessibility;
use rove_cdp::protocol::dom::{DescribeNode, ResolveNode, ShadowRootType};
use rove_cdp::protocol::dom_debugger::GetEventListeners;
use rove_cdp::protocol::page::{CreateIsolatedWorld, FrameTree, GetFrameTree};
use rove_cdp::protocol::runtime::{CallArgument, CallFunctionOn, Evaluate, ReleaseObjectGroup};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::PageError;

/// The walker's source, installed once per world.
const WORLD_NAME: &str = rove_browser::ROVE_WORLD;
/// DOM events whose listeners make an element clickable.
const CLICK_EVENTS: [&str; 7] = [
    "click",
    "mousedown",
    "mouseup",
    "pointerdown",
    "pointerup",
    "touchstart",
    "dblclick",
];

/// One frame to read: which session reaches it and where it sits.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    pub session: Session,
    pub id: String,
    pub loader: String,
    pub parent: Option<String>,
}

/// A world ready to run the walker.
#[derive(Debug, Clone)]
pub(crate) struct World {
    pub session: Session,
    pub context: i64,
    /// `document`, as an object of this world (`this` for calls).
    pub document: String,
    /// `document`, as an object of the page's own world (for DOMDebugger).
    pub page_document: Option<String>,
}

#[derive(Debug)]
struct WorldEntry {
    loader: String,
    world: World,
    /// backendNodeIds already marked clickable in this world.
    marked: HashSet<i64>,
    /// The document's version when its click listeners were last asked
    /// for (the activity script's count of its mutations).
    listened: Option<i64>,
}

/// When a frame's click listeners are asked for on a walk. Asking walks the
/// whole document in the page's thread (35 ms on 100,000 rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listeners {
    /// Sent with the walk, right behind it, and waited for only when the
    /// walk says the document's version is not the one given: a page
    /// that did not change since its listeners were asked for costs one
    /// walk. (A listener added without any change to the document's nodes
    /// shows at its next change, as for a huge one.)
    Beside(Option<i64>),
    /// After the walk, unless the document's version is still the one
    /// given: a huge document pays for it only when it changed. (A
    /// listener added to it without any change to its nodes shows at its
    /// next change.)
    WhenChanged(Option<i64>),
}

/// The worlds of one tab.
#[derive(Debug, Default)]
pub(crate) struct Worlds {
    entries: HashMap<(String, String), WorldEntry>,
    /// Sessions whose accessibility tree rove keeps alive.
    accessible: HashSet<String>,
    /// Sessions whose main document is huge (or whose browser cannot name
    /// roles natively): their walkers approximate roles and names, and
    /// Chromium keeps no accessibility tree for them.
    approximate: HashSet<String>,
    /// Sessions whose tree was let go for a navigation rove started, until a
    /// document's world shows where it ended (`ensure`, `read_from`).
    let_go: HashSet<String>,
}

/// A document with more elements than this is read with approximated roles
/// and names: Chromium's accessibility tree of a 100,000-row table (600,000
/// elements) costs 3.5 s to build after its load, or 4 s more during it
/// when it was kept from the page before, and the walker reads only what a
/// view shows.
const HUGE_ELEMENTS: u32 = 50_000;

/// How a new world's walker reads roles and names.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Roles {
    /// As Chromium computes them.
    Native,
    /// Approximated: the session's main document is huge.
    Approximate,
    /// The main document: approximated if it is huge.
    BySize,
}

impl Roles {
    /// What the walker's source is prefixed with.
    fn prelude(self) -> String {
        match self {
            Roles::Native => String::new(),
            Roles::Approximate => "globalThis.__roveApproximate = true;\n".to_owned(),
            Roles::BySize => format!(
                "globalThis.__roveApproximate = document.getElementsByTagName('*').length > {HUGE_ELEMENTS};\n"
            ),
        }
    }
}

fn world_key(frame: &Frame) -> (String, String) {
    (session_key(&frame.session), frame.id.clone())
}

/// The key of a session in `Worlds`' sets.
fn session_key(session: &Session) -> String {
    session
        .id()
        .map(|s| s.as_str().to_owned())
        .unwrap_or_default()
}

/// Every frame of the tab: the page session's frame tree, then each
/// out-of-process iframe's.
pub(crate) async fn frames(tab: &Tab) -> Result<Vec<Frame>, PageError> {
    let main = tab.session().await?;
    let watch = tab.watch().await?;
    let mut sessions = vec![main];
    sessions.extend(watch.frame_sessions().into_iter().map(|f| f.session));
    let trees = futures_util::future::join_all(sessions.iter().map(|s| async move {
        let tree = s.send(&GetFrameTree {}).await;
        (s.clone(), tree)
    }))
    .await;
    let mut frames = Vec::new();
    for (i, (session, tree)) in trees.into_iter().enumerate() {
        match tree {
            Ok(tree) => flatten(&session, &tree.frame_tree, &mut frames),
            // The page session must answer; an iframe session that just went
            // away only loses its frame.
            Err(e) if i == 0 => return Err(e.into()),
            Err(e) => {
                tracing::debug!(target: "rove_page", error = %e, "skipping an iframe session")
            }
        }
    }
    Ok(frames)
}

fn flatten(session: &Session, node: &FrameTree, out: &mut Vec<Frame>) {
    out.push(Frame {
        session: session.clone(),
        id: node.frame.id.clone(),
        loader: node.frame.loader_id.clone(),
        parent: node.frame.parent_id.clone(),
    });
    for child in node.child_frames.iter().flatten() {
        flatten(session, child, out);
    }
}

impl Worlds {
    /// The world of `frame`, created and loaded with the walker if needed.
    /// The session's accessibility tree is kept alive, unless its main
    /// document is huge: that document's world decides, and the other
    /// frames of the session follow it.
    pub(crate) async fn ensure(&mut self, frame: &Frame) -> Result<World, PageError> {
        let key = world_key(frame);
        if let Some(entry) = self.entries.get(&key)
            && entry.loader == frame.loader
        {
            let world = entry.world.clone();
            // Right after a navigation the frame listed may be the document
            // it left: the tree waits for a read that succeeds (`read_from`).
            if !self.approximate.contains(&key.0)
                && !self.accessible.contains(&key.0)
                && !self.let_go.contains(&key.0)
            {
                keep_accessibility(&frame.session).await?;
                self.accessible.insert(key.0);
            }
            return Ok(world);
        }
        let roles = if frame.parent.is_none() {
            Roles::BySize
        } else if self.approximate.contains(&key.0) {
            Roles::Approximate
        } else {
            Roles::Native
        };
        let world = create_world(frame, roles).await?;
        let approximate = match roles {
            Roles::Native => false,
            Roles::Approximate => true,
            Roles::BySize => match call_walker::<bool>(&world, "native").await {
                Ok(native) => !native,
                Err(CallFailure::Stale) => false,
                Err(CallFailure::Failed(e)) => return Err(e),
            },
        };
        if roles == Roles::BySize {
            self.let_go.remove(&key.0);
            if approximate {
                self.approximate.insert(key.0.clone());
            } else {
                self.approximate.remove(&key.0);
            }
        }
        if approximate {
            // A tree kept for the page before would follow every change of
            // this one; dropping it is an optimisation, so its failure is not
            // the read's.
            if self.accessible.remove(&key.0)
                && let Err(e) = frame
                    .session
                    .send_within(&accessibility::Disable {}, limits::ACCESSIBILITY_LET_GO)
                    .await
            {
                tracing::debug!(target: "rove_page", error = %e, "accessibility stays on");
            }
        } else if !self.accessible.contains(&key.0) {
            keep_accessibility(&frame.session).await?;
            self.accessible.insert(key.0.clone());
        }
        self.entries.insert(
            key,
            WorldEntry {
                loader: frame.loader.clone(),
                world: world.clone(),
                marked: HashSet::new(),
                listened: None,
            },
        );
        Ok(world)
    }

    /// Drops a world that turned out to be gone.
    pub(crate) fn invalidate(&mut self, frame: &Frame) {
        self.entries.remove(&world_key(frame));
    }

    /// Drops worlds of frames that no longer exist.
    pub(crate) fn retain_frames(&mut self, frames: &[Frame]) {
        let live: HashSet<(String, String)> = frames.iter().map(world_key).collect();
        self.entries.retain(|k, _| live.contains(k));
    }

    /// backendNodeIds already marked in this frame's world.
    pub(crate) fn marked(&self, frame: &Frame) -> HashSet<i64> {
        self.entries
            .get(&world_key(frame))
            .map(|e| e.marked.clone())
            .unwrap_or_default()
    }

    pub(crate) fn add_marked(&mut self, frame: &Frame, ids: impl IntoIterator<Item = i64>) {
        if let Some(entry) = self.entries.get_mut(&world_key(frame)) {
            entry.marked.extend(ids);
        }
    }

    /// When this frame's click listeners are asked for: after the walk and
    /// only on a change for a document read with approximated roles (a
    /// huge one, where the question itself costs the page tens of ms),
    /// beside the walk otherwise.
    pub(crate) fn listeners(&self, frame: &Frame) -> Listeners {
        let key = world_key(frame);
        let listened = self.entries.get(&key).and_then(|e| e.listened);
        if self.approximate.contains(&key.0) {
            Listeners::WhenChanged(listened)
        } else {
            Listeners::Beside(listened)
        }
    }

    /// This frame's click listeners were asked for at its document's
    /// `version` (-1: unknown, so asked again next time).
    pub(crate) fn listened(&mut self, frame: &Frame, version: i64) {
        if let Some(entry) = self.entries.get_mut(&world_key(frame)) {
            entry.listened = (version >= 0).then_some(version);
        }
    }

    /// Lets the accessibility tree of `session` go before rove navigates
    /// it: kept, Chromium would follow the next document's whole parse with
    /// it (4 s more on a 100,000-row table), and the next document's first
    /// read decides whether to keep one. The caller awaits it alongside the
    /// navigation (Chromium takes a session's messages in order). Bounded
    /// and best effort: a page a busy script holds does not answer, and
    /// keeping the tree costs only time.
    pub(crate) fn before_navigation(
        &mut self,
        session: &Session,
    ) -> impl Future<Output = ()> + Send + use<> {
        let id = session_key(session);
        let kept = self.accessible.remove(&id);
        if kept {
            self.let_go.insert(id);
        }
        let session = session.clone();
        async move {
            if kept
                && let Err(e) = session
                    .send_within(&accessibility::Disable {}, limits::ACCESSIBILITY_LET_GO)
                    .await
            {
                tracing::debug!(target: "rove_page", error = %e, "accessibility stays on");
            }
        }
    }

    /// After the walker answered in `frame`'s world: a navigation that let
    /// the tree go and left this document where it was (a download, a
    /// refused redirect, a 204) gets the tree back for it.
    pub(crate) async fn read_from(&mut self, frame: &Frame) -> Result<(), PageError> {
        let key = world_key(frame);
        let current = self
            .entries
            .get(&key)
            .is_some_and(|e| e.loader == frame.loader);
        if !current || !self.let_go.remove(&key.0) {
            return Ok(());
        }
        if !self.approximate.contains(&key.0) && self.accessible.insert(key.0) {
            keep_accessibility(&frame.session).await?;
        }
        Ok(())
    }
}

/// Keeps Chromium's accessibility tree alive for the session. Without it,
/// every `computedRole` builds and drops a tree of its own (20 ms for a page
/// of 40 elements, minutes for a large one); with it, reading roles and names
/// costs microseconds an element. Enabling is per session and survives
/// navigations; fetching the root once builds the tree.
async fn keep_accessibility(session: &Session) -> Result<(), PageError> {
    session.send(&accessibility::Enable {}).await?;
    session
        .send(&accessibility::GetRootAXNode::default())
        .await?;
    Ok(())
}

async fn create_world(frame: &Frame, roles: Roles) -> Result<World, PageError> {
    let created = frame
        .session
        .send(&CreateIsolatedWorld {
            frame_id: frame.id.clone(),
            world_name: Some(WORLD_NAME.to_owned()),
            grant_univeral_access: Some(false),
            ..Default::default()
        })
        .await?;
    let context = created.execution_context_id;
    if context == 0 {
        return Err(PageError::Script(
            "Page.createIsolatedWorld returned no context".into(),
        ));
    }
    // A walker that throws while installing is rove's bug: INTERNAL,
    // naming walker.js and the line (rove-cdp's checked helper).
    let install = Evaluate {
        expression: format!("{}{}\ndocument", roles.prelude(), crate::walker::source()),
        context_id: Some(context),
        ..Evaluate::default()
    }
    .named("walker.js");
    let document = frame
        .session
        .run_checked(&install, None)
        .await?
        .object_id
        .ok_or_else(|| PageError::Script("the world has no document".into()))?;
    let page_document = page_document(&frame.session, &document).await;
    Ok(World {
        session: frame.session.clone(),
        context,
        document,
        page_document,
    })
}

/// The same document as an object of the page's main world. Listener queries
/// must start there: asked from rove's world, DOMDebugger sees the page's
/// listeners only with `pierce`, and piercing after accessibility reads has
/// crashed Chromium 156's renderer. The object belongs to no object group on
/// purpose: given an object of a group, `DOMDebugger.getEventListeners`
/// wraps every handler into a remote object of that group, source text
/// included (on MiniWoB++'s social-media, 100 KB and 2.1 ms per view instead
/// of 13 KB and 0.7 ms), and the wrappers pile up until the group is released.
async fn page_document(session: &Session, ours: &str) -> Option<String> {
    let described = session.send(&DescribeNode::of(ours)).await.ok()?;
    let resolved = session
        .send(&ResolveNode {
            backend_node_id: Some(described.node.backend_node_id),
            ..ResolveNode::default()
        })
        .await
        .ok()?;
    resolved.object.object_id
}

#[derive(Deserialize)]
struct Answer<T> {
    #[serde(default = "none")]
    result: Remote<T>,
    #[serde(default, rename = "exceptionDetails")]
    exception: Option<Value>,
}

fn none<T>() -> Remote<T> {
    Remote { value: None }
}

#[derive(Deserialize)]
struct Remote<T> {
    #[serde(default = "Option::default")]
    value: Option<T>,
}

/// Why a walker call did not return a value.
#[derive(Debug)]
pub(crate) enum CallFailure {
    /// The world is gone (navigation); rebuild it and try again.
    Stale,
    Failed(PageError),
}

/// What an exception the walker threw says, in one line: its first line
/// and where (its stack, thousands of frames deep on a page nested as
/// deep, stays out of the error).
fn exception_summary(details: &Value) -> String {
    let described = details
        .pointer("/exception/description")
        .and_then(Value::as_str)
        .or_else(|| details.get("text").and_then(Value::as_str))
        .unwrap_or("an exception");
    let first = described.lines().next().unwrap_or_default();
    let first = rove_base::text::ellipsized(first, 300);
    match details.get("lineNumber").and_then(Value::as_u64) {
        Some(line) => format!("{first} (walker line {})", line + 1),
        None => first,
    }
}

/// Calls `__rove.<call>` in the world and decodes the answer. The answer
/// crosses as one JSON string the walker's world writes
/// (`JSON.stringify`): Chromium turning a walk's 20,000 records into
/// protocol values itself held the page's thread 150–220 ms on a log of
/// 20,000 lines, where writing the string takes 15 (docs/benchmarks.md).
/// The page's scripts cannot reach the world's `JSON`.
pub(crate) async fn call_walker<T: DeserializeOwned>(
    world: &World,
    call: &str,
) -> Result<T, CallFailure> {
    let evaluate = Evaluate {
        expression: format!("JSON.stringify(__rove.{call})"),
        context_id: Some(world.context),
        return_by_value: Some(true),
        ..Evaluate::default()
    };
    let raw = match world.session.send_raw(&evaluate, None).await {
        Ok(raw) => raw,
        Err(e) if e.document_gone() => return Err(CallFailure::Stale),
        Err(e) => return Err(CallFailure::Failed(e.into())),
    };
    let unreadable = |e: serde_json::Error| {
        CallFailure::Failed(PageError::Script(format!(
            "the walker's answer did not parse: {e}"
        )))
    };
    let answer: Answer<String> = rove_cdp::lossy_json::from_json(raw.get()).map_err(unreadable)?;
    if let Some(exception) = answer.exception {
        let text = exception_summary(&exception);
        if text.contains("__rove is not defined") {
            return Err(CallFailure::Stale);
        }
        return Err(CallFailure::Failed(PageError::Script(text)));
    }
    let text = answer.result.value.ok_or_else(|| {
        CallFailure::Failed(PageError::Script("the walker returned nothing".into()))
    })?;
    rove_cdp::lossy_json::from_json(&text).map_err(unreadable)
}

/// Marks elements with click listeners (from DOMDebugger) in the world, so
/// the walker can give them refs. Returns the backendNodeIds newly marked.
/// Listeners inside shadow roots are not seen (no `pierce`, see
/// [`page_document`]); the walker's pointer-cursor rule still finds most.
pub(crate) async fn mark_clickable(
    world: &World,
    already: &HashSet<i64>,
) -> Result<Vec<i64>, PageError> {
    let Some(page_document) = &world.page_document else {
        return Ok(Vec::new());
    };
    let listeners = world
        .session
        .send(&GetEventListeners {
            object_id: page_document.clone(),
            depth: Some(-1),
            pierce: Some(false),
        })
        .await?;
    let mut fresh: Vec<i64> = listeners
        .listeners
        .iter()
        .filter(|l| CLICK_EVENTS.contains(&l.kind.as_str()))
        .filter_map(|l| l.backend_node_id)
        .filter(|id| !already.contains(id))
        .collect();
    fresh.sort_unstable();
    fresh.dedup();
    if fresh.is_empty() {
        return Ok(fresh);
    }
    let group = "rove-marks";
    let asks: Vec<ResolveNode> = fresh
        .iter()
        .map(|id| ResolveNode {
            backend_node_id: Some(*id),
            execution_context_id: Some(world.context),
            object_group: Some(group.to_owned()),
            ..ResolveNode::default()
        })
        .collect();
    let resolved =
        futures_util::future::join_all(asks.iter().map(|ask| world.session.send(ask))).await;
    let arguments: Vec<CallArgument> = resolved
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .filter_map(|r| r.object.object_id.as_deref())
        .map(CallArgument::object)
        .collect();
    if !arguments.is_empty() {
        let mut call = CallFunctionOn::on(
            "walker.js (markClickable)",
            "function(...els) { return __rove.markClickable(...els); }",
            world.document.as_str(),
        )
        .group(group);
        call.arguments = Some(arguments);
        world.session.run_checked(&call, None).await?;
    }
    release(world, group).await;
    Ok(fresh)
}

/// Looks for closed shadow roots on the elements the walker named (custom
/// elements it could not see into, and plain elements that show evidence of
/// a shadow tree: see `walker.js`), and hands any it finds to the walker.
/// Each element is named once. True if one was found.
pub(crate) async fn adopt_closed_roots(world: &World, hosts: &[u32]) -> Result<bool, PageError> {
    let group = "rove-hosts";
    let found =
        futures_util::future::join_all(hosts.iter().map(|uid| adopt_one(world, *uid, group))).await;
    release(world, group).await;
    let mut any = false;
    for result in found {
        any |= result?;
    }
    Ok(any)
}

async fn adopt_one(world: &World, uid: u32, group: &str) -> Result<bool, PageError> {
    let Some(host) = element_object(world, uid, group).await? else {
        return Ok(false);
    };
    let described = world.session.send(&DescribeNode::of(host.as_str())).await?;
    let closed = described
        .node
        .shadow_roots
        .iter()
        .flatten()
        .find(|r| r.shadow_root_type == Some(ShadowRootType::Closed))
        .map(|r| r.backend_node_id);
    let root = match closed {
        Some(backend) => {
            world
                .session
                .send(&ResolveNode {
                    backend_node_id: Some(backend),
                    execution_context_id: Some(world.context),
                    object_group: Some(group.to_owned()),
                    ..ResolveNode::default()
                })
                .await?
                .object
                .object_id
        }
        None => None,
    };
    let mut call = CallFunctionOn::on(
        "walker.js (adoptClosedRoot)",
        "function(root) { __rove.adoptClosedRoot(this, root || null); }",
        host,
    );
    if let Some(root) = &root {
        call = call.arg(CallArgument::object(root.as_str()));
    }
    world.session.run_checked(&call, None).await?;
    Ok(root.is_some())
}

/// The frame id of the iframe element with `uid`.
pub(crate) async fn iframe_frame_id(world: &World, uid: u32) -> Result<Option<String>, PageError> {
    let group = "rove-frames";
    let Some(object) = element_object(world, uid, group).await? else {
        return Ok(None);
    };
    let described = world.session.send(&DescribeNode::of(object)).await;
    release(world, group).await;
    Ok(described?.node.frame_id)
}

/// The element with `uid` as an object of the world, or `None` if it is gone.
pub(crate) async fn element_object(
    world: &World,
    uid: u32,
    group: &str,
) -> Result<Option<String>, PageError> {
    let call = CallFunctionOn::on(
        "walker.js (lookup)",
        "function(u) { return __rove.lookup(u); }",
        world.document.as_str(),
    )
    .value(uid)
    .group(group);
    let found = world.session.run_checked(&call, None).await?;
    Ok(found.object_id)
}

async fn release(world: &World, group: &str) {
    let _ = world
        .session
        .send(&ReleaseObjectGroup {
            object_group: group.to_owned(),
        })
        .await;
}
