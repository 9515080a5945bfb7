//! `tab` (list, new, switch, close) and `dialog` (accept, dismiss); leaving
//! a page that dialogs block.

use rove_browser::{Tab, TabId};
use rove_cdp::protocol::page::HandleJavaScriptDialog;
use rove_cdp::protocol::runtime::Evaluate;
use rove_page::Mode;

use crate::answer::happened::{Answer, Happened};
use crate::answer::outcome::Outcome;
use crate::session::watchdog;
use crate::session::{Session, view_of};
use crate::{CommandError, Data, DialogArgs, OpenArgs, TabAction, TabArgs};

impl Session {
    pub(crate) async fn tab_command(
        &mut self,
        args: &TabArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        match args.action {
            TabAction::List => {
                let tabs = self.context().tabs_refreshed().await?;
                let on_desktop = self.has_desktop();
                let mut text = String::new();
                for t in &tabs {
                    let mark = if t.focused && !on_desktop { "*" } else { " " };
                    let opener = t
                        .opener
                        .map(|o| format!(" (opened by {o})"))
                        .unwrap_or_default();
                    let crashed = if t.crashed { " [crashed]" } else { "" };
                    // Written as the view writes titles: a title cannot end
                    // its line early or pass for a URL or another tab.
                    let title = rove_page::title_text(&t.title);
                    text.push_str(&format!(
                        "{}{mark} {title} {}{opener}{crashed}\n",
                        t.id, t.url
                    ));
                }
                if tabs.is_empty() {
                    text.push_str("no tabs; open a URL\n");
                }
                // The desktop application the commands go to: one more
                // kind of tab.
                if let Some(target) = self.desktop() {
                    let title = rove_page::title_text(&target.title());
                    let pid = target
                        .app
                        .pid
                        .map(|p| format!(" (pid {p})"))
                        .unwrap_or_default();
                    text.push_str(&format!(
                        "desktop* {title} {}{pid}: commands go to it; desktop leave goes back to the tabs\n",
                        target.place()
                    ));
                }
                out.data = Some(Data::Text(text));
                Ok(())
            }
            TabAction::New => {
                match &args.url {
                    Some(url) => {
                        let open = OpenArgs {
                            url: url.clone(),
                            new_tab: true,
                        };
                        self.open(&open, out).await?;
                    }
                    None => {
                        let tab = self.context().new_tab().await?;
                        out.tab = tab.id();
                        out.happened.push(Happened::NewTab(tab.id()));
                        out.view = Some(view_of(self.model()?, Mode::Full, None).await?);
                    }
                }
                Ok(())
            }
            TabAction::Switch => {
                let id = tab_id(args.tab, "switch")?;
                self.context().focus(id).await?;
                out.tab = id;
                out.happened.push(Happened::SwitchedTo(id));
                // A tab the agent has not seen yet, or one it left: a full view.
                out.view = Some(view_of(self.model()?, Mode::Full, None).await?);
                Ok(())
            }
            TabAction::Close => {
                let id = match args.tab {
                    Some(t) => t,
                    None => self.focused()?.id(),
                };
                self.context().close_tab(id).await?;
                self.forget(id);
                out.happened.push(Happened::ClosedTab(id));
                if let Some(now) = self.focused_id() {
                    out.tab = now;
                    out.happened.push(Happened::NowOn(now));
                    out.view = Some(view_of(self.model()?, Mode::Full, None).await?);
                } else {
                    out.happened.push(Happened::NoTabsLeft);
                }
                Ok(())
            }
        }
    }

    /// Answers the dialog that blocks the page; a dialog that opens right
    /// after (a chain) is reported, so each is answered in turn.
    pub(crate) async fn dialog(
        &mut self,
        args: &DialogArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let tab = self.focused()?;
        let watch = tab.watch().await?;
        let Some(dialog) = watch.dialog() else {
            return Err(CommandError::Rejected(
                "no dialog is open on this tab (the page may have closed it itself)".into(),
            ));
        };
        let mut answer_dialog = HandleJavaScriptDialog {
            accept: args.accept,
            prompt_text: None,
        };
        if let Some(text) = &args.text {
            if dialog.kind != "prompt" {
                return Err(CommandError::Rejected(format!(
                    "the open dialog is a {}, which takes no text; only a prompt does",
                    dialog.kind
                )));
            }
            answer_dialog.prompt_text = Some(text.clone());
        }
        // The page goes on once answered: a navigation the dialog held, the
        // requests and changes its script makes. The answer waits for them
        // as after input (a chained dialog ends that wait at once).
        let answered = async {
            tab.send(&answer_dialog)
                .await
                .map(|_| ())
                .map_err(CommandError::from)
        };
        let ((), settled) = rove_input::settle_after_dialog(&tab, answered).await?;
        out.happened.push(Happened::DialogAnswered {
            answer: if args.accept {
                Answer::Accepted
            } else {
                Answer::Dismissed
            },
            kind: dialog.kind.clone(),
            message: dialog.message.clone(),
        });
        // A chained dialog (alert(); alert() in one script) opens before the
        // page can run anything else: the script holds its main thread. So
        // a script of rove's is answered only after the chain's next dialog
        // has opened, or once there is none, however slow the machine; then
        // a short watch catches one a timer opens right after.
        let mut changes = watch.changes();
        let next_opened = changes.wait_for(|_| watch.dialog().is_some_and(|d| d != dialog));
        let page_free = async {
            let one = Evaluate {
                expression: "1".to_owned(),
                ..Evaluate::default()
            };
            let probe = tab.send(&one);
            let _ = tokio::time::timeout(rove_base::limits::PAGE_FREE, probe).await;
            tokio::time::sleep(rove_base::limits::CHAINED_DIALOG).await;
        };
        tokio::select! {
            _ = next_opened => {}
            () = page_free => {}
        }
        if let Some(next) = watch.dialog()
            && next != dialog
        {
            out.happened.push(Happened::AnotherDialog {
                kind: next.kind.clone(),
                message: next.message.clone(),
            });
            let in_a_row = self.watchdog().another_dialog() + 1;
            if in_a_row >= DIALOGS_BEFORE_ADVICE {
                out.happened.push(Happened::DialogLoop { in_a_row });
            }
            return Ok(());
        }
        self.after_settle(&settled, out).await
    }

    /// The focused tab, to navigate in. One a JavaScript dialog blocks is
    /// left instead: a page that keeps opening dialogs would block every
    /// navigation, so rove closes the tab, dialogs and all, and the
    /// navigation goes to a new tab, saying so.
    pub(crate) async fn tab_to_open_in(&mut self, out: &mut Outcome) -> Result<Tab, CommandError> {
        let tab = self.focused()?;
        let Some(dialog) = tab.current_watch().await.and_then(|w| w.dialog()) else {
            return Ok(tab);
        };
        let url = watchdog::url_of(self.context(), tab.id());
        let fresh = watchdog::replace(self.context(), &tab).await?;
        self.forget(tab.id());
        out.happened.push(Happened::LeftBlockedTab {
            tab: tab.id(),
            url,
            kind: dialog.kind.clone(),
            message: dialog.message.clone(),
        });
        out.happened.push(Happened::NewTab(fresh));
        Ok(self.context().tab(fresh)?)
    }
}

/// After how many dialogs in a row the answer says how to leave the page.
const DIALOGS_BEFORE_ADVICE: u32 = 3;

fn tab_id(tab: Option<TabId>, action: &str) -> Result<TabId, CommandError> {
    tab.ok_or_else(|| {
        CommandError::Rejected(format!(
            "tab {action} needs a tab id like t2 (tab list shows them)"
        ))
    })
}
