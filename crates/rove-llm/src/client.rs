//! A model to call, with an optional fallback used once per run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::time::Instant;

use crate::aws::{self, AwsCredentials};
use crate::google::ServiceAccount;
use crate::model::{Auth, Endpoint, Wire};
use crate::transport::{RetryPolicy, Transport};
use crate::{
    Completion, LlmError, Request, anthropic, bedrock, gemini, mistral, openai, responses,
};

/// Access tokens by account, with when each expires.
type Tokens = std::sync::Mutex<std::collections::HashMap<String, (String, Instant)>>;

/// A model, ready to call.
#[derive(Debug)]
pub struct Llm {
    primary: Endpoint,
    fallback: Option<Endpoint>,
    /// Set once the fallback took over; it stays for the rest of the run.
    switched: AtomicBool,
    transport: Transport,
    /// Service accounts' tokens, reused while they last.
    tokens: Tokens,
}

impl Llm {
    /// A client for `primary`, with `fallback` for when it fails with 401,
    /// 402, 429, 5xx or cannot be reached.
    pub fn new(
        primary: Endpoint,
        fallback: Option<Endpoint>,
        policy: RetryPolicy,
    ) -> Result<Llm, LlmError> {
        Ok(Llm {
            primary,
            fallback,
            switched: AtomicBool::new(false),
            transport: Transport::new(policy)?,
            tokens: Tokens::default(),
        })
    }

    /// The endpoint in use now.
    pub fn current(&self) -> &Endpoint {
        match (&self.fallback, self.switched.load(Ordering::Relaxed)) {
            (Some(fallback), true) => fallback,
            _ => &self.primary,
        }
    }

    /// One completion. A failure that warrants it moves the run to the
    /// fallback model (once), saying so in the log.
    pub async fn complete(&self, request: &Request) -> Result<Completion, LlmError> {
        self.complete_by(request, None).await
    }

    /// One completion within `budget`, retries and the fallback included.
    /// While the fallback has not taken over, the first model gets half of
    /// the budget, so that a slow or failing one leaves the fallback the
    /// other half; without a fallback (or once it took over) the model in
    /// use gets all of it. Past its share a model's call fails as
    /// [`LlmError::Timeout`], which warrants the fallback.
    pub async fn complete_within(
        &self,
        request: &Request,
        budget: Duration,
    ) -> Result<Completion, LlmError> {
        self.complete_by(request, Some(budget)).await
    }

    async fn complete_by(
        &self,
        request: &Request,
        budget: Option<Duration>,
    ) -> Result<Completion, LlmError> {
        let start = Instant::now();
        let end = budget.map(|b| start + b);
        let can_fall_back = self.fallback.is_some() && !self.switched.load(Ordering::Relaxed);
        let first_end = match budget {
            Some(b) if can_fall_back => Some(start + rove_base::limits::first_model_share(b, true)),
            _ => end,
        };
        match self
            .call_by(self.current(), request, first_end, start)
            .await
        {
            Err(e) if e.warrants_fallback() && can_fall_back => {
                let Some(fallback) = &self.fallback else {
                    return Err(e);
                };
                tracing::warn!(
                    target: "rove_llm",
                    from = %format!("{}:{}", self.primary.provider, self.primary.model),
                    to = %format!("{}:{}", fallback.provider, fallback.model),
                    error = %e,
                    "switching to the fallback model for the rest of the run"
                );
                self.switched.store(true, Ordering::Relaxed);
                self.call_by(fallback, request, end, Instant::now()).await
            }
            other => other,
        }
    }

    /// One model's call (its retries included), bounded by `deadline`;
    /// `since` is when its time began, for the message.
    async fn call_by(
        &self,
        endpoint: &Endpoint,
        request: &Request,
        deadline: Option<Instant>,
        since: Instant,
    ) -> Result<Completion, LlmError> {
        let answered = match deadline {
            None => self.call(endpoint, request, None).await,
            Some(deadline) => {
                tokio::time::timeout_at(deadline, self.call(endpoint, request, Some(deadline)))
                    .await
                    .unwrap_or_else(|_| {
                        Err(LlmError::Timeout {
                            provider: endpoint.provider.clone(),
                            seconds: deadline.saturating_duration_since(since).as_secs_f64(),
                        })
                    })
            }
        };
        answered
            .map(|completion| Completion {
                served_by: format!("{}:{}", endpoint.provider, endpoint.model),
                ..completion
            })
            // What the endpoint holds besides what it sent (an AWS secret
            // signs, never travels) is hidden too.
            .map_err(|e| e.hiding(&endpoint.secrets()))
    }

