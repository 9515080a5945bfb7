//! The last word: when a limit ends the run (its steps, or failures in a
//! row), the model is asked once, with `done` as the one tool it may call,
//! for its best answer, which the run reports.

use rove_base::limits;
use rove_llm::{Llm, Message, Request, Spend, ToolSpec};

use crate::AgentConfig;
use crate::compact::compact;
use crate::notes::Notes;
use crate::prompt::system_prompt;

/// What the last call needs of the run.
pub(crate) struct LastWord<'a> {
    pub(crate) llm: &'a Llm,
    pub(crate) config: &'a AgentConfig,
    pub(crate) tools: &'a [ToolSpec],
    pub(crate) notes: &'a Notes,
}

/// Asks the model once for `done`, saying `why` the run stops; its answer's
/// text, or `None` when it gives none (its own failure included).
pub(crate) async fn last_word(
    asked: &LastWord<'_>,
    messages: &mut Vec<Message>,
    why: &str,
    spend: &mut Spend,
) -> Option<String> {
    let notes = asked
        .notes
        .shown()
        .map(|n| format!("\n{n}"))
        .unwrap_or_default();
    messages.push(Message::User {
        text: format!(
            "{why} Call done now with your best answer from what you found (the exact values, even if partial), and success true only if the task is complete.{notes}"
        ),
    });
    let config = asked.config;
    let request = Request {
        system: system_prompt(config, asked.llm.current()),
        messages: compact(messages, config.history_budget),
        tools: asked.tools.to_vec(),
        max_tokens: config.max_tokens,
        force_tool: Some("done".into()),
    };
    let budget = limits::model_time(config.step_timeout);
    let call = asked.llm.complete_within(&request, budget);
    let Ok(Ok(done)) = tokio::time::timeout(config.step_timeout, call).await else {
        return None;
    };
    spend.add(&done.served_by, done.usage);
    done.tool_calls
        .iter()
        .find(|c| c.name == "done")
        .and_then(|c| c.arguments["text"].as_str().map(str::to_owned))
        .or_else(|| (!done.text.trim().is_empty()).then_some(done.text))
}
