//! Waiting for the page to settle after input: a navigation it started, then
//! the DOM and the network going quiet, and, when the input talked to the
//! server over a WebSocket or an event stream, that server's answer. Never a
//! fixed sleep; every wait is capped.

use std::time::Duration;

use rove_browser::{Activity, Awaited, Mark, Tab, Where};
use rove_cdp::EventStream;
use rove_cdp::protocol::{EventType, page};
use rove_page::Element;

/// How settling waits. The defaults are chosen from measurements
/// (docs/benchmarks.md); a caller sets others for the actions it runs with
/// [`with_settle_limits`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SettleLimits {
    /// How long the DOM and the network must stay unchanged to count as
    /// settled: past the frame a page usually answers input in, short
    /// enough that an action that changes nothing returns fast.
    pub quiet: Duration,
    /// The longest rove waits for the DOM to go quiet.
    pub dom_cap: Duration,
    /// The longest rove waits for requests the input started to finish.
    pub network_cap: Duration,
    /// The longest rove waits for a navigation the input started to load.
    pub navigation_cap: Duration,
    /// The longest rove waits, from the input on, for an answer over a
    /// WebSocket or an event stream and for those to go quiet.
    pub stream_cap: Duration,
    /// How long the WebSockets and streams must receive nothing for the
    /// answer to count as complete.
    pub stream_quiet: Duration,
}

impl Default for SettleLimits {
    fn default() -> Self {
        SettleLimits {
            quiet: rove_base::limits::SETTLE_QUIET,
            dom_cap: rove_base::limits::SETTLE_DOM,
            network_cap: rove_base::limits::SETTLE_NETWORK,
            navigation_cap: rove_base::limits::SETTLE_NAVIGATION,
            stream_cap: rove_base::limits::SETTLE_STREAM,
            stream_quiet: rove_base::limits::SETTLE_STREAM_QUIET,
        }
    }
}

tokio::task_local! {
    static LIMITS: SettleLimits;
}

/// Runs `work` (actions) with these settling limits. Scoped to the task, so
/// sessions running side by side keep their own.
pub async fn with_settle_limits<F: std::future::Future>(
    limits: SettleLimits,
    work: F,
) -> F::Output {
    LIMITS.scope(limits, work).await
}

pub(crate) fn limits() -> SettleLimits {
    LIMITS.try_with(|l| *l).unwrap_or_default()
}

/// What the page did after the input.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settled {
    /// The main frame started a navigation.
    pub navigated: bool,
    /// The navigation finished loading within the cap.
    pub loaded: bool,
    /// The navigation turned into a download: the page stayed where it was.
    pub downloaded: bool,
    /// The navigation stopped without a new document (a `204 No Content`, a
    /// navigation the browser or the page cancelled): the page stayed.
    pub stopped: bool,
    /// What became of a server's answer over a WebSocket or an event
    /// stream, when the input asked for one; or of a request it sent that
    /// was not answered within the network wait (`NoAnswer`).
    pub stream: StreamEnd,
}

impl Settled {
    /// What the page did over an input settled in parts (a slider's
    /// presses, waited on before the last one): this wait, then `later`.
    /// A navigation or a download in either counts; the server's answer is
    /// the later wait's, unless it asked nothing that way.
    pub(crate) fn then(self, later: Settled) -> Settled {
        Settled {
            navigated: self.navigated || later.navigated,
            loaded: self.loaded || later.loaded,
            downloaded: self.downloaded || later.downloaded,
            stopped: self.stopped || later.stopped,
            stream: match later.stream {
                StreamEnd::NotAsked => self.stream,
                asked => asked,
            },
        }
    }
}

/// What became of the answer input asked of a server over a WebSocket or an
/// event stream (it sent a frame, opened a stream, or sent a request while
/// the page listened on one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum StreamEnd {
    /// The input asked nothing that way.
    #[default]
    NotAsked,
    /// The answer came and the connections went quiet.
    Answered,
    /// Nothing came back within the cap (how long rove waited).
    NoAnswer(Duration),
    /// The answer was still arriving when the cap passed.
    StillReceiving(Duration),
}

impl StreamEnd {
    /// Whether the page may still change with an answer on its way.
    pub fn unfinished(&self) -> bool {
        matches!(self, StreamEnd::NoAnswer(_) | StreamEnd::StillReceiving(_))
    }
}

