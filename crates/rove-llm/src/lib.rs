//! `rove-llm`: thin clients for the models rove's agent talks to.
//!
//! A model is named `provider:model` (`openai:gpt-5-mini`,
//! `anthropic:claude-sonnet-4-5`, `ollama:qwen3:8b`); keys and base URLs come
//! from each provider's usual environment variables ([`Endpoint::resolve`]).
//! The wire formats: OpenAI Chat Completions (OpenAI and every compatible
//! server: Ollama, vLLM, llama.cpp, OpenRouter, DeepSeek, Groq; Azure
//! OpenAI's deployments; Mistral's API with its own rules), OpenAI's
//! Responses API (`openai-responses:…`), Anthropic Messages, Google Gemini's
//! `generateContent` (also on Vertex AI, signed in with a service account's
//! token) and Amazon Bedrock's Converse API (signed with SigV4). Calls retry
//! with backoff and jitter on 429 and 5xx (honouring `Retry-After`), fail
//! with typed errors ([`LlmError`]), report usage, and may fall back once
//! per run to another model. Nothing here knows about browsers; keys are
//! never logged.

#![forbid(unsafe_code)]

mod anthropic;
mod aws;
mod bedrock;
mod client;
mod error;
mod gemini;
mod google;
mod mistral;
mod model;
mod openai;
mod price;
mod responses;
mod schema;
mod transport;
mod types;

pub use aws::AwsCredentials;
pub use client::Llm;
pub use error::LlmError;
pub use google::ServiceAccount;
pub use model::{
    AZURE_API_VERSION, Auth, CREDENTIAL_VARS, Endpoint, Wire, credential_vars, is_credential_var,
};
pub use price::{Price, PriceTable};
pub use transport::RetryPolicy;
pub use types::{Completion, Message, Request, Spend, ToolCall, ToolSpec, Usage};
