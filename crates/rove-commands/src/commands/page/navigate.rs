//! `open`, `back`, `forward`, `reload`: navigations that wait for the load
//! and tell a network error, an HTTP error status and a page that never
//! finished loading apart.

use std::time::{Duration, Instant};

use rove_browser::Tab;
use rove_cdp::protocol::EventType;
use rove_cdp::protocol::network::{ResourceType, ResponseReceived};
use rove_cdp::protocol::page::{self, Navigate};
use rove_cdp::{EventStream, Session as CdpSession};
use rove_page::Mode;

use crate::answer::error::NavigationFailure;
use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::{Session, view_of};
use crate::{CommandError, OpenArgs};

/// Where a navigation ended.
#[derive(Debug, Clone)]
struct Arrival {
    url: String,
    status: Option<u16>,
}

/// What ended a navigation wait.
enum Ended {
    /// The load event, or a restore from the back-forward cache, or a
    /// same-document move.
    Arrived,
    /// The deadline passed first.
    TimedOut,
}

impl Session {
    pub(crate) async fn open(
        &mut self,
        args: &OpenArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let url = normalize_url(&args.url);
        if url.is_empty() {
            return Err(CommandError::Rejected("open needs a URL".into()));
        }
        // By `get`, not by slicing: an address is anyone's text, and a
        // multibyte character across byte 11 must not panic the session.
        if url
            .get(..11)
            .is_some_and(|p| p.eq_ignore_ascii_case("javascript:"))
        {
            return Err(CommandError::Rejected(
                "open takes a page's address; to run JavaScript in the page use eval".into(),
            ));
        }
        let policy = self.context().domain_policy();
        match policy.check(&url) {
            Ok(()) => {}
            Err(refusal @ rove_browser::Refusal::Crashes(_)) => {
                return Err(CommandError::CrashingPage {
                    url,
                    reason: refusal.to_string(),
                });
            }
            Err(refusal) => {
                return Err(CommandError::Blocked {
                    url,
                    reason: refusal.to_string(),
                    allowed: policy.allowed(),
                });
            }
        }
        let (tab, made) = if args.new_tab || self.context().focused().is_none() {
            let tab = self.context().new_tab().await?;
            out.happened.push(Happened::NewTab(tab.id()));
            (tab, args.new_tab)
        } else {
            (self.tab_to_open_in(out).await?, false)
        };
        out.tab = tab.id();
        let letting_go = match self.model() {
            Ok(model) if model.tab().id() == tab.id() => model.before_navigation().await,
            _ => None,
        };
        let timeout = self.config().navigation_timeout;
        let (_, result) = tokio::join!(
            async {
                if let Some(letting_go) = letting_go {
                    letting_go.await;
                }
            },
            navigate(&tab, &url, timeout)
        );
        let arrived = self.arrived(result, &url, out).await;
        match arrived {
            // The tab asked for stays, whatever the navigation did: the
            // failure says so (a session's first tab is no news).
            Err(error) if made => Err(CommandError::InNewTab {
                tab: tab.id(),
                error: Box::new(error),
            }),
            other => other,
        }
    }

    /// `back` (`delta` -1) and `forward` (1).
    pub(crate) async fn history(
        &mut self,
        delta: i64,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let tab = self.focused()?;
        let history = tab.send(&page::GetNavigationHistory {}).await?;
        let current = history.current_index;
        let entries = history.entries;
        let wanted = current + delta;
        let Some(entry) = usize::try_from(wanted).ok().and_then(|i| entries.get(i)) else {
            let which = if delta < 0 { "back" } else { "forward" };
            return Err(CommandError::Rejected(format!(
                "there is no page to go {which} to in this tab's history"
            )));
        };
        let entry_id = entry.id;
        let url = entry.url.clone();
        let timeout = self.config().navigation_timeout;
        let result = drive(&tab, timeout, &url, async |session: &CdpSession| {
            session
                .send(&page::NavigateToHistoryEntry { entry_id })
                .await?;
            Ok(None)
        })
        .await;
        self.arrived(result, &url, out).await
    }

