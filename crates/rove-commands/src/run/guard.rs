//! Every command runs guarded: the focused tab is checked first (and
//! recovered when it stopped answering or crashed), the command has an
//! overall deadline, and it is cut short when the tab stops answering while
//! it runs. What rove did about a tab comes first in the answer.

use std::time::{Duration, Instant};

use rove_errors::Classify;

use crate::answer::fault::TabFault;
use crate::answer::happened::Happened;
use crate::session::watchdog::{self, Health};
use crate::{Command, CommandError, Deadline, Outcome, Session, WorksOn};

impl Session {
    /// Runs `command` under the session's guard; see the module comment.
    pub(crate) async fn guarded(&mut self, command: &Command) -> Result<Outcome, CommandError> {
        // A desktop application as the target: no tab to probe or guard.
        // `tab list` still lists the tabs, the application among them.
        let lists_tabs = matches!(command, Command::Tab(t) if t.action == crate::TabAction::List);
        if self.has_desktop() && !matches!(command, Command::Desktop(_)) && !lists_tabs {
            let deadline = self.deadline_for(command);
            return match tokio::time::timeout(deadline, self.run_on_desktop(command)).await {
                Ok(done) => done,
                Err(_) => Err(CommandError::CommandTimeout {
                    command: command.name(),
                    after: deadline,
                    acts: command.acts(),
                }),
            };
        }
        let answers_dialog = command.works_on() == WorksOn::Dialog;
        let (mut notes, running) = self.watchdog().command_starts(answers_dialog);
        let result = self.guarded_run(command, &mut notes).await;
        drop(running);
        match result {
            Ok(mut out) => {
                out.happened.splice(0..0, notes);
                Ok(out)
            }
            Err(error) if notes.is_empty() => Err(error),
            Err(error) => Err(CommandError::Noted {
                notes: notes.iter().map(ToString::to_string).collect(),
                error: Box::new(error),
            }),
        }
    }

    async fn guarded_run(
        &mut self,
        command: &Command,
        notes: &mut Vec<Happened>,
    ) -> Result<Outcome, CommandError> {
        let due = self.probe_due(command);
        // A command that only reads goes out beside the probe: it changes
        // nothing, so when the probe finds the tab silent it is dropped
        // and run again on what the recovery left; when the probe finds the
        // page answering, the read is already on its way.
        let beside = command.effect() == crate::Effect::Reads;
        if let Some(tab) = due.as_ref().filter(|_| !beside) {
            let fault = self.probe_and_recover(tab).await?;
            self.fault_before(command, fault, notes)?;
        }
        let deadline = self.deadline_for(command);
        let mut silence = Box::pin(self.silence_for(command));
        let limits = *self.watchdog().limits();
        let mut run = Box::pin(tokio::time::timeout(
            deadline,
            self.execute_unguarded(command),
        ));
        let mut early = None;
        if let Some(tab) = due.filter(|_| beside) {
            let probe = watchdog::probe(&tab, limits.probe_timeout, limits.load_allowance);
            tokio::pin!(probe);
            // Biased: the probe is polled (and sent) first. A read that
            // answers first (a log from its buffer, a short wait) still
            // has the probe's verdict before it counts.
            let (health, done) = tokio::select! {
                biased;
                health = &mut probe => (health, None),
                done = &mut run => ((&mut probe).await, Some(done)),
            };
            match health {
                Health::Answers | Health::Loading(_) | Health::Gone => {
                    early = done.map(|done| Ran::Done(Box::new(done)));
                }
                Health::Silent | Health::Crashed => {
                    drop(run);
                    let fault = self.recover(&tab, health, limits.probe_timeout).await?;
                    self.fault_before(command, fault, notes)?;
                    // What the background probe found during the hang is
                    // old news for the read run again.
                    silence = Box::pin(self.silence_for(command));
                    run = Box::pin(tokio::time::timeout(
                        deadline,
                        self.execute_unguarded(command),
                    ));
                }
            }
        }
        let ran = match early {
            Some(ran) => ran,
            None => tokio::select! {
                done = &mut run => Ran::Done(Box::new(done)),
                silent = &mut silence => Ran::Silent(silent.tab),
            },
        };
        drop(run);
        match ran {
            Ran::Done(done) => match *done {
                Ok(Err(error)) if error.code() == rove_errors::ErrorCode::TargetCrashed => {
                    Err(self.after_crash(command, error).await)
                }
                Ok(Ok(out)) => {
                    self.page_answered(&out).await;
                    Ok(out)
                }
                Ok(Err(error)) => Err(self.hung_while_loading(command, error).await),
                Err(_) => Err(CommandError::CommandTimeout {
                    command: command.name(),
                    after: deadline,
                    acts: command.acts(),
                }),
            },
            Ran::Silent(tab) => Err(self.silent_during(command, tab).await),
        }
    }

