//! `rove run "task" --model provider:model`: the agent on a fresh session of
//! its own, a line per step while it runs (and `failure k/N` on stderr for a
//! failed one), the answer and totals at the end; with `--judge-model`,
//! the judge's verdict after them (and a divergence when it disagrees with
//! the agent); the history written however the run ends (a signal
//! included), with the verdict beside the agent's own report; exit status
//! 0 only when the model reports success.

use std::time::{Duration, Instant};

use rove_agent::{AgentConfig, Ending, Judge, Judgement, RunResult, StepRecord};
use rove_base::text::{ellipsized, one_line};
use rove_commands::trace_format::{RunEnding, RunFailure};
use rove_commands::{Command, OpenArgs, Session, SessionConfig};
use rove_errors::ErrorCode;
use rove_llm::{Endpoint, Llm, PriceTable, RetryPolicy};
use serde_json::json;

use crate::cli::seconds::{Range, seconds};
use crate::cli::{GlobalArgs, RunArgs};
use crate::failure::Failure;
use crate::output::Output;
use crate::runs::models;
use crate::runs::run_files::{write_gif_and_trace, write_history, write_unfinished};

/// Exit status of a run that ended without a reported success.
const TASK_NOT_DONE: u8 = 1;

pub async fn run(
    global: &GlobalArgs,
    args: &RunArgs,
    out: Output,
    mut signals: crate::signals::Signals,
) -> u8 {
    // The steering program reads JSON lines only.
    let out = Output {
        json: out.json || args.steer,
    };
    match run_task(global, args, out, &mut signals).await {
        Ok(status) => status,
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

/// How the part of a run that can be interrupted ended.
enum Ended {
    Ran(Box<Result<(RunResult, Option<Judgement>), Failure>>),
    Signal(u8),
}

async fn run_task(
    global: &GlobalArgs,
    args: &RunArgs,
    out: Output,
    signals: &mut crate::signals::Signals,
) -> Result<u8, Failure> {
    let (primary, fallback) = agent_models(args)?;
    let waits = Waits {
        step: seconds("--step-timeout", args.step_timeout, Range::AboveZero, "90")?,
        captcha: seconds("--captcha-wait", args.captcha_wait, Range::FromZero, "120")?,
    };
    // Set up (and warned about) before the run: a bad judge fails early.
    let agents: Vec<&Endpoint> = std::iter::once(&primary).chain(&fallback).collect();
    let judge = crate::runs::judging::judge_of(
        &args.judge,
        &agents,
        args.api_key.as_ref().map(|k| k.expose()),
    )?;
    let llm = Llm::new(primary.clone(), fallback, RetryPolicy::default())
        .map_err(|e| models::setup_failure(&e))?;
    let prices = match &args.prices {
        Some(path) => PriceTable::with_file(path).map_err(|e| models::setup_failure(&e))?,
        None => PriceTable::builtin(),
    };
    let secrets = crate::runs::inputs::parse_secrets(&args.secrets, args.secrets_file.as_deref())?;
    // Read before the browser starts: a wrong path costs nothing.
    let system_prompt = read_system_prompt(args)?;
    let (after_shots, budget) = args.trace_screenshots.resolve().map_err(|message| {
        Failure::new(
            ErrorCode::CommandRejected,
            message,
            "give MiB, like --trace-screenshots=5",
        )
    })?;
    crate::runs::inputs::check_outputs(args)?;
    if global.profile.is_some() && global.storage_state.is_some() {
        // Both say what the session starts with; the person should know
        // which wins.
        out.note(
            "warning: --storage-state and --profile both given: the state file's cookies and storage are laid over the profile's, and what the run changes stays in the profile",
        );
    }
    let started = Instant::now();
    // Every step as it ends, so that the history has them however the run
    // ends (an error, a signal).
    let mut seen: Vec<StepRecord> = Vec::new();
    let ended = tokio::select! {
        ran = drive(global, args, out, (&llm, judge.as_ref()), (&primary, after_shots, waits), (secrets, system_prompt), &mut seen) => Ended::Ran(Box::new(ran)),
        signal = signals.next() => Ended::Signal(signal),
    };
    let seconds = started.elapsed().as_secs_f64();
    let endpoint = llm.current();
    let (ran, judged) = match ended {
        Ended::Ran(ran) => match *ran {
            Ok(ran) => ran,
            Err(failure) => {
                let ending = RunEnding::Error {
                    error: RunFailure::Report(failure.report.clone()),
                };
                let files = (&llm, &prices, (seconds, budget));
                write_unfinished(args, files, &seen, &ending, out);
                return Err(failure);
            }
        },
        Ended::Signal(signal) => {
            // The run's future, with its browser, is gone; this ends the
            // process too.
            rove_browser::end_all_launched();
            let ending = RunEnding::Interrupted {
                signal: Some(signal),
            };
            out.note(&format!("stopped: interrupted (signal {signal})"));
            let files = (&llm, &prices, (seconds, budget));
            write_unfinished(args, files, &seen, &ending, out);
            out.success(json!({"success": false, "ending": ending, "steps": seen.len(), "seconds": seconds}));
            return Ok(128 + signal);
        }
    };
    // Each model's tokens at its own price: a run that switched to its
    // fallback is not priced wholly at either.
    let cost = prices.cost_of(&ran.spend);
    let cost_text = cost
        .map(|c| format!("${c:.4}"))
        .unwrap_or_else(|| "cost unknown".into());
    let (answer, success) = answer_of(&ran.ending);
    let why = why_it_ended(&ran.ending, args.max_steps);
    // The answer is the model's: on its one line, so it cannot pass for
    // the result line below.
    out.line(&format!(
        "{why}\n{}\n{} steps, {} tokens in ({} cached), {} out, {cost_text}, {seconds:.1} s",
        one_line(&answer),
        ran.steps.len(),
        ran.usage.input,
        ran.usage.cached,
        ran.usage.output
    ));
    // The judge's word comes after the agent's, and never replaces it.
    let divergence = judged.as_ref().map(|j| j.diverges(success));
    // The judge's tokens are priced apart: `cost` stays the agent's.
    let judge_cost = judged.as_ref().and_then(|j| {
        let (provider, model) = j.model.split_once(':')?;
        prices.cost(provider, model, &j.usage)
    });
    if let Some(judgement) = &judged {
        for line in crate::runs::judging::verdict_lines(judgement, success) {
            out.note(&line);
        }
    }
    // The last line, set apart from the steps and any log lines around it.
    out.line(&result_line(success, &why, ran.steps.len(), seconds));
    let ending = serde_json::to_value(&ran.ending).unwrap_or_default();
    let mut outcome = json!({"ending": ending});
    if let Some(judgement) = &judged {
        outcome["judge"] = json!(judgement);
        outcome["judge_cost"] = json!(judge_cost);
        outcome["divergence"] = json!(divergence);
    }
    // Each challenge the views showed, who solved it and how long it took;
    // the step that first met one is the run's `reached_captcha`.
    if !ran.challenges.is_empty() {
        outcome["challenges"] = json!(ran.challenges);
        outcome["reached_captcha"] = json!(ran.challenges.first().map(|c| c.step));
    }
    let traced = RunEnding::from(&ran.ending);
    write_gif_and_trace(args, &llm, &ran, &traced, (seconds, budget), out);
    if !write_history(
        args,
        &llm,
        &prices,
        (&ran.steps, &ran.spend),
        &outcome,
        seconds,
        out,
    ) {
        return Err(Failure::new(
            ErrorCode::Internal,
            "the history could not be written (see above)",
            "check the --history path",
        ));
    }
    let mut summary = json!({
        "success": success,
        "answer": answer,
        "ending": ran.ending,
        "steps": ran.steps.len(),
        "usage": ran.usage,
        "cost": cost,
        "seconds": seconds,
    });
    if judged.is_some() {
        summary["judge"] = json!(judged);
        summary["judge_cost"] = json!(judge_cost);
        summary["divergence"] = json!(divergence);
    }
    if !ran.challenges.is_empty() {
        summary["challenges"] = json!(ran.challenges);
        summary["reached_captcha"] = json!(ran.challenges.first().map(|c| c.step));
    }
    // Failures that were all the model's: reported as its failure (exit 7),
    // typed, with what to do.
    if let Some(e) = &ran.model_error {
        let failure = model_failure(e, endpoint, args);
        out.failure(&failure, Some(summary));
        return Ok(failure.exit_status());
    }
    out.success(summary);
    Ok(if success { 0 } else { TASK_NOT_DONE })
}

/// The agent's model and its fallback, each with its own key and base
/// URL: --api-key and --base-url are the main model's alone.
/// The run's waits given in seconds on the command line, checked.
#[derive(Debug, Clone, Copy)]
struct Waits {
    /// `--step-timeout`.
    step: Duration,
    /// `--captcha-wait`.
    captcha: Duration,
}

fn agent_models(args: &RunArgs) -> Result<(Endpoint, Option<Endpoint>), Failure> {
    let key = |flag: &Option<crate::cli::redacted::Redacted>| {
        flag.as_ref().map(|k| k.expose().to_owned())
    };
    let primary = models::resolve(
        &args.model,
        key(&args.api_key).as_deref(),
        args.base_url.as_deref(),
        models::MAIN,
    )?;
    let fallback = match &args.fallback_model {
        Some(name) => Some(models::resolve(
            name,
            key(&args.fallback_api_key).as_deref(),
            args.fallback_base_url.as_deref(),
            models::FALLBACK,
        )?),
        None => None,
    };
    Ok((primary, fallback))
}

/// The model's answer and whether it reports success, by how the run
/// ended (an answer given before a stop counts, as no success).
fn answer_of(ending: &Ending) -> (String, bool) {
    match ending {
        Ending::Done { text, success } => (text.clone(), *success),
        Ending::Failures {
            answer: Some(text), ..
        }
        | Ending::MaxSteps { answer: Some(text) } => (text.clone(), false),
        _ => (String::new(), false),
    }
}

/// Why the run ended, in the words of its result lines.
fn why_it_ended(ending: &Ending, max_steps: u32) -> String {
    match ending {
        Ending::Done { success: true, .. } => "done: success".to_owned(),
        Ending::Done { success: false, .. } => "done: the model reports failure".to_owned(),
        Ending::MaxSteps { .. } => {
            format!("stopped: the step limit ({max_steps}) was reached")
        }
        Ending::Failures { failed, limit, .. } => {
            format!("stopped: {failed}/{limit} steps failed in a row")
        }
        Ending::Timeout => "stopped: a step ran past its deadline".to_owned(),
        Ending::Loop => "stopped: the model repeated an action that changed nothing".to_owned(),
        Ending::Challenge {
            kind, step, why, ..
        } => format!("stopped: a {kind} challenge blocked the page before step {step}: {why}"),
    }
}

/// `--system-prompt-file`'s text, if given.
fn read_system_prompt(args: &RunArgs) -> Result<Option<String>, Failure> {
    let Some(path) = &args.system_prompt_file else {
        return Ok(None);
    };
    rove_base::user_file::read_text(path, rove_base::limits::SYSTEM_PROMPT_FILE_BYTES)
        .map(Some)
        .map_err(|e| {
            Failure::new(
                ErrorCode::CommandRejected,
                format!("reading {e}"),
                "give a readable text file for --system-prompt-file",
            )
        })
}

/// `== result: success in 4 steps, 12.3 s ==`, or what ended it instead.
fn result_line(success: bool, why: &str, steps: usize, seconds: f64) -> String {
    let verdict = if success {
        "success".to_owned()
    } else {
        format!("no success ({why})")
    };
    let plural = if steps == 1 { "" } else { "s" };
    format!("== result: {verdict} in {steps} step{plural}, {seconds:.1} s ==")
}

/// The part of a run a signal may cut short: the browser, the session, the
/// agent, and the judge on the final page. Each step goes into `seen` as
/// it ends, and is shown.
async fn drive(
    global: &GlobalArgs,
    args: &RunArgs,
    out: Output,
    (llm, judge): (&Llm, Option<&Judge>),
    (primary, after_shots, waits): (&Endpoint, bool, Waits),
    (secrets, system_prompt): (rove_agent::Secrets, Option<String>),
    seen: &mut Vec<StepRecord>,
) -> Result<(RunResult, Option<Judgement>), Failure> {
    let transport = global.transport();
    // Until step 1 is done nothing else is printed: say what is awaited.
    out.note(match &global.cdp_url {
        Some(_) => "connecting to the browser…",
        None => "starting the browser…",
    });
    let browser = crate::acquire::acquire(global, &transport).await?;
    let result = async {
        let session_config = SessionConfig {
            secrets,
            caps: args.caps.caps.unwrap_or_default(),
            ..global.session_config()?
        };
        let mut session = Session::start(&browser, session_config)
            .await
            .map_err(|e| Failure::from_command(&e))?;
        // The page's screencast from the start URL on, for the trace.
        let mut frames = crate::runs::run_files::StepFrames::new(args, &session);
        if let Some(url) = &args.start_url {
            // The task's address may carry a token: the terminal sees it
            // without.
            out.note(&format!("opening {}…", rove_base::redact::scrub(url)));
            session
                .execute(&Command::Open(OpenArgs {
                    url: url.clone(),
                    new_tab: false,
                }))
                .await
                .map_err(|e| Failure::from_command(&e))?;
        }
        let config = AgentConfig {
            max_steps: args.max_steps,
            max_failures: args.max_failures,
            max_actions_per_step: usize::try_from(args.max_actions_per_step).unwrap_or(usize::MAX),
            step_timeout: waits.step,
            // Beside the history: `run.json` keeps its screenshots in
            // `run.screens/`.
            // (or, for a trace alone, beside the trace until it inlines
            // them).
            screenshot_dir: args
                .history
                .as_ref()
                .or(args.trace.as_ref())
                .or(args.gif.as_ref())
                .map(|h| h.with_extension("screens")),
            vision: match args.vision.as_str() {
                "on" => rove_agent::Vision::On,
                "off" => rove_agent::Vision::Off,
                _ => rove_agent::Vision::Auto,
            },
            keep_screenshots: judge.map_or(0, |j| j.config.screenshots),
            // A GIF shows the page after each step: it takes the traced
            // step's screenshot after the actions.
            trace: args.trace.is_some() || args.gif.is_some(),
            trace_screenshots: (args.trace.is_some() && after_shots) || args.gif.is_some(),
            system_prompt,
            extend_system_prompt: args.extend_system_prompt.clone(),
            headed: global.headed,
            captcha_wait: waits.captcha,
            tell_person: Some(rove_agent::TellPerson(std::sync::Arc::new(|line| {
                crate::output::Output::ask(line)
            }))),
            ..AgentConfig::default()
        };
        out.note(&format!(
            "step 1: asking {}:{} at {}…",
            primary.provider,
            primary.model,
            models::address(&primary.base_url)
        ));
        let on_step = |step: &StepRecord| {
            out.line(&step_line(step));
            if let Some(failure) = &step.failure {
                // Its reason may quote a model's or a page's text.
                out.note(&one_line(&failure.to_string()));
            }
            seen.push(frames.with_step(step));
        };
        let ran = if args.steer {
            crate::runs::steer::run(&args.task, &mut session, llm, &config, out, on_step).await
        } else {
            rove_agent::run(&args.task, &mut session, llm, &config, on_step).await
        };
        let ran = ran.map(|run| frames.into_run(run)).map_err(|e| match e {
            rove_agent::AgentError::Llm(e) => model_failure(&e, llm.current(), args),
            rove_agent::AgentError::Browser(e) => Failure::from_command(&e),
        });
        // Judged on the page as the run left it, before the session goes.
        let judged = match (&ran, judge) {
            (Ok(run), Some(judge)) => {
                out.note(&format!("judging with {}…", judge.model()));
                let about = rove_agent::About {
                    task: &args.task,
                    ground_truth: args.ground_truth.as_deref(),
                    ..rove_agent::About::default()
                };
                Some(judge.judge_run(&mut session, run, about).await)
            }
            _ => None,
        };
        let _ = session.close().await;
        ran.map(|run| (run, judged))
    }
    .await;
    browser.close().await;
    result
}

/// `step 2: click e3 → clicked e3 · 1200/10 tokens · 0.9 s`; a failed
/// action shows its code and message, with its hint on the next line.
fn step_line(step: &StepRecord) -> String {
    let mut hints = Vec::new();
    let actions: Vec<String> = step
        .actions
        .iter()
        .map(|a| {
            let target = a.arguments["ref"]
                .as_str()
                .or_else(|| a.arguments["url"].as_str())
                .unwrap_or_default();
            let first = a.result.lines().next().unwrap_or_default();
            // Where an action happened, once it is not the task's tab.
            let tool = match a.tab.as_deref() {
                Some(tab) if tab != "t1" => format!("[{tab}] {}", a.tool),
                _ => a.tool.clone(),
            };
            if !a.failed {
                return format!(
                    "{} {} → {}",
                    tool,
                    one_line(target),
                    ellipsized(&one_line(first), 80)
                );
            }
            // A command's failure is its report as JSON: shown as the CLI
            // shows errors, never as cut-off JSON.
            match serde_json::from_str::<rove_errors::Report>(first) {
                Ok(report) => {
                    hints.push(format!(
                        "  hint: {}",
                        ellipsized(&one_line(&report.hint), 200)
                    ));
                    format!(
                        "{} {} ✗ {}: {}",
                        tool,
                        one_line(target),
                        report.code,
                        ellipsized(&one_line(&report.message), 160)
                    )
                }
                Err(_) => format!(
                    "{} {} ✗ {}",
                    tool,
                    one_line(target),
                    ellipsized(&one_line(first), 160)
                ),
            }
        })
        .collect();
    let mut line = format!(
        "step {}: {} · {}/{} tokens · {:.1} s",
        step.number,
        if actions.is_empty() {
            // A step without actions whose model never answered (its
            // error or its deadline: the `failure k/N` line says which).
            match &step.failure {
                Some(f) if f.kind == rove_agent::FailureKind::Model => {
                    "✗ no answer from the model".to_owned()
                }
                _ => "(no action)".to_owned(),
            }
        } else {
            actions.join("; ")
        },
        step.usage.input,
        step.usage.output,
        step.ms / 1000.0
    );
    for hint in hints {
        line.push('\n');
        line.push_str(&hint);
    }
    line
}

/// `rove replay FILE`: repeats a recorded run's actions without a model, on
/// a fresh session; exit 0 when every action repeated.
pub async fn replay(global: &GlobalArgs, args: &crate::cli::ReplayArgs, out: Output) -> u8 {
    let result = async {
        let text = rove_base::user_file::read_text(
            &args.file,
            rove_base::limits::HISTORY_FILE_BYTES,
        )
        .map_err(|e| {
            Failure::new(
                ErrorCode::CommandRejected,
                format!("reading {e}"),
                "give the file rove run --history wrote",
            )
        })?;
        let history: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            Failure::new(
                ErrorCode::CommandRejected,
                format!("{} is not JSON: {e}", args.file.display()),
                "give the file rove run --history wrote",
            )
        })?;
        let secrets = crate::runs::inputs::parse_secrets(&args.secrets, None)?;
        let transport = global.transport();
        let browser = crate::acquire::acquire(global, &transport).await?;
        let replayed = async {
            let config = SessionConfig {
                secrets,
                ..global.session_config()?
            };
            let mut session = Session::start(&browser, config)
                .await
                .map_err(|e| Failure::from_command(&e))?;
            let done = rove_agent::replay(&history, &mut session, args.start_url.as_deref()).await;
            let _ = session.close().await;
            done.map_err(|e| {
                let differs = "the page differs from the recorded run at this step";
                let (code, hint) = match &e {
                    rove_agent::ReplayError::Failed { error, .. } => {
                        (rove_errors::Classify::code(error), differs)
                    }
                    rove_agent::ReplayError::NotFound { .. } => (ErrorCode::RefNotFound, differs),
                    rove_agent::ReplayError::Ambiguous { .. } => (
                        ErrorCode::CommandRejected,
                        "give the elements names a person would see (labels), or replay the task with rove run",
                    ),
                    rove_agent::ReplayError::Undescribed { .. } => (
                        ErrorCode::CommandRejected,
                        "record the run again with this rove (its history names every element it aimed at)",
                    ),
                    rove_agent::ReplayError::MissingSecrets { .. } => (
                        ErrorCode::CommandRejected,
                        "give each with --secret NAME=VALUE (or NAME@DOMAIN=VALUE), as rove run was given them",
                    ),
                    rove_agent::ReplayError::History(_) => (
                        ErrorCode::CommandRejected,
                        "give the file rove run --history wrote",
                    ),
                };
                Failure::new(code, e.to_string(), hint)
            })
        }
        .await;
        browser.close().await;
        replayed
    }
    .await;
    match result {
        Ok(done) => {
            out.line(&format!(
                "replayed {} actions ({} targets found again by role and name)",
                done.actions, done.refound
            ));
            out.success(json!({"actions": done.actions, "refound": done.refound}));
            0
        }
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

/// The model's failure, and when a fallback would have answered it and
/// none was given, a word that one would have taken over.
fn model_failure(e: &rove_llm::LlmError, endpoint: &Endpoint, args: &RunArgs) -> Failure {
    let mut failure = models::model_failure(e, endpoint);
    if args.fallback_model.is_none()
        && e.warrants_fallback()
        && !failure.report.hint.contains("--fallback-model")
    {
        failure.report.hint.push_str(
            "; with --fallback-model another model would have taken over after this failure",
        );
    }
    failure
}