    pub(crate) async fn reload(&mut self, out: &mut Outcome) -> Result<(), CommandError> {
        let tab = self.focused()?;
        let timeout = self.config().navigation_timeout;
        // From the target list, not the page: a page a dialog blocks would
        // not answer.
        let url = self.current_url();
        let result = drive(&tab, timeout, &url, async |session: &CdpSession| {
            session.send(&page::Reload::default()).await?;
            Ok(None)
        })
        .await;
        self.arrived(result, &url, out).await
    }

    /// Turns a navigation's result into the outcome or the typed failure. An
    /// HTTP error page is a failure that carries the page's view.
    async fn arrived(
        &mut self,
        result: Result<Arrival, NavError>,
        url: &str,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let arrival = match result {
            Ok(arrival) => arrival,
            // A redirect the domain policy refused (the tab stays where it
            // was).
            Err(NavError::Failed(NavigationFailure::Network(reason)))
                if self.context().domain_policy().needs_interception()
                    && (reason.contains("ERR_ABORTED")
                        || reason.contains("ERR_BLOCKED_BY_CLIENT")) =>
            {
                let tab = self.focused()?;
                let blocked = tab.watch().await?.take_blocked();
                let Some(refused) = blocked.last() else {
                    return Err(CommandError::Navigation {
                        url: url.to_owned(),
                        failure: NavigationFailure::Network(reason),
                        fresh_view: None,
                    });
                };
                let policy = self.context().domain_policy();
                let reason = match policy.check(refused) {
                    Err(refusal) => format!("a redirect led there: {refusal}"),
                    Ok(()) => "the domain policy refused it".into(),
                };
                return Err(CommandError::Blocked {
                    url: refused.clone(),
                    reason,
                    allowed: policy.allowed(),
                });
            }
            Err(NavError::Failed(failure)) => {
                return Err(CommandError::Navigation {
                    url: url.to_owned(),
                    failure,
                    fresh_view: None,
                });
            }
            Err(NavError::Other(e)) => return Err(e),
        };
        if let Some(status) = arrival.status.filter(|s| *s >= 400) {
            let fresh_view = view_of(self.model()?, Mode::Full, None)
                .await
                .ok()
                .map(|v| v.text);
            return Err(CommandError::Navigation {
                url: arrival.url,
                failure: NavigationFailure::HttpStatus(status),
                fresh_view,
            });
        }
        out.happened.push(Happened::Opened {
            url: arrival.url.clone(),
            status: arrival.status,
        });
        // An app that builds its page after the load event (a single-page
        // app's shell fetching its bundles, or asking its server over a
        // WebSocket) is given time to finish. Meanwhile the view's worlds
        // are made (the page's thread is idle between the settle's frames),
        // unless a dialog stops the page's scripts.
        let tab = self.focused()?;
        let watch = tab.watch().await?;
        let model = self.model()?;
        let prepared = async {
            tokio::select! {
                () = model.prepare_view() => {}
                Some(_) = watch.wait_for_dialog(rove_base::limits::DIALOG_WATCH) => {}
            }
        };
        let (shell, ()) = tokio::join!(shell_settled(&tab), prepared);
        match shell {
            Shell::Built => {}
            Shell::Changing { changes, place } => out.happened.push(Happened::StillChanging {
                secs: rove_base::limits::SHELL_SETTLE.as_secs(),
                changes,
                place,
            }),
            Shell::Unwatched(reason) => out.happened.push(Happened::SettleUnwatched { reason }),
            Shell::Receiving { answered } => out.happened.push(Happened::AwaitingServer {
                secs: rove_base::limits::SETTLE_STREAM.as_secs(),
                answered,
                changed: true,
            }),
        }
        // A new document: the view after it is a full one, not a diff
        // against the page that was left.
        let model = self.model()?;
        out.view = Some(view_of(model, Mode::Full, None).await?);
        Ok(())
    }
}

