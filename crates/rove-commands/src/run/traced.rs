//! What a trace records of one command (see `trace.rs` for the file): its
//! name and arguments, who ran it, the text it answered or its typed
//! error, the time split, the console messages and requests of every tab
//! of the session that came during it, and, when asked, a screenshot
//! before and after an acting command; and it keeps the screencast a
//! trace records on the focused tab (`screencast.rs`).

use crate::trace::format::{CallerKind, TracedCommand};
use crate::{Caller, Command, CommandError, LogMarks, Outcome, Session, Timing};

/// The most characters of the answer's text a line keeps.
const TEXT_KEPT: usize = 256 * 1024;
/// JPEG quality of a trace's screenshots: enough to see the page, small.
const SHOT_QUALITY: u8 = 40;
/// What is noted before a command runs.
pub(crate) struct Begun {
    started: f64,
    /// Where each tab's console and network logs stood.
    marks: LogMarks,
    /// The screenshot before an acting command (base64 JPEG), when asked.
    before: Option<Option<String>>,
}

impl Session {
    /// Notes where each tab's logs stand, and takes the screenshot before
    /// an acting command when a trace wants one.
    pub(crate) async fn trace_begins(&mut self, command: &Command) -> Begun {
        self.follow_screencast();
        // A tab without a log yet has no mark: what its log collects later
        // is all of this command's.
        let marks = self.log_marks().await;
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
        let mut line = TracedCommand {
            name: command.name().to_owned(),
            args: self.config().secrets.redact_json(&command.tool_arguments()),
            caller: match caller {
                Caller::Model => CallerKind::Model,
                Caller::Person { .. } => CallerKind::Person,
            },
            started: begun.started,
            ms: timing.total_ms,
            timing,
            ..TracedCommand::default()
        };
        match result {
            Ok(outcome) => {
                line.ok = true;
                line.tab = Some(outcome.tab.to_string());
                line.happened = Some(outcome.happened_lines());
                line.text = Some(cut(&outcome.text()));
                line.pointer = outcome.pressed_at();
                if let Some(view) = &outcome.view {
                    line.url = Some(view.url.clone());
                    line.title = Some(view.title.clone());
                }
            }
            Err(error) => {
                line.ok = false;
                line.tab = self.focused_id().map(|t| t.to_string());
                line.error = Some(error.report());
                line.text = error.fresh_view().map(cut);
            }
        }
        // The command may have opened or focused another tab.
        self.follow_screencast();
        let logs = self.logs_since(&begun.marks).await;
        line.console = logs.console;
        line.network = logs.network;
        line.left_out = logs.left_out;
        let after = match begun.before.is_some() {
            true => self.trace_shot_for(command).await,
            false => None,
        };
        self.config().traces.record(
            &line,
            begun.before.as_ref().map(Option::as_deref),
            after.as_ref().map(Option::as_deref),
        );
    }

    /// The screenshot of an acting command when a trace wants one: taken
    /// while some trace has budget for it, `Some(None)` when none has
    /// (its line says it was left out), `None` when no trace wants any.
    async fn trace_shot_for(&self, command: &Command) -> Option<Option<String>> {
        let (wanted, budget) = self.config().traces.wants_screenshots();
        if !wanted || !command.acts() {
            return None;
        }
        Some(match budget {
            true => self.trace_shot().await,
            false => None,
        })
    }

    /// The focused tab's viewport as a small JPEG (base64), the session's
    /// secrets masked out of it, or `None` when it cannot be taken (or
    /// masked) in time (a dialog, a hung page, no tab).
    async fn trace_shot(&self) -> Option<String> {
        let tab = self.focused().ok()?;
        let params = rove_cdp::protocol::page::CaptureScreenshot {
            format: Some(rove_cdp::protocol::page::CaptureScreenshotFormat::Jpeg),
            quality: Some(i64::from(SHOT_QUALITY)),
            ..Default::default()
        };
        let shot = tokio::time::timeout(rove_base::limits::TRACE_SCREENSHOT, tab.send(&params))
            .await
            .ok()?
            .ok()?;
        let mut frame = crate::commands::page::mask::Frame {
            base64: shot.data,
            mime: "image/jpeg",
            quality: Some(SHOT_QUALITY),
            area: None,
        };
        let secrets = &self.config().secrets;
        // Unmasked is never kept: a shot that could not be masked is left out.
        tokio::time::timeout(
            rove_base::limits::TRACE_SCREENSHOT,
            crate::commands::page::mask::mask_frame(&tab, secrets, &mut frame),
        )
        .await
        .ok()?
        .ok()?;
        Some(frame.base64).filter(|d| !d.is_empty())
    }
}

/// Writes the line of a command no session ran (no browser could be had
/// for it) to `config`'s traces: its name, arguments and caller, its
/// error, how long getting nowhere took.
pub(crate) fn record_without_session(
    config: &crate::SessionConfig,
    (command, caller): (&Command, &Caller),
    (started, took): (f64, std::time::Duration),
    error: &CommandError,
) {
    if !config.traces.is_on() {
        return;
    }
    let ms = took.as_secs_f64() * 1000.0;
    let line = TracedCommand {
        name: command.name().to_owned(),
        args: config.secrets.redact_json(&command.tool_arguments()),
        caller: match caller {
            Caller::Model => CallerKind::Model,
            Caller::Person { .. } => CallerKind::Person,
        },
        started,
        ms,
        timing: Timing {
            total_ms: ms,
            rove_ms: ms,
            ..Timing::default()
        },
        ok: false,
        error: Some(error.report()),
        text: error.fresh_view().map(cut),
        ..TracedCommand::default()
    };
    config.traces.record(&line, None, None);
}

/// `text`, cut to [`TEXT_KEPT`] characters with a note.
fn cut(text: &str) -> String {
    let kept = rove_base::text::char_prefix(text, TEXT_KEPT);
    if kept.len() == text.len() {
        return text.to_owned();
    }
    format!("{kept}\n… (cut at {TEXT_KEPT} characters)")
}
