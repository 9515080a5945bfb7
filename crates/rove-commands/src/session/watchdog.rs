//! The watchdog: a session's focused tab keeps answering, or rove says what
//! it did about it.
//!
//! A tab is alive when its page answers a probe: `1`, evaluated in the page
//! with a short deadline. A page busy with a long task answers when the task
//! ends; a page whose script never yields (`while (true) {}`), or whose
//! renderer is stuck outside JavaScript (a synchronous request that never
//! returns), does not. A probe is skipped while a JavaScript dialog is open:
//! a dialog stops the page's scripts, and the tab watch knows of it.
//!
//! A tab that does not answer gets `Runtime.terminateExecution` (Chromium
//! interrupts the running script from outside the page's thread) and one
//! more probe; if it still does not answer, it is replaced: a new tab at
//! `about:blank` in the session's context, the stuck one closed. A tab
//! whose renderer crashed is replaced the same way.
//!
//! Probes run before each command that needs the page (beside it, for a
//! command that only reads: `run/guard.rs`), and every
//! [`HealthLimits::interval`] in the background (every second while a
//! command runs). The background probe logs
//! what it finds, stops a stuck script at once when the session is idle
//! (so it does not burn a core until the next command), records what it did
//! for the next command's answer, and cuts short a command that waits on a
//! page that stopped answering.
//!
//! A document that is loading is given time before its silence counts
//! ([`silent_while`]): its parser, and then its first layout, hold the
//! page's thread for seconds on a huge page.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rove_browser::{BrowserContext, LoadPhase, Tab, TabId};
use rove_cdp::CdpError;
use rove_cdp::protocol::runtime::{Evaluate, TerminateExecution};
use tokio::sync::watch;

use crate::answer::fault::{Fault, Recovery, TabFault};
use crate::answer::happened::Happened;

/// When a tab counts as hung, and how often rove looks.
///
/// A page answers a probe as soon as its main thread is free; only a task
/// that runs longer than `probe_timeout` without a break makes it miss one.
/// Browsers flag tasks over 50 ms as long; a legitimately heavy page (a
/// large framework booting on a slow machine) blocks for a second or two.
/// Five seconds is far beyond both, and short enough that a stuck tab is
/// found and recovered within about seven seconds instead of every command
/// waiting out the transport's 60 s deadline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HealthLimits {
    /// A tab that does not answer a probe within this long is stopped (5 s).
    pub probe_timeout: Duration,
    /// After `Runtime.terminateExecution`, how long the tab has to answer
    /// before it is replaced (2 s).
    pub recovery_timeout: Duration,
    /// Probe the focused tab before each command that needs its page.
    pub probe_before_commands: bool,
    /// Probe the focused tab this often in the background (`None`: never;
    /// 5 s).
    pub interval: Option<Duration>,
    /// How long a document that is still loading (committed, its load event
    /// not fired) may leave probes unanswered before it counts as hung. A
    /// session sets it to its own navigation deadline (30 s by default). A renderer that
    /// parses and lays out a big document is busy that long, and a load
    /// is waited for that long anyway.
    pub load_allowance: Duration,
}

impl Default for HealthLimits {
    fn default() -> Self {
        HealthLimits {
            probe_timeout: rove_base::limits::PROBE,
            recovery_timeout: rove_base::limits::RECOVERY,
            probe_before_commands: true,
            interval: Some(rove_base::limits::PROBE_EVERY),
            load_allowance: rove_base::limits::NAVIGATION,
        }
    }
}

/// What a probe learned about a tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Health {
    /// The page answered (or a dialog blocks it, which is not a hang).
    Answers,
    /// No answer, but its document is still loading, for this long in its
    /// phase (parsing: within twice [`HealthLimits::load_allowance`] of its
    /// commit; its first read after the load event: within the allowance
    /// of the event): a renderer busy parsing and laying out, not hung.
    Loading(Duration),
    /// No answer within the deadline.
    Silent,
    /// The renderer crashed.
    Crashed,
    /// The tab or the browser is gone; the command will say so.
    Gone,
}

