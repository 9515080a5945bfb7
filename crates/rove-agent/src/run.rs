//! The loop: each step shows the model the page (a view, then what changed),
//! runs the tools it calls in order, and records the step; the run ends with
//! the model's `done` or a typed reason.

use rove_commands::Session;
use rove_llm::Llm;

use crate::AgentError;
use crate::agent::Agent;
use crate::record::{AgentConfig, RunResult, StepRecord};

/// Runs `task` on `session` with `llm` until the model calls `done` or a
/// limit ends it: [`Agent`] stepped to its end. The model only ever sees
/// the page and the results. `on_step` hears of each step as it ends (for
/// a line per step), failed ones included. A model error or a step past
/// its deadline is a failed step, not the end: the run ends after
/// `max_failures` of them in a row. It ends at once, with an error, when
/// the browser is gone or the model refuses the key.
pub async fn run(
    task: &str,
    session: &mut Session,
    llm: &Llm,
    config: &AgentConfig,
    mut on_step: impl FnMut(&StepRecord),
) -> Result<RunResult, AgentError> {
    let mut agent = Agent::start(task, session, llm, config).await;
    while agent.ending().is_none() {
        let before = agent.steps().len();
        match agent.step().await {
            Ok(Some(step)) => on_step(step),
            Ok(None) => break,
            Err(e) => {
                // The step that lost the browser is heard too.
                if agent.steps().len() > before
                    && let Some(step) = agent.last_step()
                {
                    on_step(step);
                }
                crate::log::run_failed(&e);
                return Err(e);
            }
        }
    }
    Ok(agent.finish().await)
}
