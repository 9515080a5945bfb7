//! Waiting for the page to settle after input: a navigation it started, then
//! the DOM and the network going quiet, and, when the input talked to the
//! server over a WebSocket or an event stream, that server's answer. Never a
//! fixed sleep; every wait is capped.

use std::time::Duration;

use rove_browser::Tab;
use rove_cdp::EventStream;
use rove_cdp::protocol::runtime::CallFunctionOn;
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

fn limits() -> SettleLimits {
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
    /// stream, when the input asked for one.
    pub stream: StreamEnd,
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
}

impl Asked {
    fn note(&mut self, event: &rove_cdp::Event) {
        use rove_cdp::protocol::network::{
            EventSourceMessageReceived, LoadingFailed, LoadingFinished, RequestWillBeSent,
            ResourceType, ResponseReceived, WebSocketFrameReceived, WebSocketFrameSent,
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
                        self.requests.insert(sent.request_id);
                    }
                    _ => {}
                }
            }
            ResponseReceived::METHOD => {
                if let Ok(response) = event.parse::<ResponseReceived>() {
                    if self.requests.contains(&response.request_id) {
                        self.responding.insert(response.request_id);
                    }
                }
            }
            LoadingFinished::METHOD => {
                if let Ok(done) = event.parse::<LoadingFinished>() {
                    self.responding.remove(&done.request_id);
                }
            }
            LoadingFailed::METHOD => {
                if let Ok(failed) = event.parse::<LoadingFailed>() {
                    self.responding.remove(&failed.request_id);
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

/// Waits for the DOM of the element's document to go quiet (or its document
/// to go away), noting any main-frame navigation the input started; if one
/// started, waits for it to load.
pub(crate) async fn settle(tab: &Tab, element: &Element, events: &mut EventStream) -> Settled {
    settle_with(tab, &element.session, &element.object_id, events).await
}

/// Settling after input that was not aimed at an element rove resolved (a
/// key press): `object_id` is any node of the document to watch. `events`
/// must have been subscribed before the input was sent, so a navigation the
/// input started is seen.
pub(crate) async fn settle_document(
    tab: &Tab,
    session: &rove_cdp::Session,
    object_id: &str,
    events: &mut EventStream,
) -> Settled {
    settle_with(tab, session, object_id, events).await
}

/// After the DOM and the network went quiet: when the input asked a server
/// something over a WebSocket or an event stream (or sent a request while
/// the page listens on a stream, or a response of it is still streaming),
/// waits for the answer to arrive and the connections to go quiet, then
/// for the DOM again; all within `limits.stream_cap` of `started`.
#[allow(clippy::too_many_arguments)]
async fn answer_over_streams(
    tab: &Tab,
    session: &rove_cdp::Session,
    object_id: &str,
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
    let wait = server_answered(tab, watch, answer_after, deadline, limits.stream_quiet);
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
    let call = CallFunctionOn::on("the DOM quiet wait after an answer", DOM_QUIET, object_id)
        .value(limits.quiet.as_millis() as u64)
        .value(limits.dom_cap.as_millis() as u64)
        .awaiting()
        .by_value();
    let _ = tokio::time::timeout(
        limits.dom_cap + rove_base::limits::SETTLE_DOM_SLACK,
        session.run_checked(&call, None),
    )
    .await;
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

/// Whether the page shows, now or within `window` ms, that it is still
/// working: an element marked busy, a progress bar with no value (a
/// spinner), or an indicator named "Running…" or "Loading…" (Streamlit's
/// running man is `role=img aria-label="Running..."` while its server runs
/// the script, with no frame between the first and the last).
const PAGE_BUSY: &str = "(window) => new Promise((resolve) => { const selector = '[aria-busy=\"true\"], [role=progressbar]:not([aria-valuenow]), [role=img][aria-label^=\"Running\" i], [role=status][aria-label^=\"Running\" i], [role=img][aria-label^=\"Loading\" i], [role=status][aria-label^=\"Loading\" i]'; const busy = () => { const found = document.querySelector(selector); if (!found) return false; const r = found.getBoundingClientRect(); return r.width > 0 && r.height > 0; }; if (busy()) return resolve(true); const observer = new MutationObserver(() => { if (busy()) { observer.disconnect(); resolve(true); } }); observer.observe(document, {subtree: true, childList: true, attributes: true}); setTimeout(() => { observer.disconnect(); resolve(busy()); }, window); })";

/// Whether the page shows it is still working, now or within
/// [`rove_base::limits::SERVER_BUSY_WINDOW`] (see [`PAGE_BUSY`]).
async fn page_busy(tab: &Tab) -> bool {
    page_busy_within(tab, rove_base::limits::SERVER_BUSY_WINDOW).await
}

/// Whether the page shows it is still working, now or within `window`
/// (`Duration::ZERO`: now, for one round trip).
pub async fn page_busy_within(tab: &Tab, window: Duration) -> bool {
    let window = window.as_millis();
    tab.evaluate(&format!("({PAGE_BUSY})({window})"))
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// Waits until the page's server has answered over its WebSockets and
/// event streams: something arrived beyond `answer_after` (when given), no
/// socket awaits an answer, nothing arrived for `quiet`, and, while a
/// socket is open, the page shows no sign of still working (its server
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
        let busy = watch.streams().sockets > 0 && page_busy(tab).await;
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

/// Resolves once the document of `this` went `quiet` ms without a mutation,
/// or after `cap` ms.
const DOM_QUIET: &str = "function(quiet, cap) { const doc = this.ownerDocument || document; return new Promise((resolve) => { let timer; const done = () => { observer.disconnect(); resolve(true); }; const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quiet); }); observer.observe(doc, {subtree: true, childList: true, attributes: true, characterData: true}); timer = setTimeout(done, quiet); setTimeout(done, cap); }); }";

async fn settle_with(
    tab: &Tab,
    session: &rove_cdp::Session,
    object_id: &str,
    events: &mut EventStream,
) -> Settled {
    // The command's time split counts this whole wait as settling.
    let _phase = rove_cdp::meter::settle_starts();
    let started = std::time::Instant::now();
    let limits = limits();
    let mut settled = Settled::default();
    let watch = tab.watch().await.ok();
    let incoming_before = watch.as_ref().map(|w| w.streams().incoming);
    let call = CallFunctionOn::on("the DOM quiet wait", DOM_QUIET, object_id)
        .value(limits.quiet.as_millis() as u64)
        .value(limits.dom_cap.as_millis() as u64)
        .awaiting()
        .by_value();
    let quiet = session.run_checked(&call, None);
    // The quiet wait fails when the document is replaced: that is a
    // navigation, which the events report. A dialog stops the page's
    // scripts, so the wait ends when one opens.
    let dialog = async {
        match tab.watch().await {
            Ok(watch) => watch.wait_for_dialog(limits.dom_cap).await,
            Err(_) => std::future::pending().await,
        }
    };
    let network = async {
        if let Ok(watch) = tab.watch().await {
            watch.network_quiet(limits.quiet, limits.network_cap).await;
        }
    };
    let both = async {
        let dom = tokio::time::timeout(limits.dom_cap + rove_base::limits::SETTLE_DOM_SLACK, quiet);
        tokio::join!(dom, network)
    };
    tokio::select! {
        _ = both => {}
        Some(_) = dialog => return settled,
    }
    let mut seen = Vec::new();
    let mut asked = Asked::default();
    while let Some(Ok(event)) = events.try_recv() {
        asked.note(&event);
        seen.push(event);
    }
    let navigating = {
        let mut any = false;
        for event in &seen {
            any |= is_main_navigation(tab, event).await;
        }
        any
    };
    if let (false, Some(watch), Some(before)) = (navigating, &watch, incoming_before) {
        let answer = answer_over_streams(
            tab, session, object_id, watch, &asked, before, started, &limits,
        );
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
