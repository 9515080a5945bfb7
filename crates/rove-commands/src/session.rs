//! A session: one isolated browser context, its tabs, their page models, and
//! the policy its commands run under. Every face executes commands here.
//!
//! A session is used by one caller at a time (`&mut self`), which is how two
//! shells sharing a session are served in order, never interleaved inside
//! one action.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use rove_browser::{Browser, BrowserContext, BrowserError, Tab, TabId};
use rove_page::{Mode, PageModel, Ref, View, ViewOptions};

use crate::downloads::Downloads;
use crate::happened::Happened;
use crate::secrets::Secrets;
use crate::{Command, CommandError, Outcome};

/// The counters of a session's tab ids and refs (see
/// [`SessionConfig::numbering`]).
#[derive(Debug, Clone, Default)]
pub struct Numbering {
    /// Tab ids (`t1`, `t2` …).
    pub tabs: rove_browser::Counter,
    /// Element refs (`e1`, `e2` …), shared by every tab of the session.
    pub refs: rove_browser::Counter,
}

/// Who a command runs for. The person at the shell is trusted with their
/// own files: a screenshot goes where they say, and uploads may come from
/// the folder they work in. A model (an MCP host, rove's agent, anything a
/// page could talk into asking) writes only into the session's output
/// folder and uploads only from the session's upload roots.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum Caller {
    /// A model or any program acting for one (the default).
    #[default]
    Model,
    /// The person at the shell (the CLI).
    Person {
        /// The folder the command was run in: an upload root for this call,
        /// unless it is `/` or the home folder.
        #[serde(default)]
        cwd: Option<PathBuf>,
    },
}

/// Which view follows an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ViewAfter {
    /// What changed (the default: the cheapest truthful answer).
    #[default]
    Diff,
    /// The whole page.
    Full,
    /// Only actionable elements.
    Interactive,
    /// No view; the caller asks when it wants one.
    None,
}

/// The policy a session's commands run under.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// The view returned after each action.
    pub view_after: ViewAfter,
    /// Uploads may come from under these folders, besides the session's
    /// own upload folder (`<runtime folder>/uploads`) and, for a person at
    /// the shell, the folder they work in ([`Caller`]). Never `/` or the home
    /// folder implicitly.
    pub upload_roots: Vec<PathBuf>,
    /// Where downloads land; `None` for a fresh private folder per session
    /// under rove's runtime folder.
    pub download_dir: Option<PathBuf>,
    /// Where files a model asks for (a screenshot's `path`) are written;
    /// `None` for a fresh private folder per session under rove's runtime
    /// folder, made on first use.
    pub output_dir: Option<PathBuf>,
    /// Secrets a model may type without seeing them (see [`Secrets`]).
    pub secrets: Secrets,
    /// The size of every tab's viewport (default 1280×720); `None` leaves
    /// the browser's own.
    pub viewport: Option<rove_browser::Viewport>,
    /// Where tab ids and refs come from. Clones of a config share it, so a
    /// session started again from the same config (after its browser died)
    /// goes on counting: an old `t1` or `e7` never names something new.
    pub numbering: Numbering,
    /// How long `open`, `back`, `forward` and `reload` wait for the load.
    pub navigation_timeout: Duration,
    /// How long an action waits for its element to become actionable.
    pub action_timeout: Duration,
    /// How the page's settling after an action is waited for.
    pub settle: rove_input::SettleLimits,
    /// Where documents may load from: hosts (any, or an allow-list), a
    /// block-list, and schemes beyond http(s) (`file:` only when named).
    /// Navigations, redirects, iframes and popups outside are refused.
    pub policy: rove_browser::DomainPolicy,
    /// How long `eval` lets a script run (or wait for its promise) before
    /// rove stops it.
    pub eval_timeout: Duration,
    /// Every command's overall deadline (longer for a command whose own
    /// wait is longer: see docs/architecture.md's timeout ladder).
    pub command_timeout: Duration,
    /// When a tab counts as hung, and how often rove looks.
    pub health: crate::HealthLimits,
    /// The capability groups offered to a model: the tools an MCP server
    /// lists and accepts, and the agent's tools. `core` by default; the
    /// session itself runs any command (the CLI has them all).
    pub caps: crate::Caps,
    /// A storage-state file (Playwright's JSON: cookies and origins' local
    /// storage) loaded when the session starts, so a login is reused.
    pub storage_state: Option<PathBuf>,
    /// The traces its commands are recorded in (none by default); shared
    /// by clones, so a trace goes on when the session is started again.
    pub traces: crate::Traces,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            view_after: ViewAfter::Diff,
            upload_roots: Vec::new(),
            download_dir: None,
            output_dir: None,
            secrets: Secrets::default(),
            numbering: Numbering::default(),
            viewport: Some(rove_browser::Viewport::default()),
            navigation_timeout: Duration::from_secs(30),
            action_timeout: Duration::from_secs(5),
            settle: rove_input::SettleLimits::default(),
            policy: rove_browser::DomainPolicy::default(),
            eval_timeout: Duration::from_secs(10),
            command_timeout: Duration::from_secs(120),
            health: crate::HealthLimits::default(),
            caps: crate::Caps::default(),
            storage_state: None,
            traces: crate::Traces::default(),
        }
    }
}