/// Probes `tab`: `1`, evaluated in the page, answered within `within`; a
/// loading document gets the time [`silent_while`] grants it.
pub(crate) async fn probe(tab: &Tab, within: Duration, allowance: Duration) -> Health {
    if tab.crashed() {
        return Health::Crashed;
    }
    let watch = match tab.current_watch().await {
        Some(watch) => Some(watch),
        // Not started yet: start it (it knows of dialogs), within the
        // probe's deadline; a page that does not let it start is probed
        // all the same.
        None => tokio::time::timeout(within, tab.watch())
            .await
            .ok()
            .and_then(Result::ok),
    };
    // A dialog stops the page's scripts; a navigation on its way holds the
    // old document's answers until the new one commits (a slow server is no
    // hang of the page).
    if watch
        .as_ref()
        .is_some_and(|w| w.dialog().is_some() || w.navigating().is_some())
    {
        return Health::Answers;
    }
    let Ok(session) = tab.session().await else {
        return if tab.crashed() {
            Health::Crashed
        } else {
            Health::Gone
        };
    };
    let params = Evaluate {
        expression: "1".to_owned(),
        return_by_value: Some(true),
        ..Evaluate::default()
    };
    let call = session.send_raw(&params, Some(within));
    let dialog = async {
        match &watch {
            Some(w) => w.wait_for_dialog(within).await,
            None => std::future::pending().await,
        }
    };
    let navigating = async {
        match &watch {
            Some(w) => {
                let mut changes = w.changes();
                let _ =
                    tokio::time::timeout(within, changes.wait_for(|_| w.navigating().is_some()))
                        .await;
                if w.navigating().is_none() {
                    std::future::pending::<()>().await;
                }
            }
            None => std::future::pending().await,
        }
    };
    let answer = tokio::select! {
        answer = call => answer,
        Some(_) = dialog => return Health::Answers,
        () = navigating => return Health::Answers,
    };
    match answer {
        // An answer, or an error the page's thread gave (no context during
        // a navigation, a terminated execution): alive either way.
        Ok(_) | Err(CdpError::Protocol { .. }) | Err(CdpError::Decode { .. }) => Health::Answers,
        Err(CdpError::Timeout { .. }) => {
            silent_while(watch.as_ref().and_then(|w| w.load_phase()), allowance)
        }
        Err(CdpError::TargetCrashed { .. }) => Health::Crashed,
        Err(_) => Health::Gone,
    }
}

/// What a probe that got no answer means, from where the document is in
/// its load: while its load event has not fired its parser is at work, and
/// it gets twice `allowance` from its commit (a huge table on a busy
/// machine parses for longer than a navigation is waited for, and closing
/// its tab would lose what the user opened); its first read after the load
/// event (which lays the whole document out) gets `allowance` from the
/// event. Past that, or not loading, it is silent.
fn silent_while(phase: Option<LoadPhase>, allowance: Duration) -> Health {
    match phase {
        Some(LoadPhase::Parsing(took)) if took < allowance.saturating_mul(2) => {
            Health::Loading(took)
        }
        Some(LoadPhase::FirstRead(took)) if took < allowance => Health::Loading(took),
        _ => Health::Silent,
    }
}

/// Stops the script of a tab that did not answer, and probes it again.
/// Whether it answers now.
pub(crate) async fn stop_script(tab: &Tab, limits: &HealthLimits) -> Health {
    if let Ok(session) = tab.session().await {
        // Chromium takes this call off the page's busy thread and answers at
        // once; a renderer stuck outside JavaScript never answers it, so the
        // probe below does not wait for the answer.
        let within = limits.recovery_timeout;
        let id = tab.id();
        tokio::spawn(async move {
            let params = TerminateExecution {};
            let stop = session.send_raw(&params, Some(within));
            if let Err(e) = stop.await {
                tracing::debug!(target: "rove_commands::watchdog", tab = %id, error = %e, "terminateExecution was not answered");
            }
        });
    }
    probe(tab, limits.recovery_timeout, limits.load_allowance).await
}

