//! What goes to a model and what comes back, in rove's own shape; each
//! provider module maps it to and from its wire format.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// From the user (the task, a view, results).
    User {
        /// The text.
        text: String,
    },
    /// From the user: a picture (a screenshot) with a caption.
    Image {
        /// The caption.
        text: String,
        /// `image/png` or `image/jpeg`.
        mime: String,
        /// The image, base64-encoded.
        data: String,
    },
    /// From the model: text and the tools it called.
    Assistant {
        /// Its text (may be empty when it only calls tools).
        text: String,
        /// The tools it called, in order.
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call.
    Tool {
        /// The call it answers.
        call_id: String,
        /// What the tool returned.
        text: String,
        /// Whether the tool failed.
        is_error: bool,
    },
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Its name.
    pub name: String,
    /// When to use it.
    pub description: String,
    /// JSON Schema of its arguments.
    pub parameters: Value,
}

/// A call the model made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id of the call (results refer to it).
    pub id: String,
    /// The tool.
    pub name: String,
    /// Its arguments, parsed. Arguments that were not valid JSON arrive as
    /// a string, so validation can tell the model what was wrong.
    pub arguments: Value,
}

/// One request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Request {
    /// The system prompt.
    pub system: String,
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// The tools on offer.
    pub tools: Vec<ToolSpec>,
    /// The most tokens to generate.
    pub max_tokens: u32,
    /// The one tool the model must call (its answer is that call's
    /// arguments: structured output that every wire format supports);
    /// `None` leaves the choice to the model.
    pub force_tool: Option<String>,
}

/// Tokens a response used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens, cached ones included.
    pub input: u64,
    /// Generated tokens.
    pub output: u64,
    /// Prompt tokens served from the provider's cache.
    pub cached: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input += other.input;
        self.output += other.output;
        self.cached += other.cached;
    }
}

/// What the model answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// Its text.
    pub text: String,
    /// The tools it called.
    pub tool_calls: Vec<ToolCall>,
    /// What it cost in tokens.
    pub usage: Usage,
    /// The model that answered (as the provider names it).
    pub model: String,
    /// The endpoint that answered, as `provider:model` was configured: the
    /// primary or, once it took over, the fallback. Its price is the one
    /// these tokens cost.
    pub served_by: String,
}

/// Tokens spent, per model that spent them (`provider:model`), in the
/// order each first answered: a run that switched to its fallback is
/// priced at each model's own rate.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spend(Vec<(String, Usage)>);

impl Spend {
    /// Adds `usage` spent by `model`.
    pub fn add(&mut self, model: &str, usage: Usage) {
        match self.0.iter_mut().find(|(m, _)| m == model) {
            Some((_, total)) => *total += usage,
            None => self.0.push((model.to_owned(), usage)),
        }
    }

    /// Every model's tokens together.
    pub fn total(&self) -> Usage {
        let mut total = Usage::default();
        for (_, usage) in &self.0 {
            total += *usage;
        }
        total
    }

    /// Each model with its tokens.
    pub fn by_model(&self) -> &[(String, Usage)] {
        &self.0
    }
}
