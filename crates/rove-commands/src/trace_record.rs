//! What a trace records of one command (see `trace.rs` for the file): its
//! name and arguments, who ran it, the text it answered or its typed
//! error, the time split, the console messages and requests of every tab
//! of the session that came during it, and, when asked, a screenshot
//! before and after an acting command.

use std::collections::HashMap;
use std::time::Duration;

use rove_browser::{ConsoleEntry, NetEntry, NetState, TabId};
use serde_json::{Value, json};

use crate::{Caller, Command, CommandError, Outcome, Session, Timing};

/// The most console messages, and the most requests, one command's line
/// keeps (the newest); the rest are counted.
const ENTRIES_KEPT: usize = 200;
/// The most characters of the answer's text a line keeps.
const TEXT_KEPT: usize = 256 * 1024;
/// JPEG quality of a trace's screenshots: enough to see the page, small.
const SHOT_QUALITY: u8 = 40;
/// How long a trace waits for a screenshot (a page that stopped answering
/// must not hold the command up).
const TRACE_DEADLINE: Duration = Duration::from_secs(2);

/// What is noted before a command runs.
pub(crate) struct Begun {
    started: f64,
    /// The newest console message's and request's numbers of each tab
    /// (`None` for a tab whose log had not started).
    marks: HashMap<TabId, Option<(u64, u64)>>,
    /// The screenshot before an acting command (base64 JPEG), when asked.
    before: Option<Option<String>>,
}

impl Session {
    /// Notes where each tab's logs stand, and takes the screenshot before
    /// an acting command when a trace wants one.
    pub(crate) async fn trace_begins(&mut self, command: &Command) -> Begun {
        // A tab without a watch has no log yet: its mark stays `None`, and
        // what its watch collects later is all of this command's.
        let mut marks = HashMap::new();
        for info in self.context.tabs() {
            let watch = self
                .context
                .tab(info.id)
                .ok()
                .and_then(|t| t.watch_started());
            marks.insert(info.id, watch.map(|w| w.log_marks()));
        }
        let before = self.trace_shot_for(command).await;
        Begun {
            started: crate::trace::unix_seconds(),
            marks,
            before,
        }
    }

    /// Writes the command's line to the session's traces.
    pub(crate) async fn trace_ends(
        &mut self,
        command: &Command,
        caller: &Caller,
        begun: Begun,
        timing: Timing,
        result: &Result<Outcome, CommandError>,
    ) {
        let mut line = json!({
            "kind": "command",
            "name": command.name(),
            "args": self.config.secrets.redact_json(&command.tool_arguments()),
            "caller": match caller {
                Caller::Model => "model",
                Caller::Person { .. } => "person",
            },
            "started": begun.started,
            "ms": timing.total_ms,
            "timing": timing,
        });
        match result {
            Ok(outcome) => {
                line["ok"] = json!(true);
                line["tab"] = json!(outcome.tab.to_string());
                line["happened"] = json!(outcome.happened_lines());
                line["text"] = json!(cut(&outcome.text()));
                if let Some(view) = &outcome.view {
                    line["url"] = json!(view.url);
                    line["title"] = json!(view.title);
                }
            }
            Err(error) => {
                line["ok"] = json!(false);
                line["tab"] = json!(self.focused_id().map(|t| t.to_string()));
                line["error"] = serde_json::to_value(error.report()).unwrap_or(Value::Null);
                if let Some(view) = error.fresh_view() {
                    line["text"] = json!(cut(view));
                }
            }
        }
        self.add_logs(&mut line, &begun.marks);
        let after = match begun.before.is_some() {
            true => self.trace_shot_for(command).await,
            false => None,
        };
        let mut shots = Vec::new();
        if let Some(before) = &begun.before {
            shots.push(("before", before.as_deref()));
        }
        if let Some(after) = &after {
            shots.push(("after", after.as_deref()));
        }
        self.config.traces.record(&line, &shots);
    }

    /// The screenshot of an acting command when a trace wants one: taken
    /// while some trace has budget for it, `Some(None)` when none has
    /// (its line says it was left out), `None` when no trace wants any.
    async fn trace_shot_for(&self, command: &Command) -> Option<Option<String>> {
        let (wanted, budget) = self.config.traces.wants_screenshots();
        if !wanted || !command.acts() {
            return None;
        }
        Some(match budget {
            true => self.trace_shot().await,
            false => None,
        })
    }

    /// The focused tab's viewport as a small JPEG (base64), or `None` when
    /// it cannot be taken in time (a dialog, a hung page, no tab).
    async fn trace_shot(&self) -> Option<String> {
        let tab = self.focused().ok()?;
        let params = json!({"format": "jpeg", "quality": SHOT_QUALITY});
        let shot = tokio::time::timeout(TRACE_DEADLINE, tab.call("Page.captureScreenshot", params))
            .await
            .ok()?
            .ok()?;
        shot["data"].as_str().map(str::to_owned)
    }

    /// The console messages and requests of every tab that came after the
    /// marks (all of a tab opened meanwhile), the newest kept.
    fn add_logs(&self, line: &mut Value, marks: &HashMap<TabId, Option<(u64, u64)>>) {
        let mut console: Vec<(TabId, ConsoleEntry)> = Vec::new();
        let mut network: Vec<(TabId, NetEntry)> = Vec::new();
        for info in self.context.tabs() {
            let Some(watch) = self
                .context
                .tab(info.id)
                .ok()
                .and_then(|t| t.watch_started())
            else {
                continue;
            };
            let (c, n) = match marks.get(&info.id) {
                Some(Some(mark)) => *mark,
                // Its log started during the command, or the tab is new.
                Some(None) | None => (0, 0),
            };
            console.extend(watch.console_since(c).into_iter().map(|e| (info.id, e)));
            network.extend(watch.network_since(n).into_iter().map(|e| (info.id, e)));
        }
        let console_left_out = console.len().saturating_sub(ENTRIES_KEPT);
        let network_left_out = network.len().saturating_sub(ENTRIES_KEPT);
        line["console"] = console
            .iter()
            .skip(console_left_out)
            .map(|(tab, e)| {
                json!({
                    "tab": tab.to_string(),
                    "level": e.level.name(),
                    "source": e.source,
                    "text": e.text,
                    "location": e.location,
                })
            })
            .collect();
        line["network"] = network
            .iter()
            .skip(network_left_out)
            .map(|(tab, e)| {
                json!({
                    "tab": tab.to_string(),
                    "method": e.method,
                    "url": e.url,
                    "type": e.resource_type,
                    "status": e.status,
                    "ms": e.duration_ms().map(|ms| (ms * 10.0).round() / 10.0),
                    "state": state_name(&e.state),
                })
            })
            .collect();
        if console_left_out + network_left_out > 0 {
            line["left_out"] = json!({"console": console_left_out, "network": network_left_out});
        }
    }
}

/// How a request ended, in a word (and the browser's reason).
fn state_name(state: &NetState) -> String {
    match state {
        NetState::Pending => "pending".into(),
        NetState::Finished => "finished".into(),
        NetState::Failed(reason) => format!("failed: {reason}"),
        NetState::Redirected => "redirected".into(),
    }
}

/// `text`, cut to [`TEXT_KEPT`] characters with a note.
fn cut(text: &str) -> String {
    match text.char_indices().nth(TEXT_KEPT) {
        None => text.to_owned(),
        Some((at, _)) => format!("{}\n… (cut at {TEXT_KEPT} characters)", &text[..at]),
    }
}