/// Replaces `tab` with a new blank tab in `context` and closes it; the new
/// tab takes the focus if `tab` had it.
pub(crate) async fn replace(
    context: &BrowserContext,
    tab: &Tab,
) -> Result<TabId, rove_browser::BrowserError> {
    let focused = context.focused().map(|t| t.id());
    let fresh = context.new_tab().await?;
    if focused.is_some_and(|f| f != tab.id())
        && let Some(f) = focused
    {
        let _ = context.focus(f).await;
    }
    // Closing is the browser's work: a stuck renderer cannot hold it up.
    if let Err(e) = tokio::time::timeout(
        rove_base::limits::REPLACED_TAB_CLOSE,
        context.close_tab(tab.id()),
    )
    .await
    .unwrap_or_else(|_| {
        Err(rove_browser::BrowserError::Rejected(
            "closing took too long".into(),
        ))
    }) {
        tracing::warn!(target: "rove_commands::watchdog", tab = %tab.id(), error = %e, "could not close a replaced tab");
    }
    Ok(fresh.id())
}

/// Where the tab was, from the browser's target list (no call to the page).
pub(crate) fn url_of(context: &BrowserContext, tab: TabId) -> String {
    context
        .tabs()
        .into_iter()
        .find(|t| t.id == tab)
        .map(|t| t.url)
        .unwrap_or_default()
}

/// Recovers a tab the probe found `health` (silent for `silent_for`, or
/// crashed): stops its script, or replaces it. `None` when it answers after
/// all.
pub(crate) async fn recover(
    context: &BrowserContext,
    tab: &Tab,
    health: Health,
    silent_for: Duration,
    limits: &HealthLimits,
) -> Result<Option<TabFault>, rove_browser::BrowserError> {
    let url = url_of(context, tab.id());
    let fault = match health {
        Health::Answers | Health::Loading(_) | Health::Gone => return Ok(None),
        Health::Crashed => Fault::Crashed,
        Health::Silent => Fault::Hung { silent_for },
    };
    if health == Health::Silent {
        match stop_script(tab, limits).await {
            Health::Answers => {
                let fault = TabFault {
                    tab: tab.id(),
                    url,
                    fault,
                    recovery: Recovery::Stopped,
                };
                tracing::warn!(target: "rove_commands::watchdog", "{}", fault.describe());
                return Ok(Some(fault));
            }
            Health::Gone | Health::Loading(_) => return Ok(None),
            Health::Silent | Health::Crashed => {}
        }
    }
    let by = replace(context, tab).await?;
    let fault = TabFault {
        tab: tab.id(),
        url,
        fault,
        recovery: Recovery::Replaced { by },
    };
    tracing::warn!(target: "rove_commands::watchdog", "{}", fault.describe());
    Ok(Some(fault))
}

/// A tab the background probe found silent.
#[derive(Debug, Clone)]
pub(crate) struct Silence {
    pub tab: TabId,
    /// When the probe that found it began.
    pub probed_at: Instant,
}

#[derive(Debug, Default)]
struct Findings {
    /// A command is running.
    running: bool,
    /// What the next command's answer says first.
    notes: Vec<Happened>,
    /// Dialogs answered in a row, each followed by another.
    dialogs_in_a_row: u32,
}

/// The background prober of one session, and what it found.
#[derive(Debug)]
pub(crate) struct Watchdog {
    limits: HealthLimits,
    findings: Arc<Mutex<Findings>>,
    silence: watch::Sender<Option<Silence>>,
    /// Whether a command runs: the background probe then looks every
    /// [`rove_base::limits::BUSY_PROBE_GAP`] instead of every interval.
    busy: watch::Sender<bool>,
    /// When the running command's own script answered (`eval`): its
    /// settle and view after it are watched like any command's work.
    script_answered: watch::Sender<Option<Instant>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

/// A running command; dropping it ends the command for the watchdog: what
/// the background probe found while it ran was the command's to report.
pub(crate) struct Running {
    findings: Arc<Mutex<Findings>>,
    silence: watch::Sender<Option<Silence>>,
    busy: watch::Sender<bool>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.silence.send_replace(None);
        self.busy.send_replace(false);
        lock(&self.findings).running = false;
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

fn lock(findings: &Mutex<Findings>) -> MutexGuard<'_, Findings> {
    findings.lock().unwrap_or_else(|p| p.into_inner())
}

impl Watchdog {
    /// Starts the background probe of `context`'s focused tab.
    pub(crate) fn start(context: &BrowserContext, limits: HealthLimits) -> Watchdog {
        let findings: Arc<Mutex<Findings>> = Arc::default();
        let (silence, _) = watch::channel(None);
        let (busy, _) = watch::channel(false);
        let task = limits.interval.map(|every| {
            tokio::spawn(background(
                context.clone(),
                limits,
                every,
                findings.clone(),
                silence.clone(),
                busy.subscribe(),
            ))
        });
        Watchdog {
            limits,
            findings,
            silence,
            busy,
            script_answered: watch::channel(None).0,
            task,
        }
    }

