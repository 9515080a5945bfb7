//! The loop: each step shows the model the page (a view, then what changed),
//! runs the tools it calls in order, and records the step; the run ends with
//! the model's `done` or a typed reason.

use std::time::Instant;

use rove_base::limits;
use rove_commands::{Command, Session, SnapshotArgs};
use rove_llm::{Llm, LlmError, Message, Request, Spend, Usage};

use crate::record::{AgentConfig, Ending, FailureKind, RunResult, StepFailure, StepRecord, Vision};

use crate::AgentError;
use crate::compact::compact;
use crate::finish::{LastWord, last_word};
use crate::judge::Screenshot;
use crate::notes::Notes;
use crate::prompt::{system_prompt, turn_status};
use crate::seen::{self, Seen};
use crate::step::act_all;
use crate::tools::tool_specs_within;

/// Runs `task` on `session` with `llm` until the model calls `done` or a
/// limit ends it. The model only ever sees the page and the results.
/// `on_step` hears of each step as it ends (for a line per step), failed
/// ones included. A model error or a step past its deadline is a failed
/// step, not the end: the run ends after `max_failures` of them in a row.
/// It ends at once, with an error, when the browser is gone or the model
/// refuses the key.
pub async fn run(
    task: &str,
    session: &mut Session,
    llm: &Llm,
    config: &AgentConfig,
    on_step: impl FnMut(&StepRecord),
) -> Result<RunResult, AgentError> {
    // Boxed: the step loop's state is large, and callers (a test's
    // runtime among them) would otherwise hold it on their stack.
    let ran = Box::pin(run_steps(task, session, llm, config, on_step)).await;
    match &ran {
        Ok(ran) => crate::log::run_ended(&ran.ending, ran.steps.len()),
        Err(e) => crate::log::run_failed(e),
    }
    ran
}

