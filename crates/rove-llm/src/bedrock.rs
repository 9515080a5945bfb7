//! Amazon Bedrock's Converse API (`POST /model/{modelId}/converse`): one
//! shape for every model Bedrock serves, tool use included.

use serde_json::{Value, json};

use crate::{Completion, LlmError, Message, Request, ToolCall, Usage};

/// The request body. Converse wants the turns to alternate, starting with
/// the user's: consecutive turns of one role (tool results, then a nudge or
/// a screenshot) go into one turn, in order.
pub(crate) fn body(request: &Request) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    for message in &request.messages {
        let (role, blocks) = match message {
            Message::User { text } => ("user", vec![json!({"text": text})]),
            Message::Image { text, mime, data } => (
                "user",
                vec![
                    json!({"text": text}),
                    json!({"image": {"format": image_format(mime), "source": {"bytes": data}}}),
                ],
            ),
            Message::Assistant { text, tool_calls } => {
                let mut blocks = Vec::new();
                if !text.is_empty() {
                    blocks.push(json!({"text": text}));
                }
                for call in tool_calls {
                    // Converse wants an object as the input.
                    let input = match &call.arguments {
                        Value::Object(_) => call.arguments.clone(),
                        other => json!({"value": other}),
                    };
                    blocks.push(json!({"toolUse": {"toolUseId": call.id, "name": call.name, "input": input}}));
                }
                if blocks.is_empty() {
                    blocks.push(json!({"text": "(no text)"}));
                }
                ("assistant", blocks)
            }
            Message::Tool {
                call_id,
                text,
                is_error,
            } => (
                "user",
                vec![json!({"toolResult": {
                    "toolUseId": call_id,
                    "content": [{"text": text}],
                    "status": if *is_error { "error" } else { "success" },
                }})],
            ),
        };
        match messages.last_mut() {
            Some(last) if last["role"] == role => {
                if let Some(content) = last["content"].as_array_mut() {
                    content.extend(blocks);
                }
            }
            _ => messages.push(json!({"role": role, "content": blocks})),
        }
    }
    let mut body = json!({
        "system": [{"text": request.system}],
        "messages": messages,
        "inferenceConfig": {"maxTokens": request.max_tokens},
    });
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({"toolSpec": {"name": t.name, "description": t.description, "inputSchema": {"json": crate::schema::lean(&t.parameters)}}}))
            .collect();
        body["toolConfig"] = json!({"tools": tools});
        if let Some(name) = &request.force_tool {
            body["toolConfig"]["toolChoice"] = json!({"tool": {"name": name}});
        }
    }
    body
}

/// Converse names image formats without the `image/`.
fn image_format(mime: &str) -> &str {
    match mime {
        "image/png" => "png",
        "image/gif" => "gif",
        "image/webp" => "webp",
        _ => "jpeg",
    }
}

/// The answer, or `Truncated` when it stopped at the output limit.
pub(crate) fn parse(answer: &Value, provider: &str, model: &str) -> Result<Completion, LlmError> {
    if answer["stopReason"].as_str() == Some("max_tokens") {
        return Err(LlmError::Truncated {
            provider: provider.to_owned(),
        });
    }
    let blocks = answer["output"]["message"]["content"]
        .as_array()
        .ok_or_else(|| LlmError::BadResponse {
            provider: provider.to_owned(),
            message: "no output.message.content".into(),
        })?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in blocks {
        if let Some(t) = block["text"].as_str() {
            text.push_str(t);
        }
        if let Some(call) = block.get("toolUse") {
            tool_calls.push(ToolCall {
                id: call["toolUseId"].as_str().unwrap_or_default().to_owned(),
                name: call["name"].as_str().unwrap_or_default().to_owned(),
                arguments: call["input"].clone(),
            });
        }
    }
    let usage = &answer["usage"];
    let read = usage["cacheReadInputTokens"].as_u64().unwrap_or(0);
    let written = usage["cacheWriteInputTokens"].as_u64().unwrap_or(0);
    Ok(Completion {
        text,
        tool_calls,
        usage: Usage {
            input: usage["inputTokens"].as_u64().unwrap_or(0) + read + written,
            output: usage["outputTokens"].as_u64().unwrap_or(0),
            cached: read,
        },
        // Converse's answer does not name the model; the request did.
        model: model.to_owned(),
        // Set by the client, which knows which endpoint it called.
        served_by: String::new(),
    })
}