    /// The limits it works with.
    pub(crate) fn limits(&self) -> &HealthLimits {
        &self.limits
    }

    /// Marks a command as running (the background probe then only reports,
    /// and leaves the recovery to the command) until the returned guard is
    /// dropped, also when the command's future is dropped half-way. Returns
    /// what the background probe found since the last command.
    pub(crate) fn command_starts(&self, answers_dialog: bool) -> (Vec<Happened>, Running) {
        self.silence.send_replace(None);
        self.script_answered.send_replace(None);
        self.busy.send_replace(true);
        let mut findings = lock(&self.findings);
        findings.running = true;
        if !answers_dialog {
            findings.dialogs_in_a_row = 0;
        }
        let notes = std::mem::take(&mut findings.notes);
        let running = Running {
            findings: self.findings.clone(),
            silence: self.silence.clone(),
            busy: self.busy.clone(),
        };
        (notes, running)
    }

    /// Counts a dialog answered and followed by another; how many in a row.
    pub(crate) fn another_dialog(&self) -> u32 {
        let mut findings = lock(&self.findings);
        findings.dialogs_in_a_row += 1;
        findings.dialogs_in_a_row
    }

    /// The running command's own script answered (`eval`): from now on
    /// the page's silence cuts the command short, as for any other.
    pub(crate) fn script_answered(&self) {
        self.script_answered.send_replace(Some(Instant::now()));
    }

    /// Resolves when a background probe begun after the running command's
    /// script answered finds a tab silent; never while the script runs
    /// (its own deadline stops it), nor if it never answers.
    pub(crate) fn silence_after_script(
        &self,
    ) -> impl std::future::Future<Output = Silence> + 'static {
        let mut answered = self.script_answered.subscribe();
        let silence = self.silence.subscribe();
        async move {
            let from = match answered.wait_for(Option::is_some).await {
                Ok(at) => (*at).unwrap_or_else(Instant::now),
                Err(_) => return std::future::pending().await,
            };
            fresh_silence(silence, from).await
        }
    }

    /// Resolves when a background probe begun at `from` or later finds a
    /// tab silent. A probe begun earlier may have waited on a hang the
    /// command has already recovered from (its check before the work):
    /// that silence is old news.
    pub(crate) fn silence_since(
        &self,
        from: Instant,
    ) -> impl std::future::Future<Output = Silence> + 'static {
        fresh_silence(self.silence.subscribe(), from)
    }
}

/// The first silence `rx` reports of a probe begun at `from` or later.
async fn fresh_silence(mut rx: watch::Receiver<Option<Silence>>, from: Instant) -> Silence {
    let fresh = |found: &Option<Silence>| found.as_ref().is_some_and(|s| s.probed_at >= from);
    match rx.wait_for(fresh).await {
        Ok(found) => found.clone().unwrap_or(Silence {
            tab: TabId(0),
            probed_at: from,
        }),
        Err(_) => std::future::pending().await,
    }
}