/// What the input's own events say it asked over long-lived connections.
#[derive(Debug, Default)]
struct Asked {
    /// It sent a WebSocket frame.
    frame: bool,
    /// It opened an event stream.
    stream: bool,
    /// It sent a fetch or an XHR.
    request: bool,
    /// Something came back over a socket or a stream after it asked.
    answered: bool,
    /// The fetches and XHRs it sent, by request id…
    requests: std::collections::HashSet<String>,
    /// …and those whose response has begun and not ended: streaming.
    responding: std::collections::HashSet<String>,
    /// What it sent that the page will act on when it arrives (fetches,
    /// XHRs, scripts, stylesheets) and that has not finished: the evidence
    /// that an answer is on its way.
    pending: std::collections::HashSet<String>,
    /// The addresses of those pending, by request id…
    addresses: std::collections::HashMap<String, String>,
    /// …and those that finished since the document was last asked: the
    /// page acts on them once it has received them, which the browser's
    /// events can tell before it has.
    arrived: Vec<String>,
}

/// The most addresses of requests one settle waits for the document to
/// have, and the longest address it keeps (see [`Asked::awaits`]).
const ADDRESSES_KEPT: usize = 64;
const ADDRESS_MAX: usize = 2048;

impl Asked {
    /// A request the page will act on when it arrives; its address is kept
    /// where the page's resource timing names it (http and https: a data
    /// URL's answer is the page's at once), up to ADDRESSES_KEPT addresses
    /// of up to ADDRESS_MAX bytes: a page that fetches thousands, or
    /// addresses of megabytes, gets the same bounded wait without them.
    fn awaits(&mut self, id: &str, address: &str) {
        self.pending.insert(id.to_owned());
        let kept = self.addresses.len() + self.arrived.len() < ADDRESSES_KEPT;
        if kept
            && address.len() <= ADDRESS_MAX
            && (address.starts_with("http://") || address.starts_with("https://"))
        {
            // Resource timing names a resource without its fragment.
            let address = address.split('#').next().unwrap_or(address);
            self.addresses.insert(id.to_owned(), address.to_owned());
        }
    }

    fn note(&mut self, event: &rove_cdp::Event) {
        use rove_cdp::protocol::network::{
            EventSourceMessageReceived, LoadingFailed, LoadingFinished, RequestServedFromCache,
            RequestWillBeSent, ResourceType, ResponseReceived, WebSocketFrameReceived,
            WebSocketFrameSent,
        };
        match event.method.as_str() {
            WebSocketFrameSent::METHOD => {
                self.frame = true;
                self.answered = false;
            }
            RequestWillBeSent::METHOD => {
                let Ok(sent) = event.parse::<RequestWillBeSent>() else {
                    return;
                };
                match sent.kind {
                    Some(ResourceType::EventSource) => {
                        self.stream = true;
                        self.answered = false;
                    }
                    Some(ResourceType::Fetch | ResourceType::Xhr) => {
                        self.request = true;
                        self.awaits(&sent.request_id, &sent.request.url);
                        self.requests.insert(sent.request_id);
                    }
                    // The main frame's document is a navigation's, which
                    // settling follows by its own events.
                    Some(ResourceType::Script | ResourceType::Stylesheet) => {
                        self.awaits(&sent.request_id, &sent.request.url);
                    }
                    _ => {}
                }
            }
            ResponseReceived::METHOD => {
                if let Ok(response) = event.parse::<ResponseReceived>()
                    && self.requests.contains(&response.request_id)
                {
                    self.responding.insert(response.request_id);
                }
            }
            LoadingFinished::METHOD => {
                if let Ok(done) = event.parse::<LoadingFinished>() {
                    self.responding.remove(&done.request_id);
                    self.pending.remove(&done.request_id);
                    if let Some(address) = self.addresses.remove(&done.request_id) {
                        self.arrived.push(address);
                    }
                }
            }
            // Served from the memory cache: the page has it at once, and
            // its resource timing may record nothing of it.
            RequestServedFromCache::METHOD => {
                if let Ok(cached) = event.parse::<RequestServedFromCache>() {
                    self.addresses.remove(&cached.request_id);
                }
            }
            LoadingFailed::METHOD => {
                if let Ok(failed) = event.parse::<LoadingFailed>() {
                    self.responding.remove(&failed.request_id);
                    self.pending.remove(&failed.request_id);
                    self.addresses.remove(&failed.request_id);
                }
            }
            WebSocketFrameReceived::METHOD | EventSourceMessageReceived::METHOD => {
                self.answered = self.frame || self.stream || self.request;
            }
            _ => {}
        }
    }
}