    /// The silence the background probe finds from now on, while
    /// `command` runs; for a command with the script deadline (`eval`),
    /// which stops its own script, only once the script answered.
    fn silence_for(
        &self,
        command: &Command,
    ) -> impl std::future::Future<Output = watchdog::Silence> + 'static {
        let script = command.entry().deadline == Deadline::Script;
        let silence = self.watchdog().silence_since(Instant::now());
        let after_script = self.watchdog().silence_after_script();
        async move {
            if script {
                after_script.await
            } else {
                silence.await
            }
        }
    }

    /// What a probe before `command` found and recovered: an error when
    /// the tab was replaced under a command meant for its page, else a note
    /// for the answer.
    fn fault_before(
        &mut self,
        command: &Command,
        fault: Option<TabFault>,
        notes: &mut Vec<Happened>,
    ) -> Result<(), CommandError> {
        let Some(fault) = fault else {
            return Ok(());
        };
        let replaced = matches!(
            fault.recovery,
            crate::answer::fault::Recovery::Replaced { .. }
        );
        // A navigation goes on in the new tab; anything else was meant
        // for the page that is gone.
        if replaced && !matches!(command, Command::Open(_)) {
            return Err(CommandError::TabFault {
                fault,
                command: command.name(),
                during: false,
                acts: command.acts(),
            });
        }
        notes.push(Happened::TabFault {
            fault,
            while_idle: false,
        });
        Ok(())
    }

    /// A view came back: the page's thread answered, so a load it was busy
    /// with is over (`main_frame.rs`).
    async fn page_answered(&self, out: &Outcome) {
        if out.view.is_none() {
            return;
        }
        let Some(tab) = self.context().tab(out.tab).ok() else {
            return;
        };
        if let Some(watch) = tab.current_watch().await {
            watch.page_answered();
        }
    }

    /// A navigation that ran out of time on a page that still does not
    /// answer: a script that never yields while the page loads is stopped,
    /// and said so; a document whose parser is still at work (no load
    /// event yet, within twice the allowance) is left loading in its tab,
    /// and the error says it is still loading.
    async fn hung_while_loading(&mut self, command: &Command, error: CommandError) -> CommandError {
        let not_loaded = matches!(
            &error,
            CommandError::Navigation {
                failure: crate::answer::error::NavigationFailure::NotLoaded { .. },
                ..
            }
        );
        let Some(tab) = self.context().focused().filter(|_| not_loaded) else {
            return error;
        };
        let limits = *self.watchdog().limits();
        let health = watchdog::probe(&tab, limits.probe_timeout, Duration::ZERO).await;
        self.recovered_during(command, &tab, health, error).await
    }

    /// Recovers `tab` found `health` while `command` ran: the fault, said
    /// with the command, or `error` when there was nothing to recover.
    async fn recovered_during(
        &mut self,
        command: &Command,
        tab: &rove_browser::Tab,
        health: Health,
        error: CommandError,
    ) -> CommandError {
        let limits = *self.watchdog().limits();
        match self.recover(tab, health, limits.probe_timeout).await {
            Ok(Some(fault)) => CommandError::TabFault {
                fault,
                command: command.name(),
                during: true,
                acts: command.acts(),
            },
            _ => error,
        }
    }

    /// The focused tab, when `command` is to probe it first: it needs the
    /// page, and the tab has run something that could hang.
    fn probe_due(&self, command: &Command) -> Option<rove_browser::Tab> {
        let limits = self.watchdog().limits();
        if !limits.probe_before_commands || !command.works_on().needs_page() {
            return None;
        }
        let tab = self.context().focused()?;
        // Before the session's first command, a blank tab no page opened
        // has run no script at all: nothing there can hang, and asking
        // would only wait for its renderer to start.
        let untouched = self.last_timing().is_none()
            && self.context().tabs().into_iter().any(|t| {
                t.id == tab.id() && t.url == "about:blank" && t.opener.is_none() && !t.crashed
            });
        (!untouched).then_some(tab)
    }

    /// Probes `tab`, and recovers it if it does not answer or crashed.
    async fn probe_and_recover(
        &mut self,
        tab: &rove_browser::Tab,
    ) -> Result<Option<TabFault>, CommandError> {
        let limits = *self.watchdog().limits();
        let health = watchdog::probe(tab, limits.probe_timeout, limits.load_allowance).await;
        self.recover(tab, health, limits.probe_timeout).await
    }

    /// Recovers `tab`, forgetting its page model when it was replaced.
    pub(crate) async fn recover(
        &mut self,
        tab: &rove_browser::Tab,
        health: Health,
        silent_for: Duration,
    ) -> Result<Option<TabFault>, CommandError> {
        let limits = *self.watchdog().limits();
        let fault = watchdog::recover(self.context(), tab, health, silent_for, &limits).await?;
        if let Some(TabFault {
            recovery: crate::answer::fault::Recovery::Replaced { .. },
            tab,
            ..
        }) = &fault
        {
            self.forget(*tab);
        }
        Ok(fault)
    }

    /// The background probe found `tab` silent while `command` ran: stop
    /// its script or replace it, and say so.
    async fn silent_during(&mut self, command: &Command, tab: rove_browser::TabId) -> CommandError {
        let limits = *self.watchdog().limits();
        let Ok(handle) = self.context().tab(tab) else {
            return CommandError::CommandTimeout {
                command: command.name(),
                after: limits.probe_timeout,
                acts: command.acts(),
            };
        };
        match self
            .recover(&handle, Health::Silent, limits.probe_timeout)
            .await
        {
            Ok(Some(fault)) => CommandError::TabFault {
                fault,
                command: command.name(),
                during: true,
                acts: command.acts(),
            },
            // It answered after all: the command was cut short for nothing
            // more than a page busy past the probe's patience.
            Ok(None) => CommandError::CommandTimeout {
                command: command.name(),
                after: limits.probe_timeout,
                acts: command.acts(),
            },
            Err(e) => e,
        }
    }

    /// A command failed because the focused tab crashed: replace the tab
    /// now, and say so with the failure.
    async fn after_crash(&mut self, command: &Command, error: CommandError) -> CommandError {
        let Some(tab) = self.context().focused().filter(|t| t.crashed()) else {
            return error;
        };
        self.recovered_during(command, &tab, Health::Crashed, error)
            .await
    }

    /// The overall deadline of `command`: the session's command deadline,
    /// or longer for a command whose own wait is longer (its entry's
    /// deadline).
    pub(crate) fn deadline_for(&self, command: &Command) -> Duration {
        let own = command.own_wait(self.config().navigation_timeout, self.config().eval_timeout);
        rove_base::limits::command_deadline(self.config().command_timeout, own)
    }

    /// When typing must stop: three quarters into the command's deadline,
    /// leaving the rest for settling and the view.
    pub(crate) fn typing_deadline(&self) -> Instant {
        Instant::now() + rove_base::limits::typing(self.config().command_timeout)
    }
}

enum Ran {
    Done(Box<Result<Result<Outcome, CommandError>, tokio::time::error::Elapsed>>),
    Silent(rove_browser::TabId),
}
