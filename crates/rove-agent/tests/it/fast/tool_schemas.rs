//! Every tool schema as each host and provider receives it, checked against
//! that host's published rules: MCP gets the portable subset, Anthropic the
//! same without `additionalProperties` (which no decoder of its enforces),
//! Gemini its function declarations (an OpenAPI-style schema), OpenAI its
//! strict mode for the tools whose arguments are all required and the lean
//! portable schema for the rest. The schemas are taken from the requests the agent's model
//! client really sends, to a local server speaking each provider's wire
//! format, so what is checked is what goes out.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rove_llm::{Endpoint, Llm, Message, Request, RetryPolicy};
use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};

/// Each request body the server received, by path.
type Seen = Arc<Mutex<Vec<(String, Value)>>>;

async fn server(seen: Seen) -> LocalServer {
    let handler = move |request: &rove_localserver::Request| {
        let body = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        seen.lock()
            .expect("lock")
            .push((request.path.clone(), body));
        let reply = match request.path.as_str() {
            "/v1/chat/completions" => json!({
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1}
            }),
            "/v1/responses" => json!({
                "status": "completed",
                "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}],
                "usage": {"input_tokens": 1, "output_tokens": 1}
            }),
            "/v1/messages" => json!({
                "type": "message", "role": "assistant", "stop_reason": "end_turn",
                "content": [{"type": "text", "text": "ok"}],
                "usage": {"input_tokens": 1, "output_tokens": 1}
            }),
            _ => json!({
                "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}],
                "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1}
            }),
        };
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
    };
    LocalServer::start(
        Routes::new()
            .handle(
                "/v1beta/models/gemini-2.5-flash:generateContent",
                handler.clone(),
            )
            .handle("/v1/chat/completions", handler.clone())
            .handle("/v1/responses", handler.clone())
            .handle("/v1/messages", handler),
    )
    .await
    .expect("server")
}

/// The body of the one request the agent's client sends for `model`, with
/// the tools of every group.
async fn body_sent(model: &str) -> Value {
    let seen: Seen = Arc::default();
    let server = server(seen.clone()).await;
    let base = server.url("/v1");
    let root = server.url("");
    let endpoint = Endpoint::resolve(model, |v| match v {
        "OPENAI_API_KEY" | "ANTHROPIC_API_KEY" | "GEMINI_API_KEY" => Some("test-key".into()),
        "OPENAI_BASE_URL" => Some(base.clone()),
        "ANTHROPIC_BASE_URL" | "GEMINI_BASE_URL" => Some(root.clone()),
        _ => None,
    })
    .expect("endpoint");
    let policy = RetryPolicy {
        retries: 0,
        base: Duration::from_millis(10),
        max: Duration::from_secs(1),
        attempt_timeout: Duration::from_secs(10),
    };
    let llm = Llm::new(endpoint, None, policy).expect("client");
    let request = Request {
        system: "You drive a browser.".into(),
        messages: vec![Message::User { text: "Go.".into() }],
        tools: rove_agent::tool_specs_within(rove_commands::Caps::all()),
        max_tokens: 64,
        force_tool: None,
    };
    let answer = llm.complete(&request).await;
    let seen = seen.lock().expect("lock").clone();
    assert!(answer.is_ok(), "{model}: {answer:?}");
    assert_eq!(seen.len(), 1, "{model}: one request");
    seen[0].1.clone()
}

fn names_ok(name: &str, extra: &[char], max: usize) -> bool {
    !name.is_empty()
        && name.len() <= max
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || extra.contains(&c))
}

/// The portable subset rove promises (MCP hosts): objects `closed` with
/// `additionalProperties: false`, or (the lean form the models get) without
/// that keyword at all.
fn portable(schema: &Value, at: &str, closed: bool, errors: &mut Vec<String>) {
    const KEYS: &[&str] = &[
        "type",
        "description",
        "properties",
        "required",
        "items",
        "enum",
        "additionalProperties",
    ];
    let Some(map) = schema.as_object() else {
        errors.push(format!("{at}: not an object"));
        return;
    };
    for key in map.keys() {
        if !KEYS.contains(&key.as_str()) {
            errors.push(format!("{at}: keyword {key}"));
        }
    }
    let ty = map.get("type").and_then(Value::as_str);
    match ty {
        Some("object" | "array" | "string" | "integer" | "number" | "boolean") => {}
        _ => errors.push(format!("{at}: type {:?}", map.get("type"))),
    }
    if let Some(values) = map.get("enum") {
        let strings = values
            .as_array()
            .is_some_and(|v| !v.is_empty() && v.iter().all(Value::is_string));
        if !strings || ty != Some("string") {
            errors.push(format!("{at}: enum without type string or of non-strings"));
        }
    }
    if ty == Some("object") {
        match (closed, map.get("additionalProperties")) {
            (true, Some(v)) if *v == json!(false) => {}
            (false, None) => {}
            (true, _) => errors.push(format!("{at}: object not closed")),
            (false, Some(_)) => errors.push(format!("{at}: additionalProperties on the lean form")),
        }
        let props = map.get("properties").and_then(Value::as_object);
        let Some(props) = props else {
            errors.push(format!("{at}: object without properties"));
            return;
        };
        for r in map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !r.as_str().is_some_and(|r| props.contains_key(r)) {
                errors.push(format!("{at}: required {r} is not a property"));
            }
        }
        for (name, prop) in props {
            portable(prop, &format!("{at}.{name}"), closed, errors);
        }
    }
    if ty == Some("array") {
        match map.get("items") {
            Some(items) => portable(items, &format!("{at}[]"), closed, errors),
            None => errors.push(format!("{at}: array without items")),
        }
    }
}

