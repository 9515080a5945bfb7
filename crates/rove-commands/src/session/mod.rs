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

mod config;
pub(crate) mod dialog;
mod dispatch;
pub(crate) mod downloads;
pub(crate) mod files;
pub(crate) mod guard;
pub(crate) mod host;
pub(crate) mod interval_logs;
pub(crate) mod locate;
pub(crate) mod secrets;
pub(crate) mod traced;
pub(crate) mod watchdog;

pub use config::{Caller, Numbering, SessionConfig, ViewAfter};
pub(crate) use dialog::{blocked_by, unless_dialog};

use crate::answer::happened::Happened;
use crate::session::downloads::Downloads;
use crate::{Command, CommandError, Outcome};

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
    pub(crate) watchdog: crate::session::watchdog::Watchdog,
    /// Where each tab's pointer is and which buttons it holds (`mouse`).
    pub(crate) pointers: crate::commands::input::mouse::Pointers,
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
        let watchdog = crate::session::watchdog::Watchdog::start(&context, config.health);
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
