//! The provider clients against a local server that speaks each provider's
//! wire format and plays scripted replies: requests as the providers
//! document them, tool calls and usage parsed, 429 with `Retry-After`, 5xx
//! exhausting retries, the fallback model, 401 not retried, truncation, and
//! a call within a budget (no pause past it; the fallback gets the rest), and
//! a forced tool asked for in each wire format.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rove_llm::{Endpoint, Llm, LlmError, Message, Request, RetryPolicy, ToolCall, ToolSpec};
use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};

/// One request the server received: path, headers, body.
type Received = (String, Vec<(String, String)>, Value);
type Seen = Arc<Mutex<Vec<Received>>>;

struct Scripted {
    server: LocalServer,
    seen: Seen,
}

impl Scripted {
    async fn start(replies: Vec<Response>) -> Scripted {
        let queue = Arc::new(Mutex::new(VecDeque::from(replies)));
        let seen: Seen = Arc::default();
        let handler = {
            let (queue, seen) = (queue.clone(), seen.clone());
            move |request: &rove_localserver::Request| {
                let body = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
                seen.lock().expect("lock").push((
                    request.path.clone(),
                    request.headers.clone(),
                    body,
                ));
                queue
                    .lock()
                    .expect("lock")
                    .pop_front()
                    .unwrap_or_else(|| Response::status(599))
            }
        };
        let server = LocalServer::start(
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
        .expect("server");
        Scripted { server, seen }
    }

    fn openai(&self) -> Endpoint {
        let base = self.server.url("/v1");
        Endpoint::resolve("openai:gpt-5-mini", |v| match v {
            "OPENAI_API_KEY" => Some("sk-test-secret".into()),
            "OPENAI_BASE_URL" => Some(base.clone()),
            _ => None,
        })
        .expect("endpoint")
    }

    fn anthropic(&self) -> Endpoint {
        let base = self.server.url("");
        Endpoint::resolve("anthropic:claude-sonnet-4-5", |v| match v {
            "ANTHROPIC_API_KEY" => Some("ak-test-secret".into()),
            "ANTHROPIC_BASE_URL" => Some(base.clone()),
            _ => None,
        })
        .expect("endpoint")
    }

    fn requests(&self) -> Vec<Received> {
        self.seen.lock().expect("lock").clone()
    }
}

fn fast() -> RetryPolicy {
    RetryPolicy {
        retries: 3,
        base: Duration::from_millis(10),
        max: Duration::from_secs(5),
        attempt_timeout: Duration::from_secs(10),
    }
}

fn json_reply(value: Value) -> Response {
    Response::with_type(200, "application/json", value.to_string().into_bytes())
}

fn openai_tool_call() -> Response {
    json_reply(json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-5-mini-2025-08-07",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "click", "arguments": "{\"ref\":\"e7\"}"}}]
        }}],
        "usage": {"prompt_tokens": 1200, "completion_tokens": 20, "prompt_tokens_details": {"cached_tokens": 1000}}
    }))
}

fn anthropic_tool_use() -> Response {
    json_reply(json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use",
        "content": [{"type": "text", "text": "Clicking."}, {"type": "tool_use", "id": "toolu_1", "name": "click", "input": {"ref": "e7"}}],
        "usage": {"input_tokens": 200, "output_tokens": 30, "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 0}
    }))
}