/// How a navigation the input started ended, as far as settling is
/// concerned.
enum NavigationEnd {
    /// The new document's load event.
    Loaded,
    /// It became a download.
    Downloaded,
    /// It stopped loading without a load event.
    Stopped,
}

/// Which document settling watches: the one of an element rove resolved
/// (its frame's), or the tab's main frame (keys sent to whatever has the
/// focus).
#[derive(Debug, Clone)]
pub(crate) enum Watched {
    Object {
        session: rove_cdp::Session,
        object_id: String,
    },
    MainFrame,
}

impl Watched {
    pub(crate) fn element(element: &Element) -> Watched {
        Watched::Object {
            session: element.session.clone(),
            object_id: element.object_id.clone(),
        }
    }

    fn activity<'a>(&'a self, tab: &'a Tab) -> Activity<'a> {
        let at = match self {
            Watched::Object { session, object_id } => Where::Object { session, object_id },
            Watched::MainFrame => Where::MainFrame,
        };
        Activity::of(tab, at)
    }
}

/// What settling knows from before the input: the events from then on,
/// the document's mutation counts, and what the page's connections had
/// received.
pub(crate) struct Armed {
    watched: Watched,
    events: EventStream,
    /// `None` when the document could not be asked (it is then watched
    /// from its load on, and a change since counts).
    mark: Option<Mark>,
    incoming: Option<u64>,
}

/// Takes the marks settling measures from; call it before the input, with
/// `events` subscribed before it too (a navigation the input started must
/// be seen).
pub(crate) async fn arm(tab: &Tab, watched: Watched, events: EventStream) -> Armed {
    let mark = watched.activity(tab).mark().await;
    if let Err(e) = &mark {
        tracing::debug!(target: "rove_input", error = %e, "could not mark the document before input");
    }
    let incoming = match tab.watch().await {
        Ok(watch) => Some(watch.streams().incoming),
        Err(_) => None,
    };
    Armed {
        watched,
        events,
        mark: mark.ok(),
        incoming,
    }
}

impl Armed {
    /// The events from before the input on (input that reads them itself,
    /// such as a drag, leaves the rest for settling).
    pub(crate) fn events(&mut self) -> &mut EventStream {
        &mut self.events
    }
}

/// Arms settling on the element's document (see [`arm`]).
pub(crate) async fn arm_element(tab: &Tab, element: &Element, events: EventStream) -> Armed {
    arm(tab, Watched::element(element), events).await
}

/// Waits until the page has answered the input (see [`settle_armed`]).
pub(crate) async fn settle(tab: &Tab, armed: &mut Armed) -> Settled {
    settle_armed(tab, armed).await
}

/// Runs `act`, input rove gives the page by other means than keys and the
/// pointer (files set on a file input), and waits as after any input for
/// the page to answer it: an upload's request and the app's result.
pub async fn settle_after<T, E: From<crate::InputError>>(
    tab: &Tab,
    element: &Element,
    act: impl std::future::Future<Output = Result<T, E>>,
) -> Result<(T, Settled), E> {
    let channel = crate::channel::InputChannel::of(tab)
        .await
        .map_err(crate::InputError::from)?;
    let mut armed = arm_element(tab, element, channel.subscribe()).await;
    let done = act.await?;
    Ok((done, settle_armed(tab, &mut armed).await))
}

/// Runs `act`, the answer to a dialog that holds the page, and waits as
/// after input for what the page does once its script goes on: a
/// navigation the dialog let happen (a `beforeunload` accepted) until the
/// new document loaded, the requests it sends, its changes. Nothing can be
/// marked in a page a dialog holds, so changes count from its load.
pub async fn settle_after_dialog<T, E: From<crate::InputError>>(
    tab: &Tab,
    act: impl std::future::Future<Output = Result<T, E>>,
) -> Result<(T, Settled), E> {
    let channel = crate::channel::InputChannel::of(tab)
        .await
        .map_err(crate::InputError::from)?;
    let incoming = tab.watch().await.ok().map(|w| w.streams().incoming);
    let mut armed = Armed {
        watched: Watched::MainFrame,
        events: channel.subscribe(),
        mark: None,
        incoming,
    };
    let done = act.await?;
    Ok((done, settle_armed(tab, &mut armed).await))
}