/// One isolated session.
#[derive(Debug)]
pub struct Session {
    pub(crate) context: BrowserContext,
    models: HashMap<TabId, PageModel>,
    pub(crate) config: SessionConfig,
    pub(crate) downloads: Downloads,
    /// The session's own upload folder (private, under the runtime folder).
    pub(crate) upload_dir: PathBuf,
    /// Who the running command is for.
    pub(crate) caller: Caller,
    pub(crate) watchdog: crate::watchdog::Watchdog,
    /// Where each tab's pointer is and which buttons it holds (`mouse`).
    pub(crate) pointers: crate::mouse::Pointers,
    /// Where the last command's time went (failed or not).
    last_timing: Option<crate::Timing>,
    /// The origins `set geo` granted the position to: a browser started
    /// again grants them again, with the position itself.
    pub(crate) geo_origins: Vec<String>,
}

impl Session {
    /// Opens a fresh context with one blank tab in `browser`.
    pub async fn start(browser: &Browser, config: SessionConfig) -> Result<Session, CommandError> {
        config.secrets.hide_from_logs();
        let context = browser
            .new_context_counting(config.numbering.tabs.clone())
            .await?;
        // Before the first tab: its watch starts the interception.
        context.set_domain_policy(config.policy.clone()).await?;
        context.set_viewport(config.viewport).await?;
        context.new_tab().await?;
        let downloads = Downloads::start(&context, config.download_dir.clone()).await?;
        let upload_dir = rove_browser::ensure_runtime_subdir(std::path::Path::new("uploads"))?;
        let watchdog = crate::watchdog::Watchdog::start(&context, config.health);
        let state = config.storage_state.clone();
        let mut session = Session {
            context,
            models: HashMap::new(),
            config,
            downloads,
            upload_dir,
            caller: Caller::Model,
            watchdog,
            pointers: Default::default(),
            last_timing: None,
            geo_origins: Vec::new(),
        };
        if let Some(path) = state {
            session.load_state(&path).await?;
        }
        Ok(session)
    }

    /// The session's browser context.
    pub fn context(&self) -> &BrowserContext {
        &self.context
    }

    /// The session's policy.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// The folder downloads land in.
    pub fn download_dir(&self) -> &std::path::Path {
        self.downloads.dir()
    }

    /// How many of the session's downloads have begun and not yet ended.
    pub fn downloads_running(&self) -> usize {
        self.downloads.running()
    }

    /// Waits (10 s at most) until no download of the session is still
    /// running: one a click started may finish after the click's answer,
    /// and a check on the folder must not run before it lands.
    pub async fn settle_downloads(&self) {
        self.downloads.finished_since(0).await;
    }

