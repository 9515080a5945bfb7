//! Calls at the browser's level (its cookie store, its version, its
//! permissions): several command folders make them, so they live with the
//! session.

use rove_cdp::protocol::Command;

use crate::{CommandError, Session};

impl Session {
    /// A call at the browser's level (cookie store of the context …), with
    /// a deadline.
    pub(crate) async fn browser_send<C: Command>(
        &self,
        command: &C,
    ) -> Result<C::Response, CommandError> {
        let conn = self.context().browser().connection().await?;
        let browser = conn.browser();
        let call = browser.send(command);
        match tokio::time::timeout(rove_base::limits::STATE_CALL, call).await {
            Ok(answer) => Ok(answer?),
            Err(_) => Err(CommandError::Rejected(format!(
                "the browser did not answer {} within {} s",
                C::METHOD,
                rove_base::limits::STATE_CALL.as_secs()
            ))),
        }
    }
}