/// Gemini's function declarations: an OpenAPI 3.0 schema subset.
fn gemini(schema: &Value, at: &str, errors: &mut Vec<String>) {
    const KEYS: &[&str] = &[
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "propertyOrdering",
        "default",
        "items",
        "minimum",
        "maximum",
    ];
    let Some(map) = schema.as_object() else {
        errors.push(format!("{at}: not an object"));
        return;
    };
    for key in map.keys() {
        if !KEYS.contains(&key.as_str()) {
            errors.push(format!("{at}: Gemini refuses {key}"));
        }
    }
    let ty = map
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase);
    match ty.as_deref() {
        Some("object" | "array" | "string" | "integer" | "number" | "boolean") => {}
        _ => errors.push(format!("{at}: type {:?}", map.get("type"))),
    }
    if map.contains_key("enum") && ty.as_deref() != Some("string") {
        errors.push(format!("{at}: enum on a non-string"));
    }
    if ty.as_deref() == Some("object") {
        let props = map.get("properties").and_then(Value::as_object);
        match props {
            Some(props) if !props.is_empty() => {
                for (name, prop) in props {
                    gemini(prop, &format!("{at}.{name}"), errors);
                }
            }
            _ => errors.push(format!("{at}: properties should be non-empty for OBJECT")),
        }
    }
    if ty.as_deref() == Some("array") {
        match map.get("items") {
            Some(items) => gemini(items, &format!("{at}[]"), errors),
            None => errors.push(format!("{at}: array without items")),
        }
    }
}

