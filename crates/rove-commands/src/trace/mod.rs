//! Command traces: every command a session runs, as one JSON line in a file
//! a person reads later (`rove trace show`).
//!
//! The faces decide when a trace runs (`rove --trace FILE <command>`,
//! `rove trace start|stop`, `rove mcp --trace FILE`); the session records,
//! in `trace_record.rs`, so every face records alike. [`Traces`] is part of
//! the [`crate::SessionConfig`] and shared by its clones, so a trace goes on
//! across a browser restart, as the numbering does.
//!
//! Each line is written whole, in one write, as its command ends, so a
//! crash leaves a readable prefix. It is created afresh (an existing file is replaced, as
//! other outputs are) and readable by its owner only (0600): it holds what
//! the pages showed. Every text in it passes the one redaction of the
//! process (`rove_base::redact::scrub`, which knows the session's secrets);
//! request headers are not recorded at all. Every line is a
//! [`format::TraceLine`], the one type of every trace file.

pub mod format;
mod frames;

pub use frames::FrameCollector;
pub(crate) use frames::{FrameToStore, ScreencastFollow};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

use serde::Serialize;
use serde::de::DeserializeOwned;

use format::{
    CommandScreenshots, CommandsEnd, TRACE_VERSION, TraceEnd, TraceHead, TraceLine, TraceOrigin,
    TraceScreenshot, TracedCommand,
};

/// The most screenshot bytes (base64) one trace inlines by default; later
/// screenshots are named as left out.
pub const SCREENSHOT_BUDGET: usize = 5 * 1024 * 1024;

/// One trace file being written.
#[derive(Debug)]
struct Recorder {
    id: u64,
    file: std::fs::File,
    path: PathBuf,
    screenshots: bool,
    /// Screenshot bytes it may still inline.
    budget_left: usize,
    /// Commands recorded so far.
    commands: u64,
    /// What it keeps of the page's screencast (`None`: none is asked for).
    frames: Option<frames::FrameCount>,
}

/// What a trace records besides each command's line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceWants {
    /// A screenshot before and after each acting command.
    pub screenshots: bool,
    /// The most screenshot bytes (base64) the trace inlines.
    pub budget: usize,
    /// The page's screencast, as `frame` lines, within these caps.
    pub screencast: Option<FrameCaps>,
}

/// The most of the screencast one trace keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameCaps {
    /// Frames.
    pub frames: usize,
    /// Their bytes, base64.
    pub bytes: usize,
}

impl Default for FrameCaps {
    /// `limits::SCREENCAST_FRAMES` and `limits::SCREENCAST_BYTES`.
    fn default() -> Self {
        FrameCaps {
            frames: rove_base::limits::SCREENCAST_FRAMES,
            bytes: rove_base::limits::SCREENCAST_BYTES,
        }
    }
}

/// What a stopped trace holds.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceSummary {
    /// The file.
    pub path: PathBuf,
    /// How many commands it records.
    pub commands: u64,
}

/// The traces a session writes to (usually none or one). Cheap to clone;
/// clones share the traces.
#[derive(Clone, Default)]
pub struct Traces(Arc<Mutex<TracesInner>>);

#[derive(Default)]
struct TracesInner {
    next_id: u64,
    open: Vec<Recorder>,
    /// The screencast being recorded, while a trace wants one.
    screencast: Option<frames::Running>,
    /// Frames kept for other writers' traces.
    collectors: Vec<frames::Collecting>,
}

/// Every set of traces that has run one in this process, so that a signal
/// can end them all before the process exits ([`end_all_traces`]): the
/// sessions holding them may be on threads the exit does not wait for.
static LIVE: Mutex<Vec<Weak<Mutex<TracesInner>>>> = Mutex::new(Vec::new());

/// Ends every trace still running in this process with an `end` line
/// saying `reason` (the process is ending on a signal).
pub fn end_all_traces(reason: &str) {
    let live: Vec<Traces> = LIVE
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .filter_map(Weak::upgrade)
        .map(Traces)
        .collect();
    for traces in live {
        traces.stop_all(reason);
    }
}

