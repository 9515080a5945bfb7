//! The cloud providers against a local server playing each one's API:
//! Azure OpenAI (its path, `api-version` and `api-key`, or an Entra
//! token), Mistral (its rules on ids, images and a forced tool), Bedrock's
//! Converse API (a SigV4-signed request with a session token) and Vertex
//! AI (a service account's JWT, whose signature the test checks, exchanged
//! for the token the call then carries). Each test checks the exact request
//! after the call.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rove_llm::{Auth, Endpoint, Llm, Message, Request, RetryPolicy, ToolCall, ToolSpec};
use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};

/// A test-only RSA key (2048 bits, PKCS #8), made for these tests with
/// `openssl genpkey`; it signs nothing anywhere else.
pub(crate) const TEST_KEY: &str = "-----BEGIN PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDBKG9I6nJ1gQRm\neroB/S/ujabrEe7BOko/pYgluzzQavqbWoZDGHTBLryQxSR2n96yLNNxh2s0NCFf\n5qqLgUC/9bwygtmgAVonrKYFBkjBZmoZfqCGo8VqcaUVsTESRmBUaZ99rz6qEtC7\n3iwC8cuL+HUIPCQcPYArE2O7yJi/vosLWZNKeMFx+slabyvAXXyOIO40Upkfg63V\neVMqytsIoHWPDbBFhYS5ibYzCbRL4Ry0hVGpF3m/oRrGKePiD39qv0t5q0rDEmA1\nJVuZY7Kyzfwlsp9e4M1wCepPAiYlzl9ARTfQCrlH+DkBk08iFs9ZK7s3JyrCd1UO\n1jQfGS8LAgMBAAECggEAQWoCqhRv19huF5CXfsXyXh0Nus0zaK/nZj+WaITM9x5L\nqaISFxXosGW2CWciTqQcpIWmw+tjBGZlKReyiRUoSvobFpYWwmfC0u3WuZvjts+K\nvgCSt5Yt7Lr49+wunKxFwkCU+VkIZUuC8iSvDf45+ziU1cmcRw4S4kOqQnWQOVrk\nveOsWTVSN6gs20ovCxowtJ0O5GgS0gA6eX4epLIMfNLhJpooHCp4Wv3lvegicAbn\nUMrtT9VnhBaRuGv7KDgwG/sUyWUMaMA4Af7OOa9VtHnORIl5DMHRtp8wNQiOhQQl\nv8TZxlx4XeNFisM6QDdMcVtwBSDiHUWHu9XZR2QnWQKBgQDuM8wb7fih9onUJlcY\nRkKWM1r5xN0ghjkYRcQ1BGA2fc6mOeCtkruL6ImtZSUmiHiMhcnuRXLd59REtiE1\npCxzgLpCuiPO8IpMF+Py4Jg/5moD/nGnCoBsvlDMlOqGErSTrne+TJrRsz9yoXes\nD0cLjDypTBtiuTxPPTVPnQv5IwKBgQDPlw2jsHmCRMrkLGIB9ueLkFvm3Zbw9w3H\n7fK4rDIrEziU41+9+oJEplHqET/QzhpH+CAZfEK6y6u2LQjpEJfYI9zIJmx0gZH4\n2yX3WbdPh0a9B6WT5xzbEarTtUv0ycBsdrULWJWEABxxwj1LUJJn5IjcAuxe1bpT\n5Y2eCTB0+QKBgQCEiVuLOsi5zYR4/3A8eHN6QU7gZJIpE6XXBJKccTfbefqucMu7\nqEYkHZnlWb7nBs4UWii2I/w6zlBEfxZRU2zMQ5bfo9Riw2If3rcdn6v2+gyI9l1k\ndSpp1yb7/evT97pz5YKI5vTJszOdY4xDtyhvm3LxPACM2MZezI7KInbUAwKBgQDI\nuD2v8IsMsoebaG67h4kLIWI7MDcqdzcUAbeXaKh5jfQ/wjpo7zfWORsrP9J8i0xO\nGlSvT78V7qjxVUowUKMBkmt/++cSH9aM0Rk8ubrNYve6/xHSmL0F9Wc/nST8Y7dz\nKLSVa+nl4FWgiTfLAvUND6RlV05FxFKNnH/6NthrwQKBgD6/NPHsuiAUwyd00ykr\nrs+i//aNo3EEK++88fFUISpEQG0deAVYHUr81F/2AMg/XT1zY/8M6+TmG1NlLvug\nxiUnFxYzC2VxKv04XvrphWaFxyr6NY+60vldU2CTu0sq4NMSsrYKbP5jDHVjwJzx\nqIIroVlckEiOZNgpSaXCkQKd\n-----END PRIVATE KEY-----\n";

