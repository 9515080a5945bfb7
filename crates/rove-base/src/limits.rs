//! Every deadline and interval of rove, in one place, grouped as the
//! timeout ladder: innermost first, each layer's own waits, then the
//! deadlines that hold them; and at the end, the sizes and counts rove
//! accepts from files and command lines. A deadline that a setting changes is the
//! setting's default here (the setting's field names it), and a deadline
//! worked out from another is a function here, so the rule lives with the
//! numbers.
//!
//! The rule of the ladder: each outer deadline is wider than the ones
//! inside it, so the innermost fires first and says what it was waiting
//! for. The tests (`limits_tests.rs`) hold every nesting; the table below
//! is the ladder.
//!
//! # The timeout ladder
//!
//! Innermost first; each outer deadline is wider than the ones inside it.
//! Every number here is a constant (or a setting's default) of this module,
//! named in the table; the unit tests in `limits_tests.rs` (one per stretch
//! of the ladder) hold each nesting, and `crates/rove-testkit/tests/it/fast/architecture.rs`
//! checks that every name the table gives exists. A deadline worked out from
//! others is a function here (`command_deadline`, `typing`, `model_time`,
//! `first_model_share`, `reconnect_budget`).
//!
//! | deadline | default | where |
//! |---|---|---|
//! | CDP call | 60 s (`limits::CDP_CALL`; `TransportConfig::call_timeout`, `ROVE_CDP_TIMEOUT_S`, at most `limits::CDP_CALL_MAX`) | `rove-cdp` |
//! | WebSocket handshake | 15 s (`limits::CDP_HANDSHAKE`) | `rove-cdp` |
//! | closing a socket (the writer's lock and the close frame) | 1 s (`limits::CDP_CLOSE`) | `rove-cdp` |
//! | browser launch (DevTools port) | 30 s (`limits::LAUNCH`; polled every `limits::LAUNCH_POLL`) | `rove-browser` |
//! | reconnect attempt | 15 s each (`limits::RECONNECT_ATTEMPT`), after 1/2/4 s (`limits::RECONNECT_BACKOFF`); a caller waits for all of them and 1 s more (`limits::LINK_SETTLE`) | `rove-browser` |
//! | `Browser.close` before kill | 2 s (`limits::BROWSER_CLOSE`) + 3 s grace (`limits::BROWSER_EXIT_GRACE`), then 2 s for the killed processes (`limits::BROWSER_KILLED`) | `rove-browser` |
//! | a new tab in the target registry; a popup's holding session | 2 s (`limits::NEW_TAB_KNOWN`); 3 s (`limits::POPUP_ATTACH`) | `rove-browser` |
//! | a dialog watch around one piece of work (a view, an input call, a command) | 1 h (`limits::DIALOG_WATCH`): longer than anything it watches | `rove-page`, `rove-input`, `rove-commands` |
//! | letting the accessibility tree go before `open` navigates (beside `Page.navigate`) | 250 ms (`limits::ACCESSIBILITY_LET_GO`) | `rove-page` |
//! | health probe of the focused tab (`1`, evaluated) | 5 s (`limits::PROBE`, `HealthLimits::probe_timeout`), every 5 s in the background (`limits::PROBE_EVERY`), 1 s apart while a command runs (`limits::BUSY_PROBE_GAP`) | `rove-commands` |
//! | answer after `Runtime.terminateExecution`, else the tab is replaced | 2 s (`limits::RECOVERY`, `HealthLimits::recovery_timeout`) | `rove-commands` |
//! | actionability of an element | 5 s (`limits::ACTION`, `SessionConfig::action_timeout`) | `rove-input` |
//! | a desktop application's accessibility bus: connecting; one call (or one batch of calls sent together); reading a window's tree; an application started by `desktop open` appearing on the bus | 5 s (`limits::DESKTOP_CONNECT`); 5 s (`limits::DESKTOP_CALL`); 20 s (`limits::DESKTOP_TREE`); 20 s (`limits::DESKTOP_APP_START`, polled every `limits::DESKTOP_APP_POLL`); an application rove killed being reaped 2 s (`limits::DESKTOP_APP_KILLED`); after an action, the tree read once the application fell silent for 150 ms (`limits::DESKTOP_EVENTS_QUIET`) after its events, or after 500 ms without one (`limits::DESKTOP_SETTLE_SILENT`: nothing changed), events already come looked at for 1 ms (`limits::DESKTOP_EVENTS_PEEK`); a turn of the wheel towards an element out of view, its first event within 300 ms (`limits::DESKTOP_SCROLLED_FIRST`) then 50 ms without one (`limits::DESKTOP_SCROLLED_QUIET`); an application that never sent an event, or never falls silent, is read every 50 ms (`limits::DESKTOP_SETTLE_POLL`) until the tree changed and held for `DESKTOP_SETTLE_QUIET`; both within `limits::SETTLE_DOM` | `rove-desktop`, `rove-commands` |
//! | settling after input | 1 s DOM (`limits::SETTLE_DOM`), 2 s network (`limits::SETTLE_NETWORK`), 10 s navigation (`limits::SETTLE_NAVIGATION`; ended early by a download or a stopped navigation); after input that asked a server over a WebSocket or an event stream, 3 s from the input for its answer (`limits::SETTLE_STREAM`; quiet after 0.3 s without a frame, `limits::SETTLE_STREAM_QUIET`, or half again the longest pause the page's server made inside an answer in the last minute, up to 1.5 s, `limits::SETTLE_STREAM_QUIET_MAX`) | `rove-input` |
//! | `eval` script | 10 s (`limits::EVAL`, `SessionConfig::eval_timeout`), then `Runtime.terminateExecution` | `rove-commands` |
//! | `wait` condition | 10 s (`limits::WAIT`, `ms`); a plain wait at most 300 s (`limits::WAIT_SLEEP_MAX`) | `rove-commands` |
//! | page load in `open`/`back`/`forward`/`reload` | 30 s (`limits::NAVIGATION`, `SessionConfig::navigation_timeout`, `--timeout`), then up to 3 s for the page to stop changing (`limits::SHELL_SETTLE`) and 3 s more for an answer its WebSockets await (`limits::SETTLE_STREAM`) | `rove-commands`, binary |
//! | a trace's screencast: starting it, taking each frame, stopping it; masking a frame's secrets | 2 s each (`limits::SCREENCAST_CALL`), at most one frame each 0.2 s (`limits::SCREENCAST_GAP`); twice `limits::SECRET_MASK` | `rove-commands` (`run/screencast.rs`) |
//! | a command's own waits: printing, `set`, a body, storage, `get`, downloads, a file chooser | 60 s (`limits::PRINT`), 15 s (`limits::EMULATION_SET`), 10 s each (`limits::BODY`, `limits::STATE_CALL`, `limits::GET`, `limits::DOWNLOADS_REPORTED`), 3 s (`limits::FILE_CHOOSER`) | `rove-commands` |
//! | HTTP MCP: request headers (and idle kept-alive connection) | 10 s (`limits::HTTP_HEADERS`, `HttpLimits::header_timeout`) | `rove-mcp` |
//! | HTTP MCP: request body | 10 s (`limits::HTTP_BODY`, `HttpLimits::body_timeout`) | `rove-mcp` |
//! | HTTP MCP: a client that takes no byte of its answer | 30 s (`limits::HTTP_WRITE_STALL`, `HttpLimits::write_timeout`) | `rove-mcp` |
//! | HTTP MCP: idle session; a daemon's idle time | 15 min (`limits::IDLE`, `HttpLimits::session_idle`, `--idle`) | `rove-mcp`, binary |
//! | MCP: ending a session's thread (`close`, the end of stdio); stdio's last answers | 10 s (`limits::MCP_SHUTDOWN`); 5 s (`limits::MCP_STDIO_FLUSH`) | `rove-mcp` |
//! | a lost browser's exit status, for the message | 0.3 s (`limits::EXIT_STATUS`) | `rove-browser` |
//! | disposing contexts over a fresh link (connect, each dispose) | 2 s each (`limits::BROWSER_CLOSE`) | `rove-browser` |
//! | a daemon reading a request after its greeting | 10 s (`limits::DAEMON_READ`) | binary (`daemon/server.rs`) |
//! | one command in the daemon | 340 s (`limits::DAEMON_COMMAND`) | binary (`daemon/server.rs`) |
//! | a closing daemon: its session's context, then a lost link's contexts | 5 s, then 5 s (`limits::SESSION_CLOSE`; before the browser's own close) | binary (`daemon/server.rs`), `rove-commands` (`host.rs`) |
//! | a client waiting for a previous daemon's lock and a new daemon's socket | 15 s (`limits::DAEMON_START`) | binary (`daemon/client.rs`) |
//! | a client waiting for its greeting and its answer | 360 s each (`limits::DAEMON_ANSWER`) | binary (`daemon/client.rs`) |
//! | `rove close` waiting for the daemon's process to end after it answered | 10 s (`limits::DAEMON_EXIT`) | binary (`daemon/client.rs`) |
//! | typing in `type` | three quarters of the command's deadline (90 s; `limits::typing`) | `rove-input`, `rove-commands` |
//! | a whole command | 120 s (`limits::COMMAND`, `SessionConfig::command_timeout`); for `wait`, `open`, `back`, `forward`, `reload` and `eval`, at least their own wait + 30 s (`limits::command_deadline`, `limits::COMMAND_MARGIN`) | `rove-commands` (`guard.rs`) |
//! | one model request (one attempt) | 120 s (`limits::MODEL_ATTEMPT`, `RetryPolicy::attempt_timeout`); inside an agent step, cut to what remains of the model's share | `rove-llm` (`transport.rs`, `client.rs`) |
//! | the model's retries | 3 after the first attempt (`limits::MODEL_RETRIES`), pauses 0.5 s doubling with up to 25 % jitter, at least `Retry-After`, at most 30 s each (`limits::MODEL_RETRY`, `RetryPolicy`); inside an agent step, a pause that would outlast the share is not taken | `rove-llm` (`transport.rs`) |
//! | the model's share of a step: the first model's call (its attempts and pauses) | half of the step's model time when a fallback is set (67.5 s; `limits::first_model_share`), else all of it | `rove-llm` (`client.rs`, `Llm::complete_within`) |
//! | the step's model time: the first model, then the fallback in what the first left | three quarters of the step (135 s; `limits::model_time`) | `rove-agent` (`run.rs`), `rove-llm` (`client.rs`) |
//! | one agent step: the model's answer and its actions | 180 s (`limits::STEP`, `AgentConfig::step_timeout`, `rove run --step-timeout`); the final-answer call after the failure limit has the same deadline; a traced step's screenshot after its actions 10 s (`limits::STEP_SCREENSHOT`) | `rove-agent` (`run.rs`, `step.rs`) |
//! | the judge's call, its retries included | 120 s (`limits::JUDGE`, `JudgeConfig::timeout`, `--judge-timeout`), inside an outer deadline 5 s wider (`limits::JUDGE_SLACK`); its screenshot of the final page 15 s (`limits::JUDGE_SCREENSHOT`) | `rove-agent` (`judge.rs`) |
//! | the suite runner: an attempt's context started or closed, its own browser closed; its own browser launched; a `verify: http` check; an attempt | 30 s (`limits::ATTEMPT_CONTEXT`); 50 s (`limits::ATTEMPT_LAUNCH`, wider than the launch's port and handshake); 10 s (`limits::VERIFY_HTTP`); a whole attempt has only the task's `timeout_s`, none by default | `rove-eval` (`runner.rs`, `verify.rs`) |
//! | farm mode: an attempt's wait for a farm's browser (a handshake held in the farm's queue, 429 answers with pauses of 0.5 s doubling to 5 s, jittered) | 120 s (`limits::CONNECT_WAIT`, `--connect-wait`, at most `limits::CONNECT_WAIT_MAX`); the pauses `limits::FARM_BACKOFF` | `rove-eval` (`farm.rs`) |
//!
//! The model's time is nested, and the code holds each bound rather than
//! hoping the inner ones are shorter: a model's call (every attempt and every
//! pause between them) runs under its share's deadline, and a retry pause
//! that would outlast the share is not taken (the last error is returned at
//! once); past its share the call fails as a timeout, which hands over to the
//! fallback with the rest of the step's model time; the quarter of the step
//! left is for the actions, each cut off at the step's deadline. The attempt
//! deadline (120 s) and the retry envelope (4 attempts plus pauses) are wider
//! than the shares on purpose: within an agent step the share, not the
//! client, bounds the wait. A step that runs out of time is one failed step,
//! not the end of the run. In the daemon,
//! one command (340 s) is wider than any command's own deadline (the longest,
//! a plain wait of 300 s with its 30 s margin, is 330 s), and the client's
//! wait for an answer (360 s) wider again.
//!
//! The probe and the wait after `Runtime.terminateExecution` are CDP calls given
//! deadlines of their own, far shorter than the 60 s default on purpose: they
//! are what keeps a hung page from making any call reach the 60 s. The
//! whole-command deadline is wider than everything a command waits for inside
//! it, the 60 s call deadline included.
//! The suite runner's 30 s for an attempt's context is shorter than a call on
//! purpose too: a browser that hangs while a suite starts an attempt must not
//! hold the suite for a minute; the attempt fails with the reason.

