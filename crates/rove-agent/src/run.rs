//! The loop: each step shows the model the page (a view, then what changed),
//! runs the tools it calls in order, and records the step; the run ends with
//! the model's `done` or a typed reason.

use std::time::{Duration, Instant};

use rove_commands::{Command, Happened, Outcome, Session, SnapshotArgs};
use rove_errors::Classify;
use rove_llm::{Llm, Message, Request, ToolCall, ToolSpec, Usage};
use serde::Serialize;
use serde_json::{Value, json};

use crate::AgentError;

/// How a run is bounded.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    /// The most steps (model calls).
    pub max_steps: u32,
    /// The most tool calls run from one answer.
    pub max_actions_per_step: usize,
    /// The deadline of one step (the model's answer and its actions).
    pub step_timeout: Duration,
    /// Consecutive failed steps that end the run.
    pub max_failures: u32,
    /// The most tokens one answer may take.
    pub max_tokens: u32,
    /// Roughly how many tokens of history each request may carry; above
    /// it, older tool results shrink to their first line.
    pub history_budget: usize,
    /// Whether each step also shows the model a screenshot.
    pub vision: Vision,
    /// Where to keep the screenshots the model saw (`step-N.jpg`), for the
    /// history; `None` keeps none.
    pub screenshot_dir: Option<std::path::PathBuf>,
}

/// Whether the model sees screenshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Vision {
    /// For hosted models; not for local ones (Ollama), which often cannot
    /// read images.
    #[default]
    Auto,
    /// Every step.
    On,
    /// Never.
    Off,
}

impl Default for AgentConfig {
    fn default() -> Self {
        AgentConfig {
            max_steps: 30,
            max_actions_per_step: 5,
            step_timeout: Duration::from_secs(180),
            max_failures: 3,
            max_tokens: 4_096,
            history_budget: 60_000,
            vision: Vision::Auto,
            screenshot_dir: None,
        }
    }
}

/// Why a run ended.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Ending {
    /// The model called `done`.
    Done {
        /// Its final answer.
        text: String,
        /// Whether it says the task succeeded.
        success: bool,
    },
    /// The step limit was reached.
    MaxSteps,
    /// Too many steps in a row failed.
    Failures {
        /// Consecutive failed steps.
        failed: u32,
        /// The limit.
        limit: u32,
        /// The model's final answer, asked for once after the limit.
        answer: Option<String>,
    },
    /// A step did not finish in time.
    Timeout,
    /// The model repeated the same actions on a page they did not change,
    /// after being told so.
    Loop,
}

/// What an action aimed at, as the view showed it: enough to find it again
/// when refs differ.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Target {
    /// Its role.
    pub role: String,
    /// Its name.
    pub name: String,
}

/// One action of a step, as recorded.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ActionRecord {
    /// The tool.
    pub tool: String,
    /// Its arguments.
    pub arguments: Value,
    /// The element its `ref` named, when the view showed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    /// What came of it: the outcome's text, or the error report.
    pub result: String,
    /// Whether it failed.
    pub failed: bool,
    /// Whether it succeeded and changed nothing visible (for the loop
    /// check; not recorded).
    #[serde(skip)]
    pub unchanged: bool,
}

/// One step, as recorded.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct StepRecord {
    /// 1, 2, …
    pub number: u32,
    /// The model's text, if any.
    pub thought: String,
    /// What it did.
    pub actions: Vec<ActionRecord>,
    /// Tokens of this step's model call.
    pub usage: Usage,
    /// The screenshot the model saw, when one was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<String>,
    /// How long the step took.
    pub ms: f64,
}

/// A finished run.
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    /// Why it ended.
    pub ending: Ending,
    /// Every step.
    pub steps: Vec<StepRecord>,
    /// Tokens over the run.
    pub usage: Usage,
}

impl RunResult {
    /// Whether the model reported success.
    pub fn succeeded(&self) -> bool {
        matches!(self.ending, Ending::Done { success: true, .. })
    }
}

const SYSTEM: &str = "You drive a web browser to do the user's task. Each turn shows the page as text: one line per element, with refs like e7 for what you can act on. Act with the tools, by ref. After each action you see what changed. When the task is done (or cannot be done), call done with your answer and whether you succeeded. Do not guess refs: use the ones in the latest view; after a navigation, old refs are gone.";