fn request() -> Request {
    Request {
        system: "You drive a browser.".into(),
        messages: vec![
            Message::User {
                text: "Log in.".into(),
            },
            Message::Assistant {
                text: String::new(),
                tool_calls: vec![
                    ToolCall {
                        id: "c1".into(),
                        name: "fill".into(),
                        arguments: json!({"ref": "e1", "text": "ada"}),
                    },
                    ToolCall {
                        id: "c2".into(),
                        name: "fill".into(),
                        arguments: json!({"ref": "e2", "text": "pw"}),
                    },
                ],
            },
            Message::Tool {
                call_id: "c1".into(),
                text: "filled e1".into(),
                is_error: false,
            },
            Message::Tool {
                call_id: "c2".into(),
                text: "filled e2".into(),
                is_error: false,
            },
        ],
        tools: vec![ToolSpec {
            name: "click".into(),
            description: "Click an element.".into(),
            parameters: json!({"type": "object", "properties": {"ref": {"type": "string"}}, "required": ["ref"]}),
        }],
        max_tokens: 1024,
        force_tool: None,
    }
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

#[tokio::test]
async fn openai_chat_completions_round_trip() {
    let s = Scripted::start(vec![openai_tool_call()]).await;
    let llm = Llm::new(s.openai(), None, fast()).expect("client");
    let done = llm.complete(&request()).await.expect("completion");
    assert_eq!(
        done.tool_calls,
        vec![ToolCall {
            id: "call_1".into(),
            name: "click".into(),
            arguments: json!({"ref": "e7"})
        }]
    );
    assert_eq!(
        (done.usage.input, done.usage.output, done.usage.cached),
        (1200, 20, 1000)
    );
    let seen = s.requests();
    let (path, headers, body) = &seen[0];
    assert_eq!(path, "/v1/chat/completions");
    assert_eq!(
        header(headers, "authorization"),
        Some("Bearer sk-test-secret")
    );
    assert_eq!(body["model"], "gpt-5-mini");
    assert_eq!(body["max_completion_tokens"], 1024);
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(
        body["messages"][2]["tool_calls"][1]["function"]["arguments"],
        "{\"ref\":\"e2\",\"text\":\"pw\"}"
    );
    assert_eq!(
        body["messages"][3],
        json!({"role": "tool", "tool_call_id": "c1", "content": "filled e1"})
    );
    assert_eq!(body["tools"][0]["function"]["name"], "click");
}

#[tokio::test]
async fn anthropic_messages_round_trip() {
    let s = Scripted::start(vec![anthropic_tool_use()]).await;
    let llm = Llm::new(s.anthropic(), None, fast()).expect("client");
    let done = llm.complete(&request()).await.expect("completion");
    assert_eq!(done.text, "Clicking.");
    assert_eq!(done.tool_calls[0].arguments, json!({"ref": "e7"}));
    assert_eq!((done.usage.input, done.usage.cached), (1200, 1000));
    let seen = s.requests();
    let (path, headers, body) = &seen[0];
    assert_eq!(path, "/v1/messages");
    assert_eq!(header(headers, "x-api-key"), Some("ak-test-secret"));
    assert_eq!(header(headers, "anthropic-version"), Some("2023-06-01"));
    assert_eq!(body["system"], "You drive a browser.");
    // Both tool results in one user turn, as the API requires.
    assert_eq!(body["messages"].as_array().map(Vec::len), Some(3));
    assert_eq!(body["messages"][2]["content"][1]["tool_use_id"], "c2");
    assert_eq!(body["tools"][0]["input_schema"]["required"][0], "ref");
}

#[tokio::test]
async fn a_429_is_retried_after_its_retry_after() {
    let s = Scripted::start(vec![
        Response::status(429).header("Retry-After", "1"),
        openai_tool_call(),
    ])
    .await;
    let llm = Llm::new(s.openai(), None, fast()).expect("client");
    let started = Instant::now();
    llm.complete(&request())
        .await
        .expect("completion after the retry");
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was honoured"
    );
    assert_eq!(s.requests().len(), 2);
}

#[tokio::test]
async fn server_errors_exhaust_retries_then_the_fallback_takes_over_for_good() {
    let s = Scripted::start((0..4).map(|_| Response::status(503)).collect()).await;
    let alone = Llm::new(s.openai(), None, fast()).expect("client");
    let e = alone.complete(&request()).await.expect_err("exhausted");
    assert!(matches!(e, LlmError::Provider { status: 503, .. }), "{e:?}");
    assert_eq!(s.requests().len(), 4, "one attempt and three retries");

    let mut replies: Vec<Response> = (0..4).map(|_| Response::status(500)).collect();
    replies.push(anthropic_tool_use());
    replies.push(anthropic_tool_use());
    let s = Scripted::start(replies).await;
    let llm = Llm::new(s.openai(), Some(s.anthropic()), fast()).expect("client");
    let done = llm
        .complete(&request())
        .await
        .expect("the fallback answered");
    assert_eq!(done.model, "claude-sonnet-4-5");
    assert_eq!(
        llm.current().provider,
        "anthropic",
        "the run stays on the fallback"
    );
    llm.complete(&request())
        .await
        .expect("the next call goes to the fallback");
    let paths: Vec<String> = s.requests().into_iter().map(|(p, _, _)| p).collect();
    assert_eq!(
        paths
            .iter()
            .filter(|p| p.as_str() == "/v1/chat/completions")
            .count(),
        4
    );
    assert_eq!(
        paths
            .iter()
            .filter(|p| p.as_str() == "/v1/messages")
            .count(),
        2
    );
}

#[tokio::test]
async fn a_401_is_an_auth_error_and_not_retried() {
    let s = Scripted::start(vec![Response::with_type(
        401,
        "application/json",
        br#"{"error":{"message":"Incorrect API key"}}"#.to_vec(),
    )])
    .await;
    let llm = Llm::new(s.openai(), None, fast()).expect("client");
    let e = llm.complete(&request()).await.expect_err("auth");
    assert!(
        matches!(&e, LlmError::Auth { status: 401, message, .. } if message == "Incorrect API key"),
        "{e:?}"
    );
    assert_eq!(s.requests().len(), 1);
    assert!(
        !e.to_string().contains("sk-test-secret"),
        "the key never appears in an error"
    );
}

