//! Google Gemini's native API (`generateContent`).

use serde_json::{Value, json};

use crate::{Completion, LlmError, Message, Request, ToolCall, Usage};

/// The request body. Tool results name their function (Gemini matches them
/// by name), found from the call they answer.
pub(crate) fn body(request: &Request) -> Value {
    let mut contents: Vec<Value> = Vec::new();
    let mut names: Vec<(String, String)> = Vec::new();
    for message in &request.messages {
        match message {
            Message::User { text } => {
                contents.push(json!({"role": "user", "parts": [{"text": text}]}))
            }
            Message::Image { text, mime, data } => contents.push(json!({"role": "user", "parts": [
                {"text": text},
                {"inlineData": {"mimeType": mime, "data": data}},
            ]})),
            Message::Assistant { text, tool_calls } => {
                let mut parts = Vec::new();
                if !text.is_empty() {
                    parts.push(json!({"text": text}));
                }
                for call in tool_calls {
                    names.push((call.id.clone(), call.name.clone()));
                    parts
                        .push(json!({"functionCall": {"name": call.name, "args": call.arguments}}));
                }
                contents.push(json!({"role": "model", "parts": parts}));
            }
            Message::Tool { call_id, text, .. } => {
                let name = names
                    .iter()
                    .find(|(id, _)| id == call_id)
                    .map(|(_, n)| n.clone())
                    .unwrap_or_default();
                let part =
                    json!({"functionResponse": {"name": name, "response": {"content": text}}});
                // Consecutive results go back in one turn.
                let joins = contents.last().is_some_and(|last| {
                    last["role"] == "user"
                        && last["parts"]
                            .as_array()
                            .is_some_and(|p| p.iter().all(|x| x.get("functionResponse").is_some()))
                });
                match contents.last_mut() {
                    Some(last) if joins => {
                        if let Some(parts) = last["parts"].as_array_mut() {
                            parts.push(part);
                        }
                    }
                    _ => contents.push(json!({"role": "user", "parts": [part]})),
                }
            }
        }
    }
    let mut body = json!({
        "systemInstruction": {"parts": [{"text": request.system}]},
        "contents": contents,
        "generationConfig": {"maxOutputTokens": request.max_tokens},
    });
    if !request.tools.is_empty() {
        let declarations: Vec<Value> = request
            .tools
            .iter()
            .map(|t| {
                let mut declaration = json!({"name": t.name, "description": t.description});
                if let Some(parameters) = crate::schema::for_gemini(&t.parameters) {
                    declaration["parameters"] = parameters;
                }
                declaration
            })
            .collect();
        body["tools"] = json!([{"functionDeclarations": declarations}]);
        if let Some(name) = &request.force_tool {
            // ANY with one allowed name: a call to exactly that function.
            body["toolConfig"] =
                json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [name]}});
        }
    }
    body
}

/// The answer, or `Truncated` when it stopped at the output limit.
pub(crate) fn parse(answer: &Value, provider: &str) -> Result<Completion, LlmError> {
    let candidate = answer["candidates"]
        .get(0)
        .ok_or_else(|| LlmError::BadResponse {
            provider: provider.to_owned(),
            message: "no candidates".into(),
        })?;
    if candidate["finishReason"].as_str() == Some("MAX_TOKENS") {
        return Err(LlmError::Truncated {
            provider: provider.to_owned(),
        });
    }
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for (i, part) in candidate["content"]["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(t) = part["text"].as_str() {
            text.push_str(t);
        }
        if let Some(call) = part.get("functionCall") {
            tool_calls.push(ToolCall {
                // Gemini's calls may have no id; rove gives them one.
                id: call["id"]
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| format!("gemini-{i}")),
                name: call["name"].as_str().unwrap_or_default().to_owned(),
                arguments: call["args"].clone(),
            });
        }
    }
    let usage = &answer["usageMetadata"];
    Ok(Completion {
        text,
        tool_calls,
        usage: Usage {
            input: usage["promptTokenCount"].as_u64().unwrap_or(0),
            output: usage["candidatesTokenCount"].as_u64().unwrap_or(0),
            cached: usage["cachedContentTokenCount"].as_u64().unwrap_or(0),
        },
        model: answer["modelVersion"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        // Set by the client, which knows which endpoint it called.
        served_by: String::new(),
    })
}
