//! A run's trace as JSON lines, the one writer behind `rove run --trace
//! FILE` (written when the run ends, however it ends) and `rove test`'s
//! trace per attempt (written a step at a time as the attempt goes). One
//! self-contained file: a `run` line (task, model, start), a `step` line
//! per step (the model's text and token counts, each action with its
//! arguments, target, result or error, the step's time split into the
//! model's and the rest; for a traced run also what the model was shown,
//! the console messages and requests of the step ([`crate::Seen`]); the
//! screenshot the model saw and the one after the actions inlined as data
//! URLs within a byte budget), and an `end` line (how it ended, totals,
//! and whatever the caller adds: an attempt's status and checks).
//! Everything in it is what the history holds: redacted of the run's
//! secrets. Its lines are rove-commands' [`TraceLine`]s, the one trace
//! format (`trace_line.rs` turns the records into them).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::StepRecord;
use base64::Engine;
use rove_commands::trace_format::{
    AttemptEnd, RunEnd, RunEnding, RunHead, TRACE_VERSION, TraceEnd, TraceLine, TraceScreenshot,
};

/// The most screenshot bytes one trace inlines by default; later ones are
/// named as left out.
pub const SCREENSHOT_BUDGET: usize = 20 * 1024 * 1024;

/// A trace being written.
#[derive(Debug)]
pub struct Trace {
    file: Mutex<std::fs::File>,
    path: PathBuf,
    inlined: Mutex<usize>,
    /// The most screenshot bytes inlined.
    budget: usize,
    /// The folder the agent keeps screenshots in only for the trace (no
    /// history asked for): emptied as they are inlined.
    own_screens: Option<PathBuf>,
}

impl Trace {
    /// Creates `path` (and its folder) and writes the run's line (`head`,
    /// at this writer's version); at most `budget` bytes of screenshots will
    /// be inlined.
    pub fn start(
        path: &Path,
        head: RunHead,
        own_screens: Option<PathBuf>,
        budget: usize,
    ) -> std::io::Result<Trace> {
        if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let trace = Trace {
            // Private: a trace holds what the pages showed.
            file: Mutex::new(rove_base::private::create_private_file(path)?),
            path: path.to_owned(),
            inlined: Mutex::new(0),
            budget,
            own_screens,
        };
        trace.write(&TraceLine::Run(RunHead {
            version: TRACE_VERSION,
            ..head
        }));
        Ok(trace)
    }

    /// Where it is written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The screencast's frames taken since the last step, a line each
    /// (already masked of secrets; their images are not searched).
    pub fn frames(&self, frames: Vec<rove_commands::trace_format::TracedFrame>) {
        for frame in frames {
            self.write(&TraceLine::Frame(frame));
        }
    }

    /// One step's line, after the screencast's frames that came with it.
    pub fn step(&self, step: &StepRecord) {
        self.frames(step.seen.frames.clone());
        let line = crate::trace_line::traced_step(step, |path| self.inline(Path::new(path)));
        self.write(&TraceLine::Step(Box::new(line)));
    }

    /// The closing line: how the run ended, its totals, and for a `rove
    /// test` attempt what came of it.
    pub fn end(
        &self,
        ending: &RunEnding,
        steps: usize,
        seconds: f64,
        usage: rove_llm::Usage,
        attempt: Option<AttemptEnd>,
    ) {
        let line = RunEnd {
            ending: ending.clone(),
            steps,
            seconds,
            usage: crate::trace_line::token_counts(usage),
            attempt,
        };
        self.write(&TraceLine::End(TraceEnd::Run(Box::new(line))));
        if let Some(dir) = &self.own_screens {
            let _ = std::fs::remove_dir(dir);
        }
    }

    /// The screenshot as a data URL, or a note of why it is not inlined.
    fn inline(&self, path: &Path) -> TraceScreenshot {
        let Ok(bytes) = std::fs::read(path) else {
            return TraceScreenshot::LeftOut {
                left_out: "the screenshot could not be read".into(),
            };
        };
        if self
            .own_screens
            .as_ref()
            .is_some_and(|d| path.starts_with(d))
        {
            let _ = std::fs::remove_file(path);
        }
        let mut inlined = self.inlined.lock().unwrap_or_else(|p| p.into_inner());
        if *inlined + bytes.len() > self.budget {
            return TraceScreenshot::LeftOut {
                left_out: format!("over the trace's {} of screenshots", size_text(self.budget)),
            };
        }
        *inlined += bytes.len();
        TraceScreenshot::Inlined(format!(
            "data:image/jpeg;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bytes)
        ))
    }

    fn write(&self, line: &TraceLine) {
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        // A trace that cannot be written must not end the run; the first
        // failure is said in the log.
        // One write a line: formatting into the file would make a system
        // call of every token.
        let mut text = hidden_line(line);
        text.push('\n');
        if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
            tracing::warn!(target: "agent", path = %self.path.display(), error = %e, "writing the trace");
        }
    }
}

/// `line` as written: every text in it through the process's redaction
/// (`rove_base::redact::scrub`: the keys and tokens rove holds or obtained,
/// every session's secrets, credentials in URLs). The records are redacted
/// of the run's own secrets as they are made, but a model's answer or a
/// provider's error may repeat a key, and a task's address may carry a
/// token: the one writer of run traces hides them all. Inlined screenshots
/// are images, never searched.
fn hidden_line(line: &TraceLine) -> String {
    let value = serde_json::to_value(line).unwrap_or_default();
    let hidden = rove_base::redact::scrub_json_with(&value, |s| {
        if s.starts_with("data:image/") {
            s.to_owned()
        } else {
            rove_base::redact::scrub(s)
        }
    });
    // Typed again, for the fields in their order; a redaction that broke
    // the type (a secret that is also a kind) is written as it stands.
    match serde_json::from_value::<TraceLine>(hidden.clone()) {
        Ok(line) => line.to_json(),
        Err(_) => hidden.to_string(),
    }
}

/// `20 MiB`, `300 KiB`, `512 B`.
fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}