    /// The session's own upload folder: uploads may always come from it.
    pub fn upload_dir(&self) -> &std::path::Path {
        &self.upload_dir
    }

    /// Runs one command for a model (see [`Caller`]). Acting commands end
    /// with a view of what changed and a line for each thing that happened
    /// besides (a navigation, a new tab, a dialog, a download). Guarded
    /// against hung and crashed tabs, and bounded: see `guard.rs`.
    pub async fn execute(&mut self, command: &Command) -> Result<Outcome, CommandError> {
        self.execute_for(command, Caller::Model).await
    }

    /// Runs one command for `caller`.
    pub async fn execute_for(
        &mut self,
        command: &Command,
        caller: Caller,
    ) -> Result<Outcome, CommandError> {
        // Taken before the clock starts: a trace's own screenshot is not
        // the command's time.
        // The trace's futures are boxed so an untraced command's future
        // (inside every caller's, the agent's run among them) stays small.
        let traced = match self.config.traces.is_on() {
            true => Some(Box::pin(self.trace_begins(command)).await),
            false => None,
        };
        let meter = rove_cdp::meter::Meter::new();
        let started = std::time::Instant::now();
        self.caller = caller.clone();
        let result = meter.scope(self.guarded(command)).await;
        self.caller = Caller::Model;
        let timing = crate::Timing::of(started.elapsed(), meter.split());
        self.last_timing = Some(timing);
        let result = match result {
            Ok(mut outcome) => {
                self.note_literal_secrets(command, &mut outcome);
                outcome.timing = timing;
                Ok(outcome)
            }
            Err(e) => Err(self.name_other_tab(e)),
        };
        if let Some(begun) = traced {
            Box::pin(self.trace_ends(command, &caller, begun, timing, &result)).await;
        }
        result
    }

    /// Where the last command's time went, whether it failed or not (a
    /// failed command's error does not carry it).
    pub fn last_timing(&self) -> Option<crate::Timing> {
        self.last_timing
    }

    /// A ref that belongs to another of the session's tabs is not simply
    /// gone: say which tab holds it.
    fn name_other_tab(&self, error: CommandError) -> CommandError {
        let Some(missing) = error.missing_ref() else {
            return error;
        };
        let focus = self.focused_id();
        let holder = self
            .models
            .iter()
            .find(|(id, model)| Some(**id) != focus && model.knows(missing))
            .map(|(id, _)| *id);
        match holder {
            Some(tab) => error.with_ref_reason(format!(
                "it belongs to tab {tab}, not to the focused tab (tab switch {tab} goes there)"
            )),
            None => error,
        }
    }

    /// A placeholder written anywhere but the text of `type` or `fill` was
    /// sent as written; the answer says so, so the model is not misled.
    fn note_literal_secrets(&self, command: &Command, out: &mut Outcome) {
        if self.config.secrets.is_empty()
            || matches!(
                command,
                Command::Type(_) | Command::Fill(_) | Command::FillForm(_)
            )
        {
            return;
        }
        let Ok(arguments) = serde_json::to_value(command) else {
            return;
        };
        for secret in self.config.secrets.named_in_json(&arguments) {
            out.happened.push(Happened::SecretNotFilled {
                placeholder: secret.placeholder(),
            });
        }
    }

    /// Runs one command without the guard (see `guard.rs`).
    pub(crate) async fn execute_unguarded(
        &mut self,
        command: &Command,
    ) -> Result<Outcome, CommandError> {
        if command.acts_on_elements() {
            self.unless_navigating().await?;
        }
        let before: Vec<TabId> = self.context.tabs().iter().map(|t| t.id).collect();
        let mark = self.downloads.mark();
        let focus = self.focused_id();
        let mut out = Outcome::new(focus.unwrap_or(TabId(0)));
        // Locators become refs here, once for every command (locate.rs).
        let resolved = self.resolve_targets(command, &mut out).await?;
        let command = resolved.as_ref().unwrap_or(command);
        let limits = self.config.settle;
        let follow_new_tab =
            // Boxed: the dispatch over every command is a large future,
            // and polling it in place took some 300 KB of a debug build's
            // stack (a test's runtime thread has 2 MB).
            rove_input::with_settle_limits(limits, Box::pin(self.run(command, &mut out))).await?;
        if command.acts() {
            self.after_action(&mut out, &before, follow_new_tab, focus)
                .await?;
            out.downloads = self.downloads.finished_since(mark).await;
        }
        if let Some(tab) = self.focused_id() {
            out.tab = tab;
        }
        Ok(out)
    }