/// OpenAI's strict mode (Structured Outputs for function calling).
fn strict(schema: &Value, at: &str, depth: usize, errors: &mut Vec<String>) {
    const KEYS: &[&str] = &[
        "type",
        "description",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
    ];
    if depth > 10 {
        errors.push(format!("{at}: nested deeper than 10"));
    }
    let Some(map) = schema.as_object() else {
        errors.push(format!("{at}: not an object"));
        return;
    };
    for key in map.keys() {
        if !KEYS.contains(&key.as_str()) {
            errors.push(format!("{at}: strict mode refuses {key}"));
        }
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let base: Vec<&&str> = types.iter().filter(|t| **t != "null").collect();
    if base.len() != 1 {
        errors.push(format!("{at}: type {:?}", map.get("type")));
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        let nullable = types.contains(&"null");
        if nullable != values.contains(&Value::Null) {
            errors.push(format!("{at}: enum and type disagree about null"));
        }
    }
    if base.first().is_some_and(|t| **t == "object") {
        if map.get("additionalProperties") != Some(&json!(false)) {
            errors.push(format!("{at}: additionalProperties must be false"));
        }
        let props = map.get("properties").and_then(Value::as_object);
        let keys: BTreeSet<&str> = props
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let required: BTreeSet<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if keys != required {
            errors.push(format!(
                "{at}: required {required:?} is not every property {keys:?}"
            ));
        }
        for (name, prop) in props.into_iter().flatten() {
            strict(prop, &format!("{at}.{name}"), depth + 1, errors);
        }
    }
    if base.first().is_some_and(|t| **t == "array") {
        match map.get("items") {
            Some(items) => strict(items, &format!("{at}[]"), depth + 1, errors),
            None => errors.push(format!("{at}: array without items")),
        }
    }
}

#[test]
fn every_mcp_tool_schema_is_in_the_portable_subset() {
    let mut errors = Vec::new();
    for tool in rove_commands::tools() {
        portable(&tool.parameters, tool.name, true, &mut errors);
        if !names_ok(tool.name, &['-'], 64) {
            errors.push(format!("{}: name", tool.name));
        }
    }
    assert!(errors.is_empty(), "{errors:#?}");
}

#[tokio::test]
async fn gemini_gets_function_declarations_it_accepts() {
    let body = body_sent("gemini:gemini-2.5-flash").await;
    let declarations = body["tools"][0]["functionDeclarations"]
        .as_array()
        .expect("declarations")
        .clone();
    assert_eq!(
        declarations.len(),
        rove_agent::tool_specs_within(rove_commands::Caps::all()).len()
    );
    let mut errors = Vec::new();
    for d in &declarations {
        let name = d["name"].as_str().unwrap_or_default();
        if !names_ok(name, &['.', '-'], 64) || name.starts_with(|c: char| c.is_ascii_digit()) {
            errors.push(format!("{name}: name"));
        }
        if let Some(parameters) = d.get("parameters") {
            gemini(parameters, name, &mut errors);
        }
    }
    assert!(errors.is_empty(), "{errors:#?}");
    // A tool without arguments leaves its parameters out.
    let back = declarations
        .iter()
        .find(|d| d["name"] == "back")
        .expect("back");
    assert!(back.get("parameters").is_none(), "{back}");
}

/// Whether every argument of the tool (at every depth) is required.
fn all_required(schema: &Value) -> bool {
    let required = schema["required"].as_array().cloned().unwrap_or_default();
    schema["properties"].as_object().is_none_or(|props| {
        props
            .iter()
            .all(|(name, prop)| required.contains(&json!(name)) && all_required(prop))
    }) && schema.get("items").is_none_or(all_required)
}

#[tokio::test]
async fn openai_gets_strict_schemas_where_every_argument_is_required() {
    for (model, tools_at) in [
        ("openai:gpt-5-mini", "/function"),
        ("openai-responses:gpt-5-mini", ""),
    ] {
        let body = body_sent(model).await;
        let tools = body["tools"].as_array().expect("tools").clone();
        assert_eq!(
            tools.len(),
            rove_agent::tool_specs_within(rove_commands::Caps::all()).len()
        );
        let mut errors = Vec::new();
        let mut strict_ones = 0;
        for tool in &tools {
            let function = tool.pointer(tools_at).expect("function");
            let name = function["name"].as_str().unwrap_or_default();
            if !names_ok(name, &['-'], 64) {
                errors.push(format!("{name}: name"));
            }
            let vocabulary = rove_agent::tool_specs_within(rove_commands::Caps::all())
                .into_iter()
                .find(|t| t.name == name)
                .expect("a tool offered");
            let has_arguments = vocabulary.parameters["properties"]
                .as_object()
                .is_some_and(|p| !p.is_empty());
            let should_be_strict = has_arguments && all_required(&vocabulary.parameters);
            if should_be_strict {
                strict_ones += 1;
                if function["strict"] != json!(true) {
                    errors.push(format!("{name}: not strict"));
                }
                strict(&function["parameters"], name, 0, &mut errors);
                continue;
            }
            // The Responses API reads a tool without the flag as strict.
            let flag_ok = match tools_at {
                "" => function["strict"] == json!(false),
                _ => function.get("strict").is_none(),
            };
            if !flag_ok {
                errors.push(format!("{name}: strict is {:?}", function.get("strict")));
            }
            match function.get("parameters") {
                Some(parameters) => portable(parameters, name, false, &mut errors),
                // Chat Completions reads a function without parameters as
                // one that takes none.
                None if !has_arguments && !tools_at.is_empty() => {}
                None => errors.push(format!("{name}: no parameters")),
            }
        }
        assert!(errors.is_empty(), "{model}: {errors:#?}");
        assert!(strict_ones >= 5, "{model}: {strict_ones} strict tools");
    }
}

#[tokio::test]
async fn anthropic_gets_the_lean_portable_schemas() {
    let body = body_sent("anthropic:claude-sonnet-4-5").await;
    let tools = body["tools"].as_array().expect("tools").clone();
    assert_eq!(
        tools.len(),
        rove_agent::tool_specs_within(rove_commands::Caps::all()).len()
    );
    let mut errors = Vec::new();
    for tool in &tools {
        let name = tool["name"].as_str().unwrap_or_default();
        portable(&tool["input_schema"], name, false, &mut errors);
    }
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn strict_nulls_read_as_left_out() {
    // What a model in strict mode sends for a click that names only its ref.
    let args = json!({"ref": "e7", "button": null, "double": null, "modifiers": null});
    let command = rove_commands::Command::from_tool_call("click", Some(&args)).expect("parses");
    assert_eq!(command.tool_arguments()["ref"], "e7");
    assert_eq!(command.tool_arguments()["button"], "left");
}