/// Waits, after the load event, until the page stops changing
/// ([`page_built`]), up to [`rove_base::limits::SHELL_SETTLE`]: a page
/// that changed nothing since its load and has nothing in flight costs
/// one question. Then, when the page has a WebSocket open or its
/// streams are receiving (an app that builds its page from its
/// server's frames, showing a "Running…" shell until they come), up to
/// [`rove_base::limits::SETTLE_STREAM`] more for the server's answer
/// ([`rove_input::server_answered`]), and as long as after the load for
/// the page to stop changing again.
async fn shell_settled(tab: &Tab) -> Shell {
    let _waiting = rove_cdp::meter::settle_starts();
    let Ok(watch) = tab.watch().await else {
        return Shell::Built;
    };
    let deadline = Instant::now() + rove_base::limits::SHELL_SETTLE;
    let settled = crate::session::unless_dialog(tab, async {
        let mut since = None;
        let mut busy = false;
        let built = page_built(tab, &watch, deadline, &mut since, &mut busy).await;
        if !matches!(built, Shell::Built) {
            return Ok(built);
        }
        let quiet = rove_base::limits::SETTLE_STREAM_QUIET;
        tracing::debug!(target: "rove_commands", streams = ?watch.streams(), "the page is built; its connections");
        // A page without a socket or an event stream costs nothing more
        // (the chunks of its own loads are no server's answer).
        if !has_streams(&watch) {
            // An app may open its socket only after its first requests
            // and a pause (Streamlit asks for its health and config
            // first): built and quiet with nothing open yet, it may
            // still show that it is working. Then its socket is waited
            // for too. Asked with the last look at the document: a
            // static page pays nothing more.
            let now = Duration::ZERO;
            if !busy {
                return Ok(Shell::Built);
            }
            let until = Instant::now() + rove_base::limits::SETTLE_STREAM;
            while !has_streams(&watch) {
                let left = until.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Ok(Shell::Receiving { answered: false });
                }
                let mut changes = watch.changes();
                let poll = rove_base::limits::SERVER_BUSY_POLL.min(left);
                let _ = tokio::time::timeout(poll, changes.changed()).await;
                if !has_streams(&watch) && !rove_input::page_busy_within(tab, now).await {
                    return Ok(Shell::Built);
                }
            }
        }
        let before = watch.streams().incoming;
        let until = Instant::now() + rove_base::limits::SETTLE_STREAM;
        let answered = rove_input::server_answered(tab, &watch, None, until, quiet);
        if let rove_input::ServerWait::Pending = answered.await {
            let now = watch.streams();
            return Ok(Shell::Receiving {
                answered: !now.awaiting || now.incoming > before,
            });
        }
        // What the answer drew may fetch more (the code of the
        // widgets it shows): built again, as after the load.
        let again = Instant::now() + rove_base::limits::SHELL_SETTLE;
        Ok(page_built(tab, &watch, again, &mut since, &mut busy).await)
    });
    // A dialog is reported with the view.
    settled.await.unwrap_or(Shell::Built)
}

/// Whether the page has a WebSocket or an event stream open.
fn has_streams(watch: &rove_browser::TabWatch) -> bool {
    let streams = watch.streams();
    streams.sockets > 0 || streams.event_streams > 0
}

/// How a page stood when `open` stopped waiting for it to be built.
enum Shell {
    /// Still: nothing changing, nothing on its way.
    Built,
    /// Its DOM was still changing.
    Changing {
        /// How many changes rove saw after the load.
        changes: u64,
        /// Where the last one was.
        place: Option<String>,
    },
    /// rove could not watch it (why): the view is of the page at its load.
    Unwatched(String),
    /// Its server's answer over a WebSocket was still on its way.
    Receiving {
        /// Part of it had come.
        answered: bool,
    },
}

/// A navigation failed in one of the ways an agent handles differently, or
/// the browser failed under it.
pub(crate) enum NavError {
    Failed(NavigationFailure),
    Other(CommandError),
}

impl<E: Into<CommandError>> From<E> for NavError {
    fn from(e: E) -> Self {
        NavError::Other(e.into())
    }
}

