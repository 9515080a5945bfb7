//! The runner: making a plan's attempts, `jobs` at a time, each in a
//! browser context of its own in a shared browser (the least busy of a
//! pool), in a browser of its own, or in a farm's browser of its own (see
//! `farm.rs`).
//!
//! The attempts run as futures on the caller's task, not on threads: the
//! agent's futures are not `Send`, and an attempt spends nearly all its time
//! waiting on the browser or the model, so one thread keeps many busy.
//! Interruption is cooperative: each attempt hears of it, stops its agent,
//! closes its context and reports `error: interrupted`; attempts not yet
//! started are reported `skipped`. The caller always gets every result.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use rove_agent::{AgentConfig, RunResult, StepRecord};
use std::cell::Cell;

use rove_base::limits::{ATTEMPT_CONTEXT, ATTEMPT_LAUNCH};
use rove_browser::{Browser, DomainPolicy, LaunchOptions};
use rove_commands::trace_format::{RunEnding, RunFailure};
use rove_commands::{Command, Numbering, OpenArgs, Secret, Secrets, Session, SessionConfig};
use rove_errors::{Classify, ErrorCode};
use rove_llm::Llm;
use tokio::sync::watch;

use crate::attempt::{AttemptResult, Status, redacted_as};
use crate::farm::Farm;
use crate::options::RunOptions;
use crate::plan::Plan;
use crate::task::Task;
use crate::traces::{self, Traces};

/// Attempts that may be starting (a context, its first tab, the start URL)
/// at once. Starting is the expensive part for the browser (a renderer
/// process each); 64 at once on a small machine starve each other until
/// their tabs miss the watchdog's probe. Later attempts start as earlier
/// ones reach their first step, so `-j` still bounds the attempts running.
const STARTING_AT_ONCE: usize = 4;