/// Runs `task` on `session` with `llm` until the model calls `done` or a
/// limit ends it. The model only ever sees the page and the results.
/// `on_step` hears of each step as it ends (for a line per step).
pub async fn run(
    task: &str,
    session: &mut Session,
    llm: &Llm,
    config: &AgentConfig,
    mut on_step: impl FnMut(&StepRecord),
) -> Result<RunResult, AgentError> {
    let tools = tool_specs();
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
    let mut usage = Usage::default();
    let mut failed_in_a_row = 0;
    let mut last_signature = String::new();
    let mut repeats = 0;
    for number in 1..=config.max_steps {
        let started = Instant::now();
        let mut shown = compact(&messages, config.history_budget);
        let mut kept = None;
        if sees(config.vision, &llm.current().provider) {
            if let Some((image, bytes)) = screenshot(session).await {
                if let Some(dir) = &config.screenshot_dir {
                    let path = dir.join(format!("step-{number}.jpg"));
                    if std::fs::create_dir_all(dir)
                        .and_then(|()| std::fs::write(&path, &bytes))
                        .is_ok()
                    {
                        kept = Some(path.display().to_string());
                    }
                }
                shown.push(image);
            }
        }
        let request = Request {
            system: SYSTEM.to_owned(),
            messages: shown,
            tools: tools.clone(),
            max_tokens: config.max_tokens,
        };
        let step = tokio::time::timeout(config.step_timeout, async {
            let answer = llm.complete(&request).await?;
            let mut actions = Vec::new();
            let mut results = Vec::new();
            let mut ended = None;
            let mut stale = false;
            for (i, call) in answer.tool_calls.iter().enumerate() {
                // What the call aims at, before acting changes the page.
                let described = call.arguments["ref"]
                    .as_str()
                    .and_then(|r| session.describe(r))
                    .map(|(role, name)| Target { role, name });
                let acted = if stale {
                    Acted::refused(
                        "not run: an earlier action changed the page, so refs may be stale; look at the new view".to_owned(),
                    )
                } else if i >= config.max_actions_per_step {
                    Acted::refused(format!(
                        "not run: at most {} actions per step",
                        config.max_actions_per_step
                    ))
                } else if call.name == "done" {
                    ended = Some(done_of(call));
                    Acted {
                        text: "done".to_owned(),
                        failed: false,
                        moved: false,
                        unchanged: false,
                    }
                } else {
                    let acted = act(session, call).await;
                    Acted {
                        text: secrets.redact(&acted.text),
                        ..acted
                    }
                };
                let Acted {
                    text: result,
                    failed,
                    moved,
                    unchanged,
                } = acted;
                stale |= moved;
                actions.push(ActionRecord {
                    tool: call.name.clone(),
                    arguments: call.arguments.clone(),
                    target: described,
                    result: result.clone(),
                    failed,
                    unchanged,
                });
                results.push(Message::Tool {
                    call_id: call.id.clone(),
                    text: result,
                    is_error: failed,
                });
            }
            Ok::<_, AgentError>((answer, actions, results, ended))
        })
        .await;
        let Ok(step) = step else {
            return Ok(RunResult {
                ending: Ending::Timeout,
                steps,
                usage,
            });
        };
        let (answer, actions, results, ended) = step?;
        usage += answer.usage;
        let all_failed = !actions.is_empty() && actions.iter().all(|a| a.failed);
        let nothing = actions.is_empty();
        messages.push(Message::Assistant {
            text: answer.text.clone(),
            tool_calls: answer.tool_calls.clone(),
        });
        messages.extend(results);
        if nothing {
            messages.push(Message::User {
                text: "Call a tool: act on the page, or call done if the task is finished.".into(),
            });
        }
        // The same actions on a page they do not change: a nudge, then a stop.
        let signature = serde_json::to_string(
            &answer
                .tool_calls
                .iter()
                .map(|c| (&c.name, &c.arguments))
                .collect::<Vec<_>>(),
        )
        .unwrap_or_default();
        // (Failing actions count as failures, not as a loop.)
        let unchanged = !actions.is_empty() && actions.iter().all(|a| !a.failed && a.unchanged);
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
        steps.push(StepRecord {
            number,
            thought: answer.text,
            actions,
            usage: answer.usage,
            screenshot: kept,
            ms: started.elapsed().as_secs_f64() * 1e3,
        });
        if let Some(step) = steps.last() {
            on_step(step);
        }
        if let Some(ending) = ended {
            return Ok(RunResult {
                ending,
                steps,
                usage,
            });
        }
        if repeats >= 2 {
            return Ok(RunResult {
                ending: Ending::Loop,
                steps,
                usage,
            });
        }
        failed_in_a_row = if all_failed || nothing {
            failed_in_a_row + 1
        } else {
            0
        };
        if failed_in_a_row >= config.max_failures {
            // One last call, for what the model can say after failing.
            messages.push(Message::User {
                text: format!(
                    "{failed_in_a_row} steps in a row failed; the run stops here. Call done now with your final answer and success false (no other tool)."
                ),
            });
            let request = Request {
                system: SYSTEM.to_owned(),
                messages: compact(&messages, config.history_budget),
                tools: tools.clone(),
                max_tokens: config.max_tokens,
            };
            let answer =
                match tokio::time::timeout(config.step_timeout, llm.complete(&request)).await {
                    Ok(Ok(done)) => {
                        usage += done.usage;
                        done.tool_calls
                            .iter()
                            .find(|c| c.name == "done")
                            .and_then(|c| c.arguments["text"].as_str().map(str::to_owned))
                            .or_else(|| (!done.text.is_empty()).then_some(done.text))
                    }
                    _ => None,
                };
            return Ok(RunResult {
                ending: Ending::Failures {
                    failed: failed_in_a_row,
                    limit: config.max_failures,
                    answer: answer.map(|a| secrets.redact(&a)),
                },
                steps,
                usage,
            });
        }
    }
    Ok(RunResult {
        ending: Ending::MaxSteps,
        steps,
        usage,
    })
}