use std::time::Duration;

const fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

const fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// A pause that doubles between tries, from `first` up to `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// The first pause.
    pub first: Duration,
    /// The longest pause.
    pub max: Duration,
}

impl Backoff {
    /// The pause after `pause`: twice as long, within `first` and `max`.
    pub fn next(&self, pause: Duration) -> Duration {
        (pause * 2).clamp(self.first, self.max)
    }
}

// ---------------------------------------------------------------------
// The transport (rove-cdp).

/// A CDP call that names no deadline of its own
/// (`TransportConfig::call_timeout`; `ROVE_CDP_TIMEOUT_S`). Every layer
/// above allows more, so this fires first.
pub const CDP_CALL: Duration = secs(60);
/// The longest call deadline a user may set; beyond this a "timeout" is a
/// hang.
pub const CDP_CALL_MAX: Duration = secs(24 * 60 * 60);
/// The WebSocket handshake (`TransportConfig::connect_timeout`).
pub const CDP_HANDSHAKE: Duration = secs(15);
/// Closing a socket: the writer's lock and the close frame share it, so a
/// peer that stopped reading cannot stall the close.
pub const CDP_CLOSE: Duration = secs(1);

// ---------------------------------------------------------------------
// The browser (rove-browser).

/// A launched browser opening its DevTools port
/// (`LaunchOptions::launch_timeout`).
pub const LAUNCH: Duration = secs(30);
/// How often the launch looks for the DevTools port file, and for the
/// browser's stderr to be read to its end.
pub const LAUNCH_POLL: Duration = ms(10);
/// Reading the last words of a browser that exited at once.
pub const LAUNCH_STDERR: Duration = secs(1);
/// The waits before each reconnect attempt to a remote browser
/// (`ReconnectPolicy::backoff`; its length is the number of attempts).
pub const RECONNECT_BACKOFF: [Duration; 3] = [secs(1), secs(2), secs(4)];
/// One reconnect attempt (`ReconnectPolicy::attempt_timeout`).
pub const RECONNECT_ATTEMPT: Duration = secs(15);
/// What a caller waiting for the link to settle allows beyond
/// [`reconnect_budget`] (and all it allows for a launched browser's link).
pub const LINK_SETTLE: Duration = secs(1);