/// A trace nobody stopped (its session's future dropped) still gets its
/// `end` line when the last handle goes: a reader can tell a finished
/// trace from a cut one (a crash or SIGKILL leaves no `end`).
impl Drop for TracesInner {
    fn drop(&mut self) {
        for recorder in std::mem::take(&mut self.open) {
            recorder.finish("ended without a stop: the process was interrupted or failed");
        }
    }
}

impl std::fmt::Debug for Traces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let paths: Vec<PathBuf> = self.lock().open.iter().map(|r| r.path.clone()).collect();
        f.debug_tuple("Traces").field(&paths).finish()
    }
}

/// The name a trace is known by to stop it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceId(u64);

impl Traces {
    fn lock(&self) -> std::sync::MutexGuard<'_, TracesInner> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Creates `path` (replacing a file there; owner-only) and writes its
    /// first line: a `trace` line saying who started it (`origin`). With
    /// `screenshots`, acting commands are recorded with a screenshot before
    /// and after, within `budget` bytes for the whole trace.
    pub fn start(
        &self,
        path: &Path,
        screenshots: bool,
        budget: usize,
        origin: TraceOrigin,
    ) -> std::io::Result<TraceId> {
        let wants = TraceWants {
            screenshots,
            budget,
            screencast: None,
        };
        self.start_with(path, wants, origin)
    }

    /// [`Traces::start`] with what the trace records besides the commands;
    /// with `screencast`, the focused tab's screencast is recorded from the
    /// next command on.
    pub fn start_with(
        &self,
        path: &Path,
        wants: TraceWants,
        origin: TraceOrigin,
    ) -> std::io::Result<TraceId> {
        let TraceWants {
            screenshots,
            budget,
            screencast,
        } = wants;
        let file = rove_base::private::create_private_file(path)?;
        let mut inner = self.lock();
        inner.next_id += 1;
        let mut recorder = Recorder {
            id: inner.next_id,
            file,
            path: path.to_owned(),
            screenshots,
            budget_left: budget,
            commands: 0,
            frames: screencast.map(frames::FrameCount::new),
        };
        let head = TraceHead {
            version: TRACE_VERSION,
            started: unix_seconds(),
            screenshots,
            screencast: screencast.is_some(),
            origin,
        };
        match scrubbed(&head, rove_base::redact::scrub) {
            Scrubbed::Typed(head) => recorder.write(&TraceLine::Trace(head)),
            Scrubbed::Raw(line) => recorder.write_text(line.to_string()),
        }
        let id = TraceId(recorder.id);
        inner.open.push(recorder);
        drop(inner);
        let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
        live.retain(|w| w.strong_count() > 0);
        if !live.iter().any(|w| w.as_ptr() == Arc::as_ptr(&self.0)) {
            live.push(Arc::downgrade(&self.0));
        }
        Ok(id)
    }

    /// Ends one trace with an `end` line saying why (`reason`).
    pub fn stop(&self, id: TraceId, reason: &str) -> Option<TraceSummary> {
        let mut inner = self.lock();
        let at = inner.open.iter().position(|r| r.id == id.0)?;
        let recorder = inner.open.remove(at);
        if !inner.wants_frames() {
            // Dropping it tells its task to stop the browser's screencast.
            inner.screencast = None;
        }
        Some(recorder.finish(reason))
    }

    /// Ends every trace (the session ends).
    pub fn stop_all(&self, reason: &str) -> Vec<TraceSummary> {
        let mut inner = self.lock();
        let open = std::mem::take(&mut inner.open);
        if !inner.wants_frames() {
            inner.screencast = None;
        }
        drop(inner);
        open.into_iter().map(|r| r.finish(reason)).collect()
    }

    /// The file of a running trace.
    pub fn path_of(&self, id: TraceId) -> Option<PathBuf> {
        self.lock()
            .open
            .iter()
            .find(|r| r.id == id.0)
            .map(|r| r.path.clone())
    }

    /// Whether any trace runs.
    pub fn is_on(&self) -> bool {
        !self.lock().open.is_empty()
    }

    /// Whether a running trace wants screenshots, and whether one of those
    /// still has budget for them (when none has, none is taken: the lines
    /// only say they are left out).
    pub(crate) fn wants_screenshots(&self) -> (bool, bool) {
        let inner = self.lock();
        let wanting = inner.open.iter().filter(|r| r.screenshots);
        let mut any = false;
        let mut budget = false;
        for r in wanting {
            any = true;
            budget |= r.budget_left > 0;
        }
        (any, budget)
    }

