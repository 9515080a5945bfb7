//! `wait`: for text to appear or go, for the URL, for a load state, or for a
//! time. Every wait has a deadline; conditions are checked where the agent
//! would look (text through the page model, so every frame counts).

use std::time::{Duration, Instant};

use rove_page::FindQuery;

use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::{Session, unless_dialog};
use crate::{CommandError, LoadState, WaitArgs};

/// How long a condition may take unless the call says otherwise.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest plain wait.
const MAX_SLEEP: Duration = Duration::from_secs(300);
/// The network counts as idle after this long without a request in flight.
const NETWORK_QUIET: Duration = Duration::from_millis(500);

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
            if time > MAX_SLEEP {
                return Err(CommandError::Rejected(format!(
                    "wait at most {} s at a time",
                    MAX_SLEEP.as_secs()
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
            .unwrap_or(DEFAULT_TIMEOUT);
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
            let met = self
                .poll(timeout, async |s| {
                    let url = s.focused()?.evaluate("location.href").await?;
                    Ok(url_matches(url.as_str().unwrap_or_default(), pattern))
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
        let mut delay = Duration::from_millis(50);
        loop {
            let left = timeout.saturating_sub(started.elapsed());
            // A check that hangs (a page too busy to answer) counts as not met.
            let held = tokio::time::timeout(left.max(Duration::from_millis(100)), check(self))
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
            delay = (delay * 2).min(Duration::from_millis(250));
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
                Ok(s.focused()?.evaluate(ready).await?.as_bool() == Some(true))
            })
            .await?;
        if !loaded || state != LoadState::Networkidle {
            return Ok(loaded);
        }
        let watch = self.focused()?.watch().await?;
        let left = timeout.saturating_sub(started.elapsed());
        let idle = watch.network_quiet(NETWORK_QUIET, left).await;
        Ok(idle)
    }
}

/// Whether `url` matches `pattern`: a `*` glob when it has a `*`, otherwise
/// a substring.
pub(crate) fn url_matches(url: &str, pattern: &str) -> bool {
    if !pattern.contains('*') {
        return url.contains(pattern);
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let mut rest = url;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(after) = rest.strip_prefix(part) else {
                return false;
            };
            rest = after;
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::url_matches;

    #[test]
    fn url_patterns_are_substrings_or_globs() {
        assert!(url_matches("http://a.test/done?x=1", "/done"));
        assert!(!url_matches("http://a.test/start", "/done"));
        assert!(url_matches("http://a.test/done?x=1", "http://*/done*"));
        assert!(!url_matches("http://a.test/done?x=1", "https://*"));
        assert!(url_matches("http://a.test/a/b/c", "*/b/*"));
        assert!(url_matches("anything", "*"));
    }
}