/// The longest a lost link to a remote browser takes to come back or be
/// given up: every pause and every attempt.
pub fn reconnect_budget(backoff: &[Duration], attempt: Duration) -> Duration {
    backoff.iter().sum::<Duration>() + attempt * u32::try_from(backoff.len()).unwrap_or(u32::MAX)
}
/// A lost link to a launched browser waits this long for the process's
/// exit status, to say why it was lost (well inside [`LINK_SETTLE`]).
pub const EXIT_STATUS: Duration = ms(300);
/// `Browser.close`, and each context disposed over a link (a fresh one
/// after a lost link included), before rove goes on without it.
pub const BROWSER_CLOSE: Duration = secs(2);
/// A launched browser asked to close gets this long to exit before it is
/// killed.
pub const BROWSER_EXIT_GRACE: Duration = secs(3);
/// After the kill: how long rove waits for the browser's processes to be
/// gone (SIGKILL is delivered asynchronously).
pub const BROWSER_KILLED: Duration = secs(2);
/// How often a killed browser's exit status is looked at.
pub const BROWSER_EXIT_POLL: Duration = ms(5);
/// How often a killed browser's processes are looked for (and killed
/// again: a loaded machine can take a moment to tear a process down).
pub const BROWSER_GONE_POLL: Duration = ms(10);
/// Removing a profile folder a dying process may still write into.
pub const PROFILE_REMOVE: Duration = secs(2);
/// Removing a profile a rove that is gone left behind (swept at launch, so
/// short: a launch must not wait on it).
pub const PROFILE_SWEEP: Duration = ms(200);
/// The pause between tries to remove a profile folder.
pub const PROFILE_REMOVE_RETRY: Duration = ms(20);
/// A new tab appearing in the target registry after `Target.createTarget`
/// answered.
pub const NEW_TAB_KNOWN: Duration = secs(2);
/// A tab's watch waiting for a popup's holding session to be attached
/// before it goes on without it.
pub const POPUP_ATTACH: Duration = secs(3);
/// How long a main-frame navigation counts as pending without its end
/// being reported: the page load deadline ([`NAVIGATION`]), beyond which
/// rove would have reported the load as timed out anyway.
pub const NAVIGATION_PENDING: Duration = NAVIGATION;

