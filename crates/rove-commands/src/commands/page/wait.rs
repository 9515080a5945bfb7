//! `wait`: for text to appear or go, for the URL, for a load state, or for a
//! time. Every wait has a deadline; conditions are checked where the agent
//! would look (text through the page model, so every frame counts).

use std::time::{Duration, Instant};

use rove_base::url_pattern::UrlPattern;
use rove_page::FindQuery;

use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::{Session, unless_dialog};
use crate::{CommandError, LoadState, WaitArgs};

impl Session {
    pub(crate) async fn wait(
        &mut self,
        args: &WaitArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let conditions = [
            args.text.is_some(),
            args.text_gone.is_some(),
            args.url.is_some(),
            args.load.is_some(),
        ]
        .iter()
        .filter(|c| **c)
        .count();
        let started = Instant::now();
        if conditions == 0 {
            let Some(ms) = args.ms else {
                return Err(CommandError::Rejected(
                    "wait needs a condition (text, text_gone, url, load) or ms".into(),
                ));
            };
            let time = Duration::from_millis(ms);
            if time > rove_base::limits::WAIT_SLEEP_MAX {
                return Err(CommandError::Rejected(format!(
                    "wait at most {} s at a time",
                    rove_base::limits::WAIT_SLEEP_MAX.as_secs()
                )));
            }
            tokio::time::sleep(time).await;
            out.happened.push(Happened::Waited { ms });
            return Ok(());
        }
        if conditions > 1 {
            return Err(CommandError::Rejected(
                "wait for one condition at a time".into(),
            ));
        }
        let timeout = args
            .ms
            .map(Duration::from_millis)
            .unwrap_or(rove_base::limits::WAIT);
        let tab = self.focused()?;
        let (met, condition) = unless_dialog(&tab, self.wait_for(args, timeout)).await?;
        let waited_ms = started.elapsed().as_millis() as u64;
        if !met {
            return Err(CommandError::WaitTimeout {
                condition,
                waited_ms,
            });
        }
        out.happened.push(Happened::Waited { ms: waited_ms });
        Ok(())
    }

    /// Waits for the one condition `args` names; whether it held, and how
    /// to say it did not.
    async fn wait_for(
        &mut self,
        args: &WaitArgs,
        timeout: Duration,
    ) -> Result<(bool, String), CommandError> {
        Ok(if let Some(text) = &args.text {
            let met = self.poll(timeout, async |s| s.has_text(text).await).await?;
            (met, format!("{text:?} did not appear"))
        } else if let Some(text) = &args.text_gone {
            let met = self
                .poll(timeout, async |s| Ok(!s.has_text(text).await?))
                .await?;
            (met, format!("{text:?} is still on the page"))
        } else if let Some(pattern) = &args.url {
            let wanted = UrlPattern::new(pattern);
            let met = self
                .poll(timeout, async |s| {
                    let url = s.focused()?.evaluate_in_rove_world("location.href").await?;
                    Ok(wanted.matches(url.as_str().unwrap_or_default()))
                })
                .await?;
            (met, format!("the URL does not match {pattern:?}"))
        } else {
            let state = args.load.unwrap_or(LoadState::Load);
            let met = self.wait_load(state, timeout).await?;
            (met, format!("the page did not reach {state:?}"))
        })
    }

    /// Checks `check` until it holds or `timeout` passes, backing off from
    /// 50 to 250 ms between checks. The last check is made at the deadline
    /// (a wait never gives up while time is left: it once stopped as soon as
    /// the next pause would have crossed the deadline, up to 250 ms early).
    async fn poll(
        &mut self,
        timeout: Duration,
        mut check: impl AsyncFnMut(&mut Session) -> Result<bool, CommandError>,
    ) -> Result<bool, CommandError> {
        let started = Instant::now();
        let mut delay = rove_base::limits::WAIT_POLL.first;
        loop {
            let left = timeout.saturating_sub(started.elapsed());
            // A check that hangs (a page too busy to answer) counts as not met.
            let held = tokio::time::timeout(left.max(rove_base::limits::CHECK_MIN), check(self))
                .await
                .unwrap_or(Ok(false))?;
            if held {
                return Ok(true);
            }
            let left = timeout.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Ok(false);
            }
            tokio::time::sleep(delay.min(left)).await;
            delay = rove_base::limits::WAIT_POLL.next(delay);
        }
    }

    async fn has_text(&mut self, text: &str) -> Result<bool, CommandError> {
        let found = self
            .model()?
            .find(&FindQuery {
                text: text.to_owned(),
                role: None,
                limit: Some(1),
            })
            .await?;
        Ok(!found.matches.is_empty())
    }

    async fn wait_load(
        &mut self,
        state: LoadState,
        timeout: Duration,
    ) -> Result<bool, CommandError> {
        let ready = match state {
            LoadState::Domcontentloaded => "document.readyState !== 'loading'",
            LoadState::Load | LoadState::Networkidle => "document.readyState === 'complete'",
        };
        let started = Instant::now();
        let loaded = self
            .poll(timeout, async |s| {
                Ok(s.focused()?.evaluate_in_rove_world(ready).await?.as_bool() == Some(true))
            })
            .await?;
        if !loaded || state != LoadState::Networkidle {
            return Ok(loaded);
        }
        let watch = self.focused()?.watch().await?;
        let left = timeout.saturating_sub(started.elapsed());
        let idle = watch
            .network_quiet(rove_base::limits::NETWORK_IDLE, left)
            .await;
        Ok(idle)
    }
}