    /// `close` run on the session itself: every tab closed (the face that
    /// owns the browser then ends it; a browser someone else started stays).
    async fn close_tabs(&mut self, out: &mut Outcome) -> Result<(), CommandError> {
        let tabs = self.context.tabs();
        for tab in &tabs {
            self.context.close_tab(tab.id).await?;
            self.forget(tab.id);
        }
        out.happened
            .push(Happened::ClosedAllTabs { count: tabs.len() });
        Ok(())
    }

    /// Dispatches; returns whether a tab the command opened should take the
    /// focus (a plain click on a `target=_blank` link does, a middle click
    /// does not).
    async fn run(&mut self, command: &Command, out: &mut Outcome) -> Result<bool, CommandError> {
        match command {
            Command::Open(args) => self.open(args, out).await?,
            Command::Back => self.history(-1, out).await?,
            Command::Forward => self.history(1, out).await?,
            Command::Reload => self.reload(out).await?,
            Command::Snapshot(args) => self.snapshot(args, out).await?,
            Command::Find(args) => self.find(args, out).await?,
            Command::Click(args) => return self.click(args, out).await,
            Command::Hover(args) => self.hover(args, out).await?,
            Command::Type(args) => self.type_text(args, out).await?,
            Command::Fill(args) => self.fill(args, out).await?,
            Command::Press(args) => self.press(args, out).await?,
            Command::Select(args) => self.select(args, out).await?,
            Command::Check(args) => self.set_checked(args, true, out).await?,
            Command::Uncheck(args) => self.set_checked(args, false, out).await?,
            Command::Scroll(args) => self.scroll(args, out).await?,
            Command::Drag(args) => self.drag(args, out).await?,
            Command::Upload(args) => self.upload(args, out).await?,
            Command::Dialog(args) => self.dialog(args, out).await?,
            Command::Tab(args) => self.tab_command(args, out).await?,
            Command::Screenshot(args) => self.screenshot(args, out).await?,
            Command::Read(args) => self.read(args, out).await?,
            Command::Wait(args) => self.wait(args, out).await?,
            Command::Eval(args) => self.eval(args, out).await?,
            Command::Close => self.close_tabs(out).await?,
            Command::Console(args) => self.console(args, out).await?,
            Command::Network(args) => self.network(args, out).await?,
            Command::Cookies(args) => self.cookies(args, out).await?,
            Command::Storage(args) => self.storage(args, out).await?,
            Command::State(args) => self.state(args, out).await?,
            Command::Set(args) => self.emulate(args, out).await?,
            Command::Pdf(args) => self.pdf(args, out).await?,
            Command::Get(args) => self.get(args, out).await?,
            // Boxed: their futures hold those of other commands (fill-form
            // runs fill, select and check), and every command's future is
            // as large as the largest arm here.
            Command::Mouse(args) => Box::pin(self.mouse(args, out)).await?,
            Command::FillForm(args) => Box::pin(self.fill_form(args, out)).await?,
        }
        Ok(true)
    }

    /// The focused tab's id, if the session has any tab.
    pub fn focused_id(&self) -> Option<TabId> {
        self.context.focused().map(|t| t.id())
    }

    /// The focused tab, or `NO_TAB` when every tab was closed.
    pub(crate) fn focused(&self) -> Result<Tab, CommandError> {
        self.context.focused().ok_or_else(|| {
            CommandError::Browser(BrowserError::NoTab {
                tab: "(none)".into(),
                reason: "every tab of this session was closed; open a URL or a new tab".into(),
            })
        })
    }

