//! What the model is taught before its first step (the system prompt, in a
//! variant for its family), and what each turn tells it of its budget.
//!
//! The prompt teaches the loop as rove runs it (docs/agent.md says the
//! same to people): refs per tab, batches and what stops them, tabs for
//! side research, dialogs, secrets, collapsed runs, checking before `done`,
//! and that plain text is no action.

use rove_llm::Endpoint;

use crate::AgentConfig;
use crate::notes::Notes;

/// Which prompt a model gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptVariant {
    /// Every rule, with a short word on why: hosted chat models.
    Full,
    /// The same rules in fewer words: small local models (8B parameters
    /// or fewer), whose context and attention are short.
    Short,
    /// The full rules without asking for written thoughts: models that
    /// reason before they answer (o-series, GPT-5, R1, "thinking" ones).
    Reasoning,
}

impl PromptVariant {
    /// The variant for `model`, by its name.
    pub fn for_model(model: &Endpoint) -> PromptVariant {
        let name = model.model.to_lowercase();
        if parameters_in_billions(&name).is_some_and(|b| b <= 9.0) {
            return PromptVariant::Short;
        }
        let bare = name.rsplit('/').next().unwrap_or(&name);
        let reasoning = ["o1", "o3", "o4"]
            .iter()
            .any(|p| bare.starts_with(p) && !bare[p.len()..].starts_with(char::is_alphabetic))
            || bare.starts_with("gpt-5")
            || ["reason", "thinking", "-r1", ":r1", "qwq"]
                .iter()
                .any(|w| bare.contains(w));
        if reasoning {
            PromptVariant::Reasoning
        } else {
            PromptVariant::Full
        }
    }
}

/// The size a model's name gives (`qwen3:8b`, `llama-3.2-3b-instruct`,
/// `gemma3:1b`), when it gives one.
fn parameters_in_billions(name: &str) -> Option<f64> {
    name.split([':', '-', '_', '/', ' '])
        .filter_map(|word| word.strip_suffix('b'))
        .filter_map(|n| n.parse::<f64>().ok())
        .find(|n| *n > 0.0)
}

const FULL: &str = "\
You drive a web browser to do the user's task. You act only through tools; text you write is not an action.

The page: each turn shows it as text, one line per element, with a ref (e7) for each thing you can act on. The text covers the whole page, also what is scrolled out of sight; a screenshot, when you get one, shows only the viewport. Act by ref, with the refs of the latest view. Each tab has its own refs: a ref of another tab fails until you switch to it. After a navigation the old refs are gone. After each action you see what changed, not the whole page again; snapshot shows it all.

Long pages: a line like \"… 90 more rows like the above (find reaches them)\" stands for items left out of the view. Use find with words you expect on the line you need (a name, a code) to get those lines and their refs; use read for the text of the page or of one element (read with a table's ref gives the table).

Batches: you may make several tool calls in one turn; they run in order. If a call fails, the calls after it are not run (their results say so): look at the error and the page, then go on. A navigation also ends the batch, since the next refs would be stale. Switching tabs does not end it. So fill a form and submit it in one turn (a fill that fails stops the submit); only a field that appears after an earlier call needs a turn of its own, since its ref is not known yet.

Tabs: for side research (another site, a search), open a second tab with tab(action=new, url=…), and switch back to the task's tab with tab(action=switch, tab=t1) when done, so the task's page keeps its state.

Dialogs: an alert, confirm or prompt blocks the page until you answer it with dialog(accept=true) or dialog(accept=false).

Secrets: when the task names secrets, write the placeholder <secret>NAME</secret> as the text of fill or type; rove types the value, which you never see.

Memory: old results are shortened as the run goes on. Write the facts you will need (prices, names, codes) and your plan with note; your notes are shown every turn and never cut.

Finishing: before done, check the page shows what the task asked (the result, the saved state, the exact value). Put the exact answer in done's text (the number, the name, the list, as asked), with success true only when the task is done. If it cannot be done, call done with what you found and success false. Each turn says which step it is and how many remain; at the limit you are asked once for your answer.";

const SHORT: &str = "\
You use a web browser for the user's task. Act only with tool calls; plain text does nothing.
- The page is text: one line per element, refs like e7. Use refs from the latest view; each tab has its own refs.
- Calls in one turn run in order; after a failed call the rest do not run.
- \"… N more rows\": call find with words from the row you need.
- read(ref=eN) reads one element (a table comes as a table).
- Dialogs: dialog(accept=true) or dialog(accept=false).
- Secrets: type <secret>NAME</secret> with fill.
- Save facts with note; notes are shown every turn.
- Finish with done: the exact answer, and success true only if done. You are told the step number and the limit.";

/// What the reasoning variant says instead of the full prompt's first
/// line: no written thoughts, which such models keep to themselves.
const REASONING_LEAD: &str = "You drive a web browser to do the user's task. You act only through tools; text you write is not an action. Keep your reasoning to yourself: answer each turn with tool calls.";

/// The system prompt of a run with `model`.
pub(crate) fn system_prompt(config: &AgentConfig, model: &Endpoint) -> String {
    let mut prompt = match &config.system_prompt {
        Some(own) => own.clone(),
        None => match PromptVariant::for_model(model) {
            PromptVariant::Full => FULL.to_owned(),
            PromptVariant::Short => SHORT.to_owned(),
            PromptVariant::Reasoning => {
                let rest = FULL.split_once('\n').map_or("", |(_, rest)| rest);
                format!("{REASONING_LEAD}\n{rest}")
            }
        },
    };
    if let Some(more) = config
        .extend_system_prompt
        .as_deref()
        .filter(|m| !m.is_empty())
    {
        prompt.push_str("\n\n");
        prompt.push_str(more);
    }
    prompt
}

/// Where the run stands, shown at the end of every request: the step and
/// the limit, the actions one step may take, the failures so far, and the
/// model's notes.
pub(crate) fn turn_status(
    number: u32,
    config: &AgentConfig,
    failed_in_a_row: u32,
    notes: &Notes,
) -> String {
    let mut status = format!(
        "Step {number} of {}; at most {} tool calls per step.",
        config.max_steps, config.max_actions_per_step
    );
    if failed_in_a_row > 0 {
        status.push_str(&format!(
            " {failed_in_a_row} step(s) in a row failed; {} in a row end the run.",
            config.max_failures
        ));
    }
    if number >= config.max_steps {
        status.push_str(
            " This is the last step: finish with done now if you can; otherwise you will be asked once for your best answer.",
        );
    }
    if let Some(shown) = notes.shown() {
        status.push('\n');
        status.push_str(&shown);
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(model: &str) -> Endpoint {
        Endpoint::resolve(model, |_| Some("k".into())).expect("endpoint")
    }

    #[test]
    fn the_variant_follows_the_models_name() {
        for (model, variant) in [
            ("ollama:qwen3:8b", PromptVariant::Short),
            ("ollama:llama3.2:3b", PromptVariant::Short),
            ("openai:gpt-5-mini", PromptVariant::Reasoning),
            ("openai:o4-mini", PromptVariant::Reasoning),
            ("deepseek:deepseek-reasoner", PromptVariant::Reasoning),
            ("openai:gpt-4.1", PromptVariant::Full),
            ("anthropic:claude-sonnet-4-5", PromptVariant::Full),
            ("ollama:qwen3:32b", PromptVariant::Full),
        ] {
            assert_eq!(
                PromptVariant::for_model(&endpoint(model)),
                variant,
                "{model}"
            );
        }
    }
}
