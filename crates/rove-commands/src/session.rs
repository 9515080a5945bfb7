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
use crate::{Command, CommandError, Outcome};

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
    /// Uploads may only come from under these folders.
    pub upload_roots: Vec<PathBuf>,
    /// Where downloads land; `None` for a fresh folder per session under the
    /// system's temp folder.
    pub download_dir: Option<PathBuf>,
    /// How long `open`, `back`, `forward` and `reload` wait for the load.
    pub navigation_timeout: Duration,
    /// How long an action waits for its element to become actionable.
    pub action_timeout: Duration,
    /// How the page's settling after an action is waited for.
    pub settle: rove_input::SettleLimits,
    /// When set, documents may only load from these domains
    /// (`example.com` and its subdomains, `*.example.com`): navigations,
    /// redirects, iframes and popups outside are refused.
    pub allowed_domains: Option<Vec<String>>,
    /// How long `eval` lets a script run (or wait for its promise) before
    /// rove stops it.
    pub eval_timeout: Duration,
    /// Every command's overall deadline (longer for a command whose own
    /// wait is longer: see docs/architecture.md's timeout ladder).
    pub command_timeout: Duration,
    /// When a tab counts as hung, and how often rove looks.
    pub health: crate::HealthLimits,
}

impl Default for SessionConfig {
    fn default() -> Self {
        let mut upload_roots = vec![crate::files::rove_temp_dir()];
        if let Ok(cwd) = std::env::current_dir() {
            upload_roots.insert(0, cwd);
        }
        SessionConfig {
            view_after: ViewAfter::Diff,
            upload_roots,
            download_dir: None,
            navigation_timeout: Duration::from_secs(30),
            action_timeout: Duration::from_secs(5),
            settle: rove_input::SettleLimits::default(),
            allowed_domains: None,
            eval_timeout: Duration::from_secs(10),
            command_timeout: Duration::from_secs(120),
            health: crate::HealthLimits::default(),
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
    pub(crate) watchdog: crate::watchdog::Watchdog,
}

impl Session {
    /// Opens a fresh context with one blank tab in `browser`.
    pub async fn start(browser: &Browser, config: SessionConfig) -> Result<Session, CommandError> {
        let context = browser.new_context().await?;
        // Before the first tab: its watch starts the interception.
        context.set_domain_policy(
            config
                .allowed_domains
                .as_ref()
                .map(|d| rove_browser::DomainPolicy::new(d.iter().cloned())),
        );
        context.new_tab().await?;
        let downloads = Downloads::start(&context, config.download_dir.clone()).await?;
        let watchdog = crate::watchdog::Watchdog::start(&context, config.health);
        Ok(Session {
            context,
            models: HashMap::new(),
            config,
            downloads,
            watchdog,
        })
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

    /// Runs one command. Acting commands end with a view of what changed and
    /// a line for each thing that happened besides (a navigation, a new tab,
    /// a dialog, a download). Guarded: see `guard.rs`.
    pub async fn execute(&mut self, command: &Command) -> Result<Outcome, CommandError> {
        self.guarded(command).await
    }

    /// Runs one command without the guard.
    pub(crate) async fn execute_unguarded(
        &mut self,
        command: &Command,
    ) -> Result<Outcome, CommandError> {
        let before: Vec<TabId> = self.context.tabs().iter().map(|t| t.id).collect();
        let mark = self.downloads.mark();
        let focus = self.focused_id();
        let mut out = Outcome::new(focus.unwrap_or(TabId(0)));
        let limits = self.config.settle;
        let follow_new_tab =
            rove_input::with_settle_limits(limits, self.run(command, &mut out)).await?;
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
        Ok(self
            .models
            .entry(tab.id())
            .or_insert_with(|| PageModel::in_context(tab, context)))
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
    pub fn describe(&mut self, target: &str) -> Option<(String, String)> {
        let r = parse_ref(target).ok()?;
        self.model().ok()?.describe(r)
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
        let explicit = out.happened.iter().any(|l| l.starts_with("new tab "));
        // Popups outside the domain policy are closed before anyone uses them.
        if let Some(policy) = self.context.domain_policy() {
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
                out.happened.push(format!(
                    "closed a tab opened at {} (outside the allowed domains)",
                    tab.url
                ));
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
                out.happened.push(format!("opened tab {} at {at}", tab.id));
            }
        }
        if let (true, Some(newest), false) = (follow_new_tab, opened.last(), explicit) {
            self.context.focus(newest.id)?;
            out.happened.push(format!(
                "switched to {} (tab switch {} goes back)",
                newest.id,
                focus_before.map(|t| t.to_string()).unwrap_or_default()
            ));
        }
        let Ok(tab) = self.focused() else {
            return Ok(());
        };
        let watch = tab.watch().await?;
        for url in watch.take_blocked() {
            out.happened.push(format!(
                "blocked loading {url} (outside the allowed domains)"
            ));
        }
        let reported = out.happened.iter().any(|l| l.contains("dialog opened"));
        if let (Some(dialog), false) = (watch.dialog(), reported) {
            out.happened.push(format!(
                "{} dialog opened: {}",
                rove_errors::with_article(&dialog.kind),
                quote_line(&dialog.message)
            ));
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
            if !out.happened.iter().any(|l| l.starts_with("scrolled ")) {
                out.happened.push("nothing visible changed".into());
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

/// How long a new tab may take to say where it goes before the domain policy
/// judges it (it is then taken for `about:blank`).
const POPUP_URL_WAIT: Duration = Duration::from_secs(1);
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

/// A ref from its text (`e7`, `@e7`).
pub(crate) fn parse_ref(text: &str) -> Result<Ref, CommandError> {
    text.parse::<Ref>().map_err(CommandError::Page)
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