    /// The focused tab's page model, made on first use. Models of closed tabs
    /// are dropped here.
    pub(crate) fn model(&mut self) -> Result<&mut PageModel, CommandError> {
        let tab = self.focused()?;
        let live: Vec<TabId> = self.context.tabs().iter().map(|t| t.id).collect();
        self.models.retain(|id, _| live.contains(id));
        let context = self.context.clone();
        let refs = self.config.numbering.refs.clone();
        Ok(self
            .models
            .entry(tab.id())
            .or_insert_with(|| PageModel::in_context(tab, context).counting_refs(refs)))
    }

    /// The focused tab's URL as the browser last reported it (no call to
    /// the page, so it answers even while a dialog blocks it).
    pub fn current_url(&self) -> String {
        self.context
            .tabs()
            .into_iter()
            .find(|t| t.focused)
            .map(|t| t.url)
            .unwrap_or_default()
    }

    /// The role and name the focused tab's last view showed for `target`
    /// (`e7`), if any.
    pub fn describe(&mut self, target: Ref) -> Option<(String, String)> {
        self.model().ok()?.describe(target)
    }

    /// Forgets a tab's model (its tab was closed).
    pub(crate) fn forget(&mut self, tab: TabId) {
        self.models.remove(&tab);
    }

    /// Reports tabs the command opened (following the newest when it should),
    /// a dialog it raised, and the view after it.
    async fn after_action(
        &mut self,
        out: &mut Outcome,
        before: &[TabId],
        follow_new_tab: bool,
        focus_before: Option<TabId>,
    ) -> Result<(), CommandError> {
        let mut opened: Vec<_> = self
            .context
            .tabs_refreshed()
            .await?
            .into_iter()
            .filter(|t| !before.contains(&t.id))
            .collect();
        let explicit = out.saw(|h| matches!(h, Happened::NewTab(_)));
        // Popups outside the domain policy are closed before anyone uses
        // them (their requests were already refused by the popup guard).
        let policy = self.context.domain_policy();
        {
            if opened.iter().any(|t| t.url.is_empty()) {
                let ids: Vec<TabId> = opened.iter().map(|t| t.id).collect();
                opened = self
                    .context
                    .tabs_with_urls(&ids, POPUP_URL_WAIT)
                    .await
                    .into_iter()
                    .filter(|t| ids.contains(&t.id))
                    .collect();
            }
            let (refused, kept): (Vec<_>, Vec<_>) = opened
                .into_iter()
                .partition(|t| !t.url.is_empty() && !policy.allows(&t.url));
            for tab in refused {
                let _ = self.context.close_tab(tab.id).await;
                out.happened.push(Happened::ClosedPopup { url: tab.url });
            }
            opened = kept;
        }
        for tab in &opened {
            if !explicit {
                let at = if tab.url.is_empty() {
                    "about:blank"
                } else {
                    &tab.url
                };
                out.happened.push(Happened::OpenedTab {
                    tab: tab.id,
                    at: at.to_owned(),
                });
            }
        }
        if let (true, Some(newest), false) = (follow_new_tab, opened.last(), explicit) {
            self.context.focus(newest.id)?;
            out.happened.push(Happened::Followed {
                tab: newest.id,
                back: focus_before,
            });
        }
        let Ok(tab) = self.focused() else {
            return Ok(());
        };
        let watch = tab.watch().await?;
        for url in watch.take_blocked() {
            out.happened.push(Happened::BlockedLoading { url });
        }
        let reported = out.saw(Happened::is_dialog_opened);
        if let (Some(dialog), false) = (watch.dialog(), reported) {
            out.happened.push(Happened::DialogOpened {
                kind: dialog.kind.clone(),
                message: dialog.message.clone(),
            });
        }
        if out.view.is_some() {
            // The command took its own view (a navigation shows the new page).
            return Ok(());
        }
        let switched = Some(tab.id()) != focus_before;
        let mode = match self.config.view_after {
            ViewAfter::None => return Ok(()),
            ViewAfter::Diff if switched => Mode::Full,
            ViewAfter::Diff => Mode::Diff,
            ViewAfter::Full => Mode::Full,
            ViewAfter::Interactive => Mode::Interactive,
        };
        let mut view = self.model()?.view(&ViewOptions::mode(mode)).await?;
        if view.unchanged {
            // A scroll says itself how far it went; the view covers the whole
            // page, not the viewport, so it never changes with one.
            if !out.saw(Happened::is_scroll) {
                out.happened.push(Happened::NothingChanged);
            }
            // "No changes since the last view" would say it twice.
            view.text.clear();
            view.tokens = 0;
        }
        out.view = Some(view);
        Ok(())
    }