// ---------------------------------------------------------------------
// The page model and input (rove-page, rove-input).

/// How long a watch for a JavaScript dialog lasts around one piece of
/// work (a view, an input call, a command): longer than anything it
/// watches, so the work's own deadline always ends it first.
pub const DIALOG_WATCH: Duration = secs(3_600);

/// How long letting a tab's accessibility tree go before `open` navigates
/// may take: awaited beside the navigation, and only an optimisation (a
/// page a busy script holds keeps its tree).
pub const ACCESSIBILITY_LET_GO: Duration = ms(250);
/// An element becoming actionable: attached, visible, enabled, still,
/// receiving the pointer (`SessionConfig::action_timeout`,
/// `ClickOptions::timeout`).
pub const ACTION: Duration = secs(5);

// ---------------------------------------------------------------------
// Desktop applications (rove-desktop).

/// Connecting to the session bus or the accessibility bus, the handshake
/// and `Hello` included.
pub const DESKTOP_CONNECT: Duration = secs(5);
/// One call on the accessibility bus, or one batch sent together: an
/// application that does not answer in this time is hung.
pub const DESKTOP_CALL: Duration = secs(5);
/// Reading one application's tree, level by level (each level one batch).
pub const DESKTOP_TREE: Duration = secs(20);
/// An application `desktop open` started showing up on the bus.
pub const DESKTOP_APP_START: Duration = secs(20);
/// How often `desktop open` looks for the application it started.
pub const DESKTOP_APP_POLL: Duration = ms(100);
/// An application rove started and killed (its target left, its session
/// ended): how long rove waits for its owner thread to reap it, looking
/// every [`BROWSER_EXIT_POLL`] as for a browser.
pub const DESKTOP_APP_KILLED: Duration = secs(2);
/// How often the tree is read again after an action, until it changed
/// and held (within `SETTLE_DOM`).
pub const DESKTOP_SETTLE_POLL: Duration = ms(50);
/// How long the tree must hold after it changed for an action to have
/// settled: an application may update in steps.
pub const DESKTOP_SETTLE_QUIET: Duration = ms(150);
/// An application known to send events that sent none for this long
/// after an action: the action changed nothing (a GTK button answers its
/// accessibility action after 250 ms, its own press animation; twice
/// that leaves room for a busy machine).
pub const DESKTOP_SETTLE_SILENT: Duration = ms(500);
/// After an application's events, the silence that ends its answer: its
/// events come in bursts within a millisecond or two, but a second step
/// may follow (GTK makes a file chooser's Save button sensitive in a step
/// of its own after its file name changed: 50 ms of silence missed it).
pub const DESKTOP_EVENTS_QUIET: Duration = ms(150);
/// How long a look at the events already come waits for the socket: not
/// at all, in effect.
pub const DESKTOP_EVENTS_PEEK: Duration = ms(1);
/// A turn of the wheel bringing an element into view: the application's
/// first event within this, then [`DESKTOP_SCROLLED_QUIET`] without one,
/// before the element is measured again (within `SETTLE_DOM`).
pub const DESKTOP_SCROLLED_FIRST: Duration = ms(300);
/// See [`DESKTOP_SCROLLED_FIRST`].
pub const DESKTOP_SCROLLED_QUIET: Duration = ms(50);
/// The pauses between actionability checks.
pub const ACTIONABLE_POLL: Backoff = Backoff {
    first: ms(20),
    max: ms(200),
};
/// The least one check (of actionability, of a `wait` condition) is given,
/// even when its deadline has nearly passed: the last check is a real one.
pub const CHECK_MIN: Duration = ms(100);
/// How long a disabled element is given to become enabled.
pub const DISABLED_GRACE: Duration = ms(300);
/// How long a drag's first moves wait for Chromium to report an HTML5
/// drag.
pub const DRAG_START: Duration = ms(120);
/// How often a smooth scroll's position is read until it stops (20 reads
/// at most).
pub const SCROLL_POLL: Duration = ms(30);
/// Settling after input: how long the DOM must stay still, beyond a frame
/// with nothing new, once the input changed it (`SettleLimits::quiet`).
/// Zero: the frame is the evidence; the window grows by itself for a page
/// that answers in parts (twice the longest pause seen between changes).
pub const SETTLE_QUIET: Duration = ms(0);
/// The longest wait for the DOM to go quiet (`SettleLimits::dom_cap`).
pub const SETTLE_DOM: Duration = secs(1);
/// How much longer than a settle's own cap rove waits for the page to
/// answer it (`activity.js` keeps its cap with the page's timers, on the
/// page's main thread: a busy page answers late, one that never yields
/// never does, and is then cut off from outside).
pub const SETTLE_DOM_SLACK: Duration = ms(500);
/// The longest wait for requests the input started
/// (`SettleLimits::network_cap`).
pub const SETTLE_NETWORK: Duration = secs(2);
/// The longest wait for a navigation the input started to load
/// (`SettleLimits::navigation_cap`).
pub const SETTLE_NAVIGATION: Duration = secs(10);
/// The longest settling waits, from the input on, for a server's answer
/// that comes over a WebSocket or an event stream (after input that sent a
/// frame, opened a stream, or asked a page that listens on one), and then
/// for those connections to go quiet (`SettleLimits::stream_cap`). `open`
/// allows it too for a page whose content arrives that way after the load.
pub const SETTLE_STREAM: Duration = secs(3);
/// How long a page's WebSockets and streams must receive nothing to count as
/// answered (`SettleLimits::stream_quiet`): wider than the pause between the
/// frames of one answer (a Streamlit run sends its status, then its
/// elements), short enough not to hold every action.
pub const SETTLE_STREAM_QUIET: Duration = ms(300);
/// The widest that window grows for a page whose server paused longer
/// inside its answers before (half again its longest pause of the last
/// minute; a longer silence is not a pause inside one answer).
pub const SETTLE_STREAM_QUIET_MAX: Duration = ms(1500);
/// How long a page's pauses inside its server's answers are remembered
/// for that window.
pub const SETTLE_STREAM_PAUSE_MEMORY: Duration = secs(60);
/// How long a page with an open WebSocket is watched for a sign that it is
/// still working once its frames went quiet: the frame saying the server
/// started is followed by its indicator only once the page has drawn it
/// (Streamlit fades its "Running…" in).
pub const SERVER_BUSY_WINDOW: Duration = ms(250);
/// How often such a page is looked at again while it shows it is working
/// and its frames are quiet (a wait for the next frame, cut short by one).
pub const SERVER_BUSY_POLL: Duration = ms(100);
/// How long after a navigation stopped rove looks for the download it
/// turned into (Chromium reports the download a few milliseconds later).
pub const DOWNLOAD_GRACE: Duration = ms(200);

