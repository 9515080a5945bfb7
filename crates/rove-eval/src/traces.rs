//! An attempt's trace: the same JSON lines `rove run --trace` writes (one
//! writer, [`rove_agent::Trace`]), under `OUT/traces/`, a step at a time as
//! the attempt goes, so an attempt cut short (Ctrl-C, its timeout) still
//! leaves its steps and an `end` line saying how it ended. The `end` line
//! also carries the attempt's status, reason, checks and the judge's
//! verdict. With [`Traces::Failed`] the trace is written under a name of
//! its own (`.<task>-<number>.trace.partial`) and takes its place only once
//! the attempt is known not to have passed; one that passed is removed, so
//! a trace an earlier run left at that place (a failure worth reading) is
//! kept: a run removes only what it wrote.

use std::path::{Path, PathBuf};

use rove_agent::{StepRecord, Trace};
use rove_commands::Secrets;
use rove_commands::trace_format::{AttemptCheck, AttemptEnd, RunEnding, RunHead};
use rove_llm::Llm;

use crate::attempt::{AttemptResult, Status};
use crate::task::Task;
use crate::verify::CheckResult;

/// Which attempts keep a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Traces {
    /// None.
    Off,
    /// Every attempt that ran and did not pass (failed, error, unjudged,
    /// self-reported): what a CI job needs to read after a red run.
    #[default]
    Failed,
    /// Every attempt that ran.
    All,
}

impl std::str::FromStr for Traces {
    type Err = String;
    fn from_str(text: &str) -> Result<Traces, String> {
        match text {
            "off" => Ok(Traces::Off),
            "failed" => Ok(Traces::Failed),
            "all" => Ok(Traces::All),
            other => Err(format!("{other:?} is not off, failed or all")),
        }
    }
}

/// Where an attempt's trace goes: `OUT/traces/<task>-<number>.trace`.
pub(crate) fn path_of(out: &Path, slug: &str, number: u32) -> PathBuf {
    out.join("traces").join(format!("{slug}-{number}.trace"))
}

/// An attempt's trace being written, and where it goes if it is kept.
pub(crate) struct AttemptTrace {
    pub(crate) trace: Trace,
    keep_at: PathBuf,
    /// The page's screencast, collected for the trace (`--trace-screencast`).
    frames: Option<rove_commands::FrameCollector>,
}

impl AttemptTrace {
    /// Collects the page's screencast of `session` for this trace, when
    /// `wanted`: its frames go before each step's line.
    pub(crate) fn with_screencast(
        mut self,
        wanted: bool,
        session: &rove_commands::Session,
    ) -> AttemptTrace {
        self.frames = wanted.then(|| {
            session
                .config()
                .traces
                .collect_frames(rove_commands::FrameCaps::default())
        });
        self
    }

    /// One step's line, after the frames that came up to it.
    pub(crate) fn step(&self, step: &StepRecord) {
        if let Some(frames) = &self.frames {
            self.trace.frames(frames.take());
        }
        self.trace.step(step);
    }
}

/// Where a trace is written until it is known to be kept: beside its
/// place, hidden, so that the file an earlier run left there stays.
fn partial_path(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!(".{name}.partial"))
}

/// Starts the attempt's trace, bound for `path` (written there at once
/// with [`Traces::All`]; beside it until kept with [`Traces::Failed`]);
/// `None` (said in the log) when the file cannot be made: the attempt
/// still runs and counts.
/// Its first line names the task and its address as the model is given
/// them: with the attempt's `secrets` (a `start_url` may carry one, filled
/// in from its variable) replaced by their placeholders.
pub(crate) fn start(
    (path, which): (&Path, Traces),
    task: &Task,
    number: u32,
    (llm, secrets): (&Llm, &Secrets),
    budget: usize,
) -> Option<AttemptTrace> {
    let endpoint = llm.current();
    let head = RunHead {
        task: secrets.redact(&task.spec.task),
        name: Some(secrets.redact(&task.spec.name)),
        attempt: Some(number),
        start_url: task.spec.start_url.as_deref().map(|u| secrets.redact(u)),
        model: format!("{}:{}", endpoint.provider, endpoint.model),
        ..RunHead::default()
    };
    let writing = match which {
        Traces::Failed => partial_path(path),
        _ => path.to_owned(),
    };
    match Trace::start(&writing, head, None, budget) {
        Ok(trace) => Some(AttemptTrace {
            trace,
            keep_at: path.to_owned(),
            frames: None,
        }),
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "could not start an attempt's trace");
            None
        }
    }
}

/// Writes the `end` line and, unless the attempt's trace is not wanted
/// (it passed, and only failed ones are kept), names the file in the
/// result.
pub(crate) fn finish(
    AttemptTrace {
        trace,
        keep_at,
        frames,
    }: AttemptTrace,
    which: Traces,
    ending: &RunEnding,
    steps: &[StepRecord],
    result: &mut AttemptResult,
) {
    if let Some(frames) = frames {
        trace.frames(frames.take());
    }
    let mut usage = rove_llm::Usage::default();
    for step in steps {
        usage += step.usage;
    }
    let attempt = AttemptEnd {
        status: result.status.as_str().to_owned(),
        reason: result.reason.clone(),
        answer: result.answer.clone(),
        checks: result
            .checks
            .iter()
            .map(
                |CheckResult {
                     check,
                     passed,
                     detail,
                 }| AttemptCheck {
                    check: check.clone(),
                    passed: *passed,
                    detail: detail.clone(),
                },
            )
            .collect(),
        judge: result.judge.as_ref().map(Into::into),
        divergence: result.divergence,
    };
    trace.end(ending, steps.len(), result.seconds, usage, Some(attempt));
    if which == Traces::Failed && result.status == Status::Passed {
        let _ = std::fs::remove_file(trace.path());
        return;
    }
    if trace.path() != keep_at
        && let Err(e) = std::fs::rename(trace.path(), &keep_at)
    {
        tracing::warn!(path = %keep_at.display(), error = %e, "could not put an attempt's trace in its place");
        result.trace = Some(trace.path().display().to_string());
        return;
    }
    result.trace = Some(keep_at.display().to_string());
}
