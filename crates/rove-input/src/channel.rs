//! The way input reaches a tab.
//!
//! Chromium answers an `Input.dispatch*` call only after the page has
//! handled the event, and a handler that opens a JavaScript dialog holds the
//! answer until the dialog is closed. So every input call races the tab's
//! dialog watch: a dialog opening means the event was delivered, and the
//! action returns at once (reporting the dialog) instead of waiting out the
//! transport's deadline.

use rove_base::limits::DIALOG_WATCH;
use rove_browser::{Tab, TabWatch};
use rove_cdp::protocol::Command;
use rove_cdp::{CdpError, EventStream, Session};

/// A tab's session for input, aware of dialogs.
#[derive(Debug, Clone)]
pub(crate) struct InputChannel {
    session: Session,
    watch: TabWatch,
}

impl InputChannel {
    /// The channel to `tab`'s page session.
    pub(crate) async fn of(tab: &Tab) -> Result<InputChannel, rove_browser::BrowserError> {
        Ok(InputChannel {
            session: tab.session().await?,
            watch: tab.watch().await?,
        })
    }

    /// Sends a typed `Input.*` command; it ends early, as delivered, when a
    /// dialog opens while it waits.
    pub(crate) async fn send<C: Command>(&self, command: &C) -> Result<(), CdpError> {
        tokio::select! {
            answer = self.session.send(command) => answer.map(|_| ()),
            Some(_) = self.watch.wait_for_dialog(DIALOG_WATCH) => Ok(()),
        }
    }

    /// The page session's events.
    /// Runs `ask`, a question to the page, unless a dialog blocks the
    /// page first (its scripts then answer nothing until it is closed):
    /// `None` then.
    pub(crate) async fn unless_dialog<T>(
        &self,
        ask: impl std::future::Future<Output = T>,
    ) -> Option<T> {
        tokio::select! {
            answer = ask => Some(answer),
            Some(_) = self.watch.wait_for_dialog(DIALOG_WATCH) => None,
        }
    }

    pub(crate) fn subscribe(&self) -> EventStream {
        self.session.subscribe()
    }

    /// Whether a dialog blocks the page now.
    pub(crate) fn dialog_open(&self) -> bool {
        self.watch.dialog().is_some()
    }
}
