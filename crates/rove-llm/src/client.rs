//! A model to call, with an optional fallback used once per run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::time::Instant;

use crate::model::{Endpoint, Wire};
use crate::transport::{RetryPolicy, Transport};
use crate::{Completion, LlmError, Request, anthropic, gemini, openai, responses};

/// A model, ready to call.
#[derive(Debug)]
pub struct Llm {
    primary: Endpoint,
    fallback: Option<Endpoint>,
    /// Set once the fallback took over; it stays for the rest of the run.
    switched: AtomicBool,
    transport: Transport,
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
        let Some(deadline) = deadline else {
            return self.call(endpoint, request, None).await;
        };
        tokio::time::timeout_at(deadline, self.call(endpoint, request, Some(deadline)))
            .await
            .unwrap_or_else(|_| {
                Err(LlmError::Timeout {
                    provider: endpoint.provider.clone(),
                    seconds: deadline.saturating_duration_since(since).as_secs_f64(),
                })
            })
    }

    async fn call(
        &self,
        endpoint: &Endpoint,
        request: &Request,
        deadline: Option<Instant>,
    ) -> Result<Completion, LlmError> {
        let provider = endpoint.provider.as_str();
        match endpoint.wire {
            Wire::OpenAiChat => {
                let mut headers = Vec::new();
                if let Some(key) = &endpoint.api_key {
                    headers.push(("authorization", format!("Bearer {key}")));
                }
                let url = format!("{}/chat/completions", endpoint.base_url);
                let body = openai::body(&endpoint.model, request, provider);
                let answer = self
                    .transport
                    .post(provider, &url, &headers, &body, deadline)
                    .await?;
                openai::parse(&answer, provider)
            }
            Wire::OpenAiResponses => {
                let mut headers = Vec::new();
                if let Some(key) = &endpoint.api_key {
                    headers.push(("authorization", format!("Bearer {key}")));
                }
                let url = format!("{}/responses", endpoint.base_url);
                let body = responses::body(&endpoint.model, request);
                let answer = self
                    .transport
                    .post(provider, &url, &headers, &body, deadline)
                    .await?;
                responses::parse(&answer, provider)
            }
            Wire::Gemini => {
                let mut headers = Vec::new();
                if let Some(key) = &endpoint.api_key {
                    headers.push(("x-goog-api-key", key.clone()));
                }
                let url = format!(
                    "{}/v1beta/models/{}:generateContent",
                    endpoint.base_url, endpoint.model
                );
                let body = gemini::body(request);
                let answer = self
                    .transport
                    .post(provider, &url, &headers, &body, deadline)
                    .await?;
                gemini::parse(&answer, provider)
            }
            Wire::Anthropic => {
                let mut headers = vec![("anthropic-version", anthropic::VERSION.to_owned())];
                if let Some(key) = &endpoint.api_key {
                    headers.push(("x-api-key", key.clone()));
                }
                let url = format!("{}/v1/messages", endpoint.base_url);
                let body = anthropic::body(&endpoint.model, request);
                let answer = self
                    .transport
                    .post(provider, &url, &headers, &body, deadline)
                    .await?;
                anthropic::parse(&answer, provider)
            }
        }
    }
}
