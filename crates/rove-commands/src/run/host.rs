//! Hosting a session: the browser and the [`Session`] on it, made on first
//! use and made again when the browser died or the link to a remote one was
//! lost, then ended cleanly. The session daemon and the MCP server both host
//! sessions this one way, so a restart says the same thing and keeps the
//! same promises in both: the old tabs are gone and said to be, numbers go
//! on from the old ones (the [`SessionConfig`]'s numbering is shared across
//! restarts), the emulation `set` made (a viewport, a device, media, a
//! locale …) and the `network block` and `mock` rules are in force again on
//! the new session's tabs, and contexts a lost link left in a remote
//! browser are disposed by the next link to it.

use std::future::Future;
use std::time::Duration;

use rove_browser::Browser;

use crate::{CommandError, Session, SessionConfig};

/// A hosted session (see the module).
#[derive(Debug)]
pub struct Host {
    config: SessionConfig,
    owned: Option<(Browser, Session)>,
    /// Contexts of a remote browser whose link was lost that could not be
    /// disposed yet.
    orphans: Vec<String>,
}

impl Host {
    /// A host that makes its sessions with `config` (on first use).
    pub fn new(config: SessionConfig) -> Host {
        Host {
            config,
            owned: None,
            orphans: Vec::new(),
        }
    }

    /// The session, made (or made again) with a browser from `acquire` when
    /// there is none or the one there is has gone; returns the notes that
    /// say what happened to the old one.
    pub async fn ensure<F, Fut>(&mut self, acquire: F) -> Result<Vec<String>, CommandError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Browser, CommandError>>,
    {
        let mut notes = Vec::new();
        if let Some((browser, _)) = &self.owned
            && browser.is_alive().await
        {
            return Ok(notes);
        }
        let mut emulation = Vec::new();
        let mut geo_origins = Vec::new();
        let mut rules = rove_browser::RequestRules::default();
        if let Some((dead, old)) = self.owned.take() {
            // Held by rove, not the dead browser: read without a call.
            emulation = old.context().emulation_settings();
            geo_origins = old.geo_origins().to_vec();
            rules = old.context().request_rules();
            // A remote browser reachable again gets the old contexts
            // disposed here; one still unreachable leaves them as orphans.
            dead.close().await;
            self.orphans.extend(dead.undisposed_contexts());
            notes.push(if dead.was_replaced() {
                "another browser answers at the --cdp-url address since the link was lost (was it restarted?): the session's tabs are gone; continued in a new context there (new tabs and refs go on from the old numbers)".to_owned()
            } else if dead.is_launched() {
                "the browser had died; started a new one (its tabs are gone; new tabs and refs go on from the old numbers, so an old one never names something new)".to_owned()
            } else {
                "the link to the browser was lost; connected again in a new context (its tabs are gone; new tabs and refs go on from the old numbers)".to_owned()
            });
        }
        let browser = acquire().await?;
        if !self.orphans.is_empty() {
            browser
                .adopt_contexts(std::mem::take(&mut self.orphans))
                .await;
        }
        match Session::start(&browser, self.config.clone()).await {
            Ok(mut session) => {
                let restored = session.restore_emulation(emulation, geo_origins).await;
                if let Some(note) = restored {
                    notes.push(note);
                }
                if let Some(note) = restore_rules(&session, rules).await {
                    notes.push(note);
                }
                self.owned = Some((browser, session));
                Ok(notes)
            }
            Err(e) => {
                browser.close().await;
                Err(e)
            }
        }
    }

    /// Runs `command` on the session, made (or made again) first as
    /// [`Host::ensure`] does; returns its result and the notes on the old
    /// browser. `before` sees the session just before the command runs.
    pub async fn execute<F, Fut>(
        &mut self,
        command: &crate::Command,
        caller: crate::Caller,
        acquire: F,
        before: impl FnOnce(&Session),
    ) -> (Result<crate::Outcome, CommandError>, Vec<String>)
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Browser, CommandError>>,
    {
        let started = crate::trace::unix_seconds();
        let clock = std::time::Instant::now();
        let notes = match self.ensure(acquire).await {
            Ok(notes) => notes,
            Err(e) => {
                // No session ran it, yet a trace shows every call: one
                // that got no browser most of all.
                crate::run::traced::record_without_session(
                    &self.config,
                    (command, &caller),
                    (started, clock.elapsed()),
                    &e,
                );
                return (Err(e), Vec::new());
            }
        };
        let Some((_, session)) = &mut self.owned else {
            return (Err(CommandError::Rejected("no session".into())), notes);
        };
        before(session);
        (session.execute_for(command, caller).await, notes)
    }

    /// The session, when one is up.
    pub fn session(&mut self) -> Option<&mut Session> {
        self.owned.as_mut().map(|(_, session)| session)
    }

    /// The process id of the browser, when this host launched one.
    pub fn browser_pid(&self) -> Option<u32> {
        self.owned.as_ref().and_then(|(browser, _)| browser.pid())
    }

    /// Ends the session and the browser (a browser rove did not start is
    /// left running; its contexts are disposed). Contexts a lost link left
    /// behind are disposed too when `reach` gets to that browser again
    /// within `deadline`; pass `None` when there is no remote browser.
    pub async fn end<F, Fut>(&mut self, reach: Option<(F, Duration)>)
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Browser, CommandError>>,
    {
        if let Some((browser, session)) = self.owned.take() {
            let _ = tokio::time::timeout(rove_base::limits::SESSION_CLOSE, session.close()).await;
            browser.close().await;
            self.orphans.extend(browser.undisposed_contexts());
        }
        let Some((reach, deadline)) = reach else {
            return;
        };
        if self.orphans.is_empty() {
            return;
        }
        let orphans = std::mem::take(&mut self.orphans);
        let last_try = async {
            if let Ok(browser) = reach().await {
                browser.adopt_contexts(orphans).await;
                browser.close().await;
            }
        };
        if tokio::time::timeout(deadline, last_try).await.is_err() {
            tracing::warn!(
                "the remote browser could not be reached to dispose the contexts of a lost link"
            );
        }
    }
}

/// Puts the old session's block and mock rules in force on the new one
/// (a test that mocked an API must not quietly reach the real one after a
/// crash); says whether they are.
async fn restore_rules(session: &Session, rules: rove_browser::RequestRules) -> Option<String> {
    let count = rules.0.len();
    if count == 0 {
        return None;
    }
    let rules_word = if count == 1 { "rule is" } else { "rules are" };
    Some(match session.context().set_request_rules(rules).await {
        Ok(()) => format!("the {count} block and mock {rules_word} in force again"),
        Err(e) => {
            tracing::warn!(error = %e, "the block and mock rules were not made again");
            format!(
                "the {count} block and mock {rules_word} NOT in force again ({e}): set them again"
            )
        }
    })
}
