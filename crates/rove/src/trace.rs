//! `rove run --trace FILE`: the run as JSON lines, written when it ends
//! however it ends (an error, Ctrl-C), as the history is. One
//! self-contained file: a
//! `run` line (task, model, start), a `step` line per step (the model's
//! text and token counts, each action with its arguments, target, result
//! or error, the step's time split into the model's and the rest, the
//! screenshot the model saw inlined as a data URL within a byte budget),
//! and an `end` line (how it ended, totals). Everything in it is what the
//! history holds: redacted of the run's secrets.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use base64::Engine;
use rove_agent::StepRecord;
use serde_json::{Value, json};

/// The most screenshot bytes one trace inlines; later steps name theirs
/// as left out.
const SCREENSHOT_BUDGET: usize = 20 * 1024 * 1024;

/// A trace being written.
#[derive(Debug)]
pub struct Trace {
    file: Mutex<std::fs::File>,
    path: PathBuf,
    inlined: Mutex<usize>,
    /// The folder the agent keeps screenshots in only for the trace (no
    /// history asked for): emptied as they are inlined.
    own_screens: Option<PathBuf>,
}

impl Trace {
    /// Creates `path` and writes the run's line.
    pub fn start(path: &Path, head: Value, own_screens: Option<PathBuf>) -> std::io::Result<Trace> {
        let trace = Trace {
            file: Mutex::new(std::fs::File::create(path)?),
            path: path.to_owned(),
            inlined: Mutex::new(0),
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
            if let Some(path) = &step.screenshot {
                line.insert("screenshot".into(), self.inline(Path::new(path)));
            }
        }
        self.write(&line);
    }

    /// The closing line.
    pub fn end(&self, ending: &Value, steps: usize, seconds: f64, usage: Value) {
        self.write(&json!({
            "kind": "end",
            "ending": ending,
            "steps": steps,
            "seconds": seconds,
            "usage": usage,
        }));
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
        if *inlined + bytes.len() > SCREENSHOT_BUDGET {
            return json!({"left_out": format!("over the trace's {} MiB of screenshots", SCREENSHOT_BUDGET >> 20)});
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
        if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
            tracing::warn!(target: "agent", path = %self.path.display(), error = %e, "writing the trace");
        }
    }
}
