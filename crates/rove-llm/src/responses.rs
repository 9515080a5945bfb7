//! OpenAI's Responses API.

use serde_json::{Value, json};

use crate::{Completion, LlmError, Message, Request, ToolCall, Usage};

/// The request body: the conversation as input items.
pub(crate) fn body(model: &str, request: &Request) -> Value {
    let mut input = Vec::new();
    for message in &request.messages {
        match message {
            Message::User { text } => input.push(json!({"role": "user", "content": text})),
            Message::Image { text, mime, data } => input.push(json!({"role": "user", "content": [
                {"type": "input_text", "text": text},
                {"type": "input_image", "image_url": format!("data:{mime};base64,{data}")},
            ]})),
            Message::Assistant { text, tool_calls } => {
                if !text.is_empty() {
                    input.push(json!({"role": "assistant", "content": text}));
                }
                for call in tool_calls {
                    input.push(json!({"type": "function_call", "call_id": call.id, "name": call.name, "arguments": call.arguments.to_string()}));
                }
            }
            Message::Tool { call_id, text, .. } => {
                input.push(
                    json!({"type": "function_call_output", "call_id": call_id, "output": text}),
                );
            }
        }
    }
    let mut body = json!({
        "model": model,
        "instructions": request.system,
        "input": input,
        "max_output_tokens": request.max_tokens,
    });
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| {
                // The Responses API takes `strict` per tool, and reads a
                // tool without it as strict: it is always said.
                let (parameters, strict) = crate::schema::for_openai(&t.parameters);
                json!({"type": "function", "name": t.name, "description": t.description, "parameters": parameters, "strict": strict})
            })
            .collect();
        if let Some(name) = &request.force_tool {
            body["tool_choice"] = json!({"type": "function", "name": name});
        }
    }
    body
}

/// The answer, or `Truncated` when it stopped at the output limit.
pub(crate) fn parse(answer: &Value, provider: &str) -> Result<Completion, LlmError> {
    if answer["status"].as_str() == Some("incomplete")
        && answer["incomplete_details"]["reason"].as_str() == Some("max_output_tokens")
    {
        return Err(LlmError::Truncated {
            provider: provider.to_owned(),
        });
    }
    let items = answer["output"]
        .as_array()
        .ok_or_else(|| LlmError::BadResponse {
            provider: provider.to_owned(),
            message: "no output".into(),
        })?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for item in items {
        match item["type"].as_str() {
            Some("message") => {
                for part in item["content"].as_array().into_iter().flatten() {
                    if part["type"] == "output_text" {
                        text.push_str(part["text"].as_str().unwrap_or_default());
                    }
                }
            }
            Some("function_call") => {
                let raw = item["arguments"].as_str().unwrap_or("{}");
                tool_calls.push(ToolCall {
                    id: item["call_id"].as_str().unwrap_or_default().to_owned(),
                    name: item["name"].as_str().unwrap_or_default().to_owned(),
                    arguments: serde_json::from_str(raw)
                        .unwrap_or_else(|_| Value::String(raw.to_owned())),
                });
            }
            _ => {}
        }
    }
    let usage = &answer["usage"];
    Ok(Completion {
        text,
        tool_calls,
        usage: Usage {
            input: usage["input_tokens"].as_u64().unwrap_or(0),
            output: usage["output_tokens"].as_u64().unwrap_or(0),
            cached: usage["input_tokens_details"]["cached_tokens"]
                .as_u64()
                .unwrap_or(0),
        },
        model: answer["model"].as_str().unwrap_or_default().to_owned(),
        // Set by the client, which knows which endpoint it called.
        served_by: String::new(),
    })
}
