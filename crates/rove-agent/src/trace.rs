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
//! secrets.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::StepRecord;
use base64::Engine;
use serde_json::{Value, json};

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
    /// Creates `path` (and its folder) and writes the run's line; at most
    /// `budget` bytes of screenshots will be inlined.
    pub fn start(
        path: &Path,
        head: Value,
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
        let mut line = json!({"kind": "run", "version": 1});
        if let (Some(line), Value::Object(head)) = (line.as_object_mut(), head) {
            line.extend(head);
        }
        trace.write(&line);
        Ok(trace)
    }

    /// Where it is written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// One step's line.
    pub fn step(&self, step: &StepRecord) {
        let mut line = json!({"kind": "step"});
        if let (Some(line), Ok(Value::Object(record))) =
            (line.as_object_mut(), serde_json::to_value(step))
        {
            line.extend(record);
            line.remove("screenshot");
            line.remove("screenshot_after");
            if let Some(path) = &step.screenshot {
                line.insert("screenshot".into(), self.inline(Path::new(path)));
            }
            if let Some(path) = &step.seen.screenshot_after {
                line.insert("screenshot_after".into(), self.inline(Path::new(path)));
            }
        }
        self.write(&line);
    }

    /// The closing line: how the run ended, its totals, and the fields of
    /// `more` (an object; anything else adds nothing).
    pub fn end(&self, ending: &Value, steps: usize, seconds: f64, usage: Value, more: Value) {
        let mut line = json!({
            "kind": "end",
            "ending": ending,
            "steps": steps,
            "seconds": seconds,
            "usage": usage,
        });
        if let (Some(line), Value::Object(more)) = (line.as_object_mut(), more) {
            line.extend(more);
        }
        self.write(&line);
        if let Some(dir) = &self.own_screens {
            let _ = std::fs::remove_dir(dir);
        }
    }

    /// The screenshot as a data URL, or a note of why it is not inlined.
    fn inline(&self, path: &Path) -> Value {
        let Ok(bytes) = std::fs::read(path) else {
            return json!({"left_out": "the screenshot could not be read"});
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
            return json!({"left_out": format!(
                "over the trace's {} of screenshots",
                size_text(self.budget)
            )});
        }
        *inlined += bytes.len();
        Value::String(format!(
            "data:image/jpeg;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bytes)
        ))
    }

    fn write(&self, line: &Value) {
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        // A trace that cannot be written must not end the run; the first
        // failure is said in the log.
        // One write a line: formatting into the file would make a system
        // call of every token.
        let mut text = line.to_string();
        text.push('\n');
        if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
            tracing::warn!(target: "agent", path = %self.path.display(), error = %e, "writing the trace");
        }
    }
}

/// `20 MiB`, `300 KiB`, `512 B`.
fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}