// ---------------------------------------------------------------------
// The commands (rove-commands).

/// The health probe of the focused tab (`1`, evaluated)
/// (`HealthLimits::probe_timeout`).
pub const PROBE: Duration = secs(5);
/// The answer after `Runtime.terminateExecution`, else the tab is replaced
/// (`HealthLimits::recovery_timeout`).
pub const RECOVERY: Duration = secs(2);
/// How often the focused tab is probed in the background
/// (`HealthLimits::interval`).
pub const PROBE_EVERY: Duration = secs(5);
/// The pause between background probes while a command runs: a command
/// waiting on a page that stopped answering is cut short within this plus
/// [`PROBE`].
pub const BUSY_PROBE_GAP: Duration = secs(1);
/// Closing a replaced tab.
pub const REPLACED_TAB_CLOSE: Duration = secs(5);
/// How long an action waits for a navigation the page started to commit
/// before it is refused with `NAVIGATION_IN_PROGRESS`.
pub const NAVIGATION_GRACE: Duration = secs(2);
/// How long a new tab may take to say where it goes before the domain
/// policy judges it (it is then taken for `about:blank`). A deadline, not a
/// pause: the wait ends when the browser names the URL, within
/// milliseconds on a quiet machine, but on a loaded one a popup bound for a
/// refused host once stayed nameless past 1 s.
pub const POPUP_URL: Duration = secs(5);
/// An `eval` script, then `Runtime.terminateExecution`
/// (`SessionConfig::eval_timeout`).
pub const EVAL: Duration = secs(10);
/// How long a page merely awaiting a promise takes to answer a probe: at
/// once. One that does not answer within this is running the script.
pub const EVAL_BUSY_CHECK: Duration = ms(500);
/// A `wait` condition without `ms`.
pub const WAIT: Duration = secs(10);
/// The longest plain `wait` (a time alone).
pub const WAIT_SLEEP_MAX: Duration = secs(300);
/// The pauses between checks of a `wait` condition.
pub const WAIT_POLL: Backoff = Backoff {
    first: ms(50),
    max: ms(250),
};
/// The network counts as idle after this long without a request in flight
/// (`wait`'s `networkidle`).
pub const NETWORK_IDLE: Duration = ms(500);
/// Page load in `open`, `back`, `forward`, `reload`
/// (`SessionConfig::navigation_timeout`, `--timeout`).
pub const NAVIGATION: Duration = secs(30);
/// How long a loaded page's requests and DOM must stay still to count as
/// built.
pub const SHELL_QUIET: Duration = ms(60);
/// How long the DOM must stay still when requests stay in flight.
pub const SHELL_QUIET_LONG: Duration = ms(500);
/// The longest `open` waits after the load event for the page to stop
/// changing.
pub const SHELL_SETTLE: Duration = secs(3);
/// The longest a failed navigation waits for Chromium's error page.
pub const ERROR_PAGE: Duration = secs(2);
/// How long naming the element under the pointer may hold up a `mouse`
/// input (a busy page answers late; the input goes on unnamed).
pub const POINTER_NAMING: Duration = secs(1);
/// How long a command's report waits for the downloads it started.
pub const DOWNLOADS_REPORTED: Duration = secs(10);
/// How long rove watches for the next dialog of a chain once the page is
/// free again (a dialog a timer opens right after).
pub const CHAINED_DIALOG: Duration = ms(150);
/// The longest rove waits for the page to be free after a dialog before it
/// answers anyway.
pub const PAGE_FREE: Duration = secs(3);
/// How long the browser gets to hand over a request's or response's body.
pub const BODY: Duration = secs(10);
/// One call to the browser about cookies or storage.
pub const STATE_CALL: Duration = secs(10);
/// How long the hidden tab restoring storage may take to show one origin.
pub const STATE_ORIGIN: Duration = secs(5);
/// How often that tab is asked whether it shows the origin.
pub const STATE_ORIGIN_POLL: Duration = ms(20);
/// Setting one emulated thing (`set`) on every tab.
pub const EMULATION_SET: Duration = secs(15);
/// Reading one fact about an element (`get`).
pub const GET: Duration = secs(10);
/// A click opening a file chooser (`upload` on an element that is not a
/// file input).
pub const FILE_CHOOSER: Duration = secs(3);
/// Printing a page (`pdf`: a long page is many sheets).
pub const PRINT: Duration = secs(60);
/// A solver plugin's answer (`solve`; `SessionConfig::solver_timeout`): a
/// plugin still running then is killed. Human-backed solving services
/// answer within a minute; the command's deadline holds it with room.
pub const SOLVER: Duration = secs(60);
/// A request the page still waits on after this long is told once, in the
/// answer of the command during which it hung
/// (`SessionConfig::request_pending`).
pub const REQUEST_PENDING: Duration = secs(15);
/// How long `solve` watches a widget for the page to say solved after the
/// answer was applied.
pub const SOLVED_WATCH: Duration = secs(5);
/// A trace's screenshot around an acting command (a page that stopped
/// answering must not hold the command up).
pub const TRACE_SCREENSHOT: Duration = secs(2);
/// Each call of a trace's screencast: starting it, taking a frame
/// (`Page.screencastFrameAck`), stopping it. A browser that does not
/// answer in time is left without one; the commands go on.
pub const SCREENCAST_CALL: Duration = secs(2);
/// The shortest gap between two screencast frames a trace keeps: at most
/// five a second, however fast the page paints (the browser holds the
/// next frame until rove takes one, and sends the latest then).
pub const SCREENCAST_GAP: Duration = ms(200);
/// Each of the page's answers while rove masks a secret out of an image of
/// it: where the page shows one, then the image painted over.
pub const SECRET_MASK: Duration = secs(10);
/// Reading the tabs' console and network rings for a trace (it calls no
/// page, but waits on the tabs' locks).
pub const INTERVAL_LOGS: Duration = secs(2);
/// Disposing a session's context when it ends (closing the browser
/// disposes it anyway; for a remote one this is a courtesy). A closing
/// daemon gives a lost link's contexts as long again.
pub const SESSION_CLOSE: Duration = secs(5);
/// A whole command (`SessionConfig::command_timeout`); see
/// [`command_deadline`].
pub const COMMAND: Duration = secs(120);
/// Room a command's overall deadline leaves around its own wait (a load, a
/// condition, a script) for the view and the settling after it.
pub const COMMAND_MARGIN: Duration = secs(30);

