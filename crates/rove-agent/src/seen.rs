//! What a traced step saw besides its actions: the text the model was
//! shown at that step (the view or the results since its last answer, as
//! compacted for the request), the console messages and requests of every
//! tab during the step, and a screenshot after its actions. Filled only
//! when [`crate::AgentConfig::trace`] asks, so a run without a trace pays
//! nothing and its history stays as it was.
//!
//! Console and network entries are read past the numbers the tabs' rings
//! had when the step began, without marking them read: the model's own
//! `console` and `network` tools still see them as new. Everything a page
//! wrote is bounded and redacted as the history is (the session's secrets
//! and their disguises, credentials in URL parameters, a URL's password).

use std::time::Duration;

use rove_browser::{NetState, TabId};
use rove_commands::{Secrets, Session};
use rove_llm::Message;
use serde::{Deserialize, Serialize};

/// The most console messages a step keeps (the newest; the rest counted).
const CONSOLE_MAX: usize = 50;
/// The most requests a step keeps (the newest; the rest counted).
const NETWORK_MAX: usize = 100;
/// The most characters kept of a message's text or a URL.
const TEXT_MAX: usize = 500;
/// How long reading the tabs' logs may take (it calls no page, but waits
/// on the tabs' locks).
const READ_DEADLINE: Duration = Duration::from_secs(2);

/// A traced step's extras (see the module). Empty parts are not written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Seen {
    /// The text the model was shown at this step, redacted: the task and
    /// the first view at step 1, then the results of the previous step's
    /// actions (and any nudge rove added), as the request carried them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation: Option<String>,
    /// Console messages logged during the step, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub console: Vec<SeenConsole>,
    /// Requests made during the step, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub network: Vec<SeenRequest>,
    /// Console messages and requests of the step not kept: beyond the
    /// bounds, or pushed out of a tab's ring before the step ended.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub left_out: usize,
    /// The screenshot taken after the step's actions (a file, or inlined
    /// in a trace), when trace screenshots are on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot_after: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One console message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeenConsole {
    /// The tab (`t1`).
    pub tab: String,
    /// `log`, `info`, `warning`, `error`, `debug`.
    pub level: String,
    /// `console`, `exception`, or the browser's source.
    pub source: String,
    /// The message, on one line.
    pub text: String,
    /// `url:line:column`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
}

/// One request (no headers, no bodies: a trace shows what was asked and
/// what came of it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeenRequest {
    /// The tab (`t1`).
    pub tab: String,
    /// `GET`, `POST` …
    pub method: String,
    /// The URL, redacted.
    pub url: String,
    /// `Document`, `Fetch`, `Script` …
    pub resource_type: String,
    /// The HTTP status, once a response came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// `pending`, `finished`, `redirected`, or `failed: reason`.
    pub state: String,
    /// How long it took, once it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<f64>,
}

/// Where each tab's logs stood when a step began.
#[derive(Debug, Default)]
pub(crate) struct Marks(Vec<(TabId, (u64, u64))>);

/// The numbers each tab's console and network rings had reached.
pub(crate) async fn marks(session: &Session) -> Marks {
    let read = async {
        let mut marks = Vec::new();
        let context = session.context();
        for info in context.tabs() {
            let Ok(tab) = context.tab(info.id) else {
                continue;
            };
            if let Some(watch) = tab.current_watch().await {
                marks.push((info.id, watch.marks()));
            }
        }
        Marks(marks)
    };
    tokio::time::timeout(READ_DEADLINE, read)
        .await
        .unwrap_or_default()
}

/// The console messages and requests past `marks` on every tab (all of a
/// tab that opened during the step), bounded and redacted.
pub(crate) async fn since(session: &Session, marks: &Marks, secrets: &Secrets, seen: &mut Seen) {
    let read = async {
        let mut console = Vec::new();
        let mut network = Vec::new();
        let mut lost = 0;
        let context = session.context();
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
            // Numbered in the step but no longer in the ring.
            let numbered =
                usize::try_from(now.0.saturating_sub(from.0) + now.1.saturating_sub(from.1))
                    .unwrap_or(usize::MAX);
            lost += numbered.saturating_sub(messages.len() + requests.len());
            let name = info.id.to_string();
            console.extend(messages.into_iter().map(|m| SeenConsole {
                tab: name.clone(),
                level: m.level.name().to_owned(),
                source: m.source,
                text: clean(&m.text, secrets),
                location: m.location.map(|l| clean(&l, secrets)),
            }));
            network.extend(requests.into_iter().map(|r| SeenRequest {
                tab: name.clone(),
                method: cut(&r.method, 20),
                url: clean(&r.url, secrets),
                resource_type: cut(&r.resource_type, 40),
                status: r.status,
                ms: r.duration_ms().map(|ms| (ms * 10.0).round() / 10.0),
                state: match r.state {
                    NetState::Pending => "pending".to_owned(),
                    NetState::Finished => "finished".to_owned(),
                    NetState::Redirected => "redirected".to_owned(),
                    NetState::Failed(why) => format!("failed: {}", cut(&why, 200)),
                },
            }));
        }
        (console, network, lost)
    };
    let Ok((mut console, mut network, lost)) = tokio::time::timeout(READ_DEADLINE, read).await
    else {
        return;
    };
    seen.left_out += lost;
    seen.left_out += keep_newest(&mut console, CONSOLE_MAX);
    seen.left_out += keep_newest(&mut network, NETWORK_MAX);
    seen.console = console;
    seen.network = network;
}

