//! Providers that turn on rove (issue 37): one that repeats the credential
//! it was sent in its error (`Incorrect API key provided: sk-…`), for every
//! way rove proves who calls (a key as a bearer token, `api-key`,
//! `x-api-key`, `x-goog-api-key`, an Entra token, Bedrock's bearer token,
//! Vertex's access token obtained at run time), never has it in the error
//! rove hands on; and one that answers without end, or says it will send
//! 300 MB, is refused at the cap, typed, without holding the body.

use std::time::{Duration, Instant};

use rove_llm::{Endpoint, Llm, LlmError};
use rove_localserver::{LocalServer, Request as Received, Response, Routes};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::cloud_providers::{TEST_KEY, fast, request};

/// Every header value the request carried, repeated in an error body of
/// `status`, as providers do ("Incorrect API key provided: …").
fn echo(status: u16) -> impl Fn(&Received) -> Response + Send + Sync + 'static {
    move |request: &Received| {
        let said: Vec<String> = request
            .headers
            .iter()
            .map(|(name, value)| format!("{name}: {value}"))
            .collect();
        let message = format!("Incorrect API key provided: {}", said.join(" | "));
        Response::with_type(
            status,
            "application/json",
            json!({"error": {"message": message}})
                .to_string()
                .into_bytes(),
        )
    }
}

/// Environment variables, name and value.
type Vars = Vec<(&'static str, String)>;

fn vars(vars: Vars) -> impl Fn(&str) -> Option<String> {
    move |name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    }
}

