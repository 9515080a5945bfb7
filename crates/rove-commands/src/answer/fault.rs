//! How rove words a tab that stopped answering or crashed, and what it did
//! about it: the same sentences in an error, in the first lines of an
//! answer, and in the log.

use std::time::Duration;

use rove_browser::TabId;

/// What went wrong with a tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Its page did not answer a health probe in time: a script that never
    /// yields, or a renderer stuck outside JavaScript.
    Hung {
        /// How long rove waited for the answer.
        silent_for: Duration,
    },
    /// Its renderer process died.
    Crashed,
}

/// What rove did about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// `Runtime.terminateExecution` stopped the page's script; the tab
    /// answers again and keeps its page.
    Stopped,
    /// The tab was closed and a blank one opened in its place.
    Replaced {
        /// The new tab.
        by: TabId,
    },
}

/// One tab's fault and its recovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabFault {
    /// The tab it happened to.
    pub tab: TabId,
    /// Where the tab was.
    pub url: String,
    /// What went wrong.
    pub fault: Fault,
    /// What rove did.
    pub recovery: Recovery,
}

impl TabFault {
    /// One sentence: what happened and what rove did.
    pub fn describe(&self) -> String {
        let url = if self.url.is_empty() {
            "about:blank"
        } else {
            &self.url
        };
        let tab = self.tab;
        match (self.fault, self.recovery) {
            (Fault::Hung { silent_for }, Recovery::Stopped) => format!(
                "{tab} did not answer for {} at {url}: rove stopped its script (Runtime.terminateExecution) and it answers again",
                seconds(silent_for)
            ),
            (Fault::Hung { silent_for }, Recovery::Replaced { by }) => format!(
                "{tab} did not answer for {} at {url}, not even after rove stopped its script: rove closed it and opened {by} (about:blank) in its place",
                seconds(silent_for)
            ),
            (Fault::Crashed, Recovery::Replaced { by }) => format!(
                "{tab} crashed at {url} (its renderer process died): rove closed it and opened {by} (about:blank) in its place"
            ),
            (Fault::Crashed, Recovery::Stopped) => {
                format!("{tab} crashed at {url} (its renderer process died)")
            }
        }
    }

    /// The next call to make.
    pub fn hint(&self) -> String {
        match self.recovery {
            Recovery::Replaced { by } if self.url.is_empty() || self.url == "about:blank" => {
                format!("carry on in {by}: open a URL")
            }
            Recovery::Replaced { by } => format!(
                "open {} to load the page again (in {by}), or open another URL",
                self.url
            ),
            Recovery::Stopped => {
                "take a snapshot: the page is as its stopped script left it (it may be half-working)"
                    .into()
            }
        }
    }
}

/// How an `eval` that ran out of time ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvalStop {
    /// The script was running; rove stopped it.
    Stopped,
    /// The page was free: the script waits for a promise that did not
    /// settle. Nothing to stop; rove stopped waiting.
    Pending,
    /// Stopping the script did not bring the tab back; it was replaced.
    Replaced(TabFault),
}

/// `5 s`, `2.5 s`.
pub(crate) fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_say_where_the_tab_was_and_what_rove_did() {
        let fault = TabFault {
            tab: TabId(1),
            url: "http://a.test/hang".into(),
            fault: Fault::Hung {
                silent_for: Duration::from_secs(5),
            },
            recovery: Recovery::Replaced { by: TabId(2) },
        };
        let text = fault.describe();
        assert!(text.starts_with("t1 did not answer for 5 s at http://a.test/hang"));
        assert!(text.contains("opened t2 (about:blank)"));
        assert_eq!(
            fault.hint(),
            "open http://a.test/hang to load the page again (in t2), or open another URL"
        );
        assert_eq!(seconds(Duration::from_millis(2500)), "2.5 s");
    }
}