    /// Writes one command's line to every trace, numbered in each.
    /// `command` is scrubbed here; the screenshots (base64 JPEG, never text
    /// a page wrote) are added after, each within its trace's budget:
    /// `before` and `after` are `None` when not taken, `Some(None)` when
    /// taking one failed or no trace had budget for it.
    pub(crate) fn record(
        &self,
        command: &TracedCommand,
        before: Option<Option<&str>>,
        after: Option<Option<&str>>,
    ) {
        let command = match scrubbed(command, rove_base::redact::scrub) {
            Scrubbed::Typed(command) => command,
            Scrubbed::Raw(line) => {
                // Written as the redaction left it, without screenshots
                // (they would need the typed line): a line is never lost.
                let mut inner = self.lock();
                for recorder in &mut inner.open {
                    recorder.commands += 1;
                    let mut line = line.clone();
                    if let Some(fields) = line.as_object_mut() {
                        fields.insert("seq".to_owned(), recorder.commands.into());
                    }
                    recorder.write_text(line.to_string());
                }
                return;
            }
        };
        let mut inner = self.lock();
        for recorder in &mut inner.open {
            recorder.commands += 1;
            let mut line = command.clone();
            line.seq = recorder.commands;
            if recorder.screenshots && (before.is_some() || after.is_some()) {
                line.screenshots = Some(CommandScreenshots {
                    before: before.map(|data| recorder.inline(data)),
                    after: after.map(|data| recorder.inline(data)),
                });
            }
            recorder.write(&TraceLine::Command(Box::new(line)));
        }
    }
}

impl Recorder {
    fn write(&mut self, line: &TraceLine) {
        self.write_text(line.to_json());
    }

    fn write_text(&mut self, mut text: String) {
        // One write a line: formatting into the file itself would make a
        // system call of every token. A trace that cannot be written must
        // not fail the command; the failure is said in the log.
        text.push('\n');
        if let Err(e) = self.file.write_all(text.as_bytes()) {
            tracing::warn!(path = %self.path.display(), error = %e, "writing the trace");
        }
    }

    /// A screenshot as a data URL, or why it is not there.
    fn inline(&mut self, data: Option<&str>) -> TraceScreenshot {
        let left_out = |why: &str| TraceScreenshot::LeftOut {
            left_out: why.to_owned(),
        };
        if self.budget_left == 0 {
            return left_out("over the trace's screenshot budget");
        }
        let Some(data) = data else {
            return left_out("the screenshot could not be taken");
        };
        if data.len() > self.budget_left {
            // Nothing later is inlined either: the reader sees where the
            // budget ran out.
            self.budget_left = 0;
            return left_out("over the trace's screenshot budget");
        }
        self.budget_left -= data.len();
        TraceScreenshot::Inlined(format!("data:image/jpeg;base64,{data}"))
    }

    fn finish(mut self, reason: &str) -> TraceSummary {
        let line = TraceLine::End(TraceEnd::Commands(CommandsEnd {
            reason: reason.to_owned(),
            commands: self.commands,
            ended: unix_seconds(),
        }));
        self.write(&line);
        TraceSummary {
            path: self.path,
            commands: self.commands,
        }
    }
}

/// Seconds since the Unix epoch, to the millisecond.
pub(crate) fn unix_seconds() -> f64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (since.as_millis() as f64) / 1000.0
}

/// A line once redacted: its type, or the redacted JSON as it stands where
/// the redaction hid a word the type needs (a secret that is also a field
/// name or a kind), so that the line is written all the same and nothing
/// of it unredacted.
enum Scrubbed<T> {
    Typed(T),
    Raw(serde_json::Value),
}