/// Every `every`, probes the focused tab; see the module's comment.
async fn background(
    context: BrowserContext,
    limits: HealthLimits,
    every: Duration,
    findings: Arc<Mutex<Findings>>,
    silence: watch::Sender<Option<Silence>>,
    mut busy: watch::Receiver<bool>,
) {
    loop {
        // Every interval while idle; soon after a command starts, and then
        // every second while it runs.
        let command_runs = async { busy.wait_for(|b| *b).await.is_ok() };
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            true = command_runs => tokio::time::sleep(rove_base::limits::BUSY_PROBE_GAP).await,
        }
        let Some(tab) = context.focused() else {
            continue;
        };
        let started = Instant::now();
        let health = probe(&tab, limits.probe_timeout, limits.load_allowance).await;
        match health {
            Health::Answers => {
                tracing::trace!(target: "rove_commands::watchdog", tab = %tab.id(), took = ?started.elapsed(), "probe answered");
            }
            Health::Loading(took) => {
                tracing::debug!(target: "rove_commands::watchdog", tab = %tab.id(), loading_for = ?took, "the focused tab is busy loading its document");
            }
            Health::Gone => {}
            Health::Crashed => {
                tracing::info!(target: "rove_commands::watchdog", tab = %tab.id(), "the focused tab crashed; the next command replaces it");
            }
            Health::Silent => {
                tracing::warn!(target: "rove_commands::watchdog", tab = %tab.id(), url = %url_of(&context, tab.id()), "the focused tab did not answer a probe within {:?}", limits.probe_timeout);
                if lock(&findings).running {
                    silence.send_replace(Some(Silence {
                        tab: tab.id(),
                        probed_at: started,
                    }));
                    continue;
                }
                // Idle: stop the script now; a replacement waits for the
                // next command, which says so.
                let url = url_of(&context, tab.id());
                if stop_script(&tab, &limits).await == Health::Answers {
                    let fault = TabFault {
                        tab: tab.id(),
                        url,
                        fault: Fault::Hung {
                            silent_for: limits.probe_timeout,
                        },
                        recovery: Recovery::Stopped,
                    };
                    tracing::warn!(target: "rove_commands::watchdog", "{}", fault.describe());
                    let mut found = lock(&findings);
                    if !found.running {
                        found.notes.push(Happened::TabFault {
                            fault,
                            while_idle: true,
                        });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    fn idle_watchdog() -> Watchdog {
        let (silence, _) = watch::channel(None);
        let (busy, _) = watch::channel(false);
        Watchdog {
            limits: HealthLimits::default(),
            findings: Arc::default(),
            silence,
            busy,
            script_answered: watch::channel(None).0,
            task: None,
        }
    }

    #[test]
    fn a_document_parses_for_twice_the_allowance_and_is_first_read_within_it() {
        let s = Duration::from_secs;
        let allowance = s(30);
        // Past the allowance, its load event not fired: its parser works on.
        assert_eq!(
            silent_while(Some(LoadPhase::Parsing(s(45))), allowance),
            Health::Loading(s(45))
        );
        assert_eq!(
            silent_while(Some(LoadPhase::Parsing(s(61))), allowance),
            Health::Silent
        );
        // Its first layout after a long parse is timed from the load event.
        assert_eq!(
            silent_while(Some(LoadPhase::FirstRead(s(10))), allowance),
            Health::Loading(s(10))
        );
        assert_eq!(
            silent_while(Some(LoadPhase::FirstRead(s(31))), allowance),
            Health::Silent
        );
        // Loaded and read, and silent: hung.
        assert_eq!(silent_while(None, allowance), Health::Silent);
        // A probe that grants nothing (the navigation's deadline already
        // ran out) takes any silence for one, so the script is stopped.
        assert_eq!(
            silent_while(Some(LoadPhase::Parsing(s(1))), Duration::ZERO),
            Health::Silent
        );
    }

    #[tokio::test]
    async fn a_silence_found_by_a_probe_begun_before_the_work_is_old_news() {
        let dog = idle_watchdog();
        let work_from = Instant::now();
        // A probe begun before the command's check: that check already
        // recovered the hang the probe waited on.
        let earlier = work_from - Duration::from_secs(1);
        dog.silence.send_replace(Some(Silence {
            tab: TabId(1),
            probed_at: earlier,
        }));
        let mut waiting = Box::pin(dog.silence_since(work_from));
        assert!((&mut waiting).now_or_never().is_none());
        // A probe begun during the work speaks of it.
        dog.silence.send_replace(Some(Silence {
            tab: TabId(1),
            probed_at: work_from,
        }));
        let found = waiting.now_or_never().expect("the fresh silence is seen");
        assert_eq!(found.tab, TabId(1));
    }
}