    async fn call(
        &self,
        endpoint: &Endpoint,
        request: &Request,
        deadline: Option<Instant>,
    ) -> Result<Completion, LlmError> {
        let provider = endpoint.provider.as_str();
        let model = endpoint.model.as_str();
        let base = endpoint.base_url.as_str();
        let (url, body) = match endpoint.wire {
            Wire::OpenAiChat => (
                format!("{base}/chat/completions"),
                openai::body(model, request, provider),
            ),
            Wire::Azure => {
                let mut body = openai::body(model, request, provider);
                // The deployment in the path names the model.
                if let Some(fields) = body.as_object_mut() {
                    fields.remove("model");
                }
                let version = endpoint
                    .api_version
                    .as_deref()
                    .unwrap_or(crate::model::AZURE_API_VERSION);
                (
                    format!(
                        "{base}/openai/deployments/{}/chat/completions?api-version={}",
                        aws::uri_encode(model),
                        aws::uri_encode(version)
                    ),
                    body,
                )
            }
            Wire::Mistral => (
                format!("{base}/chat/completions"),
                mistral::body(model, request),
            ),
            Wire::OpenAiResponses => (format!("{base}/responses"), responses::body(model, request)),
            Wire::Gemini => (
                format!("{base}/v1beta/models/{model}:generateContent"),
                gemini::body(request),
            ),
            Wire::Vertex => {
                let Auth::Google(account) = &endpoint.auth else {
                    return Err(LlmError::Config("vertex needs a service account".into()));
                };
                (
                    format!(
                        "{base}/v1/projects/{}/locations/{}/publishers/google/models/{model}:generateContent",
                        account.project, account.location
                    ),
                    gemini::body(request),
                )
            }
            Wire::Anthropic => (
                format!("{base}/v1/messages"),
                anthropic::body(model, request),
            ),
            Wire::Bedrock => (
                format!("{base}/model/{}/converse", aws::uri_encode(model)),
                bedrock::body(request),
            ),
        };
        let payload = crate::transport::json_bytes(&body)?;
        let headers = self.headers(endpoint, &url, &payload, deadline).await?;
        let answer = self
            .transport
            .post_bytes(
                provider,
                &url,
                &headers,
                "application/json",
                payload,
                deadline,
            )
            .await?;
        match endpoint.wire {
            Wire::OpenAiChat | Wire::Azure | Wire::Mistral => openai::parse(&answer, provider),
            Wire::OpenAiResponses => responses::parse(&answer, provider),
            Wire::Gemini | Wire::Vertex => gemini::parse(&answer, provider),
            Wire::Anthropic => anthropic::parse(&answer, provider),
            Wire::Bedrock => bedrock::parse(&answer, provider, model),
        }
    }

    /// The headers that authorise a call to `url` with `payload`.
    async fn headers(
        &self,
        endpoint: &Endpoint,
        url: &str,
        payload: &[u8],
        deadline: Option<Instant>,
    ) -> Result<Vec<(&'static str, String)>, LlmError> {
        let mut headers = Vec::new();
        if endpoint.wire == Wire::Anthropic {
            headers.push(("anthropic-version", anthropic::VERSION.to_owned()));
        }
        match (&endpoint.auth, endpoint.api_key.as_deref()) {
            (Auth::Aws(credentials), _) => headers.extend(aws_headers(credentials, url, payload)?),
            (Auth::Google(account), _) => {
                let token = self.google_token(account, deadline).await?;
                headers.push(("authorization", format!("Bearer {token}")));
            }
            (_, None) => {}
            (Auth::Bearer, Some(key)) => headers.push(("authorization", format!("Bearer {key}"))),
            (Auth::Key, Some(key)) => headers.push(match endpoint.wire {
                Wire::Anthropic => ("x-api-key", key.to_owned()),
                Wire::Gemini => ("x-goog-api-key", key.to_owned()),
                Wire::Azure => ("api-key", key.to_owned()),
                _ => ("authorization", format!("Bearer {key}")),
            }),
        }
        Ok(headers)
    }

    /// The service account's access token: the one held while it has a
    /// minute left, else a fresh one.
    async fn google_token(
        &self,
        account: &ServiceAccount,
        deadline: Option<Instant>,
    ) -> Result<String, LlmError> {
        let id = format!("{} {}", account.client_email, account.token_uri);
        let held = self
            .tokens
            .lock()
            .ok()
            .and_then(|tokens| tokens.get(&id).cloned());
        if let Some((token, until)) = held
            && Instant::now() + rove_base::limits::ACCESS_TOKEN_MARGIN < until
        {
            return Ok(token);
        }
        let (token, lasts) = account.access_token(&self.transport, deadline).await?;
        if let Ok(mut tokens) = self.tokens.lock() {
            tokens.insert(id, (token.clone(), Instant::now() + lasts));
        }
        Ok(token)
    }
}

/// The SigV4 headers of a Bedrock call to `url` with `payload`.
fn aws_headers(
    credentials: &AwsCredentials,
    url: &str,
    payload: &[u8],
) -> Result<Vec<(&'static str, String)>, LlmError> {
    let parsed = url::Url::parse(url)
        .map_err(|e| LlmError::Config(format!("bedrock's endpoint is not a URL: {e}")))?;
    let host = match (parsed.host_str(), parsed.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_owned(),
        (None, _) => return Err(LlmError::Config("bedrock's endpoint has no host".into())),
    };
    let date = aws::amz_date_now();
    let mut signed = vec![
        ("host".to_owned(), host),
        ("x-amz-date".to_owned(), date.clone()),
    ];
    if let Some(token) = &credentials.session_token {
        signed.push(("x-amz-security-token".to_owned(), token.clone()));
    }
    let authorization = aws::authorization(
        &aws::Signable {
            method: "POST",
            path: parsed.path(),
            headers: &signed,
            payload,
        },
        credentials,
        "bedrock",
        &date,
    );
    let mut headers = vec![("x-amz-date", date), ("authorization", authorization)];
    if let Some(token) = &credentials.session_token {
        headers.push(("x-amz-security-token", token.clone()));
    }
    Ok(headers)
}