/// One request the server received.
#[derive(Debug, Clone)]
struct Received {
    path: String,
    query: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// A server that answers each path with a fixed reply and keeps what it
/// received.
async fn serve(routes: Vec<(&str, Response)>) -> (LocalServer, Arc<Mutex<Vec<Received>>>) {
    let seen: Arc<Mutex<Vec<Received>>> = Arc::default();
    let mut table = Routes::new();
    for (path, reply) in routes {
        let seen = seen.clone();
        table = table.handle(path, move |request: &rove_localserver::Request| {
            seen.lock().expect("lock").push(Received {
                path: request.path.clone(),
                query: request.query.clone(),
                headers: request.headers.clone(),
                body: request.body.clone(),
            });
            reply.clone()
        });
    }
    (LocalServer::start(table).await.expect("server"), seen)
}

pub(crate) fn fast() -> RetryPolicy {
    RetryPolicy {
        retries: 0,
        base: Duration::from_millis(10),
        max: Duration::from_secs(1),
        attempt_timeout: Duration::from_secs(10),
    }
}

fn json_reply(value: Value) -> Response {
    Response::with_type(200, "application/json", value.to_string().into_bytes())
}

fn env(vars: Vec<(&'static str, String)>) -> impl Fn(&str) -> Option<String> {
    move |name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    }
}

/// A conversation with a call another provider made (its id is not
/// Mistral's kind), its result, and a screenshot.
pub(crate) fn request() -> Request {
    Request {
        system: "You drive a browser.".into(),
        messages: vec![
            Message::User {
                text: "Log in.".into(),
            },
            Message::Assistant {
                text: "Filling.".into(),
                tool_calls: vec![ToolCall {
                    id: "call_Xy7-1".into(),
                    name: "fill".into(),
                    arguments: json!({"ref": "e1", "text": "ada"}),
                }],
            },
            Message::Tool {
                call_id: "call_Xy7-1".into(),
                text: "filled e1".into(),
                is_error: false,
            },
            Message::Image {
                text: "The page now.".into(),
                mime: "image/jpeg".into(),
                data: "AAAA".into(),
            },
        ],
        tools: vec![
            ToolSpec {
                name: "click".into(),
                description: "Click an element.".into(),
                parameters: json!({"type": "object", "properties": {"ref": {"type": "string"}}, "required": ["ref"]}),
            },
            ToolSpec {
                name: "done".into(),
                description: "Finish.".into(),
                parameters: json!({"type": "object", "properties": {"text": {"type": "string"}}}),
            },
        ],
        max_tokens: 1024,
        force_tool: None,
    }
}

fn openai_reply() -> Response {
    json_reply(json!({
        "id": "x", "object": "chat.completion", "model": "served-model",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null,
            "tool_calls": [{"id": "D681PevKs", "type": "function", "function": {"name": "click", "arguments": "{\"ref\":\"e7\"}"}}]
        }}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 5}
    }))
}

