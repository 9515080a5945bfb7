//! OpenAI Chat Completions, which every OpenAI-compatible server speaks
//! (Ollama, vLLM, llama.cpp's server, OpenRouter, DeepSeek, Groq, Gemini's
//! compatible endpoint).

use serde_json::{Value, json};

use crate::{Completion, LlmError, Message, Request, ToolCall, Usage};

/// The request body.
pub(crate) fn body(model: &str, request: &Request, provider: &str) -> Value {
    let mut messages = vec![json!({"role": "system", "content": request.system})];
    for message in &request.messages {
        messages.push(match message {
            Message::User { text } => json!({"role": "user", "content": text}),
            Message::Image { text, mime, data } => json!({"role": "user", "content": [
                {"type": "text", "text": text},
                {"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{data}")}},
            ]}),
            Message::Assistant { text, tool_calls } => {
                let mut m = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { Value::String(text.clone()) }});
                if !tool_calls.is_empty() {
                    m["tool_calls"] = tool_calls
                        .iter()
                        .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments.to_string()}}))
                        .collect();
                }
                m
            }
            Message::Tool { call_id, text, .. } => {
                json!({"role": "tool", "tool_call_id": call_id, "content": text})
            }
        });
    }
    let mut body = json!({"model": model, "messages": messages});
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| {
                // OpenAI's own API holds the model to the schema in strict
                // mode (for the tools where that is cheap, see
                // `schema::for_openai`); compatible servers may not know
                // it, so they get the lean schema.
                let (parameters, strict) = if provider == "openai" {
                    crate::schema::for_openai(&t.parameters)
                } else {
                    (crate::schema::lean(&t.parameters), false)
                };
                let mut function = json!({"name": t.name, "description": t.description});
                if strict {
                    function["strict"] = json!(true);
                }
                // OpenAI reads a function without parameters as one that
                // takes none (`back`, `reload`); other servers may insist.
                if provider != "openai" || !crate::schema::takes_nothing(&parameters) {
                    function["parameters"] = parameters;
                }
                json!({"type": "function", "function": function})
            })
            .collect();
        if let Some(name) = &request.force_tool {
            body["tool_choice"] = json!({"type": "function", "function": {"name": name}});
        }
    }
    // OpenAI's own API (and Azure's, which its reasoning models need)
    // counts reasoning in `max_completion_tokens`; compatible servers know
    // `max_tokens`.
    let limit = if provider == "openai" || provider == "azure" {
        "max_completion_tokens"
    } else {
        "max_tokens"
    };
    body[limit] = json!(request.max_tokens);
    body
}

/// The answer, or `Truncated` when it stopped at the output limit.
pub(crate) fn parse(answer: &Value, provider: &str) -> Result<Completion, LlmError> {
    let bad = |message: &str| LlmError::BadResponse {
        provider: provider.to_owned(),
        message: message.to_owned(),
    };
    let choice = answer["choices"].get(0).ok_or_else(|| bad("no choices"))?;
    if choice["finish_reason"].as_str() == Some("length") {
        return Err(LlmError::Truncated {
            provider: provider.to_owned(),
        });
    }
    let message = &choice["message"];
    let tool_calls = message["tool_calls"]
        .as_array()
        .map(|calls| {
            calls
                .iter()
                .map(|c| {
                    let raw = c["function"]["arguments"].as_str().unwrap_or("{}");
                    ToolCall {
                        id: c["id"].as_str().unwrap_or_default().to_owned(),
                        name: c["function"]["name"]
                            .as_str()
                            .unwrap_or_default()
                            .to_owned(),
                        // Arguments that are not JSON stay a string, for
                        // validation to report.
                        arguments: serde_json::from_str(raw)
                            .unwrap_or_else(|_| Value::String(raw.to_owned())),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let usage = &answer["usage"];
    Ok(Completion {
        text: message["content"].as_str().unwrap_or_default().to_owned(),
        tool_calls,
        usage: Usage {
            input: usage["prompt_tokens"].as_u64().unwrap_or(0),
            output: usage["completion_tokens"].as_u64().unwrap_or(0),
            cached: usage["prompt_tokens_details"]["cached_tokens"]
                .as_u64()
                .unwrap_or(0),
        },
        model: answer["model"].as_str().unwrap_or_default().to_owned(),
        // Set by the client, which knows which endpoint it called.
        served_by: String::new(),
    })
}