/// How long the screenshot after a step's actions may take.
const SCREENSHOT_DEADLINE: Duration = Duration::from_secs(10);

/// A screenshot of the page after the step's actions, kept as
/// `step-N-after.jpg` in `dir`; its path, or `None` when there is no
/// folder or it could not be taken in time.
pub(crate) async fn after_screenshot(
    session: &mut Session,
    dir: Option<&std::path::Path>,
    number: u32,
) -> Option<String> {
    let dir = dir?;
    let (_, bytes) = tokio::time::timeout(SCREENSHOT_DEADLINE, crate::run::screenshot(session))
        .await
        .ok()
        .flatten()?;
    let path = dir.join(format!("step-{number}-after.jpg"));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, &bytes))
        .ok()?;
    Some(path.display().to_string())
}

/// Keeps the last `max` entries; how many went.
fn keep_newest<T>(entries: &mut Vec<T>, max: usize) -> usize {
    let over = entries.len().saturating_sub(max);
    entries.drain(..over);
    over
}

/// The text parts of what a request shows the model since its last
/// answer (images are kept apart, as screenshots). The messages are the
/// conversation as sent, already redacted.
pub(crate) fn observation(shown: &[Message]) -> String {
    let start = shown
        .iter()
        .rposition(|m| matches!(m, Message::Assistant { .. }))
        .map_or(0, |i| i + 1);
    let mut parts = Vec::new();
    for message in &shown[start..] {
        match message {
            Message::User { text } | Message::Tool { text, .. } => parts.push(text.as_str()),
            Message::Image { .. } | Message::Assistant { .. } => {}
        }
    }
    parts.join("\n\n")
}

/// Page-given text as a trace keeps it: credentials and secrets hidden, a
/// URL's password too, cut to [`TEXT_MAX`] characters.
fn clean(text: &str, secrets: &Secrets) -> String {
    let hidden = secrets.redact(&rove_cdp::redact::scrub(&without_password(text)));
    cut(&hidden, TEXT_MAX)
}

/// `https://user:pw@host/…` as `https://user:***@host/…`; other text as it is.
fn without_password(text: &str) -> String {
    let Some(scheme_end) = text.find("://") else {
        return text.to_owned();
    };
    let rest = &text[scheme_end + 3..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    match (authority.rfind('@'), authority.find(':')) {
        (Some(at), Some(colon)) if colon < at => format!(
            "{}{}:***{}",
            &text[..scheme_end + 3],
            &authority[..colon],
            &text[scheme_end + 3 + at..]
        ),
        _ => text.to_owned(),
    }
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(max).collect();
    short.push('…');
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_observation_is_what_came_after_the_last_answer() {
        let shown = vec![
            Message::User {
                text: "Task: x\n\nThe page now:\nview".into(),
            },
            Message::Assistant {
                text: "ok".into(),
                tool_calls: Vec::new(),
            },
            Message::Tool {
                call_id: "c1".into(),
                text: "clicked e3\n+ Saved".into(),
                is_error: false,
            },
            Message::Image {
                text: "The page".into(),
                mime: "image/jpeg".into(),
                data: "AAAA".into(),
            },
        ];
        assert_eq!(observation(&shown), "clicked e3\n+ Saved");
        assert_eq!(observation(&shown[..1]), "Task: x\n\nThe page now:\nview");
    }

    #[test]
    fn urls_lose_their_password_and_credentials() {
        let secrets = Secrets::default();
        assert_eq!(
            clean("https://ada:hunter2@x.test/a?q=1", &secrets),
            "https://ada:***@x.test/a?q=1"
        );
        assert!(!clean("http://x.test/?token=abc123", &secrets).contains("abc123"));
        assert_eq!(clean("no url here", &secrets), "no url here");
        assert_eq!(clean(&"x".repeat(600), &secrets).chars().count(), 501);
    }

    #[test]
    fn only_the_newest_entries_are_kept() {
        let mut entries: Vec<u32> = (1..=5).collect();
        assert_eq!(keep_newest(&mut entries, 3), 2);
        assert_eq!(entries, [3, 4, 5]);
    }
}