/// After the DOM and the requests went quiet: when the input asked a server
/// something over a WebSocket or an event stream (or sent a request while
/// the page listens on a stream, or a response of it is still streaming),
/// waits for the answer to arrive and the connections to go quiet, then
/// for the DOM again; all within `limits.stream_cap` of `started`.
async fn answer_over_streams(
    tab: &Tab,
    document: &mut Document<'_>,
    watch: &rove_browser::TabWatch,
    asked: &Asked,
    incoming_before: u64,
    started: std::time::Instant,
    limits: &SettleLimits,
) -> StreamEnd {
    let now = watch.streams();
    // A response of the input's own that began and has not ended is a
    // stream (a request merely not answered yet is the network wait's).
    let streaming = !asked.responding.is_empty();
    let listening = asked.request && now.event_streams > 0;
    if !(asked.frame || asked.stream || listening || streaming) {
        return StreamEnd::NotAsked;
    }
    // Something that came back while the DOM settled counts; so does an
    // answer the input's own events show, which may have come before this
    // wait took its count.
    let answer_after = (!asked.answered).then_some(incoming_before);
    let deadline = started + limits.stream_cap;
    // A page whose server paused inside its answers before gets a window
    // scaled to it: evidence of how this page answers, not one clock.
    let quiet = now.answer_quiet(limits.stream_quiet);
    let wait = server_answered(tab, watch, answer_after, deadline, quiet);
    if let ServerWait::Pending = wait.await {
        let waited = started.elapsed();
        let answered = asked.answered || watch.streams().incoming > incoming_before;
        return match answered {
            true => StreamEnd::StillReceiving(waited),
            false => StreamEnd::NoAnswer(waited),
        };
    }
    // What the answer drew may fetch more (the code of a widget it shows).
    watch.network_quiet(limits.quiet, limits.network_cap).await;
    document.settled(limits).await;
    StreamEnd::Answered
}

/// How a wait for a server's answer over the page's connections ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerWait {
    /// The answer came, the connections went quiet and the page shows no
    /// sign of still working.
    Quiet,
    /// The deadline passed first.
    Pending,
}

/// Whether the page shows it is still working, now or within
/// [`rove_base::limits::SERVER_BUSY_WINDOW`]: an element marked busy, a
/// progress bar with no value (a spinner), or an indicator named
/// "Running…" or "Loading…" (Streamlit's running man is `role=img
/// aria-label="Running..."` while its server runs the script, with no frame
/// between the first and the last). Asked in rove's own world.
async fn page_busy(tab: &Tab) -> bool {
    page_busy_within(tab, rove_base::limits::SERVER_BUSY_WINDOW).await
}

/// Whether the page shows it is still working, now or within `window`
/// (`Duration::ZERO`: now, for one round trip). A page that cannot be
/// asked is not busy.
pub async fn page_busy_within(tab: &Tab, window: Duration) -> bool {
    Activity::of(tab, Where::MainFrame)
        .busy_within(window)
        .await
        .unwrap_or(false)
}

/// Waits until the page's server has answered over its WebSockets and
/// event streams: something arrived beyond `answer_after` (when given), no
/// socket awaits an answer, nothing arrived for `quiet`, and the page
/// shows no sign of still working (its server
/// may compute for seconds between the frame that says it started and the
/// ones that carry the result). Up to `deadline`.
pub async fn server_answered(
    tab: &Tab,
    watch: &rove_browser::TabWatch,
    answer_after: Option<u64>,
    deadline: std::time::Instant,
    quiet: Duration,
) -> ServerWait {
    let left = || deadline.saturating_duration_since(std::time::Instant::now());
    if !watch.streams_quiet(quiet, answer_after, left()).await {
        return ServerWait::Pending;
    }
    loop {
        let busy = page_busy(tab).await;
        if !busy {
            return ServerWait::Quiet;
        }
        if left().is_zero() {
            return ServerWait::Pending;
        }
        // Woken early by a frame; then the frames must go quiet again.
        let mut changes = watch.changes();
        let _ = tokio::time::timeout(
            rove_base::limits::SERVER_BUSY_POLL.min(left()),
            changes.changed(),
        )
        .await;
        if !watch.streams_quiet(quiet, None, left()).await {
            return ServerWait::Pending;
        }
    }
}

/// The document settling watches, and the mutation counts it last
/// settled at.
struct Document<'a> {
    activity: Activity<'a>,
    since: Option<Mark>,
    /// When the input was sent, in the document's clock (its mark's).
    input_at: Option<u64>,
}

