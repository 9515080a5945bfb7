//! The loop: each step shows the model the page (a view, then what changed),
//! runs the tools it calls in order, and records the step; the run ends with
//! the model's `done` or a typed reason.

use rove_commands::{Command, Session};
use rove_llm::{Llm, LlmError, Message};

use crate::AgentError;
use crate::agent::Agent;
use crate::record::{AgentConfig, RunResult, StepRecord, Vision};

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

/// Model errors that no later step can fix: a refused key (after the
/// fallback, if any), a wrong configuration, and nothing listening at the
/// model's address at step 1 (a server that was never started; later, one
/// that stopped may be restarting).
pub(crate) fn ends_the_run(e: &LlmError, step: u32) -> bool {
    match e {
        LlmError::Auth { .. } | LlmError::Config(_) | LlmError::NoKey { .. } => true,
        LlmError::Refused { .. } => step == 1,
        _ => false,
    }
}

/// Whether this step shows a screenshot.
pub(crate) fn sees(vision: Vision, model: &rove_llm::Endpoint) -> bool {
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
