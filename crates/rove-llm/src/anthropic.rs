//! Anthropic Messages.

use serde_json::{Value, json};

use crate::{Completion, LlmError, Message, Request, ToolCall, Usage};

/// The API version rove speaks.
pub(crate) const VERSION: &str = "2023-06-01";

/// The request body. Tool results go back as a user turn of `tool_result`
/// blocks, consecutive ones together, as the API requires.
pub(crate) fn body(model: &str, request: &Request) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    for message in &request.messages {
        match message {
            Message::User { text } => messages.push(json!({"role": "user", "content": text})),
            Message::Image { text, mime, data } => messages.push(json!({"role": "user", "content": [
                {"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}},
                {"type": "text", "text": text},
            ]})),
            Message::Assistant { text, tool_calls } => {
                let mut content = Vec::new();
                if !text.is_empty() {
                    content.push(json!({"type": "text", "text": text}));
                }
                for call in tool_calls {
                    content.push(json!({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}));
                }
                messages.push(json!({"role": "assistant", "content": content}));
            }
            Message::Tool {
                call_id,
                text,
                is_error,
            } => {
                let block = json!({"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": is_error});
                let joins = messages.last().is_some_and(|last| {
                    last["role"] == "user"
                        && last["content"]
                            .as_array()
                            .is_some_and(|c| c.iter().all(|b| b["type"] == "tool_result"))
                });
                match messages.last_mut() {
                    Some(last) if joins => {
                        if let Some(blocks) = last["content"].as_array_mut() {
                            blocks.push(block);
                        }
                    }
                    _ => messages.push(json!({"role": "user", "content": [block]})),
                }
            }
        }
    }
    let mut body = json!({
        "model": model,
        "max_tokens": request.max_tokens,
        "system": request.system,
        "messages": messages,
    });
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": crate::schema::lean(&t.parameters)}))
            .collect();
        if let Some(name) = &request.force_tool {
            body["tool_choice"] = json!({"type": "tool", "name": name});
        }
    }
    body
}

/// The answer, or `Truncated` when it stopped at the output limit.
pub(crate) fn parse(answer: &Value, provider: &str) -> Result<Completion, LlmError> {
    if answer["stop_reason"].as_str() == Some("max_tokens") {
        return Err(LlmError::Truncated {
            provider: provider.to_owned(),
        });
    }
    let blocks = answer["content"]
        .as_array()
        .ok_or_else(|| LlmError::BadResponse {
            provider: provider.to_owned(),
            message: "no content".into(),
        })?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in blocks {
        match block["type"].as_str() {
            Some("text") => text.push_str(block["text"].as_str().unwrap_or_default()),
            Some("tool_use") => tool_calls.push(ToolCall {
                id: block["id"].as_str().unwrap_or_default().to_owned(),
                name: block["name"].as_str().unwrap_or_default().to_owned(),
                arguments: block["input"].clone(),
            }),
            _ => {}
        }
    }
    let usage = &answer["usage"];
    let read = usage["cache_read_input_tokens"].as_u64().unwrap_or(0);
    let written = usage["cache_creation_input_tokens"].as_u64().unwrap_or(0);
    Ok(Completion {
        text,
        tool_calls,
        usage: Usage {
            input: usage["input_tokens"].as_u64().unwrap_or(0) + read + written,
            output: usage["output_tokens"].as_u64().unwrap_or(0),
            cached: read,
        },
        model: answer["model"].as_str().unwrap_or_default().to_owned(),
        // Set by the client, which knows which endpoint it called.
        served_by: String::new(),
    })
}