/// Waits until the page stopped changing, before `deadline`, on evidence:
/// no request of its own in flight, and its document (asked in rove's own
/// world, where the page cannot reach: `activity.js`) unchanged since the
/// last look, `since` (its load event at first). A page that changed
/// nothing since its load and has nothing in flight is built at once; one
/// that changed is built once it stayed still for
/// [`rove_base::limits::SHELL_QUIET`]. A request that stays in flight for
/// [`rove_base::limits::SHELL_QUIET_LONG`] (a page that never reads a
/// response) no longer holds the page up, and the document must then stay
/// still that long. `busy` is whether the page showed it was working at
/// the last look.
async fn page_built(
    tab: &Tab,
    watch: &rove_browser::TabWatch,
    deadline: Instant,
    since: &mut Option<rove_browser::Mark>,
    busy: &mut bool,
) -> Shell {
    let activity = rove_browser::Activity::of(tab, rove_browser::Where::MainFrame);
    let mut changes = 0;
    let mut place = None;
    let mut stuck = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Shell::Changing { changes, place };
        }
        if !stuck && watch.requests_in_flight() > 0 {
            let cap = rove_base::limits::SHELL_QUIET_LONG.min(left);
            stuck = !watch.network_quiet(Duration::ZERO, cap).await;
            continue;
        }
        let quiet = match stuck {
            true => rove_base::limits::SHELL_QUIET_LONG,
            false => rove_base::limits::SHELL_QUIET,
        };
        let left = deadline.saturating_duration_since(Instant::now());
        let answer = match activity.settle(*since, true, quiet, left, None).await {
            Ok(answer) => answer,
            Err(rove_browser::BrowserError::Cdp(rove_cdp::CdpError::Timeout { .. })) => {
                return Shell::Unwatched(format!(
                    "the page's main thread did not answer within {:.1} s",
                    left.as_secs_f64()
                ));
            }
            // The document went away under the question (a script
            // replaced it, or navigated on): the view tells what is there.
            Err(e) => {
                tracing::debug!(target: "rove_commands", error = %e, "the settle question failed");
                return Shell::Built;
            }
        };
        if let Some(failed) = answer.failed {
            return Shell::Unwatched(failed);
        }
        *since = Some(answer.mark);
        *busy = answer.busy;
        changes += answer.changed;
        place = answer.place.or(place);
        if !answer.quiet {
            return Shell::Changing { changes, place };
        }
        // Quiet after changes is built too, unless they sent for more.
        if stuck || watch.requests_in_flight() == 0 {
            return Shell::Built;
        }
    }
}

/// Navigates `tab` to `url` and waits for the load.
async fn navigate(tab: &Tab, url: &str, timeout: Duration) -> Result<Arrival, NavError> {
    let target = url.to_owned();
    let url = url.to_owned();
    drive(tab, timeout, &target, async move |session: &CdpSession| {
        let navigated = session
            .send_within(
                &Navigate {
                    url: url.clone(),
                    ..Default::default()
                },
                timeout,
            )
            .await?;
        match navigated.error_text.filter(|e| !e.is_empty()) {
            // An HTTP error with no body is reported as an error text; its
            // status, when a response arrived, says more.
            Some(error) if error == "net::ERR_HTTP_RESPONSE_CODE_FAILURE" => {
                Ok(Some(Start::HttpFailure(navigated.loader_id)))
            }
            Some(error) => Err(NavError::Failed(NavigationFailure::Network(error))),
            None => Ok(navigated.loader_id.map(Start::Loader)),
        }
    })
    .await
}

/// How a navigation began, as far as the wait needs to know.
enum Start {
    /// A new document is loading under this loader.
    Loader(String),
    /// The server answered with an error and no page.
    HttpFailure(Option<String>),
}