#[tokio::test]
async fn azure_openai_calls_the_deployment_with_its_api_version_and_key() {
    let (server, seen) = serve(vec![(
        "/openai/deployments/my-gpt/chat/completions",
        openai_reply(),
    )])
    .await;
    let endpoint = Endpoint::resolve(
        "azure:my-gpt",
        env(vec![
            ("AZURE_OPENAI_ENDPOINT", server.url("/")),
            ("AZURE_OPENAI_API_KEY", "az-test-secret".into()),
        ]),
    )
    .expect("endpoint");
    let llm = Llm::new(endpoint, None, fast()).expect("client");
    let done = llm.complete(&request()).await.expect("completion");
    assert_eq!(done.tool_calls[0].arguments, json!({"ref": "e7"}));
    let first = seen.lock().expect("lock").clone();
    let sent = &first[0];
    assert_eq!(sent.path, "/openai/deployments/my-gpt/chat/completions");
    assert_eq!(sent.query, "api-version=2024-10-21");
    assert_eq!(sent.header("api-key"), Some("az-test-secret"));
    assert_eq!(sent.header("authorization"), None);
    let body = sent.json();
    assert!(
        body.get("model").is_none(),
        "the deployment names the model: {body}"
    );
    assert_eq!(body["max_completion_tokens"], 1024);
    assert_eq!(
        body["messages"][0],
        json!({"role": "system", "content": "You drive a browser."})
    );
    assert_eq!(
        body["messages"][2]["tool_calls"][0]["function"]["name"],
        "fill"
    );
    assert_eq!(
        body["messages"][4]["content"][1]["image_url"]["url"],
        "data:image/jpeg;base64,AAAA"
    );
    assert_eq!(body["tools"][0]["function"]["name"], "click");

    // An Entra ID token instead of a key, and a version of one's own.
    let endpoint = Endpoint::resolve(
        "azure:my-gpt",
        env(vec![
            ("AZURE_OPENAI_ENDPOINT", server.url("")),
            ("AZURE_OPENAI_AD_TOKEN", "entra-test-token".into()),
            ("OPENAI_API_VERSION", "2025-04-01-preview".into()),
        ]),
    )
    .expect("endpoint");
    assert_eq!(endpoint.auth, Auth::Bearer);
    let llm = Llm::new(endpoint, None, fast()).expect("client");
    llm.complete(&request()).await.expect("completion");
    let seen = seen.lock().expect("lock").clone();
    assert_eq!(seen[1].query, "api-version=2025-04-01-preview");
    assert_eq!(
        seen[1].header("authorization"),
        Some("Bearer entra-test-token")
    );
    assert_eq!(seen[1].header("api-key"), None);
    let missing = Endpoint::resolve(
        "azure:my-gpt",
        env(vec![("AZURE_OPENAI_ENDPOINT", server.url(""))]),
    )
    .expect_err("no key");
    assert!(
        missing.to_string().contains("AZURE_OPENAI_API_KEY"),
        "{missing}"
    );
}

#[tokio::test]
async fn mistral_gets_nine_character_ids_string_images_and_any_for_a_forced_tool() {
    let (server, seen) = serve(vec![("/v1/chat/completions", openai_reply())]).await;
    let endpoint = Endpoint::resolve(
        "mistral:mistral-medium-latest",
        env(vec![
            ("MISTRAL_API_KEY", "mi-test-secret".into()),
            ("MISTRAL_BASE_URL", server.url("/v1")),
        ]),
    )
    .expect("endpoint");
    let llm = Llm::new(endpoint, None, fast()).expect("client");
    let done = llm.complete(&request()).await.expect("completion");
    assert_eq!(done.tool_calls[0].id, "D681PevKs");
    let forced = Request {
        force_tool: Some("done".into()),
        ..request()
    };
    llm.complete(&forced).await.expect("forced");
    let seen = seen.lock().expect("lock").clone();
    assert_eq!(seen[0].path, "/v1/chat/completions");
    assert_eq!(
        seen[0].header("authorization"),
        Some("Bearer mi-test-secret")
    );
    let body = seen[0].json();
    assert_eq!(body["model"], "mistral-medium-latest");
    assert_eq!(body["max_tokens"], 1024);
    let id = body["messages"][2]["tool_calls"][0]["id"]
        .as_str()
        .expect("id");
    assert!(
        id.len() == 9 && id.chars().all(|c| c.is_ascii_alphanumeric()),
        "{id}"
    );
    assert_eq!(
        body["messages"][3]["tool_call_id"], id,
        "the result names the same call"
    );
    assert_eq!(
        body["messages"][4]["content"][1],
        json!({"type": "image_url", "image_url": "data:image/jpeg;base64,AAAA"})
    );
    assert!(body.get("tool_choice").is_none());
    assert!(body["tools"][0]["function"].get("strict").is_none());
    let forced = seen[1].json();
    assert_eq!(forced["tool_choice"], "any");
    assert_eq!(forced["tools"].as_array().map(Vec::len), Some(1));
    assert_eq!(forced["tools"][0]["function"]["name"], "done");
}