/// `line` with every string in it (keys too) through `scrub` (the
/// process's redaction).
fn scrubbed<T: Serialize + DeserializeOwned>(line: &T, scrub: fn(&str) -> String) -> Scrubbed<T> {
    let hidden =
        rove_base::redact::scrub_json_with(&serde_json::to_value(line).unwrap_or_default(), scrub);
    match serde_json::from_value(hidden.clone()) {
        Ok(line) => Scrubbed::Typed(line),
        Err(e) => {
            tracing::warn!(error = %e, "a trace line is written untyped: its redaction broke its shape");
            Scrubbed::Raw(hidden)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
    struct Line {
        kind: String,
        seq: u64,
    }

    #[test]
    fn a_line_whose_redaction_breaks_its_type_is_kept_as_redacted_json() {
        let line = Line {
            kind: "command token-123".to_owned(),
            seq: 4,
        };
        let hide_token = |s: &str| s.replace("token-123", "<redacted>");
        match scrubbed(&line, hide_token) {
            Scrubbed::Typed(kept) => assert_eq!(kept.kind, "command <redacted>"),
            Scrubbed::Raw(raw) => panic!("the type still fits: {raw}"),
        }
        // A secret that is also a field name hides the key itself.
        let hide_seq = |s: &str| s.replace("seq", "<redacted>");
        match scrubbed(&line, hide_seq) {
            Scrubbed::Typed(kept) => panic!("a line without its seq decoded: {kept:?}"),
            Scrubbed::Raw(raw) => {
                assert_eq!(raw["<redacted>"], 4);
                assert_eq!(
                    raw["kind"],
                    "command token-123".replace("seq", "<redacted>")
                );
                assert!(raw.get("seq").is_none(), "{raw}");
            }
        }
    }

    #[test]
    fn a_tab_without_a_screencast_leaves_one_note_and_no_frame_after_it() {
        let dir = std::env::temp_dir().join(format!("rove-trace-cast-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("t.trace");
        let traces = Traces::default();
        let wants = TraceWants {
            screenshots: false,
            budget: 0,
            screencast: Some(FrameCaps::default()),
        };
        let id = traces
            .start_with(&path, wants, TraceOrigin::default())
            .expect("starts");
        let (follow, _stop) = traces.follow("target-1").expect("a screencast to start");
        // Asked again for the same tab: it is already being taken.
        assert!(traces.follow("target-1").is_none());
        follow.none(
            rove_browser::TabId(1),
            "Page.startScreencast is not supported",
        );
        let frame = frames::FrameToStore {
            at: 1.0,
            tab: rove_browser::TabId(1),
            base64: "AAAA".into(),
            view: [800.0, 600.0],
            masked: 0,
        };
        assert!(follow.frame(frame), "the traces are still there");
        traces.stop(id, "stopped");
        let text = std::fs::read_to_string(&path).expect("reads");
        let frames: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("json"))
            .filter(|l| l["kind"] == "frame")
            .collect();
        assert_eq!(frames.len(), 1, "{text}");
        assert_eq!(
            frames[0]["image"]["left_out"],
            "no screencast: Page.startScreencast is not supported"
        );
        // The traces gone, the task's handle says so (it ends).
        drop(traces);
        assert!(!follow.frame(frames::FrameToStore {
            at: 2.0,
            tab: rove_browser::TabId(1),
            base64: "AAAA".into(),
            view: [0.0, 0.0],
            masked: 0,
        }));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lines_are_written_in_order_and_screenshots_stay_in_budget() {
        let dir = std::env::temp_dir().join(format!("rove-trace-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("t.trace");
        let traces = Traces::default();
        let id = traces
            .start(
                &path,
                true,
                10,
                TraceOrigin {
                    face: "test".into(),
                    ..TraceOrigin::default()
                },
            )
            .expect("starts");
        assert!(traces.is_on());
        let click = TracedCommand {
            name: "click".into(),
            ..TracedCommand::default()
        };
        traces.record(&click, Some(Some("AAAA")), Some(Some("BBBBBBBB")));
        let summary = traces.stop(id, "stopped").expect("was running");
        assert_eq!(summary.commands, 1);
        assert!(!traces.is_on());
        let text = std::fs::read_to_string(&path).expect("reads");
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["kind"], "trace");
        assert_eq!(lines[1]["seq"], 1);
        assert_eq!(
            lines[1]["screenshots"]["before"],
            "data:image/jpeg;base64,AAAA"
        );
        assert!(lines[1]["screenshots"]["after"]["left_out"].is_string());
        assert_eq!(lines[2]["kind"], "end");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
