//! What an action's settling found, put into its answer: a navigation the
//! input started (the view after it is a full one) or a server's answer
//! still on its way. Shared by the commands that act (input, dialogs,
//! uploads), so it lives with the session.

use rove_input::{Settled, StreamEnd};
use rove_page::Mode;

use crate::CommandError;
use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::{Session, view_of};

impl Session {
    /// Notes a navigation the input started (the view after it is a full
    /// view of the new page, not a diff against the old one), or a server's
    /// answer still on its way when settling stopped waiting for it.
    pub(crate) async fn after_settle(
        &mut self,
        settled: &Settled,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        if let StreamEnd::NoAnswer(waited) | StreamEnd::StillReceiving(waited) = settled.stream {
            out.happened.push(Happened::AwaitingServer {
                secs: waited.as_secs_f64().round() as u64,
                answered: matches!(settled.stream, StreamEnd::StillReceiving(_)),
                changed: true,
            });
        }
        if !settled.navigated {
            return Ok(());
        }
        if settled.downloaded || settled.stopped {
            // No new document: the page stayed, and the diff after the
            // action says what changed on it (a download has its own line).
            if settled.stopped {
                out.happened.push(Happened::NavigationStopped);
            }
            return Ok(());
        }
        let model = self.model()?;
        let view = view_of(model, Mode::Full, None).await?;
        out.happened.push(Happened::Navigated {
            url: view.url.clone(),
            loaded: settled.loaded,
        });
        out.view = Some(view);
        Ok(())
    }
}