#[tokio::test]
async fn bedrock_converse_is_signed_with_the_session_token_and_maps_tool_use() {
    let reply = json_reply(json!({
        "output": {"message": {"role": "assistant", "content": [
            {"text": "Clicking."},
            {"toolUse": {"toolUseId": "tooluse_1", "name": "click", "input": {"ref": "e7"}}}
        ]}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 200, "outputTokens": 12, "totalTokens": 212, "cacheReadInputTokens": 800}
    }));
    let model = "anthropic.claude-sonnet-4-5-20250929-v1:0";
    let path = "/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse";
    let (server, seen) = serve(vec![(path, reply)]).await;
    let endpoint = Endpoint::resolve(
        &format!("bedrock:{model}"),
        env(vec![
            ("AWS_ACCESS_KEY_ID", "AKIDTEST".into()),
            ("AWS_SECRET_ACCESS_KEY", "aws-test-secret".into()),
            ("AWS_SESSION_TOKEN", "aws-test-session".into()),
            ("AWS_REGION", "eu-central-1".into()),
            ("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", server.url("")),
            ("HOME", "/nonexistent".into()),
        ]),
    )
    .expect("endpoint");
    let llm = Llm::new(endpoint, None, fast()).expect("client");
    let done = llm
        .complete(&Request {
            force_tool: Some("click".into()),
            ..request()
        })
        .await
        .expect("completion");
    assert_eq!(done.text, "Clicking.");
    assert_eq!(
        done.tool_calls,
        vec![ToolCall {
            id: "tooluse_1".into(),
            name: "click".into(),
            arguments: json!({"ref": "e7"})
        }]
    );
    assert_eq!(
        (done.usage.input, done.usage.cached, done.usage.output),
        (1000, 800, 12)
    );
    let seen = seen.lock().expect("lock").clone();
    let sent = &seen[0];
    assert_eq!(sent.path, path);
    let date = sent.header("x-amz-date").expect("x-amz-date");
    assert_eq!(date.len(), 16, "{date}");
    let authorization = sent.header("authorization").expect("signed");
    let scope = format!("AKIDTEST/{}/eu-central-1/bedrock/aws4_request", &date[..8]);
    assert!(
        authorization.starts_with(&format!(
            "AWS4-HMAC-SHA256 Credential={scope}, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature="
        )),
        "{authorization}"
    );
    let signature = authorization
        .rsplit("Signature=")
        .next()
        .unwrap_or_default();
    assert!(signature.len() == 64 && signature.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(!authorization.contains("aws-test-secret"));
    assert_eq!(
        sent.header("x-amz-security-token"),
        Some("aws-test-session")
    );
    let body = sent.json();
    assert_eq!(body["system"], json!([{"text": "You drive a browser."}]));
    assert_eq!(body["inferenceConfig"]["maxTokens"], 1024);
    assert_eq!(
        body["messages"][1]["content"][1],
        json!({"toolUse": {"toolUseId": "call_Xy7-1", "name": "fill", "input": {"ref": "e1", "text": "ada"}}})
    );
    // The result and the screenshot after it: one user turn.
    assert_eq!(body["messages"].as_array().map(Vec::len), Some(3), "{body}");
    assert_eq!(
        body["messages"][2]["content"][0],
        json!({"toolResult": {"toolUseId": "call_Xy7-1", "content": [{"text": "filled e1"}], "status": "success"}})
    );
    assert_eq!(
        body["messages"][2]["content"][2],
        json!({"image": {"format": "jpeg", "source": {"bytes": "AAAA"}}})
    );
    assert_eq!(
        body["toolConfig"]["tools"][0]["toolSpec"]["inputSchema"]["json"]["required"],
        json!(["ref"])
    );
    assert_eq!(
        body["toolConfig"]["toolChoice"],
        json!({"tool": {"name": "click"}})
    );
}

#[tokio::test]
async fn vertex_signs_a_jwt_for_its_token_and_calls_gemini_with_it() {
    let reply = json_reply(json!({
        "candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "click", "args": {"ref": "e7"}}}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 300, "candidatesTokenCount": 7},
        "modelVersion": "gemini-2.5-flash"
    }));
    let token = json_reply(
        json!({"access_token": "ya29.test-token", "expires_in": 3599, "token_type": "Bearer"}),
    );
    let path = "/v1/projects/rove-test/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent";
    let (server, seen) = serve(vec![("/token", token), (path, reply)]).await;
    let dir = std::env::temp_dir().join(format!("rove-vertex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let key_file = dir.join("key.json");
    let token_uri = server.url("/token");
    std::fs::write(
        &key_file,
        json!({
            "type": "service_account", "project_id": "rove-test", "private_key_id": "kid-1",
            "private_key": TEST_KEY, "client_email": "agent@rove-test.iam.gserviceaccount.com",
            "token_uri": token_uri,
        })
        .to_string(),
    )
    .expect("key file");
    let endpoint = Endpoint::resolve(
        "vertex:gemini-2.5-flash",
        env(vec![
            (
                "GOOGLE_APPLICATION_CREDENTIALS",
                key_file.display().to_string(),
            ),
            ("GOOGLE_CLOUD_LOCATION", "europe-west4".into()),
            ("VERTEX_BASE_URL", server.url("")),
        ]),
    )
    .expect("endpoint");
    assert!(!format!("{endpoint:?}").contains("PRIVATE KEY"));
    let llm = Llm::new(endpoint, None, fast()).expect("client");
    let done = llm.complete(&request()).await.expect("completion");
    assert_eq!(done.tool_calls[0].name, "click");
    llm.complete(&request()).await.expect("a second call");
    std::fs::remove_dir_all(&dir).expect("cleanup");
    let seen = seen.lock().expect("lock").clone();
    let paths: Vec<&str> = seen.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["/token", path, path], "one token for both calls");
    let form = String::from_utf8_lossy(&seen[0].body).into_owned();
    assert_eq!(
        seen[0].header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    let assertion = form
        .strip_prefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=")
        .expect("a JWT bearer grant");
    let parts: Vec<&str> = assertion.split('.').collect();
    assert_eq!(parts.len(), 3, "{assertion}");
    let decode = |part: &str| -> Value {
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).expect("base64url")).expect("json")
    };
    assert_eq!(
        decode(parts[0]),
        json!({"alg": "RS256", "typ": "JWT", "kid": "kid-1"})
    );
    let claims = decode(parts[1]);
    assert_eq!(claims["iss"], "agent@rove-test.iam.gserviceaccount.com");
    assert_eq!(claims["aud"], token_uri.as_str());
    assert_eq!(
        claims["scope"],
        "https://www.googleapis.com/auth/cloud-platform"
    );
    assert_eq!(
        claims["exp"].as_u64(),
        claims["iat"].as_u64().map(|t| t + 3600)
    );
    // The signature verifies with the test key's public half.
    let pem: String = TEST_KEY
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect();
    let der = base64::engine::general_purpose::STANDARD
        .decode(pem)
        .expect("pem");
    let pair = ring::signature::RsaKeyPair::from_pkcs8(&der).expect("key");
    let public = ring::signature::UnparsedPublicKey::new(
        &ring::signature::RSA_PKCS1_2048_8192_SHA256,
        ring::signature::KeyPair::public_key(&pair)
            .as_ref()
            .to_vec(),
    );
    let signature = URL_SAFE_NO_PAD.decode(parts[2]).expect("signature");
    public
        .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
        .expect("the JWT is signed with the service account's key");
    assert_eq!(
        seen[1].header("authorization"),
        Some("Bearer ya29.test-token")
    );
    let body = seen[1].json();
    assert_eq!(
        body["systemInstruction"]["parts"][0]["text"],
        "You drive a browser."
    );
    assert_eq!(
        body["contents"][1]["parts"][1]["functionCall"]["name"],
        "fill"
    );
    assert_eq!(
        body["contents"][3]["parts"][1]["inlineData"]["mimeType"],
        "image/jpeg"
    );
    assert_eq!(body["tools"][0]["functionDeclarations"][0]["name"], "click");
}
