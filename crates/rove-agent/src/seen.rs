//! What a traced step saw besides its actions: the text the model was
//! shown at that step (the view or the results since its last answer, as
//! compacted for the request), the console messages and requests of every
//! tab during the step (read by the session: `rove_commands`'s
//! `logs_since`, as a command's trace reads them), and a screenshot after
//! its actions. Filled only when [`crate::AgentConfig::trace`] asks, so a
//! run without a trace pays nothing and its history stays as it was.

use rove_commands::{IntervalLogs, SeenConsole, SeenRequest, Session};
use rove_llm::Message;
use serde::{Deserialize, Serialize};

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
    /// The page's screencast frames that came up to the step's end (a
    /// traced run with `--trace-screencast`): written to the trace before
    /// the step's line, never to the history.
    #[serde(skip)]
    pub frames: Vec<rove_commands::trace_format::TracedFrame>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Seen {
    /// Takes in what the console and the network saw during the step.
    pub(crate) fn add_logs(&mut self, logs: IntervalLogs) {
        self.console = logs.console;
        self.network = logs.network;
        self.left_out += logs.left_out;
    }
}

/// A screenshot of the page after the step's actions, kept as
/// `step-N-after.jpg` in `dir`; its path, or `None` when there is no
/// folder or it could not be taken in time.
pub(crate) async fn after_screenshot(
    session: &mut Session,
    dir: Option<&std::path::Path>,
    number: u32,
) -> Option<String> {
    let dir = dir?;
    let (_, bytes) = tokio::time::timeout(
        rove_base::limits::STEP_SCREENSHOT,
        crate::screenshot::screenshot(session),
    )
    .await
    .ok()
    .flatten()?;
    let path = dir.join(format!("step-{number}-after.jpg"));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, &bytes))
        .ok()?;
    Some(path.display().to_string())
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
}