async fn run_steps(
    task: &str,
    session: &mut Session,
    llm: &Llm,
    config: &AgentConfig,
    mut on_step: impl FnMut(&StepRecord),
) -> Result<RunResult, AgentError> {
    let tools = tool_specs_within(session.config().caps);
    let first = session
        .execute(&Command::Snapshot(SnapshotArgs::default()))
        .await
        .map(|o| o.text())
        .unwrap_or_else(|e| format!("(no view: {e})"));
    // The session fills secrets in (only into fields on their domain); the
    // loop only briefs the model and redacts what it is shown.
    let secrets = &session.config().secrets.clone();
    let briefing = secrets
        .briefing()
        .map(|b| format!("\n{b}"))
        .unwrap_or_default();
    let mut messages = vec![Message::User {
        text: format!(
            "Task: {task}{briefing}\n\nThe page now:\n{}",
            secrets.redact(&first)
        ),
    }];
    let mut steps = Vec::new();
    let mut spend = Spend::default();
    let mut failed_in_a_row = 0;
    let mut last_signature = String::new();
    let mut repeats = 0;
    let mut model_error: Option<LlmError>;
    let mut shots: Vec<Screenshot> = Vec::new();
    let mut notes = Notes::default();
    // The model's last words in plain text: its answer when the run ends
    // without `done` and the last call for one gets none.
    let mut said_last: Option<String> = None;
    let model_budget = limits::model_time(config.step_timeout);
    crate::log::run_started(&secrets.redact(task), llm.current(), config.max_steps);
    for number in 1..=config.max_steps {
        // A browser gone for good (a farm ended it mid-run) makes every
        // action fail the same way: the model is not asked again.
        if let Some(lost) = session.browser_lost() {
            return Err(AgentError::Browser(Box::new(lost)));
        }
        let started = Instant::now();
        crate::log::step_started(number);
        let deadline = tokio::time::Instant::now() + config.step_timeout;
        let marks = if config.trace {
            // Boxed: the run's future is large already (tests run it on a
            // thread's stack).
            Box::pin(session.log_marks()).await
        } else {
            rove_commands::LogMarks::default()
        };
        let mut shown = compact(&messages, config.history_budget);
        // Where the run stands and the model's notes, last: on this
        // request only, never in the history (so never cut, never
        // repeated).
        let status = turn_status(number, config, failed_in_a_row, &notes);
        let mut traced = Seen {
            observation: config
                .trace
                .then(|| format!("{}\n\n{status}", seen::observation(&shown))),
            ..Seen::default()
        };
        let mut kept = None;
        if sees(config.vision, llm.current()) {
            let shot = tokio::time::timeout_at(deadline, screenshot(session))
                .await
                .ok()
                .flatten();
            if let Some((image, bytes)) = shot {
                if let Some(dir) = &config.screenshot_dir {
                    let path = dir.join(format!("step-{number}.jpg"));
                    if std::fs::create_dir_all(dir)
                        .and_then(|()| std::fs::write(&path, &bytes))
                        .is_ok()
                    {
                        kept = Some(path.display().to_string());
                    }
                }
                if config.keep_screenshots > 0 {
                    if shots.len() >= config.keep_screenshots {
                        shots.remove(0);
                    }
                    shots.push(Screenshot {
                        caption: format!("before step {number}"),
                        mime: "image/jpeg".into(),
                        bytes,
                    });
                }
                shown.push(image);
            }
        }
        shown.push(Message::User { text: status });
        let request = Request {
            system: system_prompt(config, llm.current()),
            messages: shown,
            tools: tools.clone(),
            max_tokens: config.max_tokens,
            force_tool: None,
        };
        let asked_at = Instant::now();
        let asked =
            tokio::time::timeout_at(deadline, llm.complete_within(&request, model_budget)).await;
        let model_ms = asked_at.elapsed().as_secs_f64() * 1e3;
        let answer = match asked {
            Ok(Ok(answer)) => {
                model_error = None;
                Some(answer)
            }
            Ok(Err(e)) if ends_the_run(&e, number) => return Err(AgentError::Llm(e)),
            Ok(Err(e)) => {
                model_error = Some(e);
                None
            }
            Err(_) => {
                model_error = Some(LlmError::Timeout {
                    provider: llm.current().provider.clone(),
                    seconds: config.step_timeout.as_secs_f64(),
                });
                None
            }
        };
        let mut record = StepRecord {
            number,
            thought: String::new(),
            actions: Vec::new(),
            usage: Usage::default(),
            model: None,
            screenshot: kept,
            ms: 0.0,
            model_ms: (model_ms * 1000.0).round() / 1000.0,
            failure: None,
            seen: Seen::default(),
        };
        let mut ended = None;
        let mut lost = None;
        let why = match &answer {
            // The model never answered: the conversation stays as it was,
            // and the next step asks again.
            None => Some((
                FailureKind::Model,
                match &model_error {
                    Some(e) => format!("the model failed: {e}"),
                    None => "the model failed".to_owned(),
                },
            )),
            Some(answer) => {
                crate::log::model_answered(number, answer, model_ms, &secrets.redact(&answer.text));
                let acted = act_all(
                    session,
                    answer,
                    (config, &tools),
                    secrets,
                    &mut notes,
                    deadline,
                )
                .await;
                for action in &acted.actions {
                    crate::log::action(number, action);
                }
                ended = acted.ended;
                lost = acted.lost;
                spend.add(&answer.served_by, answer.usage);
                record.thought = secrets.redact(&answer.text);
                record.usage = answer.usage;
                record.model = Some(answer.served_by.clone());
                let nothing = acted.actions.is_empty();
                let all_failed = !nothing && acted.actions.iter().all(|a| a.failed);
                messages.push(Message::Assistant {
                    text: answer.text.clone(),
                    tool_calls: answer.tool_calls.clone(),
                });
                messages.extend(acted.results);
                if nothing {
                    if !answer.text.trim().is_empty() {
                        said_last = Some(secrets.redact(answer.text.trim()));
                    }
                    messages.push(Message::User {
                        text: "Plain text is not an action: call a tool to act on the page, or call done with your answer (what you wrote is kept as your answer should the run end without done)."
                            .into(),
                    });
                }
                // The same actions on a page they do not change: a nudge,
                // then a stop.
                let signature = serde_json::to_string(
                    &answer
                        .tool_calls
                        .iter()
                        .map(|c| (&c.name, &c.arguments))
                        .collect::<Vec<_>>(),
                )
                .unwrap_or_default();
                // (Failing actions count as failures, not as a loop.)
                let unchanged = !nothing && acted.actions.iter().all(|a| !a.failed && a.unchanged);
                repeats = if unchanged && signature == last_signature {
                    repeats + 1
                } else {
                    0
                };
                last_signature = signature;
                if repeats == 1 {
                    messages.push(Message::User {
                        text: "You repeated the same action and the page did not change. Do something else, or call done.".into(),
                    });
                }
                record.actions = acted.actions;
                if nothing {
                    Some((FailureKind::NoTool, "the model called no tool".to_owned()))
                } else if all_failed && ended.is_none() {
                    Some((FailureKind::Actions, "every action failed".to_owned()))
                } else {
                    None
                }
            }
        };
        failed_in_a_row = if why.is_some() {
            failed_in_a_row + 1
        } else {
            0
        };
        record.failure = why.map(|(kind, why)| StepFailure {
            kind,
            count: failed_in_a_row,
            limit: config.max_failures,
            why,
        });
        record.ms = started.elapsed().as_secs_f64() * 1e3;
        // The trace's look at the step comes after its time is taken, so
        // tracing does not inflate it.
        if config.trace && lost.is_none() {
            if config.trace_screenshots && answer.is_some() {
                traced.screenshot_after =
                    seen::after_screenshot(session, config.screenshot_dir.as_deref(), number).await;
            }
            traced.add_logs(Box::pin(session.logs_since(&marks)).await);
        }
        record.seen = traced;
        if let (None, Some(e)) = (&answer, &model_error) {
            crate::log::model_failed(number, e, model_ms);
        }
        crate::log::step_ended(&record);
        on_step(&record);
        steps.push(record);
        if let Some(error) = lost {
            // Nothing more can happen on this browser: the failures left
            // would only repeat this one.
            return Err(AgentError::Browser(Box::new(error)));
        }
        if let Some(ending) = ended {
            return Ok(RunResult {
                ending,
                steps,
                usage: spend.total(),
                spend,
                model_error: None,
                screenshots: shots,
            });
        }
        if repeats >= 2 {
            return Ok(RunResult {
                ending: Ending::Loop,
                steps,
                usage: spend.total(),
                spend,
                model_error: None,
                screenshots: shots,
            });
        }
        if failed_in_a_row >= config.max_failures {
            let asked = LastWord {
                llm,
                config,
                tools: &tools,
                notes: &notes,
            };
            let why = format!("{failed_in_a_row} steps in a row failed; the run stops here.");
            let answer = last_word(&asked, &mut messages, &why, &mut spend)
                .await
                .or(said_last);
            return Ok(RunResult {
                ending: Ending::Failures {
                    failed: failed_in_a_row,
                    limit: config.max_failures,
                    answer: answer.map(|a| secrets.redact(&a)),
                },
                steps,
                usage: spend.total(),
                spend,
                model_error,
                screenshots: shots,
            });
        }
    }
    let asked = LastWord {
        llm,
        config,
        tools: &tools,
        notes: &notes,
    };
    let why = format!(
        "You have used all {} steps; the run stops here.",
        config.max_steps
    );
    let answer = last_word(&asked, &mut messages, &why, &mut spend)
        .await
        .or(said_last);
    Ok(RunResult {
        ending: Ending::MaxSteps {
            answer: answer.map(|a| secrets.redact(&a)),
        },
        steps,
        usage: spend.total(),
        spend,
        model_error: None,
        screenshots: shots,
    })
}