impl Document<'_> {
    /// Waits until the document stops changing after `since` (see
    /// `activity.js`), and moves `since` on to the counts it ended at;
    /// whether it changed. A document that cannot be asked (it went away:
    /// a navigation, which the events report) is taken as settled.
    async fn settled(&mut self, limits: &SettleLimits) -> bool {
        self.settled_after(limits, Vec::new()).await
    }

    /// [`Document::settled`], once the document has received `arrived`
    /// (what the input asked for, finished by the browser's account) and
    /// has nothing queued: what it does with them counts.
    async fn settled_after(&mut self, limits: &SettleLimits, arrived: Vec<String>) -> bool {
        let awaited = match (self.input_at, arrived.is_empty()) {
            (Some(since), false) => Some(Awaited {
                urls: arrived,
                since,
            }),
            _ => None,
        };
        let settle = self.activity.settle(
            self.since,
            false,
            limits.quiet,
            limits.dom_cap,
            awaited.as_ref(),
        );
        match settle.await {
            Ok(answer) => {
                self.since = Some(answer.mark);
                answer.changed > 0
            }
            Err(e) => {
                tracing::debug!(target: "rove_input", error = %e, "the document's settle wait failed");
                false
            }
        }
    }
}

/// Moves what arrived on `events` into `asked` and `seen`.
fn drain(
    events: &mut EventStream,
    asked: &mut Asked,
    seen: &mut Vec<std::sync::Arc<rove_cdp::Event>>,
) {
    while let Some(Ok(event)) = events.try_recv() {
        asked.note(&event);
        seen.push(event);
    }
}