/// The overall deadline of a command whose own wait is `own` (a load, a
/// condition, a script; `None` for the others) in a session whose command
/// deadline is `command`: the wider of the two with the margin.
/// Saturating: a wait of `u64::MAX` ms must not overflow.
pub fn command_deadline(command: Duration, own: Option<Duration>) -> Duration {
    match own {
        Some(own) => command.max(own.saturating_add(COMMAND_MARGIN)),
        None => command,
    }
}

/// When typing (`type`) must stop: three quarters into the command's
/// deadline, leaving the rest for settling and the view.
pub fn typing(command: Duration) -> Duration {
    command * 3 / 4
}

// ---------------------------------------------------------------------
// The model (rove-llm) and the agent (rove-agent).

/// One model request, one attempt (`RetryPolicy::attempt_timeout`).
pub const MODEL_ATTEMPT: Duration = secs(120);
/// The pauses between a model's retries (`RetryPolicy::base`, `max`):
/// doubling, with up to 25 % jitter, at least `Retry-After`.
pub const MODEL_RETRY: Backoff = Backoff {
    first: ms(500),
    max: secs(30),
};
/// Retries after a model's first attempt (`RetryPolicy::retries`).
pub const MODEL_RETRIES: u32 = 3;
/// A cloud access token (Vertex's, from a service account) is used again
/// only while it has at least this long left; then a fresh one is fetched.
pub const ACCESS_TOKEN_MARGIN: Duration = secs(60);
/// How long the agent's watchdog waits for a person to solve a challenge
/// in a browser with a window (`AgentConfig::captcha_wait`,
/// `--captcha-wait`).
pub const CAPTCHA_WAIT: Duration = secs(120);
/// How often it looks at the challenge meanwhile.
pub const CAPTCHA_WATCH: Duration = secs(1);
/// One agent step: the model's answer and its actions
/// (`AgentConfig::step_timeout`, `--step-timeout`).
pub const STEP: Duration = secs(180);