#[tokio::test]
async fn a_truncated_answer_is_a_typed_error() {
    let s = Scripted::start(vec![
        json_reply(json!({"model": "m", "choices": [{"finish_reason": "length", "message": {"role": "assistant", "content": "half"}}]})),
        json_reply(json!({"model": "m", "stop_reason": "max_tokens", "content": [{"type": "text", "text": "half"}], "usage": {}})),
    ])
    .await;
    let openai = Llm::new(s.openai(), None, fast()).expect("client");
    assert!(matches!(
        openai.complete(&request()).await,
        Err(LlmError::Truncated { .. })
    ));
    let anthropic = Llm::new(s.anthropic(), None, fast()).expect("client");
    assert!(matches!(
        anthropic.complete(&request()).await,
        Err(LlmError::Truncated { .. })
    ));
}

#[tokio::test]
async fn openai_responses_round_trip() {
    let reply = json_reply(json!({
        "id": "resp_1", "object": "response", "model": "gpt-5-mini", "status": "completed",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Clicking."}]},
            {"type": "function_call", "call_id": "call_9", "name": "click", "arguments": "{\"ref\":\"e7\"}"}
        ],
        "usage": {"input_tokens": 900, "output_tokens": 12, "input_tokens_details": {"cached_tokens": 800}}
    }));
    let truncated = json_reply(
        json!({"model": "m", "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": []}),
    );
    let s = Scripted::start(vec![reply, truncated]).await;
    let base = s.server.url("/v1");
    let endpoint = Endpoint::resolve("openai-responses:gpt-5-mini", |v| match v {
        "OPENAI_API_KEY" => Some("sk-test-secret".into()),
        "OPENAI_BASE_URL" => Some(base.clone()),
        _ => None,
    })
    .expect("endpoint");
    let llm = Llm::new(endpoint, None, fast()).expect("client");
    let done = llm.complete(&request()).await.expect("completion");
    assert_eq!(done.text, "Clicking.");
    assert_eq!(
        done.tool_calls[0],
        ToolCall {
            id: "call_9".into(),
            name: "click".into(),
            arguments: json!({"ref": "e7"})
        }
    );
    assert_eq!((done.usage.input, done.usage.cached), (900, 800));
    let (path, _, body) = &s.requests()[0];
    assert_eq!(path, "/v1/responses");
    assert_eq!(body["instructions"], "You drive a browser.");
    assert_eq!(body["input"][1]["type"], "function_call");
    assert_eq!(
        body["input"][3],
        json!({"type": "function_call_output", "call_id": "c1", "output": "filled e1"})
    );
    assert_eq!(body["tools"][0]["name"], "click");
    assert!(matches!(
        llm.complete(&request()).await,
        Err(LlmError::Truncated { .. })
    ));
}

#[tokio::test]
async fn gemini_generate_content_round_trip() {
    let reply = json_reply(json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": "Clicking."}, {"functionCall": {"name": "click", "args": {"ref": "e7"}}}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 700, "candidatesTokenCount": 9, "cachedContentTokenCount": 500},
        "modelVersion": "gemini-2.5-flash"
    }));
    let truncated = json_reply(
        json!({"candidates": [{"content": {"parts": [{"text": "half"}]}, "finishReason": "MAX_TOKENS"}]}),
    );
    let s = Scripted::start(vec![reply, truncated]).await;
    let base = s.server.url("");
    let endpoint = Endpoint::resolve("gemini:gemini-2.5-flash", |v| match v {
        "GEMINI_API_KEY" => Some("gk-test-secret".into()),
        "GEMINI_BASE_URL" => Some(base.clone()),
        _ => None,
    })
    .expect("endpoint");
    let llm = Llm::new(endpoint, None, fast()).expect("client");
    let done = llm.complete(&request()).await.expect("completion");
    assert_eq!(done.text, "Clicking.");
    assert_eq!(done.tool_calls[0].name, "click");
    assert_eq!(done.tool_calls[0].arguments, json!({"ref": "e7"}));
    assert_eq!(
        (done.usage.input, done.usage.cached, done.usage.output),
        (700, 500, 9)
    );
    let (path, headers, body) = &s.requests()[0];
    assert_eq!(path, "/v1beta/models/gemini-2.5-flash:generateContent");
    assert_eq!(header(headers, "x-goog-api-key"), Some("gk-test-secret"));
    assert_eq!(
        body["systemInstruction"]["parts"][0]["text"],
        "You drive a browser."
    );
    assert_eq!(body["contents"][1]["role"], "model");
    // Both results in one turn, each naming its function.
    assert_eq!(
        body["contents"][2]["parts"][1]["functionResponse"]["name"],
        "fill"
    );
    assert_eq!(body["tools"][0]["functionDeclarations"][0]["name"], "click");
    assert!(matches!(
        llm.complete(&request()).await,
        Err(LlmError::Truncated { .. })
    ));
}