/// Waits until the page has answered the input, on evidence: what the
/// input changed in the document (nothing: done at once; something: until
/// it stopped), the requests it started (until they finished, and the
/// document again after them), a navigation it started (until the new
/// document loaded), and a server's answer over a WebSocket or an event
/// stream. A dialog ends the wait: it stops the page's scripts.
async fn settle_armed(tab: &Tab, armed: &mut Armed) -> Settled {
    // The command's time split counts this whole wait as settling.
    let _phase = rove_cdp::meter::settle_starts();
    let started = std::time::Instant::now();
    let limits = limits();
    let mut settled = Settled::default();
    let watch = tab.watch().await.ok();
    let mut document = Document {
        activity: armed.watched.activity(tab),
        since: armed.mark,
        input_at: armed.mark.map(|m| m.at),
    };
    let events = &mut armed.events;
    let mut seen = Vec::new();
    let mut asked = Asked::default();
    let dialog = async {
        match &watch {
            Some(watch) => {
                watch
                    .wait_for_dialog(limits.dom_cap + limits.network_cap)
                    .await
            }
            None => std::future::pending().await,
        }
    };
    let answered = async {
        document.settled(&limits).await;
        // The requests the input started (and those its changes started),
        // then the document again, until a round starts nothing new. A
        // request that started and finished while the document was asked
        // (a listing fetched again after a POST) still needs its round:
        // the page acts on its answer after.
        let deadline = started + limits.network_cap;
        loop {
            drain(events, &mut asked, &mut seen);
            if asked.pending.is_empty() && asked.arrived.is_empty() {
                break;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            let finished = async {
                while !asked.pending.is_empty() {
                    match events.recv().await {
                        Ok(event) => {
                            asked.note(&event);
                            seen.push(event);
                        }
                        Err(rove_cdp::EventStreamError::Lagged(_)) => continue,
                        Err(rove_cdp::EventStreamError::Closed) => return,
                    }
                }
            };
            if tokio::time::timeout(left, finished).await.is_err() {
                break;
            }
            document
                .settled_after(&limits, std::mem::take(&mut asked.arrived))
                .await;
        }
    };
    tokio::select! {
        _ = answered => {}
        Some(_) = dialog => return settled,
    }
    drain(events, &mut asked, &mut seen);
    let navigating = {
        let mut any = false;
        for event in &seen {
            any |= is_main_navigation(tab, event).await;
        }
        any
    };
    if let (false, Some(watch), Some(before)) = (navigating, &watch, armed.incoming) {
        let answer =
            answer_over_streams(tab, &mut document, watch, &asked, before, started, &limits);
        // An answer that opens a dialog stops the page's scripts.
        tokio::select! {
            end = answer => settled.stream = end,
            Some(_) = watch.wait_for_dialog(limits.stream_cap) => return settled,
        }
        // An answer may have moved the page on.
        while let Some(Ok(event)) = events.try_recv() {
            seen.push(event);
        }
    }
    drain(events, &mut asked, &mut seen);
    // A request the input started that its server has not answered when
    // the wait ran out: the page may still change with its answer, and the
    // answer says so instead of passing for the whole of what happened.
    if settled.stream == StreamEnd::NotAsked && !navigating && !asked.pending.is_empty() {
        settled.stream = StreamEnd::NoAnswer(started.elapsed());
    }
    let mut ended = None;
    for event in seen {
        if is_main_navigation(tab, &event).await {
            settled.navigated = true;
            ended = None;
        }
        if settled.navigated && ended.is_none() {
            ended = navigation_end(tab, &event);
        }
    }
    if settled.navigated && ended.is_none() {
        // The load of the new document, unless the navigation turns into a
        // download or is cancelled: then no load comes, and waiting out the
        // cap would only make the answer late.
        let wait = async {
            loop {
                match events.recv().await {
                    Ok(event) => {
                        if let Some(end) = navigation_end(tab, &event) {
                            return Some(end);
                        }
                    }
                    Err(rove_cdp::EventStreamError::Lagged(_)) => continue,
                    Err(rove_cdp::EventStreamError::Closed) => return None,
                }
            }
        };
        ended = tokio::time::timeout(limits.navigation_cap, wait)
            .await
            .ok()
            .flatten();
    }
    if let Some(NavigationEnd::Stopped) = ended {
        // A download stops the frame's loading a moment before it says it
        // is a download.
        let download = async {
            loop {
                match events.recv().await {
                    Ok(event) => {
                        if let Some(NavigationEnd::Downloaded) = navigation_end(tab, &event) {
                            return;
                        }
                    }
                    Err(rove_cdp::EventStreamError::Lagged(_)) => continue,
                    Err(rove_cdp::EventStreamError::Closed) => std::future::pending().await,
                }
            }
        };
        if tokio::time::timeout(rove_base::limits::DOWNLOAD_GRACE, download)
            .await
            .is_ok()
        {
            ended = Some(NavigationEnd::Downloaded);
        }
    }
    match ended {
        Some(NavigationEnd::Loaded) => settled.loaded = true,
        Some(NavigationEnd::Downloaded) => settled.downloaded = true,
        Some(NavigationEnd::Stopped) => settled.stopped = true,
        None => {}
    }
    settled
}

/// Whether `event` ends the main frame's navigation, and how.
fn navigation_end(tab: &Tab, event: &rove_cdp::Event) -> Option<NavigationEnd> {
    let main_frame = |frame_id: Option<String>| frame_id.as_deref() == Some(tab.target_id());
    match event.method.as_str() {
        page::LoadEventFired::METHOD => Some(NavigationEnd::Loaded),
        page::DownloadWillBegin::METHOD
            if main_frame(
                event
                    .parse::<page::DownloadWillBegin>()
                    .ok()
                    .map(|d| d.frame_id),
            ) =>
        {
            Some(NavigationEnd::Downloaded)
        }
        // After a load the load event came first; without one, the
        // navigation ended with no new document.
        page::FrameStoppedLoading::METHOD
            if main_frame(
                event
                    .parse::<page::FrameStoppedLoading>()
                    .ok()
                    .map(|f| f.frame_id),
            ) =>
        {
            Some(NavigationEnd::Stopped)
        }
        _ => None,
    }
}

async fn is_main_navigation(tab: &Tab, event: &rove_cdp::Event) -> bool {
    let frame = match event.method.as_str() {
        page::FrameRequestedNavigation::METHOD => {
            let Ok(requested) = event.parse::<page::FrameRequestedNavigation>() else {
                return false;
            };
            // A link opened in a new tab or downloaded leaves this page where
            // it is.
            if requested.disposition != page::ClientNavigationDisposition::CurrentTab {
                return false;
            }
            requested.frame_id
        }
        page::FrameStartedNavigating::METHOD => {
            let Ok(started) = event.parse::<page::FrameStartedNavigating>() else {
                return false;
            };
            started.frame_id
        }
        page::FrameNavigated::METHOD => {
            let Ok(navigated) = event.parse::<page::FrameNavigated>() else {
                return false;
            };
            if navigated.frame.parent_id.is_none() {
                return true;
            }
            navigated.frame.id
        }
        _ => return false,
    };
    frame == tab.target_id()
}

#[cfg(test)]
#[path = "settle_tests.rs"]
mod tests;