/// The model's time in a step: three quarters of it, the quarter left for
/// the actions.
pub fn model_time(step: Duration) -> Duration {
    step.mul_f64(0.75)
}

/// The first model's share of the model's time: half when a fallback
/// model would take over with the rest, else all of it.
pub fn first_model_share(model_time: Duration, has_fallback: bool) -> Duration {
    match has_fallback {
        true => model_time / 2,
        false => model_time,
    }
}

/// A judge's call, its retries included (`JudgeConfig::timeout`,
/// `--judge-timeout`).
pub const JUDGE: Duration = secs(120);
/// What the judge's outer deadline allows beyond [`JUDGE`], which already
/// bounds the retries.
pub const JUDGE_SLACK: Duration = secs(5);
/// The judge's own screenshot of the final page.
pub const JUDGE_SCREENSHOT: Duration = secs(15);
/// A traced step's screenshot after its actions.
pub const STEP_SCREENSHOT: Duration = secs(10);

// ---------------------------------------------------------------------
// The suite runner (rove-eval).

/// Starting or closing an attempt's browser context, and closing its own
/// browser (`--isolate browser`). Shorter than a CDP call on purpose:
/// a browser that hangs while a suite starts an attempt must not hold the
/// suite for a minute.
pub const ATTEMPT_CONTEXT: Duration = secs(30);
/// Launching an attempt's own browser (`--isolate browser`): wider than the
/// launch's own deadlines (the DevTools port, then the handshake), so the
/// launch's error, with the browser's last words, is the one reported.
pub const ATTEMPT_LAUNCH: Duration = secs(50);
/// Farm mode's wait for a browser (`rove test --connect-wait`): a queued
/// handshake and 429 answers are waited out within it.
pub const CONNECT_WAIT: Duration = secs(120);
/// The pauses after a farm's 429 (no browser free), each shortened at
/// random by up to half so attempts that waited together do not ask again
/// together.
pub const FARM_BACKOFF: Backoff = Backoff {
    first: ms(500),
    max: secs(5),
};
/// The longest `--connect-wait` taken.
pub const CONNECT_WAIT_MAX: Duration = secs(24 * 3600);
/// The most connections farm mode opens to one URL at once, however often
/// it was given (and the most `--slots` takes).
pub const FARM_SLOTS_MAX: usize = 1024;
/// A `verify: http` check's GET.
pub const VERIFY_HTTP: Duration = secs(10);

// ---------------------------------------------------------------------
// The MCP server (rove-mcp).

/// Request headers, and an idle kept-alive connection
/// (`HttpLimits::header_timeout`).
pub const HTTP_HEADERS: Duration = secs(10);
/// A request body (`HttpLimits::body_timeout`).
pub const HTTP_BODY: Duration = secs(10);
/// A client that takes no byte of its answer (`HttpLimits::write_timeout`).
pub const HTTP_WRITE_STALL: Duration = secs(30);
/// The accept loop's pauses while accepting fails (EMFILE).
pub const HTTP_ACCEPT_BACKOFF: Backoff = Backoff {
    first: ms(5),
    max: secs(1),
};
/// How often at most a failing accept is warned about.
pub const HTTP_ACCEPT_WARNING: Duration = secs(60);
/// How often a long tool call reports progress to a client that asked.
pub const MCP_PROGRESS: Duration = secs(1);
/// Ending an MCP session's thread, its session and browser.
pub const MCP_SHUTDOWN: Duration = secs(10);
/// What stdio's last answers get to reach stdout after stdin ended.
pub const MCP_STDIO_FLUSH: Duration = secs(5);
/// An idle session: a daemon's (`--idle`) and an HTTP MCP session's
/// (`HttpLimits::session_idle`).
pub const IDLE: Duration = secs(15 * 60);

// ---------------------------------------------------------------------
// The session daemon and its client (the binary).

