//! An attempt whose run ended, graded: the task's checks on the final
//! page, the judge's verdict when the suite has one, and the status they
//! come to.

use rove_agent::{Ending, RunResult};
use rove_commands::Session;
use tokio::sync::watch;

use crate::attempt::{AttemptResult, Status};
use crate::options::RunOptions;
use crate::task::Task;
use crate::verify::{Final, run_checks};

/// Fills `result`'s answer, checks, judgement and status from `run`;
/// Ctrl-C (`stopped`) does not wait for the judge.
pub(crate) async fn grade(
    result: &mut AttemptResult,
    run: &RunResult,
    task: &Task,
    session: &mut Session,
    options: &RunOptions,
    stopped: &mut watch::Receiver<bool>,
) {
    let (answer, success) = match &run.ending {
        Ending::Done { text, success } => (Some(text.clone()), *success),
        Ending::Failures { answer, .. } | Ending::MaxSteps { answer } => (answer.clone(), false),
        _ => (None, false),
    };
    result.ending = serde_json::to_value(&run.ending)
        .ok()
        .and_then(|v| v["reason"].as_str().map(str::to_owned));
    result.success_reported = success;
    result.reached_captcha = run.challenges.first().map(|c| c.step);
    result.answer = answer.clone();
    result.checks = run_checks(&task.spec.verify, session, &Final { answer }).await;
    // Judged after the checks, on the same final page; every ended
    // run is judged, so that divergences either way are counted.
    if let Some(judge) = &options.judge {
        let about = rove_agent::About {
            task: &task.spec.task,
            ground_truth: task.spec.ground_truth.as_deref(),
            judge_context: &task.spec.judge_context,
        };
        // Ctrl-C does not wait for the judge; an attempt it cut
        // short is unjudged, never taken as passed.
        let judged = tokio::select! {
            judged = judge.judge_run(session, run, about) => judged,
            _ = stopped.wait_for(|stop| *stop) => rove_agent::Judgement::unjudged(
                judge.model(),
                "interrupted while judging".into(),
            ),
        };
        result.divergence = judged.diverges(success);
        result.judge_cost = judged
            .model
            .split_once(':')
            .and_then(|(provider, model)| options.prices.cost(provider, model, &judged.usage));
        result.judge = Some(judged);
    }
    let failed: Vec<String> = result
        .checks
        .iter()
        .filter(|c| !c.passed)
        .map(|c| format!("verify {}: {}", c.check, c.detail))
        .collect();
    (result.status, result.reason) = if !success {
        (
            Status::Failed,
            Some(ending_reason(&run.ending, task.max_steps())),
        )
    } else if !failed.is_empty() {
        (Status::Failed, Some(failed.join("; ")))
    } else {
        crate::attempt::judged_status(result.judge.as_ref(), task.spec.verify.is_empty())
    };
}

/// Why a run without reported success failed.
fn ending_reason(ending: &Ending, max_steps: u32) -> String {
    match ending {
        Ending::Done { .. } => "the agent reported failure".into(),
        Ending::MaxSteps { .. } => format!("max steps: the step limit ({max_steps}) was reached"),
        Ending::Failures { failed, limit, .. } => {
            format!("failures: {failed}/{limit} steps failed in a row")
        }
        Ending::Timeout => "timeout: a step ran past its deadline".into(),
        Ending::Loop => "loop: the agent repeated an action that changed nothing".into(),
        Ending::Challenge {
            kind, step, why, ..
        } => format!("challenge: a {kind} challenge blocked the page before step {step}: {why}"),
    }
}
