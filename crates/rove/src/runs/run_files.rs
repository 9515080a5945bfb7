//! The files `rove run` leaves: its history (`--history`, what
//! `rove replay` reads) and its trace (`--trace`), written however the run
//! ends.

use rove_agent::StepRecord;
use rove_commands::trace_format::{RunEnding, RunHead};
use rove_llm::{Llm, PriceTable};
use serde_json::json;

use crate::cli::RunArgs;
use crate::output::Output;

/// The history and the trace of a run that did not finish (an error, a
/// signal): the steps `seen` so far, and how it ended.
pub(crate) fn write_unfinished(
    args: &RunArgs,
    (llm, prices, (seconds, budget)): (&Llm, &PriceTable, (f64, usize)),
    seen: &[StepRecord],
    ending: &RunEnding,
    out: Output,
) {
    let outcome = json!({"ending": ending});
    write_history(
        args,
        llm,
        prices,
        (seen, &rove_agent::spend_of(seen)),
        &outcome,
        seconds,
        out,
    );
    write_trace(args, llm, seen, ending, (seconds, budget), out);
}

/// Writes the history, when one was asked for, whatever the ending; says
/// so on stderr when it cannot, and returns whether all went well.
/// `outcome` holds `ending` and, when the run was judged, `judge` and
/// `divergence`, beside it.
pub(crate) fn write_history(
    args: &RunArgs,
    llm: &Llm,
    prices: &PriceTable,
    (steps, spend): (&[StepRecord], &rove_llm::Spend),
    outcome: &serde_json::Value,
    seconds: f64,
    out: Output,
) -> bool {
    let Some(path) = &args.history else {
        return true;
    };
    let endpoint = llm.current();
    let mut history = json!({
        "task": args.task,
        "start_url": args.start_url,
        "model": format!("{}:{}", endpoint.provider, endpoint.model),
        "steps": steps,
        "usage": spend.total(),
        "cost": prices.cost_of(spend),
        "seconds": seconds,
    });
    if let (Some(history), Some(outcome)) = (history.as_object_mut(), outcome.as_object()) {
        for (key, value) in outcome {
            history.insert(key.clone(), value.clone());
        }
    }
    // A model's answer or a provider's error may repeat a key this
    // process holds: hidden as on every other output. (Not `scrub`: the
    // task's address stays as given, for `rove replay`.)
    let history = rove_base::redact::scrub_json_with(&history, rove_base::redact::hide_registered);
    match rove_base::user_file::write(
        path,
        &serde_json::to_vec_pretty(&history).unwrap_or_default(),
        // What the pages showed and the model said: its owner's, as the
        // trace is.
        rove_base::user_file::Access::Private,
    )
    .map_err(rove_base::user_file::UserFileError::into_io)
    {
        Ok(()) => true,
        Err(e) => {
            tracing::error!(path = %path.display(), error = %e, "writing the history");
            out.note(&format!(
                "could not write the history to {}: {e}",
                path.display()
            ));
            false
        }
    }
}

/// Writes the trace, when one was asked for (see `trace.rs`); says so on
/// stderr when it cannot.
pub(crate) fn write_trace(
    args: &RunArgs,
    llm: &Llm,
    steps: &[StepRecord],
    ending: &RunEnding,
    (seconds, budget): (f64, usize),
    out: Output,
) {
    let Some(path) = &args.trace else {
        return;
    };
    let endpoint = llm.current();
    let head = RunHead {
        task: args.task.clone(),
        start_url: args.start_url.clone(),
        model: format!("{}:{}", endpoint.provider, endpoint.model),
        ..RunHead::default()
    };
    // Screenshots kept only for the trace are removed once inlined.
    let own = args
        .history
        .is_none()
        .then(|| path.with_extension("screens"));
    match rove_agent::Trace::start(path, head, own, budget) {
        Ok(trace) => {
            let mut usage = rove_llm::Usage::default();
            for step in steps {
                trace.step(step);
                usage += step.usage;
            }
            trace.end(ending, steps.len(), seconds, usage, None);
            tracing::info!(target: "agent", path = %trace.path().display(), "trace written");
        }
        Err(e) => out.note(&format!(
            "could not write the trace to {}: {e}",
            path.display()
        )),
    }
}

/// Writes the run's GIF, when one was asked for (`--gif`; says so on
/// stderr when it cannot: no font, an unwritable path; the run's own
/// answer stands), then its trace ([`write_trace`], after: it removes the
/// screenshots it inlines).
pub(crate) fn write_gif_and_trace(
    args: &RunArgs,
    llm: &Llm,
    ran: &rove_agent::RunResult,
    ending: &RunEnding,
    (seconds, budget): (f64, usize),
    out: Output,
) {
    gif_of_run(args, llm, ran, ending, seconds, out);
    write_trace(args, llm, &ran.steps, ending, (seconds, budget), out);
}

fn gif_of_run(
    args: &RunArgs,
    llm: &Llm,
    ran: &rove_agent::RunResult,
    ending: &RunEnding,
    seconds: f64,
    out: Output,
) {
    let Some(path) = &args.gif else {
        return;
    };
    let endpoint = llm.current();
    let head = RunHead {
        task: args.task.clone(),
        start_url: args.start_url.clone(),
        model: format!("{}:{}", endpoint.provider, endpoint.model),
        ..RunHead::default()
    };
    match rove_agent::write_run_gif(path, head, &ran.steps, (ending, seconds, ran.usage)) {
        Ok(gif) => out.note(&format!(
            "wrote {}: {} frames, {} KiB",
            path.display(),
            gif.frames,
            gif.bytes.div_ceil(1024)
        )),
        Err(e) => out.note(&format!("could not write the GIF {}: {e}", path.display())),
    }
    // The screenshots kept only for the GIF go with it.
    if args.history.is_none() && args.trace.is_none() {
        let _ = std::fs::remove_dir_all(path.with_extension("screens"));
    }
}

/// The screencast's frames of a traced run (`--trace-screencast`), given
/// to the step they came up to, so the trace writes them before its line.
pub(crate) struct StepFrames {
    collector: Option<rove_commands::FrameCollector>,
    taken: Vec<Vec<rove_commands::trace_format::TracedFrame>>,
}

impl StepFrames {
    /// Collecting from now on, when the run's trace wants the screencast.
    pub(crate) fn new(args: &RunArgs, session: &rove_commands::Session) -> StepFrames {
        let wanted = args.trace.is_some() && args.trace_screenshots.screencast;
        StepFrames {
            collector: wanted.then(|| {
                session
                    .config()
                    .traces
                    .collect_frames(rove_commands::FrameCaps::default())
            }),
            taken: Vec::new(),
        }
    }

    /// `step` with the frames that came up to its end.
    pub(crate) fn with_step(&mut self, step: &StepRecord) -> StepRecord {
        let mut step = step.clone();
        if let Some(collector) = &self.collector {
            step.seen.frames = collector.take();
            self.taken.push(step.seen.frames.clone());
        }
        step
    }

    /// The run with each step's frames, the last step also with those
    /// after it.
    pub(crate) fn into_run(self, mut run: rove_agent::RunResult) -> rove_agent::RunResult {
        let Some(collector) = self.collector else {
            return run;
        };
        for (step, frames) in run.steps.iter_mut().zip(self.taken) {
            step.seen.frames = frames;
        }
        if let Some(last) = run.steps.last_mut() {
            last.seen.frames.extend(collector.take());
        }
        run
    }
}