/// Whether this step shows a screenshot.
fn sees(vision: Vision, provider: &str) -> bool {
    match vision {
        Vision::On => true,
        Vision::Off => false,
        Vision::Auto => provider != "ollama",
    }
}

/// The viewport as a JPEG for the model, only for this step's request (it is
/// not kept in the history).
async fn screenshot(session: &mut Session) -> Option<(Message, Vec<u8>)> {
    use base64::Engine;
    let shot = Command::Screenshot(rove_commands::ScreenshotArgs {
        format: rove_commands::ImageFormat::Jpeg,
        quality: Some(60),
        max_bytes: Some(1_000_000),
        ..rove_commands::ScreenshotArgs::default()
    });
    let image = session.execute(&shot).await.ok()?.image?;
    let message = Message::Image {
        text: "The page as it looks now (viewport):".into(),
        mime: image.mime.to_owned(),
        data: base64::engine::general_purpose::STANDARD.encode(&image.bytes),
    };
    Some((message, image.bytes))
}

/// The conversation within about `budget` tokens (a third of its bytes):
/// the first message (task and first view) and the last three steps stay
/// whole; older tool results and views shrink to their first line, oldest
/// first, until it fits.
fn compact(messages: &[Message], budget: usize) -> Vec<Message> {
    let size = |m: &[Message]| -> usize {
        m.iter()
            .map(|m| match m {
                Message::User { text } | Message::Tool { text, .. } => text.len(),
                // An image costs the model about a thousand tokens.
                Message::Image { text, .. } => text.len() + 3_000,
                Message::Assistant { text, tool_calls } => {
                    text.len()
                        + tool_calls
                            .iter()
                            .map(|c| c.arguments.to_string().len() + c.name.len())
                            .sum::<usize>()
                }
            })
            .sum::<usize>()
            / 3
    };
    let mut out = messages.to_vec();
    if size(&out) <= budget {
        return out;
    }
    // Keep the last three assistant turns and what followed them whole.
    let keep_from = out
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m, Message::Assistant { .. }))
        .map(|(i, _)| i)
        .rev()
        .nth(2)
        .unwrap_or(out.len());
    for i in 1..keep_from {
        if size(&out) <= budget {
            break;
        }
        let shrink = |text: &str| {
            let first = text.lines().next().unwrap_or_default();
            format!("{first} … (older, left out to save tokens)")
        };
        match &mut out[i] {
            Message::Tool { text, .. } | Message::User { text } if text.lines().count() > 1 => {
                *text = shrink(text);
            }
            _ => {}
        }
    }
    out
}

