//! `--judge-model` for `rove run` and `rove test`: the judge's model set
//! up apart from the agent's (its own base URL and key, never
//! `--base-url`), a warning when it is the agent's own model, and the lines
//! that show its verdict beside the agent's report.

use std::sync::Arc;
use std::time::Duration;

use rove_agent::{Judge, JudgeConfig, Judgement, Verdict};
use rove_base::text::one_line;
use rove_errors::ErrorCode;
use rove_llm::{Endpoint, Llm, RetryPolicy};

use crate::cli::agent::JudgeArgs;
use crate::failure::Failure;
use crate::runs::models;

/// The judge, when one is asked for. `agents` are the models that may
/// drive the run (the main one first, then its fallback); `key` the
/// agent's --api-key, used for the judge only when it has no
/// --judge-api-key and shares the main model's provider. Warns on stderr
/// when the judge is one of the agent's own models.
pub fn judge_of(
    args: &JudgeArgs,
    agents: &[&Endpoint],
    key: Option<&str>,
) -> Result<Option<Judge>, Failure> {
    let Some(name) = &args.judge_model else {
        return Ok(None);
    };
    crate::cli::seconds::seconds(
        "--judge-timeout",
        args.judge_timeout,
        crate::cli::seconds::Range::AboveZero,
        "60",
    )?;
    // Its own key, else the agent's when they share a provider.
    let main = agents.first().map(|a| a.provider.as_str());
    let same_provider = main.is_some() && name.split_once(':').map(|(p, _)| p) == main;
    let key = match &args.judge_api_key {
        Some(own) => Some(own.expose()),
        None => key.filter(|_| same_provider),
    };
    let endpoint = models::resolve(name, key, args.judge_base_url.as_deref(), models::JUDGE)?;
    if agents
        .iter()
        .any(|a| a.provider == endpoint.provider && a.model == endpoint.model)
    {
        warn(&format!(
            "warning: the judge is the agent's own model ({}:{}); it tends to share the agent's blind spots and to agree with it. Give --judge-model another model for a verdict worth trusting.",
            endpoint.provider, endpoint.model
        ));
    }
    let llm = Llm::new(endpoint, None, RetryPolicy::default()).map_err(|e| {
        Failure::new(
            ErrorCode::CommandRejected,
            format!("--judge-model: {e}"),
            "fix --judge-model",
        )
    })?;
    Ok(Some(Judge {
        llm: Arc::new(llm),
        config: JudgeConfig {
            screenshots: args.judge_screenshots,
            timeout: Duration::from_secs_f64(args.judge_timeout),
            ..JudgeConfig::default()
        },
    }))
}

/// On stderr whatever the output mode: stdout stays the result.
#[allow(clippy::print_stderr)]
fn warn(text: &str) {
    eprintln!("{}", rove_base::redact::hide_registered(text));
}

/// `judge openai:m: fail — the cart is empty`, its flags, and a
/// `divergence` line when it disagrees with the agent's report.
pub fn verdict_lines(judgement: &Judgement, success_reported: bool) -> Vec<String> {
    let said = match (&judgement.error, judgement.verdict) {
        (Some(error), _) => error.clone(),
        (None, Verdict::Fail) if !judgement.failure_reason.is_empty() => {
            judgement.failure_reason.clone()
        }
        _ => judgement.reasoning.clone(),
    };
    // The judge's words are a model's: kept on their one line.
    let mut lines = vec![format!(
        "judge {}: {} — {}",
        one_line(&judgement.model),
        judgement.verdict.as_str(),
        one_line(&said)
    )];
    if judgement.impossible_task {
        lines.push("judge: the task is impossible as asked".into());
    }
    if judgement.reached_captcha {
        lines.push("judge: a captcha stood in the agent's way".into());
    }
    if judgement.diverges(success_reported) {
        lines.push(format!(
            "divergence: the agent reports {}, the judge says {}",
            if success_reported {
                "success"
            } else {
                "failure"
            },
            judgement.verdict.as_str()
        ));
    }
    lines
}
