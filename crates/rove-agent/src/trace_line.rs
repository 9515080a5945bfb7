//! How the agent's records become lines of the one trace format
//! (`rove_commands::trace_format`): field by field, each record taken
//! apart whole, so a field added to a record does not compile until its
//! trace line says what becomes of it.

use rove_commands::trace_format::{
    AttemptJudgement, RunEnding, TokenCounts, TraceScreenshot, TracedAction, TracedFailure,
    TracedStep, TracedTarget,
};
use rove_llm::Usage;

use crate::{ActionRecord, Ending, Judgement, Seen, StepFailure, StepRecord, Target};

/// A step's line; `inline` turns a kept screenshot's path into what the
/// trace holds of it.
pub(crate) fn traced_step(
    step: &StepRecord,
    mut inline: impl FnMut(&str) -> TraceScreenshot,
) -> TracedStep {
    let StepRecord {
        number,
        thought,
        actions,
        usage,
        // The trace names the run's model once; the history keeps each
        // step's.
        model: _,
        screenshot,
        ms,
        model_ms,
        failure,
        seen,
    } = step;
    let Seen {
        observation,
        console,
        network,
        left_out,
        screenshot_after,
        // Lines of their own, written before the step's (`Trace::step`).
        frames: _,
    } = seen;
    TracedStep {
        number: *number,
        thought: thought.clone(),
        actions: actions.iter().map(traced_action).collect(),
        usage: token_counts(*usage),
        screenshot: screenshot.as_deref().map(&mut inline),
        ms: *ms,
        model_ms: *model_ms,
        failure: failure.as_ref().map(traced_failure),
        observation: observation.clone(),
        console: console.clone(),
        network: network.clone(),
        left_out: *left_out,
        screenshot_after: screenshot_after.as_deref().map(&mut inline),
    }
}

fn traced_action(action: &ActionRecord) -> TracedAction {
    let ActionRecord {
        tool,
        arguments,
        target,
        other_targets,
        result,
        failed,
        // Not recorded: only the loop check reads it.
        unchanged: _,
        timing,
        pointer,
        tab,
    } = action;
    TracedAction {
        tool: tool.clone(),
        arguments: arguments.clone(),
        target: target.as_ref().map(traced_target),
        other_targets: other_targets
            .iter()
            .map(|t| t.as_ref().map(traced_target))
            .collect(),
        result: result.clone(),
        failed: *failed,
        timing: *timing,
        pointer: *pointer,
        tab: tab.clone(),
        extra: serde_json::Map::new(),
    }
}

fn traced_target(target: &Target) -> TracedTarget {
    let Target { role, name } = target;
    TracedTarget {
        role: role.clone(),
        name: name.clone(),
    }
}

fn traced_failure(failure: &StepFailure) -> TracedFailure {
    let StepFailure {
        count,
        limit,
        kind,
        why,
    } = failure;
    let kind = match kind {
        crate::FailureKind::Model => "model",
        crate::FailureKind::Actions => "actions",
        crate::FailureKind::NoTool => "no_tool",
    };
    TracedFailure {
        count: *count,
        limit: *limit,
        kind: kind.to_owned(),
        why: why.clone(),
    }
}

/// A model's token counts as a trace writes them.
pub(crate) fn token_counts(usage: Usage) -> TokenCounts {
    let Usage {
        input,
        output,
        cached,
    } = usage;
    TokenCounts {
        input,
        output,
        cached,
    }
}

impl From<&Ending> for RunEnding {
    fn from(ending: &Ending) -> RunEnding {
        match ending {
            Ending::Done { text, success } => RunEnding::Done {
                text: text.clone(),
                success: *success,
            },
            Ending::MaxSteps { .. } => RunEnding::MaxSteps,
            Ending::Failures {
                failed,
                limit,
                answer,
            } => RunEnding::Failures {
                failed: *failed,
                limit: *limit,
                answer: answer.clone(),
            },
            Ending::Timeout => RunEnding::Timeout { seconds: None },
            Ending::Loop => RunEnding::Loop,
            Ending::Challenge {
                reference,
                kind,
                why,
                ..
            } => RunEnding::Challenge {
                reference: reference.clone(),
                kind: kind.clone(),
                why: why.clone(),
            },
        }
    }
}

impl From<&Judgement> for AttemptJudgement {
    fn from(judgement: &Judgement) -> AttemptJudgement {
        let Judgement {
            verdict,
            reasoning,
            failure_reason,
            impossible_task,
            reached_captcha,
            error,
            model,
            screenshots,
            usage,
            seconds,
        } = judgement;
        AttemptJudgement {
            verdict: verdict.as_str().to_owned(),
            reasoning: reasoning.clone(),
            failure_reason: failure_reason.clone(),
            impossible_task: *impossible_task,
            reached_captcha: *reached_captcha,
            error: error.clone(),
            model: model.clone(),
            screenshots: *screenshots,
            usage: token_counts(*usage),
            seconds: *seconds,
        }
    }
}