/// Runs one tool call as a command: its arguments are validated by parsing
/// them into the vocabulary, and what is wrong goes back to the model.
async fn act(session: &mut Session, call: &ToolCall) -> Acted {
    let arguments = match &call.arguments {
        Value::Object(map) => map.clone(),
        other => {
            return Acted::refused(format!(
                "invalid arguments for {}: expected a JSON object, got {other}",
                call.name
            ));
        }
    };
    let mut request = arguments;
    request.insert("command".into(), Value::String(call.name.clone()));
    let command: Command = match serde_json::from_value(Value::Object(request)) {
        Ok(c) => c,
        Err(e) => {
            let schema = rove_commands::tools()
                .iter()
                .find(|t| t.name == call.name)
                .map(|t| t.parameters.to_string())
                .unwrap_or_else(|| "no such tool".into());
            return Acted::refused(format!(
                "invalid arguments for {}: {e}. Its schema: {schema}",
                call.name
            ));
        }
    };
    match session.execute(&command).await {
        Ok(outcome) => Acted {
            text: outcome.text(),
            failed: false,
            moved: changed_page(&command, &outcome),
            unchanged: outcome.saw(|h| *h == Happened::NothingChanged),
        },
        Err(e) => {
            let mut text = json!(e.report()).to_string();
            if let Some(view) = e.fresh_view() {
                text.push('\n');
                text.push_str(view);
            }
            Acted {
                text,
                failed: true,
                moved: e.code() == rove_errors::ErrorCode::NavigationFailed,
                unchanged: false,
            }
        }
    }
}

/// Whether later refs of the same answer can no longer be trusted.
fn changed_page(command: &Command, outcome: &Outcome) -> bool {
    matches!(
        command,
        Command::Open(_) | Command::Back | Command::Forward | Command::Reload | Command::Tab(_)
    ) || outcome.saw(Happened::changes_page)
}

/// What came of one tool call.
struct Acted {
    /// The result text the model reads.
    text: String,
    /// Whether it failed.
    failed: bool,
    /// Whether it changed the page under the next calls (a navigation or a
    /// tab switch), so later refs of the same answer are stale.
    moved: bool,
    /// Whether it succeeded and nothing visible changed.
    unchanged: bool,
}

impl Acted {
    /// A call that was not run, or not understood.
    fn refused(text: String) -> Self {
        Acted {
            text,
            failed: true,
            moved: false,
            unchanged: false,
        }
    }
}

fn done_of(call: &ToolCall) -> Ending {
    Ending::Done {
        text: call.arguments["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        success: call.arguments["success"].as_bool().unwrap_or(false),
    }
}

/// The vocabulary's tools plus `done`.
fn tool_specs() -> Vec<ToolSpec> {
    let mut specs: Vec<ToolSpec> = rove_commands::tools()
        .iter()
        .map(|t| ToolSpec {
            name: t.name.to_owned(),
            description: t.description.to_owned(),
            parameters: t.parameters.clone(),
        })
        .collect();
    specs.push(ToolSpec {
        name: "done".into(),
        description: "Finish the task: your answer, and whether the task succeeded.".into(),
        parameters: json!({
            "type": "object",
            "properties": {"text": {"type": "string"}, "success": {"type": "boolean"}},
            "required": ["text", "success"],
        }),
    });
    specs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compaction_shrinks_old_results_and_keeps_the_task_and_recent_steps() {
        let view = "[t1] Page\n".to_owned() + &"e1 button \"x\"\n".repeat(400);
        let mut messages = vec![Message::User {
            text: format!("Task: t\n{view}"),
        }];
        for i in 0..6 {
            messages.push(Message::Assistant {
                text: String::new(),
                tool_calls: vec![ToolCall {
                    id: format!("c{i}"),
                    name: "click".into(),
                    arguments: json!({"ref": "e1"}),
                }],
            });
            messages.push(Message::Tool {
                call_id: format!("c{i}"),
                text: view.clone(),
                is_error: false,
            });
        }
        let compacted = compact(&messages, 4_000);
        let text = |m: &Message| match m {
            Message::User { text } | Message::Tool { text, .. } | Message::Image { text, .. } => {
                text.clone()
            }
            Message::Assistant { .. } => String::new(),
        };
        assert_eq!(
            text(&compacted[0]),
            text(&messages[0]),
            "the task stays whole"
        );
        assert!(text(&compacted[2]).ends_with("(older, left out to save tokens)"));
        assert_eq!(text(&compacted[12]), view, "the last step stays whole");
        assert_eq!(
            compact(&messages, 1_000_000),
            messages,
            "under budget nothing changes"
        );
    }
}
