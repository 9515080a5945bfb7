//! The way every face runs a command on a session: [`Session::start`],
//! then [`Session::execute`] (or `execute_for` a caller): timed under a
//! meter, guarded (`guard.rs`), dispatched (`dispatch.rs`), traced when a
//! trace runs (`traced.rs`).

use rove_browser::Browser;

use crate::answer::happened::Happened;
use crate::{Caller, Command, CommandError, Outcome, Session, SessionConfig};

impl Session {
    /// Opens a fresh context with one blank tab in `browser`, and loads
    /// the storage state the config names (cookies and local storage).
    pub async fn start(browser: &Browser, config: SessionConfig) -> Result<Session, CommandError> {
        let state = config.storage_state.clone();
        let mut session = Session::create(browser, config).await?;
        if let Some(path) = state {
            session.load_state(&path).await?;
        }
        Ok(session)
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
        let traced = match self.config().traces.is_on() {
            true => Some(Box::pin(self.trace_begins(command)).await),
            // An agent's trace may collect the screencast alone.
            false => {
                self.follow_screencast();
                None
            }
        };
        let meter = rove_cdp::meter::Meter::new();
        let started = std::time::Instant::now();
        self.set_caller(caller.clone());
        let result = meter.scope(self.guarded(command)).await;
        self.set_caller(Caller::Model);
        let timing = crate::Timing::of(started.elapsed(), meter.split());
        self.set_last_timing(timing);
        let result = match result {
            Ok(mut outcome) => {
                self.note_literal_secrets(command, &mut outcome);
                outcome.timing = timing;
                Ok(outcome)
            }
            Err(e) => Err(self.name_other_tab(e)),
        };
        match traced {
            Some(begun) => {
                Box::pin(self.trace_ends(command, &caller, begun, timing, &result)).await;
            }
            None => self.follow_screencast(),
        }
        result
    }

    /// A ref that belongs to another of the session's tabs is not simply
    /// gone: say which tab holds it.
    fn name_other_tab(&self, error: CommandError) -> CommandError {
        let Some(missing) = error.missing_ref() else {
            return error;
        };
        match self.other_tab_knowing(missing) {
            Some(tab) => error.with_ref_reason(format!(
                "it belongs to tab {tab}, not to the focused tab (tab(action=switch, tab={tab}) goes there)"
            )),
            None => error,
        }
    }

    /// A placeholder written anywhere but the text of `type` or `fill` was
    /// sent as written; the answer says so, so the model is not misled.
    fn note_literal_secrets(&self, command: &Command, out: &mut Outcome) {
        if self.config().secrets.is_empty()
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
        for secret in self.config().secrets.named_in_json(&arguments) {
            out.happened.push(Happened::SecretNotFilled {
                placeholder: secret.placeholder(),
            });
        }
    }
}