/// Starts a navigation with `start` and waits until it arrives, with the
/// main document's HTTP status read from the `Network` domain.
async fn drive(
    tab: &Tab,
    timeout: Duration,
    target: &str,
    start: impl AsyncFnOnce(&CdpSession) -> Result<Option<Start>, NavError>,
) -> Result<Arrival, NavError> {
    let watch = tab.watch().await?;
    if let Some(dialog) = watch.dialog() {
        return Err(NavError::Other(crate::session::blocked_by(dialog)));
    }
    // The tab's watch keeps the Network domain on: the main document's
    // response (and its status) comes through it.
    let session = tab.session().await?;
    let mut events = session.subscribe();
    let started = Instant::now();
    let navigation = async {
        let begun = match start(&session).await {
            Err(NavError::Failed(NavigationFailure::Network(reason))) => {
                // Chromium shows its error page only after it reported the
                // failure; until that page has committed, the tab refuses
                // some calls ("Not attached to an active page" for a
                // screenshot). The next command should meet a settled tab.
                if !reason.contains("ERR_ABORTED") && !reason.contains("ERR_BLOCKED_BY_CLIENT") {
                    error_page_shown(&mut events, tab.target_id()).await;
                }
                return Err(NavError::Failed(NavigationFailure::Network(reason)));
            }
            begun => begun?,
        };
        let loader = match begun {
            Some(Start::HttpFailure(loader)) => {
                let status = status_of(&mut events, loader.as_deref());
                return match status {
                    Some(status) => Err(NavError::Failed(NavigationFailure::HttpStatus(status))),
                    None => Err(NavError::Failed(NavigationFailure::Network(
                        "net::ERR_HTTP_RESPONSE_CODE_FAILURE".into(),
                    ))),
                };
            }
            Some(Start::Loader(loader)) => Some(loader),
            // Same-document navigations and history moves say nothing
            // about their loader up front.
            None => None,
        };
        let mut status = None;
        // Waiting for the page to load is the page's time, as settling
        // after input is (the command's time split).
        let waiting = rove_cdp::meter::settle_starts();
        let ended = wait_arrival(tab, &mut events, loader.as_deref(), timeout, &mut status).await;
        drop(waiting);
        if let Ended::TimedOut = ended {
            return Err(NavError::Failed(NavigationFailure::NotLoaded {
                waited_ms: started.elapsed().as_millis() as u64,
            }));
        }
        let url = tab
            .evaluate_in_rove_world("location.href")
            .await?
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if status.is_none() {
            // The status event can be missed by a subscriber that lagged
            // behind a burst of requests; the page's own timing entry has it.
            status = tab
                .evaluate_in_rove_world(
                    "performance.getEntriesByType('navigation')[0]?.responseStatus ?? null",
                )
                .await
                .ok()
                .and_then(|v| v.as_u64())
                .and_then(|s| u16::try_from(s).ok())
                .filter(|s| *s > 0);
        }
        Ok(Arrival { url, status })
    };
    // A dialog the new page opens while loading (an alert in a script)
    // stops it there: the navigation arrived, and the view shows the dialog.
    // A `beforeunload` dialog is the old page's: it holds the navigation,
    // and the tab is where it was.
    tokio::select! {
        arrived = navigation => arrived,
        Some(dialog) = watch.wait_for_dialog(rove_base::limits::DIALOG_WATCH) => {
            if dialog.kind == "beforeunload" {
                return Err(NavError::Failed(NavigationFailure::HeldByDialog {
                    kind: dialog.kind,
                    message: dialog.message,
                }));
            }
            Ok(Arrival {
                url: target.to_owned(),
                status: None,
            })
        }
    }
}

/// Waits (up to [`rove_base::limits::ERROR_PAGE`]) until the main frame has committed
/// Chromium's error page and it has loaded.
async fn error_page_shown(events: &mut EventStream, main: &str) {
    let wait = async {
        let mut committed = false;
        loop {
            let Ok(event) = events.recv().await else {
                // Missed events or a closed stream: nothing more to learn.
                return;
            };
            match event.method.as_str() {
                page::FrameNavigated::METHOD => {
                    let navigated: page::FrameNavigated = event.parse().unwrap_or_default();
                    let frame = &navigated.frame;
                    if frame.parent_id.is_none()
                        && frame.id == main
                        && frame.url.starts_with("chrome-error:")
                    {
                        committed = true;
                    }
                }
                page::LoadEventFired::METHOD if committed => return,
                _ => {}
            }
        }
    };
    let _ = tokio::time::timeout(rove_base::limits::ERROR_PAGE, wait).await;
}

