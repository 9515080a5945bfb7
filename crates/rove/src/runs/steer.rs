//! `rove run --steer`: the run a step at a time, steered by the program
//! that started rove (the Python package's `rove.Agent`). One order a line
//! on stdin, one JSON answer a line on stdout:
//!
//! - `{"do":"step"}` runs the next step: `{"step":{…},"ending":…}` (the
//!   step as the history records it; `ending` null while the run goes on;
//!   `step` null once it has ended);
//! - `{"do":"tell","text":…}`: a word to the model before its next step;
//! - `{"do":"set_task","text":…}`: the task from the next step on;
//! - `{"do":"view"}`: the page as the model would see it now;
//! - `{"do":"finish"}` (or the end of stdin) ends the run: rove goes on as
//!   any run does (the last word, the judge, the history) and prints its
//!   final `--json` object.
//!
//! An order rove cannot read is answered `{"error":…}` and nothing else
//! happens.

use rove_agent::{Agent, AgentConfig, AgentError, RunResult, StepRecord};
use rove_commands::{Command, Session, SnapshotArgs};
use rove_llm::Llm;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use crate::output::Output;

/// What the steering program asks.
#[derive(Debug, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
enum Order {
    Step,
    Tell { text: String },
    SetTask { text: String },
    View,
    Finish,
}

/// Runs `task` as the orders on stdin say; `on_step` hears of each step
/// as `rove_agent::run`'s does.
pub async fn run(
    task: &str,
    session: &mut Session,
    llm: &Llm,
    config: &AgentConfig,
    out: Output,
    mut on_step: impl FnMut(&StepRecord),
) -> Result<RunResult, AgentError> {
    let mut orders = orders_on_stdin();
    let mut agent = Agent::start(task, session, llm, config).await;
    // The end of stdin is a finish: a steering program that died leaves
    // no browser behind.
    while let Some(line) = orders.recv().await {
        let order = match serde_json::from_str::<Order>(&line) {
            Ok(order) => order,
            Err(e) => {
                out.message(&json!({"error": format!(
                    "not an order ({e}): give one JSON object a line, {{\"do\": \"step\"}}, \"tell\" or \"set_task\" with \"text\", \"view\" or \"finish\""
                )}));
                continue;
            }
        };
        match order {
            Order::Step => {
                let before = agent.steps().len();
                let stepped = agent.step().await.map(|s| s.cloned());
                match stepped {
                    Ok(step) => {
                        if let Some(step) = &step {
                            on_step(step);
                        }
                        out.message(&json!({"step": step, "ending": agent.ending()}));
                    }
                    Err(e) => {
                        // The step that lost the browser is heard too.
                        if agent.steps().len() > before
                            && let Some(step) = agent.last_step()
                        {
                            on_step(step);
                        }
                        return Err(e);
                    }
                }
            }
            Order::Tell { text } => {
                agent.tell(&text);
                out.message(&json!({"told": true}));
            }
            Order::SetTask { text } => {
                agent.set_task(&text);
                out.message(&json!({"task_set": true}));
            }
            Order::View => {
                let view = view_of(agent.session()).await;
                out.message(&json!({"view": view}));
            }
            Order::Finish => break,
        }
    }
    Ok(agent.finish().await)
}

/// The page's view as the model's next request would hold it (redacted of
/// the run's secrets), or what kept rove from reading it.
async fn view_of(session: &mut Session) -> String {
    let view = session
        .execute(&Command::Snapshot(SnapshotArgs::default()))
        .await
        .map(|o| o.text())
        .unwrap_or_else(|e| format!("(no view: {e})"));
    session.config().secrets.redact(&view)
}

/// The lines of stdin, read on a thread of their own (the runtime has no
/// asynchronous stdin); blank lines are skipped.
fn orders_on_stdin() -> mpsc::UnboundedReceiver<String> {
    let (sender, receiver) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}