#[tokio::test]
async fn within_a_budget_a_pause_past_it_is_not_taken_and_the_fallback_gets_the_rest() {
    // A 429 asking for a minute: inside a 4 s budget without a fallback, the
    // wait is not taken and the 429 is the answer, at once.
    let s = Scripted::start(vec![Response::status(429).header("Retry-After", "60")]).await;
    let alone = Llm::new(s.openai(), None, fast()).expect("client");
    let started = Instant::now();
    let e = alone
        .complete_within(&request(), Duration::from_secs(4))
        .await
        .expect_err("rate limited");
    assert!(
        matches!(
            e,
            LlmError::RateLimited {
                retry_after: Some(60),
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(s.requests().len(), 1);

    // A first model that does not answer: past its half of a 4 s budget it
    // is a timeout, and the fallback answers within the other half.
    let s = Scripted::start(vec![
        openai_tool_call().delayed(Duration::from_secs(30)),
        anthropic_tool_use(),
    ])
    .await;
    let llm = Llm::new(s.openai(), Some(s.anthropic()), fast()).expect("client");
    let started = Instant::now();
    let done = llm
        .complete_within(&request(), Duration::from_secs(4))
        .await
        .expect("the fallback answered");
    let took = started.elapsed();
    assert_eq!(done.model, "claude-sonnet-4-5");
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_secs(4),
        "the first model had half the budget: {took:?}"
    );
}

#[tokio::test]
async fn a_forced_tool_is_asked_for_in_each_wire_format() {
    let responses = json_reply(json!({
        "model": "gpt-5-mini", "status": "completed",
        "output": [{"type": "function_call", "call_id": "call_1", "name": "click", "arguments": "{\"ref\":\"e7\"}"}],
        "usage": {}
    }));
    let gemini = json_reply(json!({
        "candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "click", "args": {"ref": "e7"}}}]}, "finishReason": "STOP"}],
        "usageMetadata": {}
    }));
    let s = Scripted::start(vec![
        openai_tool_call(),
        anthropic_tool_use(),
        responses,
        gemini,
    ])
    .await;
    let base = s.server.url("");
    let v1 = s.server.url("/v1");
    let env = move |v: &str| match v {
        "OPENAI_BASE_URL" => Some(v1.clone()),
        "GEMINI_BASE_URL" => Some(base.clone()),
        _ if v.ends_with("_API_KEY") => Some("k".into()),
        _ => None,
    };
    let forced = Request {
        force_tool: Some("click".into()),
        ..request()
    };
    let endpoints = [
        s.openai(),
        s.anthropic(),
        Endpoint::resolve("openai-responses:gpt-5-mini", &env).expect("responses"),
        Endpoint::resolve("gemini:gemini-2.5-flash", &env).expect("gemini"),
    ];
    for endpoint in endpoints {
        let llm = Llm::new(endpoint, None, fast()).expect("client");
        let done = llm.complete(&forced).await.expect("completion");
        assert_eq!(done.tool_calls[0].name, "click");
    }
    let seen = s.requests();
    assert_eq!(seen.len(), 4);
    assert_eq!(
        seen[0].2["tool_choice"],
        json!({"type": "function", "function": {"name": "click"}})
    );
    assert_eq!(
        seen[1].2["tool_choice"],
        json!({"type": "tool", "name": "click"})
    );
    assert_eq!(
        seen[2].2["tool_choice"],
        json!({"type": "function", "name": "click"})
    );
    assert_eq!(
        seen[3].2["toolConfig"],
        json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["click"]}})
    );
    // Unforced, the choice stays the model's.
    let llm = Llm::new(s.openai(), None, fast()).expect("client");
    let _ = llm.complete(&request()).await;
    assert!(s.requests()[4].2.get("tool_choice").is_none());
}

#[tokio::test]
async fn a_refused_connection_is_its_own_error_and_not_retried() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}/v1", closed.local_addr().expect("addr"));
    drop(closed);
    let endpoint = Endpoint::resolve("openai:gpt-5-mini", |v| match v {
        "OPENAI_API_KEY" => Some("k".into()),
        "OPENAI_BASE_URL" => Some(base.clone()),
        _ => None,
    })
    .expect("endpoint");
    // Pauses of a second: three retries would take seven.
    let policy = RetryPolicy {
        base: Duration::from_secs(1),
        ..fast()
    };
    let llm = Llm::new(endpoint, None, policy).expect("client");
    let started = Instant::now();
    let e = llm.complete(&request()).await.expect_err("refused");
    assert!(matches!(e, LlmError::Refused { .. }), "{e:?}");
    assert!(e.warrants_fallback());
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}
