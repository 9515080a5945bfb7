//! A session: one isolated browser context, its tabs, their page models, and
//! the policy its commands run under. Every face executes commands here.
//!
//! A session is used by one caller at a time (`&mut self`), which is how two
//! shells sharing a session are served in order, never interleaved inside
//! one action.

use std::collections::HashMap;
use std::path::PathBuf;

use rove_browser::{Browser, BrowserContext, BrowserError, Tab, TabId};
use rove_page::{Mode, PageModel, Ref, View, ViewOptions};

mod browser_level;
mod config;
pub(crate) mod cookie_jar;
pub(crate) mod desktop;
pub(crate) mod dialog;
pub(crate) mod downloads;
pub(crate) mod files;
pub(crate) mod interval_logs;
pub(crate) mod locate;
pub(crate) mod pointers;
mod scale;
pub(crate) mod shown;

pub(crate) mod secrets;
pub(crate) mod settled;
pub(crate) mod watchdog;

pub use config::{Caller, Numbering, SessionConfig, ViewAfter};
pub(crate) use dialog::{blocked_by, refuse_if_dialog, unless_dialog};

use crate::CommandError;
use crate::session::downloads::Downloads;

/// One isolated session.
#[derive(Debug)]
pub struct Session {
    context: BrowserContext,
    models: HashMap<TabId, PageModel>,
    /// The tab the last page model handed out belongs to: a model reached
    /// after the focus moved names its URL in its next view.
    model_focus: Option<TabId>,
    config: SessionConfig,
    downloads: Downloads,
    /// The session's own upload folder (private, under the runtime folder).
    upload_dir: PathBuf,
    /// Who the running command is for.
    caller: Caller,
    watchdog: crate::session::watchdog::Watchdog,
    /// Where each tab's pointer is and which buttons it holds (`mouse`).
    pointers: pointers::Pointers,
    /// Where the last command's time went (failed or not).
    last_timing: Option<crate::Timing>,
    /// The origins `set geo` granted the position to: a browser started
    /// again grants them again, with the position itself.
    geo_origins: Vec<String>,
    /// The desktop application commands work on instead of the focused
    /// tab, after `desktop open` or `desktop attach`.
    desktop: Option<desktop::DesktopTarget>,
}

impl Session {
    /// Opens a fresh context with one blank tab in `browser` (the
    /// storage state a config names is loaded by [`Session::start`]).
    pub(crate) async fn create(
        browser: &Browser,
        config: SessionConfig,
    ) -> Result<Session, CommandError> {
        config.secrets.hide_from_logs();
        let context = browser
            .new_context_counting(config.numbering.tabs.clone())
            .await?;
        // Before the first tab: its watch starts the interception.
        context.set_domain_policy(config.policy.clone()).await?;
        context.set_viewport(config.viewport).await?;
        // The first tab and where downloads go, asked together.
        let (_, downloads) = tokio::try_join!(
            async { context.first_tab().await.map_err(CommandError::from) },
            Downloads::start(&context, config.download_dir.clone()),
        )?;
        let upload_dir = rove_browser::ensure_runtime_subdir(std::path::Path::new("uploads"))?;
        // A loading document is waited for as long as a navigation is.
        let health = crate::HealthLimits {
            load_allowance: config.navigation_timeout,
            ..config.health
        };
        let watchdog = crate::session::watchdog::Watchdog::start(&context, health);
        Ok(Session {
            context,
            models: HashMap::new(),
            model_focus: None,
            config,
            downloads,
            upload_dir,
            caller: Caller::Model,
            watchdog,
            pointers: Default::default(),
            last_timing: None,
            geo_origins: Vec::new(),
            desktop: None,
        })
    }

    /// The session's browser context.
    pub fn context(&self) -> &BrowserContext {
        &self.context
    }

    /// The error every command would now meet when the session's browser
    /// is gone for good (it exited, its farm ended it, its link could not
    /// be restored); `None` while it can be used. Nothing is sent.
    pub fn browser_lost(&self) -> Option<CommandError> {
        self.context
            .browser()
            .lost()
            .map(|reason| CommandError::Browser(BrowserError::lost(reason)))
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

    /// Where the last command's time went, whether it failed or not (a
    /// failed command's error does not carry it).
    pub fn last_timing(&self) -> Option<crate::Timing> {
        self.last_timing
    }

    /// Who the running command is for.
    pub(crate) fn caller(&self) -> &Caller {
        &self.caller
    }

    /// Sets who the next command runs for (and back to a model after it).
    pub(crate) fn set_caller(&mut self, caller: Caller) {
        self.caller = caller;
    }

    /// Notes where the last command's time went.
    pub(crate) fn set_last_timing(&mut self, timing: crate::Timing) {
        self.last_timing = Some(timing);
    }

    /// The session's downloads.
    pub(crate) fn downloads(&self) -> &Downloads {
        &self.downloads
    }

    /// The health watch of the session's tabs.
    pub(crate) fn watchdog(&self) -> &crate::session::watchdog::Watchdog {
        &self.watchdog
    }

    /// Where each tab's pointer is and which buttons it holds.
    pub(crate) fn pointers_mut(&mut self) -> &mut pointers::Pointers {
        &mut self.pointers
    }

    /// The origins `set geo` granted the position to.
    pub(crate) fn geo_origins(&self) -> &[String] {
        &self.geo_origins
    }

    /// Notes an origin `set geo` granted the position to.
    pub(crate) fn add_geo_origin(&mut self, origin: String) {
        if !self.geo_origins.contains(&origin) {
            self.geo_origins.push(origin);
        }
    }

    /// The tab other than the focused one whose page model handed out
    /// `missing`, if any.
    pub(crate) fn other_tab_knowing(&self, missing: Ref) -> Option<TabId> {
        let focus = self.focused_id();
        self.models
            .iter()
            .find(|(id, model)| Some(**id) != focus && model.knows(missing))
            .map(|(id, _)| *id)
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
        let moved = self.model_focus.replace(tab.id()) != Some(tab.id());
        let model = self
            .models
            .entry(tab.id())
            .or_insert_with(|| PageModel::in_context(tab, context).counting_refs(refs));
        // The model's last view of this tab may be many views back.
        if moved {
            model.name_url_next();
        }
        Ok(model)
    }

    /// Whether the focused tab's views so far gave approximate roles and
    /// names: the browser lacks the blink feature rove launches its own
    /// with (`ComputedAccessibilityInfo`), as a farm's or a stranger's may.
    pub fn roles_approximated(&mut self) -> bool {
        self.model().is_ok_and(|m| m.approximate_roles())
    }

    /// Makes the focused tab's next full view name its URL, for a caller
    /// about to show a view to a reader who did not read the last one (an
    /// agent's first view after the run's own `open`).
    pub fn name_url_next(&mut self) {
        if let Ok(model) = self.model() {
            model.name_url_next();
        }
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

    /// Closes the session's context (its tabs, cookies and storage).
    pub async fn close(self) -> Result<(), CommandError> {
        self.context.close().await?;
        Ok(())
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