    /// Closes the session's context (its tabs, cookies and storage).
    pub async fn close(self) -> Result<(), CommandError> {
        self.context.close().await?;
        Ok(())
    }
}

/// How long an action waits for a navigation the page started to commit
/// before it is refused with `NAVIGATION_IN_PROGRESS`.
const NAVIGATION_GRACE: Duration = Duration::from_secs(2);

impl Session {
    /// Input meant for the page on screen would be lost with it when a
    /// navigation the page started commits: wait briefly for it, then refuse
    /// (nothing sent) while it is still on its way.
    async fn unless_navigating(&self) -> Result<(), CommandError> {
        let Ok(tab) = self.focused() else {
            return Ok(());
        };
        let watch = tab.watch().await?;
        if watch.navigating().is_none() {
            return Ok(());
        }
        match watch.navigation_settled(NAVIGATION_GRACE).await {
            None => Ok(()),
            Some(url) => Err(CommandError::NavigationInProgress { url }),
        }
    }
}

/// How long a new tab may take to say where it goes before the domain policy
/// judges it (it is then taken for `about:blank`). A deadline, not a pause:
/// the wait ends when the browser names the URL, within milliseconds on a
/// quiet machine, but on a loaded one a popup bound for a refused host once
/// stayed nameless past 1 s and was reported, and kept, as `about:blank`.
const POPUP_URL_WAIT: Duration = Duration::from_secs(5);
/// Longer than any command: how long a guard watches for a dialog.
const DIALOG_WATCH: Duration = Duration::from_secs(3_600);

/// Runs `work` on the page unless a JavaScript dialog blocks it. One already
/// open is `DIALOG_OPEN` before anything is sent; one that opens meanwhile
/// stops the page's scripts, so the wait ends at once with `DIALOG_OPEN`
/// (the dialog came from the work itself: `sent`) instead of running into
/// the transport's deadline.
pub(crate) async fn unless_dialog<T>(
    tab: &Tab,
    work: impl std::future::Future<Output = Result<T, CommandError>>,
) -> Result<T, CommandError> {
    let watch = tab.watch().await?;
    if let Some(dialog) = watch.dialog() {
        return Err(blocked_by(dialog));
    }
    tokio::select! {
        done = work => done,
        Some(dialog) = watch.wait_for_dialog(DIALOG_WATCH) => Err(CommandError::DialogOpened {
            kind: dialog.kind,
            message: dialog.message,
        }),
    }
}

/// The failure of anything refused because `dialog` blocks the page.
pub(crate) fn blocked_by(dialog: rove_browser::DialogInfo) -> CommandError {
    CommandError::Page(rove_page::PageError::DialogOpen {
        kind: dialog.kind,
        message: dialog.message,
    })
}

/// A text in double quotes, shortened to a line.
pub(crate) fn quote_line(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let short: String = flat.chars().take(200).collect();
    if short.len() < flat.len() {
        format!("{short:?}…")
    } else {
        format!("{short:?}")
    }
}

/// Takes a view of `mode` of the focused tab.
pub(crate) async fn view_of(
    model: &mut PageModel,
    mode: Mode,
    budget: Option<usize>,
) -> Result<View, CommandError> {
    let opts = ViewOptions {
        budget,
        ..ViewOptions::mode(mode)
    };
    Ok(model.view(&opts).await?)
}
