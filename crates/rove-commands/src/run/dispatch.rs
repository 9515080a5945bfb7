//! Running one command on a session: locators resolved, the command's
//! own work dispatched, and what follows every acting command (tabs it
//! opened, a dialog it raised, the view of what changed).

use rove_browser::TabId;
use rove_page::{Mode, ViewOptions};

use crate::answer::happened::Happened;
use crate::session::{Session, ViewAfter};
use crate::{Command, CommandError, Outcome};

impl Session {
    /// Runs one command without the guard (see `guard.rs`).
    pub(crate) async fn execute_unguarded(
        &mut self,
        command: &Command,
    ) -> Result<Outcome, CommandError> {
        // Decided by what the command works on (its entry): one that needs
        // the page's scripts answers DIALOG_OPEN at once rather than wait
        // for the dialog into a deadline.
        if let (true, Ok(tab)) = (command.works_on().blocked_by_dialog(), self.focused()) {
            crate::session::refuse_if_dialog(&tab).await?;
        }
        if command.acts_on_elements() {
            self.unless_navigating().await?;
        }
        let before: Vec<TabId> = self.context().tabs().iter().map(|t| t.id).collect();
        let mark = self.downloads().mark();
        let focus = self.focused_id();
        let mut out = Outcome::new(focus.unwrap_or(TabId(0)));
        // Locators become refs here, once for every command (locate.rs).
        let resolved = self.resolve_targets(command, &mut out).await?;
        let command = resolved.as_ref().unwrap_or(command);
        let limits = self.config().settle;
        let follow_new_tab =
            // Boxed: the dispatch over every command is a large future,
            // and polling it in place took some 300 KB of a debug build's
            // stack (a test's runtime thread has 2 MB).
            rove_input::with_settle_limits(limits, Box::pin(self.run(command, &mut out))).await?;
        if command.acts() {
            self.after_action(&mut out, &before, follow_new_tab, focus)
                .await?;
            out.downloads = self.downloads().finished_since(mark).await;
        }
        if let Some(tab) = self.focused_id() {
            out.tab = tab;
        }
        self.note_pending(&mut out).await;
        Ok(out)
    }

    /// Requests the focused tab's pages still wait on past the bound, each
    /// told once: in the answer of the command during which it hung.
    async fn note_pending(&mut self, out: &mut Outcome) {
        let Ok(tab) = self.focused() else { return };
        let Ok(watch) = tab.watch().await else { return };
        for late in watch.overdue_requests(self.config().request_pending) {
            out.happened
                .push(crate::answer::happened::Happened::RequestPending {
                    method: late.method,
                    url: late.url,
                    seconds: late.seconds,
                });
        }
    }

    /// `close` run on the session itself: every tab closed (the face that
    /// owns the browser then ends it; a browser someone else started stays).
    async fn close_tabs(&mut self, out: &mut Outcome) -> Result<(), CommandError> {
        let tabs = self.context().tabs();
        for tab in &tabs {
            self.context().close_tab(tab.id).await?;
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
            Command::Solve(args) => Box::pin(self.solve(args, out)).await?,
            Command::Dialog(args) => self.dialog(args, out).await?,
            Command::Tab(args) => self.tab_command(args, out).await?,
            Command::Desktop(args) => self.desktop_command(args, out).await?,
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
            .context()
            .tabs_refreshed()
            .await?
            .into_iter()
            .filter(|t| !before.contains(&t.id))
            .collect();
        let explicit = out.saw(|h| matches!(h, Happened::NewTab(_)));
        // Popups outside the domain policy are closed before anyone uses
        // them (their requests were already refused by the popup guard).
        let policy = self.context().domain_policy();
        {
            if opened.iter().any(|t| t.url.is_empty()) {
                let ids: Vec<TabId> = opened.iter().map(|t| t.id).collect();
                opened = self
                    .context()
                    .tabs_with_urls(&ids, rove_base::limits::POPUP_URL)
                    .await
                    .into_iter()
                    .filter(|t| ids.contains(&t.id))
                    .collect();
            }
            let (refused, kept): (Vec<_>, Vec<_>) = opened
                .into_iter()
                .partition(|t| !t.url.is_empty() && !policy.allows(&t.url));
            for tab in refused {
                let _ = self.context().close_tab(tab.id).await;
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
            self.context().focus(newest.id).await?;
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
        let mode = match self.config().view_after {
            ViewAfter::None => return Ok(()),
            ViewAfter::Diff if switched => Mode::Full,
            ViewAfter::Diff => Mode::Diff,
            ViewAfter::Full => Mode::Full,
            ViewAfter::Interactive => Mode::Interactive,
        };
        let mut view = self.model()?.view(&ViewOptions::mode(mode)).await?;
        for said in std::mem::take(&mut view.announced) {
            out.happened.push(Happened::Announced(said));
        }
        if view.unchanged {
            // A scroll says itself how far it went; the view covers the whole
            // page, not the viewport, so it never changes with one.
            let awaiting = out
                .happened
                .iter_mut()
                .filter_map(|h| match h {
                    Happened::AwaitingServer { changed, .. } => Some(changed),
                    _ => None,
                })
                .map(|changed| *changed = false)
                .count();
            // With a server's answer on its way, "nothing visible changed"
            // would claim more than rove knows: that line says "not yet".
            if !out.saw(Happened::is_scroll) && awaiting == 0 {
                out.happened.push(if view.partial {
                    Happened::NothingChangedInPart
                } else {
                    Happened::NothingChanged
                });
            }
            // "No changes since the last view" would say it twice.
            view.text.clear();
            view.tokens = 0;
        }
        out.view = Some(view);
        Ok(())
    }
}

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
        match watch
            .navigation_settled(rove_base::limits::NAVIGATION_GRACE)
            .await
        {
            None => Ok(()),
            Some(url) => Err(CommandError::NavigationInProgress { url }),
        }
    }
}