/// A daemon reading a request after its greeting.
pub const DAEMON_READ: Duration = secs(10);
/// One command in the daemon: wider than any command's own deadline.
pub const DAEMON_COMMAND: Duration = secs(340);
/// A client waiting for a previous daemon's lock and a new daemon's
/// socket.
pub const DAEMON_START: Duration = secs(15);
/// The pauses while a client waits for a daemon to listen or a lock to
/// be free.
pub const DAEMON_START_POLL: Backoff = Backoff {
    first: ms(10),
    max: ms(100),
};
/// The pauses while a client waits for a daemon's process to end.
pub const DAEMON_EXIT_POLL: Backoff = Backoff {
    first: ms(1),
    max: ms(20),
};
/// A client waiting for its greeting, and then for its answer.
pub const DAEMON_ANSWER: Duration = secs(360);
/// `rove close` waiting for the daemon's process to end after it answered.
pub const DAEMON_EXIT: Duration = secs(10);
/// The runtime's last tasks when the binary exits.
pub const RUNTIME_SHUTDOWN: Duration = ms(500);
/// `rove doctor`: its MCP checks, and opening its test page.
pub const DOCTOR: Duration = secs(15);
/// How often `rove test`'s bar redraws on a terminal.
pub const PROGRESS_TICK: Duration = ms(250);

// ---------------------------------------------------------------------
// Sizes and counts: the most rove takes from a file or a number someone
// wrote, so that no input can make it allocate or work without bound.

/// The largest message rove takes from a browser over CDP (bytes). The
/// largest it needs is a screenshot of the most pixels rove captures at
/// once (64 Mi, rove-commands' `MAX_PIXELS`): as an image of 3 bytes a
/// pixel (RGB that does not compress), 192 MiB, and 256 MiB in base64; a
/// quarter more is the margin. A view's walk of a large page is tens of
/// MiB, a response body the browser keeps for rove at most 2 MiB. A larger message (a
/// page's WebSocket frame of hundreds of MB, as an event, or a farm's
/// garbage) is read past without being kept: its call fails with the
/// limit named, and the connection goes on.
pub const CDP_MESSAGE_BYTES: usize = 320 << 20;
/// The largest task file `rove test` reads (bytes): about 3,000 tasks. The
/// parser's memory grows with the file, up to about 250 bytes for each
/// byte of a file of nested brackets; a larger suite is a folder of files.
pub const TASK_FILE_BYTES: u64 = 1 << 20;
/// The deepest nesting of flow collections (`[`, `{`) in a task file. The
/// YAML scanner's work grows with the square of this depth (100,000 deep
/// took 35 s); a task needs a handful (an `http` check's `equals` a few
/// more).
pub const TASK_FILE_DEPTH: usize = 32;
/// The largest results.json `rove test --compare` reads (bytes).
pub const RESULTS_FILE_BYTES: u64 = 512 << 20;
/// The largest history `rove replay` reads (bytes).
pub const HISTORY_FILE_BYTES: u64 = 512 << 20;
/// The largest trace `rove trace show` reads (bytes; screenshots are
/// inlined).
pub const TRACE_FILE_BYTES: u64 = 1 << 30;
/// The largest `--secrets-file` read (bytes).
pub const SECRETS_FILE_BYTES: u64 = 1 << 20;
/// The largest system prompt (`rove run --system-prompt-file`) read
/// (bytes): it rides on every request.
pub const SYSTEM_PROMPT_FILE_BYTES: u64 = 256 << 10;
/// The largest price table (`--prices`) read (bytes).
pub const PRICES_FILE_BYTES: u64 = 4 << 20;
/// The largest answer rove reads from a model's provider (bytes), its
/// token endpoints included: an answer is text and tool calls, a few
/// hundred KiB at most; a provider (or whatever answers at its address)
/// sending more is refused before it fills the memory.
pub const MODEL_ANSWER_BYTES: u64 = 32 << 20;
/// The largest credentials file read: a service account's key
/// (`GOOGLE_APPLICATION_CREDENTIALS`), AWS's shared credentials and config
/// files, a `--cdp-ca` bundle (bytes). A few KiB each in practice.
pub const CREDENTIALS_FILE_BYTES: u64 = 1 << 20;
/// The most screencast frames one trace keeps; later ones are dropped
/// with one line saying so. At five a second, ten minutes of a page that
/// never stops moving.
pub const SCREENCAST_FRAMES: usize = 3_000;
/// The most bytes (base64 JPEG) of screencast frames one trace keeps,
/// whichever of the two caps comes first.
pub const SCREENCAST_BYTES: usize = 64 << 20;
/// The longest side of a screencast frame, in pixels: a 4K viewport is
/// scaled down by the browser before it is sent.
pub const SCREENCAST_SIDE: u32 = 1_024;
/// The most attempts of one task (`repeat:`, `--repeat`).
pub const REPEAT_MAX: u32 = 10_000;
/// The most slices of a suite (`--shard I/N`).
pub const SHARDS_MAX: u32 = 10_000;
/// The most attempts run at once (`rove test -j`).
pub const JOBS_MAX: usize = 256;
/// The most attempts one `rove test` plans (tasks times repeats, before a
/// shard is taken): each has a result kept until the report is written,
/// and a line in results.json and JUnit. (Each that runs costs model calls:
/// real suites plan thousands.)
pub const ATTEMPTS_MAX: u64 = 100_000;

#[cfg(test)]
#[path = "limits_tests.rs"]
mod tests;
