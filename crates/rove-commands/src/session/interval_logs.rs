//! The console messages and requests of one interval (a command, an
//! agent's step), for traces. Read past the numbers the tabs' rings had
//! when the interval began, without marking anything read: the `console`
//! and `network` commands still see them as new. Only tabs whose log had
//! already started are read (starting one calls the page). Everything a
//! page wrote is bounded and redacted: the session's secrets and their
//! disguises, credentials in URL parameters, a URL's password.

use crate::trace::format::{SeenConsole, SeenRequest};
use crate::{Secrets, Session};
use rove_base::limits::INTERVAL_LOGS;
use rove_base::text::ellipsized;
use rove_browser::{NetState, TabId};

/// The most console messages an interval keeps (the newest; the rest
/// counted).
const CONSOLE_MAX: usize = 50;
/// The most requests an interval keeps (the newest; the rest counted).
const NETWORK_MAX: usize = 100;
/// The most characters kept of a message's text or a URL.
const TEXT_MAX: usize = 500;

/// Where each tab's logs stood when an interval began.
#[derive(Debug, Default, Clone)]
pub struct LogMarks(Vec<(TabId, (u64, u64))>);

/// What the console and the network saw during an interval.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct IntervalLogs {
    /// Console messages, oldest first.
    pub console: Vec<SeenConsole>,
    /// Requests, oldest first.
    pub network: Vec<SeenRequest>,
    /// Messages and requests not kept: beyond the bounds, or pushed out
    /// of a tab's ring before the interval ended.
    pub left_out: usize,
}

impl Session {
    /// The numbers each tab's console and network rings have reached.
    pub async fn log_marks(&self) -> LogMarks {
        let read = async {
            let mut marks = Vec::new();
            let context = self.context();
            for info in context.tabs() {
                let Ok(tab) = context.tab(info.id) else {
                    continue;
                };
                if let Some(watch) = tab.current_watch().await {
                    marks.push((info.id, watch.marks()));
                }
            }
            LogMarks(marks)
        };
        tokio::time::timeout(INTERVAL_LOGS, read)
            .await
            .unwrap_or_default()
    }

    /// The console messages and requests past `marks` on every tab (all
    /// of a tab whose log started later), bounded and redacted.
    pub async fn logs_since(&self, marks: &LogMarks) -> IntervalLogs {
        let secrets = &self.config().secrets;
        let read = async {
            let mut logs = IntervalLogs::default();
            let context = self.context();
            for info in context.tabs() {
                let Ok(tab) = context.tab(info.id) else {
                    continue;
                };
                let Some(watch) = tab.current_watch().await else {
                    continue;
                };
                let from = marks
                    .0
                    .iter()
                    .find(|(id, _)| *id == info.id)
                    .map_or((0, 0), |(_, m)| *m);
                let now = watch.marks();
                let (messages, requests) = watch.after(from);
                // Numbered in the interval but no longer in the ring.
                let numbered =
                    usize::try_from(now.0.saturating_sub(from.0) + now.1.saturating_sub(from.1))
                        .unwrap_or(usize::MAX);
                logs.left_out += numbered.saturating_sub(messages.len() + requests.len());
                let name = info.id.to_string();
                logs.console
                    .extend(messages.into_iter().map(|m| SeenConsole {
                        tab: name.clone(),
                        level: m.level.name().to_owned(),
                        source: m.source,
                        text: clean(&m.text, secrets),
                        location: m.location.map(|l| clean(&l, secrets)),
                    }));
                logs.network
                    .extend(requests.into_iter().map(|r| SeenRequest {
                        tab: name.clone(),
                        method: ellipsized(&r.method, 20),
                        url: clean(&r.url, secrets),
                        resource_type: ellipsized(&r.resource_type, 40),
                        status: r.status,
                        ms: r.duration_ms().map(|ms| (ms * 10.0).round() / 10.0),
                        state: match r.state {
                            NetState::Pending => "pending".to_owned(),
                            NetState::Finished => "finished".to_owned(),
                            NetState::Redirected => "redirected".to_owned(),
                            NetState::Failed(why) => format!("failed: {}", ellipsized(&why, 200)),
                        },
                    }));
            }
            logs
        };
        let Ok(mut logs) = tokio::time::timeout(INTERVAL_LOGS, read).await else {
            return IntervalLogs::default();
        };
        logs.left_out += keep_newest(&mut logs.console, CONSOLE_MAX);
        logs.left_out += keep_newest(&mut logs.network, NETWORK_MAX);
        logs
    }
}

/// Keeps the last `max` entries; how many went.
fn keep_newest<T>(entries: &mut Vec<T>, max: usize) -> usize {
    let over = entries.len().saturating_sub(max);
    entries.drain(..over);
    over
}

/// Page-given text as a trace keeps it: the session's secrets, what the
/// process hides and the credentials of URLs (a password, a token
/// parameter) hidden, cut to [`TEXT_MAX`] characters.
fn clean(text: &str, secrets: &Secrets) -> String {
    let hidden = secrets.redact(&rove_base::redact::scrub(text));
    ellipsized(&hidden, TEXT_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_lose_their_password_and_credentials() {
        let secrets = Secrets::default();
        assert_eq!(
            clean("https://ada:hunter2@x.test/a?q=1", &secrets),
            "https://ada:<redacted>@x.test/a?q=1"
        );
        assert!(!clean("http://x.test/?token=abc123", &secrets).contains("abc123"));
        assert_eq!(clean("no url here", &secrets), "no url here");
        assert_eq!(clean(&"x".repeat(600), &secrets).chars().count(), TEXT_MAX);
    }

    #[test]
    fn only_the_newest_entries_are_kept() {
        let mut entries: Vec<u32> = (1..=5).collect();
        assert_eq!(keep_newest(&mut entries, 3), 2);
        assert_eq!(entries, [3, 4, 5]);
    }
}
