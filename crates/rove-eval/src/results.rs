//! A run's results: per task and for the suite, the counts by status, the
//! pass rate with its 95 % Wilson interval, whether the threshold is met,
//! median steps, tokens, cost, time and the reasons attempts did not pass.
//! Serialized as `results.json` (schema in docs/eval.md).

use serde::Serialize;

use crate::attempt::{AttemptResult, Status};
use crate::stats::{median, wilson};
use crate::task::Task;

/// The version of results.json's schema; raised when a field changes
/// meaning or goes away (new fields do not raise it).
pub const SCHEMA: u32 = 1;

/// Counts and totals over some attempts.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Totals {
    /// Attempts made or skipped.
    pub attempts: u64,
    /// With status `passed`.
    pub passed: u64,
    /// With status `failed`.
    pub failed: u64,
    /// With status `skipped`.
    pub skipped: u64,
    /// With status `self-reported`.
    pub self_reported: u64,
    /// With status `error`.
    pub error: u64,
    /// With status `unjudged`.
    pub unjudged: u64,
    /// Judged attempts whose verdict disagrees with the agent's report.
    pub divergences: u64,
    /// Attempts the judge found impossible as asked.
    pub impossible_task: u64,
    /// Attempts whose views showed a challenge (detected, never the
    /// judge's or the model's word).
    pub reached_captcha: u64,
    /// passed / attempts; `null` when there were none.
    pub pass_rate: Option<f64>,
    /// The 95 % Wilson interval of the pass rate, `[low, high]`.
    pub interval: [f64; 2],
    /// The median of the attempts' steps (of those that ran).
    pub median_steps: Option<f64>,
    /// Tokens sent.
    pub tokens_in: u64,
    /// Tokens received.
    pub tokens_out: u64,
    /// Dollars; `null` when a price was unknown.
    pub cost: Option<f64>,
    /// The judge's tokens sent (its calls are not in `tokens_in`).
    pub judge_tokens_in: u64,
    /// The judge's tokens received.
    pub judge_tokens_out: u64,
    /// The judge's dollars; `null` when its price was unknown.
    pub judge_cost: Option<f64>,
    /// The attempts' wall time added up.
    pub seconds: f64,
}

impl Totals {
    fn of<'a>(attempts: impl Iterator<Item = &'a AttemptResult>) -> Totals {
        let mut t = Totals {
            cost: Some(0.0),
            judge_cost: Some(0.0),
            ..Totals::default()
        };
        let mut steps = Vec::new();
        for a in attempts {
            t.attempts += 1;
            match a.status {
                Status::Passed => t.passed += 1,
                Status::Failed => t.failed += 1,
                Status::Skipped => t.skipped += 1,
                Status::SelfReported => t.self_reported += 1,
                Status::Error => t.error += 1,
                Status::Unjudged => t.unjudged += 1,
            }
            t.divergences += u64::from(a.divergence);
            t.reached_captcha += u64::from(a.reached_captcha.is_some());
            if let Some(judge) = &a.judge {
                t.impossible_task += u64::from(judge.impossible_task);
                t.judge_tokens_in += judge.usage.input;
                t.judge_tokens_out += judge.usage.output;
                let used = judge.usage.input + judge.usage.output;
                t.judge_cost = add_cost(t.judge_cost, a.judge_cost, used);
            }
            if a.status != Status::Skipped {
                steps.push(a.steps as f64);
            }
            t.tokens_in += a.tokens_in;
            t.tokens_out += a.tokens_out;
            t.seconds += a.seconds;
            t.cost = add_cost(t.cost, a.cost, a.tokens_in + a.tokens_out);
        }
        t.pass_rate = (t.attempts > 0).then(|| t.passed as f64 / t.attempts as f64);
        let (low, high) = wilson(t.passed, t.attempts);
        t.interval = [low, high];
        t.median_steps = median(&steps);
        t
    }
}

/// `sum` plus one attempt's `cost` for `tokens` tokens: unknown once any
/// priced part is unknown, but an attempt that used no tokens costs
/// nothing, priced or not.
fn add_cost(sum: Option<f64>, cost: Option<f64>, tokens: u64) -> Option<f64> {
    match (sum, cost) {
        (Some(sum), Some(c)) => Some(sum + c),
        (Some(sum), None) if tokens == 0 => Some(sum),
        _ => None,
    }
}