#[tokio::test]
async fn a_provider_that_repeats_the_credential_never_has_it_in_the_error() {
    for status in [401, 500] {
        let routes = [
            "/v1/chat/completions",
            "/v1/messages",
            "/v1beta/models/m:generateContent",
            "/openai/deployments/m/chat/completions",
            "/model/m/converse",
            "/v1/projects/p/locations/us-central1/publishers/google/models/m:generateContent",
        ]
        .into_iter()
        .fold(Routes::new(), |routes, path| {
            routes.handle(path, echo(status))
        })
        .page(
            "/token",
            Response::with_type(
                200,
                "application/json",
                json!({"access_token": "ya29.hostile-obtained-7Qz", "expires_in": 3599})
                    .to_string()
                    .into_bytes(),
            ),
        );
        let server = LocalServer::start(routes).await.expect("server");
        let base = server.url("/v1");
        let root = server.url("");
        let dir = std::env::temp_dir().join(format!("rove-llm-hostile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let account = dir.join("account.json");
        std::fs::write(
            &account,
            json!({
                "type": "service_account", "project_id": "p", "private_key": TEST_KEY,
                "client_email": "a@p.iam.gserviceaccount.com", "token_uri": server.url("/token"),
            })
            .to_string(),
        )
        .expect("account");
        let cases: Vec<(&str, Vars, &str)> = vec![
            (
                "openai:m",
                vec![
                    ("OPENAI_API_KEY", "sk-hostile-openai-1".into()),
                    ("OPENAI_BASE_URL", base.clone()),
                ],
                "sk-hostile-openai-1",
            ),
            (
                "mistral:m",
                vec![
                    ("MISTRAL_API_KEY", "hostile-mistral-2".into()),
                    ("MISTRAL_BASE_URL", base.clone()),
                ],
                "hostile-mistral-2",
            ),
            (
                "anthropic:m",
                vec![
                    ("ANTHROPIC_API_KEY", "sk-ant-hostile-3".into()),
                    ("ANTHROPIC_BASE_URL", root.clone()),
                ],
                "sk-ant-hostile-3",
            ),
            (
                "gemini:m",
                vec![
                    ("GEMINI_API_KEY", "AIza-hostile-4".into()),
                    ("GEMINI_BASE_URL", root.clone()),
                ],
                "AIza-hostile-4",
            ),
            (
                "azure:m",
                vec![
                    ("AZURE_OPENAI_API_KEY", "az-hostile-5".into()),
                    ("AZURE_OPENAI_ENDPOINT", root.clone()),
                ],
                "az-hostile-5",
            ),
            (
                "azure:m",
                vec![
                    ("AZURE_OPENAI_AD_TOKEN", "eyJ-entra-hostile-6".into()),
                    ("AZURE_OPENAI_ENDPOINT", root.clone()),
                ],
                "eyJ-entra-hostile-6",
            ),
            (
                "bedrock:m",
                vec![
                    ("AWS_BEARER_TOKEN_BEDROCK", "ABSK-hostile-7".into()),
                    ("AWS_REGION", "us-east-1".into()),
                    ("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", root.clone()),
                ],
                "ABSK-hostile-7",
            ),
            (
                "bedrock:m",
                vec![
                    ("AWS_ACCESS_KEY_ID", "AKIDHOSTILE8".into()),
                    ("AWS_SECRET_ACCESS_KEY", "aws-secret-hostile-8".into()),
                    ("AWS_SESSION_TOKEN", "aws-session-hostile-8".into()),
                    ("AWS_REGION", "us-east-1".into()),
                    ("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", root.clone()),
                ],
                "aws-session-hostile-8",
            ),
            (
                "vertex:m",
                vec![
                    (
                        "GOOGLE_APPLICATION_CREDENTIALS",
                        account.display().to_string(),
                    ),
                    ("GOOGLE_CLOUD_LOCATION", "us-central1".into()),
                    ("VERTEX_BASE_URL", root.clone()),
                ],
                "ya29.hostile-obtained-7Qz",
            ),
        ];
        for (name, env, credential) in cases {
            let endpoint = Endpoint::resolve(name, vars(env)).expect(name);
            let llm = Llm::new(endpoint, None, fast()).expect("client");
            let error = llm.complete(&request()).await.expect_err("refused");
            let said = error.to_string();
            assert_eq!(error.status(), Some(status), "{name}: {said}");
            assert!(
                said.contains("Incorrect API key provided"),
                "{name}: the provider's words stay: {said}"
            );
            assert!(!said.contains(credential), "{name} {status}: {said}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A server at 127.0.0.1 that answers every connection with `head` and
/// then body bytes without end, until the client goes.
async fn endless(head: &'static str) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                let _ = socket.read(&mut buf).await;
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let chunked = head.contains("chunked");
                let piece = vec![b'a'; 1 << 20];
                loop {
                    let written = if chunked {
                        let mut framed = format!("{:x}\r\n", piece.len()).into_bytes();
                        framed.extend_from_slice(&piece);
                        framed.extend_from_slice(b"\r\n");
                        socket.write_all(&framed).await
                    } else {
                        socket.write_all(&piece).await
                    };
                    if written.is_err() {
                        return;
                    }
                }
            });
        }
    });
    addr
}

#[tokio::test]
async fn an_answer_without_end_is_refused_at_the_cap() {
    for head in [
        // Sent in chunks: no length is said, the cap is found reading.
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n",
        // An error's body, said to be 300 MB: refused before reading it.
        "HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: 314572800\r\n\r\n",
    ] {
        let addr = endless(head).await;
        let endpoint = Endpoint::resolve(
            "openai:m",
            vars(vec![
                ("OPENAI_API_KEY", "sk-test".into()),
                ("OPENAI_BASE_URL", format!("http://{addr}/v1")),
            ]),
        )
        .expect("endpoint");
        let llm = Llm::new(endpoint, None, fast()).expect("client");
        let started = Instant::now();
        let error = tokio::time::timeout(Duration::from_secs(60), llm.complete(&request()))
            .await
            .expect("the call ends")
            .expect_err("refused");
        assert!(
            matches!(error, LlmError::TooLarge { limit, .. } if limit == rove_base::limits::MODEL_ANSWER_BYTES),
            "{error}"
        );
        assert!(error.warrants_fallback(), "another model may answer");
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{:?}",
            started.elapsed()
        );
    }
}