/// Model errors that no later step can fix: a refused key (after the
/// fallback, if any), a wrong configuration, and nothing listening at the
/// model's address at step 1 (a server that was never started; later, one
/// that stopped may be restarting).
fn ends_the_run(e: &LlmError, step: u32) -> bool {
    match e {
        LlmError::Auth { .. } | LlmError::Config(_) | LlmError::NoKey { .. } => true,
        LlmError::Refused { .. } => step == 1,
        _ => false,
    }
}

/// Whether this step shows a screenshot.
fn sees(vision: Vision, model: &rove_llm::Endpoint) -> bool {
    match vision {
        Vision::On => true,
        Vision::Off => false,
        Vision::Auto => model.sees_images(),
    }
}

/// The viewport as a JPEG for the model, only for this step's request (it is
/// not kept in the history).
pub(crate) async fn screenshot(session: &mut Session) -> Option<(Message, Vec<u8>)> {
    use base64::Engine;
    let shot = Command::Screenshot(rove_commands::ScreenshotArgs {
        format: rove_commands::ImageFormat::Jpeg,
        quality: Some(60),
        max_bytes: Some(1_000_000),
        ..rove_commands::ScreenshotArgs::default()
    });
    let image = session.execute(&shot).await.ok()?.image?;
    let message = Message::Image {
        text: "The viewport as it looks now (only what is on screen; the text view covers the whole page):".into(),
        mime: image.mime.to_owned(),
        data: base64::engine::general_purpose::STANDARD.encode(&image.bytes),
    };
    Some((message, image.bytes))
}