/// Follows events until the navigation arrives or the deadline passes,
/// noting the main document's status on the way.
async fn wait_arrival(
    tab: &Tab,
    events: &mut EventStream,
    loader: Option<&str>,
    timeout: Duration,
    status: &mut Option<u16>,
) -> Ended {
    let main = tab.target_id().to_owned();
    // A load event belongs to this navigation only once its document has
    // committed: a late one of the page before (an error page still
    // finishing) must not end the wait.
    let mut committed = loader.is_none();
    let wait = async {
        loop {
            let event = match events.recv().await {
                Ok(event) => event,
                // Events were missed (the commit may be among them): take
                // the next load event as this navigation's.
                Err(rove_cdp::EventStreamError::Lagged(_)) => {
                    committed = true;
                    continue;
                }
                Err(rove_cdp::EventStreamError::Closed) => return Ended::TimedOut,
            };
            match event.method.as_str() {
                ResponseReceived::METHOD => {
                    let received: ResponseReceived = event.parse().unwrap_or_default();
                    if let Some(s) = document_status(&received, &main, loader) {
                        *status = Some(s);
                    }
                }
                page::LoadEventFired::METHOD if committed => return Ended::Arrived,
                page::NavigatedWithinDocument::METHOD
                    if loader.is_none()
                        && event
                            .parse::<page::NavigatedWithinDocument>()
                            .is_ok_and(|n| n.frame_id == main) =>
                {
                    return Ended::Arrived;
                }
                page::FrameNavigated::METHOD => {
                    let navigated: page::FrameNavigated = event.parse().unwrap_or_default();
                    let frame = &navigated.frame;
                    if frame.parent_id.is_none()
                        && navigated.kind == page::NavigationType::BackForwardCacheRestore
                    {
                        return Ended::Arrived;
                    }
                    if frame.parent_id.is_none() && Some(frame.loader_id.as_str()) == loader {
                        committed = true;
                    }
                }
                _ => {}
            }
        }
    };
    tokio::time::timeout(timeout, wait)
        .await
        .unwrap_or(Ended::TimedOut)
}

/// The HTTP status of the main frame's document among buffered events.
fn status_of(events: &mut EventStream, loader: Option<&str>) -> Option<u16> {
    let mut status = None;
    while let Some(event) = events.try_recv() {
        let Ok(event) = event else { continue };
        if let Some(Ok(received)) = event.as_event::<ResponseReceived>() {
            let frame = received.frame_id.clone().unwrap_or_default();
            if let Some(s) = document_status(&received, &frame, loader) {
                status = Some(s);
            }
        }
    }
    status
}

fn document_status(received: &ResponseReceived, main: &str, loader: Option<&str>) -> Option<u16> {
    if received.kind != ResourceType::Document || received.frame_id.as_deref() != Some(main) {
        return None;
    }
    if loader.is_some_and(|l| received.loader_id != l) {
        return None;
    }
    u16::try_from(received.response.status)
        .ok()
        .filter(|s| *s > 0)
}

/// A URL as a user types it: `example.com` means `https://example.com`,
/// `localhost:8080` means `http://localhost:8080`; URLs with a scheme are
/// kept as they are.
pub fn normalize_url(raw: &str) -> String {
    let raw = raw.trim();
    if raw.is_empty() {
        return String::new();
    }
    let has_scheme = raw.split_once(':').is_some_and(|(scheme, rest)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            && (rest.starts_with("//")
                || ["about", "data", "file", "chrome", "javascript", "blob"]
                    .iter()
                    .any(|known| scheme.eq_ignore_ascii_case(known)))
    });
    if has_scheme {
        return raw.to_owned();
    }
    // A path is a local file (whether the session may open `file:` URLs is
    // the domain policy's decision).
    if raw.starts_with('/') {
        return format!("file://{raw}");
    }
    let host = raw.split(['/', ':']).next().unwrap_or_default();
    if host == "localhost" || host == "127.0.0.1" || host == "[::1]" {
        format!("http://{raw}")
    } else {
        format!("https://{raw}")
    }
}

#[cfg(test)]
mod tests {
    use super::normalize_url;

    #[test]
    fn bare_addresses_get_a_scheme() {
        assert_eq!(normalize_url("example.org"), "https://example.org");
        assert_eq!(
            normalize_url("example.org/a?b=c"),
            "https://example.org/a?b=c"
        );
        assert_eq!(normalize_url("localhost:8080/x"), "http://localhost:8080/x");
        assert_eq!(normalize_url("127.0.0.1:9/"), "http://127.0.0.1:9/");
        assert_eq!(normalize_url(" about:blank "), "about:blank");
        assert_eq!(
            normalize_url("data:text/html,<p>hi</p>"),
            "data:text/html,<p>hi</p>"
        );
        assert_eq!(normalize_url("https://a.b/"), "https://a.b/");
        assert_eq!(normalize_url(""), "");
        assert_eq!(normalize_url("/etc/hostname"), "file:///etc/hostname");
    }
}