/// One task's results.
#[derive(Debug, Clone, Serialize)]
pub struct TaskSummary {
    /// The task's name.
    pub name: String,
    /// The file it came from.
    pub file: String,
    /// Its tags.
    pub tags: Vec<String>,
    /// The pass rate it must reach.
    pub threshold: f64,
    /// Whether it did.
    pub met: bool,
    /// Its counts and totals.
    #[serde(flatten)]
    pub totals: Totals,
    /// Why attempts did not pass, each once, in the order first seen.
    pub reasons: Vec<String>,
}

/// A run's results, as results.json holds them.
#[derive(Debug, Clone, Serialize)]
pub struct SuiteResults {
    /// [`SCHEMA`].
    pub schema: u32,
    /// `provider:model`.
    pub model: String,
    /// `I/N` when the run was a shard.
    pub shard: Option<String>,
    /// Whether Ctrl-C (or a signal) cut the run short.
    pub interrupted: bool,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// The suite's pass rate must reach this.
    pub min_pass_rate: f64,
    /// Whether every task met its threshold and the suite its minimum:
    /// `rove test` exits 0 exactly when this is true.
    pub met: bool,
    /// The suite's counts and totals.
    pub suite: Totals,
    /// Per task, in name order.
    pub tasks: Vec<TaskSummary>,
    /// Every attempt, in the plan's order.
    pub attempts: Vec<AttemptResult>,
}

impl SuiteResults {
    /// What the suite line says besides its counts: `, 1 unjudged · judge:
    /// 2 diverged, 1 impossible, 240/24 tokens, $0.0012` when a judge took
    /// part, and ` · 2 met a challenge` when views showed one (detected,
    /// whoever judged); empty otherwise. The terminal's and report.html's.
    pub fn findings_summary(&self) -> String {
        let s = &self.suite;
        let mut said = String::new();
        if self.attempts.iter().any(|a| a.judge.is_some()) {
            said = format!(
                ", {} unjudged · judge: {} diverged, {} impossible, {}/{} tokens, {}",
                s.unjudged,
                s.divergences,
                s.impossible_task,
                s.judge_tokens_in,
                s.judge_tokens_out,
                s.judge_cost
                    .map(|c| format!("${c:.4}"))
                    .unwrap_or_else(|| "cost unknown".into()),
            );
        }
        if s.reached_captcha > 0 {
            said.push_str(&format!(" · {} met a challenge", s.reached_captcha));
        }
        said
    }
}

/// Summarizes `attempts` of `tasks`. Only tasks with an attempt in this
/// run (after tags and the shard) are listed. An interrupted run never
/// meets its bar: what did not run was not shown to work.
pub fn summarize(
    tasks: &[Task],
    attempts: Vec<AttemptResult>,
    min_pass_rate: f64,
    interrupted: bool,
) -> SuiteResults {
    let mut names: Vec<&str> = attempts.iter().map(|a| a.task.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let summaries: Vec<TaskSummary> = names
        .into_iter()
        .filter_map(|name| {
            let task = tasks.iter().find(|t| t.spec.name == name)?;
            let mine = || attempts.iter().filter(move |a| a.task == name);
            let totals = Totals::of(mine());
            let threshold = task.threshold();
            let met = totals
                .pass_rate
                .is_some_and(|rate| rate + 1e-9 >= threshold);
            let mut reasons: Vec<String> = Vec::new();
            for reason in mine().filter_map(|a| a.reason.clone()) {
                if !reasons.contains(&reason) {
                    reasons.push(reason);
                }
            }
            Some(TaskSummary {
                name: name.to_owned(),
                file: task.file.display().to_string(),
                tags: task.spec.tags.clone(),
                threshold,
                met,
                totals,
                reasons,
            })
        })
        .collect();
    let suite = Totals::of(attempts.iter());
    let met = !interrupted
        && summaries.iter().all(|t| t.met)
        && suite
            .pass_rate
            .is_none_or(|rate| rate + 1e-9 >= min_pass_rate);
    SuiteResults {
        schema: SCHEMA,
        model: String::new(),
        shard: None,
        interrupted,
        seconds: 0.0,
        min_pass_rate,
        met,
        suite,
        tasks: summaries,
        attempts,
    }
}