/// Where attempts get their browser.
#[derive(Debug, Clone, Copy)]
pub enum Browsers<'a> {
    /// Browsers shared by every attempt (the one rove launched, or a pool
    /// someone else runs): each attempt gets a context of its own in the
    /// one with the fewest attempts running.
    Shared(&'a [Browser]),
    /// Each attempt launches a browser of its own, closed when it ends
    /// (`--isolate browser`).
    Isolated(&'a LaunchOptions),
    /// Each attempt connects to a farm, which gives the connection a
    /// browser of its own, and closes it when it ends (`--isolate browser`
    /// with `--cdp-url`).
    Farm(&'a Farm),
}

/// Runs `plan`'s attempts, `options.jobs` at a time, until all are done or
/// `cancel` resolves; `on_done` hears of each attempt as it ends (and may
/// add to its result, as the page of its trace). Returns
/// every attempt's result in the plan's order, and whether it was
/// interrupted.
pub async fn run_suite(
    browsers: Browsers<'_>,
    llm: &Llm,
    tasks: &[Task],
    plan: &Plan,
    options: &RunOptions,
    cancel: impl std::future::Future<Output = ()>,
    mut on_done: impl FnMut(&mut AttemptResult),
) -> (Vec<AttemptResult>, bool) {
    // Before the futures that borrow it, so it outlives them.
    let gate = tokio::sync::Semaphore::new(STARTING_AT_ONCE);
    let gate = &gate;
    let busy: Vec<Cell<usize>> = match browsers {
        Browsers::Shared(pool) => pool.iter().map(|_| Cell::new(0)).collect(),
        Browsers::Isolated(_) | Browsers::Farm(_) => Vec::new(),
    };
    let refused = || matches!(browsers, Browsers::Farm(farm) if farm.refused());
    let busy = &busy;
    let (stop, stopped) = watch::channel(false);
    let mut results: Vec<Option<AttemptResult>> = vec![None; plan.len()];
    let mut attempts = plan.iter().enumerate();
    let mut running = FuturesUnordered::new();
    let mut interrupted = false;
    let jobs = options.jobs.max(1);
    tokio::pin!(cancel);
    loop {
        // After a refused credential no attempt starts: each would be
        // refused the same way.
        while !interrupted && !refused() && running.len() < jobs {
            let Some((slot, (task, number))) = attempts.next() else {
                break;
            };
            let stopped = stopped.clone();
            running.push(async move {
                let result = attempt(
                    (browsers, busy),
                    llm,
                    &tasks[task],
                    number,
                    options,
                    gate,
                    stopped,
                )
                .await;
                (slot, result)
            });
        }
        if running.is_empty() {
            break;
        }
        tokio::select! {
            Some((slot, mut result)) = running.next() => {
                on_done(&mut result);
                results[slot] = Some(result);
            }
            () = &mut cancel, if !interrupted => {
                interrupted = true;
                let _ = stop.send(true);
            }
        }
    }
    let results = results
        .into_iter()
        .zip(plan.iter())
        .map(|(result, (task, number))| {
            result.unwrap_or_else(|| {
                let why = if interrupted {
                    "interrupted before it started"
                } else {
                    "not run: the farm refused the credentials"
                };
                AttemptResult::not_run(&tasks[task].spec.name, number, Status::Skipped, why.into())
            })
        })
        .collect();
    (results, interrupted)
}

/// The results of a plan none of whose attempts can run (every task is
/// skipped), without starting a browser.
pub fn run_suite_without_browser(tasks: &[Task], plan: &Plan) -> (Vec<AttemptResult>, bool) {
    let results = plan
        .iter()
        .map(|(task, number)| {
            let task = &tasks[task];
            let reason = task
                .skip
                .clone()
                .unwrap_or_else(|| "not run: no browser was started".into());
            AttemptResult::not_run(&task.spec.name, number, Status::Skipped, reason)
        })
        .collect();
    (results, false)
}

/// How an agent's run came out.
enum Ran {
    Ended(Box<RunResult>),
    Failed(String, ErrorCode),
    TimedOut(f64),
    Interrupted,
}

impl Ran {
    /// How the attempt's trace says it ended.
    fn as_trace_ending(&self) -> RunEnding {
        match self {
            Ran::Ended(run) => RunEnding::from(&run.ending),
            Ran::Failed(reason, _) => RunEnding::Error {
                error: RunFailure::Text(reason.clone()),
            },
            Ran::TimedOut(seconds) => RunEnding::Timeout {
                seconds: Some(*seconds),
            },
            Ran::Interrupted => RunEnding::Interrupted { signal: None },
        }
    }
}

/// One attempt: a fresh context, the start URL, the agent under the task's
/// deadline, the checks, the context closed, the history written.
async fn attempt(
    (browsers, busy): (Browsers<'_>, &[Cell<usize>]),
    llm: &Llm,
    task: &Task,
    number: u32,
    options: &RunOptions,
    gate: &tokio::sync::Semaphore,
    mut stopped: watch::Receiver<bool>,
) -> AttemptResult {
    let name = &task.spec.name;
    if let Some(reason) = &task.skip {
        return AttemptResult::not_run(name, number, Status::Skipped, reason.clone());
    }
    if *stopped.borrow() {
        return AttemptResult::not_run(
            name,
            number,
            Status::Skipped,
            "interrupted before it started".into(),
        );
    }
    // A farm's browser is had before the gate: the wait for it is the
    // farm's, and holds up nobody else's start.
    let began = Instant::now();
    let farmed = match browsers {
        Browsers::Farm(farm) => match farm.browser_for(name, number, &mut stopped).await {
            Ok(held) => Some(held),
            Err(result) => return result,
        },
        _ => None,
    };
    // Held until the start URL has loaded (see STARTING_AT_ONCE).
    let permit = tokio::select! {
        permit = gate.acquire() => permit.ok(),
        _ = stopped.wait_for(|stop| *stop) => {
            return AttemptResult::not_run(name, number, Status::Skipped, "interrupted before it started".into());
        }
    };
    let started = if farmed.is_some() {
        began
    } else {
        Instant::now()
    };
    let config = match session_config(task, &options.session) {
        Ok(config) => config,
        Err(reason) => {
            return AttemptResult::error(name, number, ErrorCode::CommandRejected, reason);
        }
    };
    // The browser: the least busy shared one, or one of its own.
    let (browser, index, own, slot) = match (browsers, farmed) {
        (_, Some((browser, slot))) => {
            let index = Some(Farm::index_of(&slot));
            (browser, index, true, Some(slot))
        }
        (Browsers::Farm(_), None) => {
            return AttemptResult::error(name, number, ErrorCode::NoBrowser, "no browser".into());
        }
        (Browsers::Shared(pool), None) => {
            // A browser of the pool its owner ended takes no more attempts.
            let Some((index, browser)) = pool
                .iter()
                .enumerate()
                .filter(|(_, browser)| browser.lost().is_none())
                .min_by_key(|(i, _)| busy.get(*i).map_or(0, Cell::get))
            else {
                let why = pool.iter().find_map(Browser::lost).map_or_else(
                    || "no browser".to_owned(),
                    |lost| format!("every browser of the pool is gone: {lost}"),
                );
                return AttemptResult::error(name, number, ErrorCode::BrowserDisconnected, why);
            };
            (browser.clone(), Some(index), false, None)
        }
        (Browsers::Isolated(launch), None) => {
            match tokio::time::timeout(ATTEMPT_LAUNCH, Browser::launch(launch.clone())).await {
                Ok(Ok(browser)) => (browser, None, true, None),
                Ok(Err(e)) => {
                    return AttemptResult::error(
                        name,
                        number,
                        e.code(),
                        format!("no browser: {e}"),
                    );
                }
                Err(_) => {
                    return AttemptResult::error(
                        name,
                        number,
                        ErrorCode::Timeout,
                        format!("no browser within {ATTEMPT_LAUNCH:?}"),
                    );
                }
            }
        }
    };
    let held = index.and_then(|i| busy.get(i));
    if let Some(count) = held {
        count.set(count.get() + 1);
    }
    let mut result = attempt_on(
        &browser, llm, task, number, options, permit, stopped, started, config,
    )
    .await;
    if let Some(count) = held {
        count.set(count.get().saturating_sub(1));
    }
    result.browser_index = index;
    result.browser_pid = browser.pid();
    if own
        && tokio::time::timeout(ATTEMPT_CONTEXT, browser.close())
            .await
            .is_err()
    {
        tracing::warn!(task = %name, number, "closing the attempt's own browser timed out");
    }
    // The farm's slot is given back only now its connection is closed.
    drop(slot);
    result
}

/// The attempt on `browser`, once it has one.
#[allow(clippy::too_many_arguments)]
async fn attempt_on(
    browser: &Browser,
    llm: &Llm,
    task: &Task,
    number: u32,
    options: &RunOptions,
    permit: Option<tokio::sync::SemaphorePermit<'_>>,
    mut stopped: watch::Receiver<bool>,
    started: Instant,
    config: SessionConfig,
) -> AttemptResult {
    let name = &task.spec.name;
    let mut session =
        match tokio::time::timeout(ATTEMPT_CONTEXT, Session::start(browser, config)).await {
            Ok(Ok(session)) => session,
            Ok(Err(e)) => {
                return AttemptResult::error(
                    name,
                    number,
                    e.code(),
                    format!("no browser context: {e}"),
                );
            }
            Err(_) => {
                return AttemptResult::error(
                    name,
                    number,
                    ErrorCode::Timeout,
                    format!("no browser context within {ATTEMPT_CONTEXT:?}"),
                );
            }
        };
    let history = options.out.as_ref().map(|dir| {
        dir.join("attempts")
            .join(format!("{}-{number}.json", slug(name)))
    });
    // Written a step at a time, so that however the attempt ends its
    // steps are there.
    let trace = match (&options.out, options.traces) {
        (Some(dir), which @ (Traces::Failed | Traces::All)) => traces::start(
            (&traces::path_of(dir, &slug(name), number), which),
            task,
            number,
            (llm, &session.config().secrets),
            options.trace_budget,
        ),
        _ => None,
    };
    // The screencast, from the start URL on, goes before each step.
    let trace = trace.map(|t| t.with_screencast(options.screencast, &session));
    let agent = AgentConfig {
        max_steps: task.max_steps(),
        screenshot_dir: history.as_ref().map(|h| h.with_extension("screens")),
        keep_screenshots: options.judge.as_ref().map_or(0, |j| j.config.screenshots),
        trace: trace.is_some(),
        trace_screenshots: trace.is_some() && options.agent.trace_screenshots,
        ..options.agent.clone()
    };
    let mut steps: Vec<StepRecord> = Vec::new();
    let ran = {
        let work = async {
            if let Some(url) = &task.spec.start_url {
                let open = Command::Open(OpenArgs {
                    url: url.clone(),
                    new_tab: false,
                });
                if let Err(e) = session.execute(&open).await {
                    return Ran::Failed(format!("start_url: {e}"), e.code());
                }
            }
            drop(permit);
            match rove_agent::run(&task.spec.task, &mut session, llm, &agent, |step| {
                if let Some(attempt) = &trace {
                    attempt.step(step);
                }
                steps.push(step.clone());
            })
            .await
            {
                Ok(run) => Ran::Ended(Box::new(run)),
                Err(rove_agent::AgentError::Llm(e)) => {
                    Ran::Failed(format!("the model failed: {e}"), ErrorCode::ModelFailed)
                }
                Err(rove_agent::AgentError::Browser(e)) => Ran::Failed(e.to_string(), e.code()),
            }
        };
        let limit = task.spec.timeout_s;
        let bounded = async {
            match limit {
                Some(seconds) => tokio::time::timeout(Duration::from_secs_f64(seconds), work)
                    .await
                    .unwrap_or(Ran::TimedOut(seconds)),
                None => work.await,
            }
        };
        // A browser gone for good ends the attempt at once, even while its
        // model is still answering: nothing it says could act any more.
        let ran = tokio::select! {
            ran = bounded => ran,
            _ = stopped.wait_for(|stop| *stop) => Ran::Interrupted,
            reason = browser.gone() => {
                let lost = rove_browser::BrowserError::lost(reason);
                Ran::Failed(lost.to_string(), lost.code())
            }
        };
        // However the run ended (a NO_TAB, a load that never finished, the
        // task's time), a browser gone for good is why: its farm or its
        // owner ended it, which is no verdict on the task.
        match (ran, session.browser_lost()) {
            (Ran::Interrupted, _) => Ran::Interrupted,
            (_, Some(lost)) => Ran::Failed(lost.to_string(), lost.code()),
            (ran, None) => ran,
        }
    };
    // Each model's tokens at its own price (the fallback's once it took
    // over); a run that ended counts its last answer too.
    let spend = match &ran {
        Ran::Ended(run) => run.spend.clone(),
        _ => rove_agent::spend_of(&steps),
    };
    let usage = spend.total();
    let mut result = AttemptResult::not_run(name, number, Status::Error, String::new());
    result.steps = steps.len();
    result.tokens_in = usage.input;
    result.tokens_out = usage.output;
    result.cost = options.prices.cost_of(&spend);
    match &ran {
        Ran::Ended(run) => {
            crate::grade::grade(&mut result, run, task, &mut session, options, &mut stopped).await;
        }
        Ran::Failed(reason, code) => {
            result.reason = Some(reason.clone());
            result.error_code = Some(*code);
        }
        Ran::TimedOut(seconds) => {
            result.status = Status::Failed;
            result.ending = Some("timeout".into());
            result.reason = Some(format!("timeout: the attempt ran past its {seconds} s"));
        }
        Ran::Interrupted => result.reason = Some("interrupted while running".into()),
    }
    // What the page echoed (into its URL, an exception, a rejected
    // promise) is in the checks' details and the reasons: redacted here,
    // once, before anything shows or writes the result.
    let secrets = session.config().secrets.clone();
    let mut result = result.redacted(&secrets);
    if tokio::time::timeout(ATTEMPT_CONTEXT, session.close())
        .await
        .is_err()
    {
        tracing::warn!(task = %name, number, "closing the attempt's context timed out");
    }
    result.seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &history {
        write_history(path, task, &result, &steps, &secrets);
        result.history = Some(path.display().to_string());
    }
    if let Some(trace) = trace {
        let ending = redacted_as(&secrets, &ran.as_trace_ending()).unwrap_or(RunEnding::Error {
            error: RunFailure::Text("left out: it could not be redacted".into()),
        });
        traces::finish(trace, options.traces, &ending, &steps, &mut result);
    }
    result
}

/// The attempt's session: the suite's, with the task's hosts and secrets,
/// and tab ids and refs counted from 1.
fn session_config(task: &Task, base: &SessionConfig) -> Result<SessionConfig, String> {
    let policy = if task.spec.allowed_domains.is_empty() {
        base.policy.clone()
    } else {
        DomainPolicy::from_lists(Some(&task.spec.allowed_domains), base.policy.blocked())
            .map_err(|e| format!("allowed_domains: {e}"))?
    };
    let mut secrets = Vec::new();
    for (placeholder, source) in &task.spec.secrets {
        let (env, domain) = source.parts();
        // Read now, never kept beyond the attempt's session.
        let value =
            std::env::var(env).map_err(|_| format!("unset secret {placeholder} (from {env})"))?;
        secrets.push(Secret {
            name: placeholder.clone(),
            value,
            domain: domain.map(str::to_owned),
        });
    }
    Ok(SessionConfig {
        policy,
        secrets: Secrets(secrets),
        numbering: Numbering::default(),
        // Its own: the screencast collected for its trace is of its tabs
        // alone (tab ids start again at t1 in every attempt).
        traces: rove_commands::Traces::default(),
        ..base.clone()
    })
}

/// A task name as a file name: letters, digits, `-` and `_`; a name that
/// needed changing gets a hash of itself appended, so `a b` and `a_b`
/// (both unique task names) never share a history file.
fn slug(name: &str) -> String {
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    if slug == name {
        return slug;
    }
    // FNV-1a: stable across runs and builds, unlike the std hasher.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{slug}-{:08x}", hash as u32)
}

/// The attempt's history: its steps as `rove run --history` records them,
/// plus its status and checks. A failure to write is logged, never fatal:
/// the result still counts.
fn write_history(
    path: &std::path::Path,
    task: &Task,
    result: &AttemptResult,
    steps: &[StepRecord],
    secrets: &Secrets,
) {
    let mut history = serde_json::json!({
        "task": task.spec.task,
        "name": task.spec.name,
        "attempt": result.attempt,
        "start_url": task.spec.start_url,
        "status": result.status,
        "reason": result.reason,
        "ending": result.ending,
        "answer": result.answer,
        "checks": result.checks,
        "judge": result.judge,
        "divergence": result.divergence,
        "steps": steps,
        "usage": {"input": result.tokens_in, "output": result.tokens_out},
        "cost": result.cost,
        "seconds": result.seconds,
    });
    // The steps were redacted as they were recorded; this covers the
    // rest, and anything a later field adds.
    crate::attempt::hidden_json(secrets, &mut history);
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| {
            // Under the person's --out: something planted there (a FIFO)
            // is refused, never waited on.
            rove_base::user_file::write(
                path,
                &serde_json::to_vec_pretty(&history).unwrap_or_default(),
                // Its owner's, as the attempt's trace is.
                rove_base::user_file::Access::Private,
            )
            .map_err(rove_base::user_file::UserFileError::into_io)
        });
    if let Err(e) = written {
        tracing::warn!(path = %path.display(), error = %e, "could not write an attempt's history");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_names_of_different_tasks_differ() {
        // Names that change into the same file name before the hash: a
        // slug without it would give each group one history file.
        let long = "x".repeat(200);
        let names = [
            "login-1".to_owned(),
            "a b".to_owned(),
            "a_b".to_owned(),
            "a/b".to_owned(),
            "a.b".to_owned(),
            "a?b".to_owned(),
            "a\\b".to_owned(),
            "a\tb".to_owned(),
            "ä".to_owned(),
            "ö".to_owned(),
            "_".to_owned(),
            "__".to_owned(),
            "../../etc".to_owned(),
            "..-..-etc".to_owned(),
            "__-__-etc".to_owned(),
            format!("{long}1"),
            format!("{long}2"),
            long.clone(),
            "x".repeat(80),
            "x".repeat(81),
        ];
        let slugs: std::collections::HashSet<String> = names.iter().map(|n| slug(n)).collect();
        assert_eq!(slugs.len(), names.len(), "{slugs:?}");
        for name in &names {
            let file = slug(name);
            assert!(
                file.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
                "{name:?} gave {file:?}"
            );
            assert!(file.len() < 100, "{name:?} gave {file:?}");
        }
        // A name that is a file name already is kept as it is.
        assert_eq!(slug("login-1"), "login-1");
        assert!(slug("a b").starts_with("a_b-"));
        // The same name gives the same file in every run and build (the
        // history of a task is found again): FNV-1a, not a seeded hasher.
        assert_eq!(slug("ä/../x"), "_____x-1b6a34e8");
    }
}
