//! A model to call, with an optional fallback used once per run.

use std::sync::atomic::{AtomicBool, Ordering};

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
        let endpoint = self.current();
        match self.call(endpoint, request).await {
            Err(e) if e.warrants_fallback() && !self.switched.load(Ordering::Relaxed) => {
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
                self.call(fallback, request).await
            }
            other => other,
        }
    }

    async fn call(&self, endpoint: &Endpoint, request: &Request) -> Result<Completion, LlmError> {
        let provider = endpoint.provider.as_str();
        match endpoint.wire {
            Wire::OpenAiChat => {
                let mut headers = Vec::new();
                if let Some(key) = &endpoint.api_key {
                    headers.push(("authorization", format!("Bearer {key}")));
                }
                let url = format!("{}/chat/completions", endpoint.base_url);
                let body = openai::body(&endpoint.model, request, provider);
                let answer = self.transport.post(provider, &url, &headers, &body).await?;
                openai::parse(&answer, provider)
            }
            Wire::OpenAiResponses => {
                let mut headers = Vec::new();
                if let Some(key) = &endpoint.api_key {
                    headers.push(("authorization", format!("Bearer {key}")));
                }
                let url = format!("{}/responses", endpoint.base_url);
                let body = responses::body(&endpoint.model, request);
                let answer = self.transport.post(provider, &url, &headers, &body).await?;
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
                let answer = self.transport.post(provider, &url, &headers, &body).await?;
                gemini::parse(&answer, provider)
            }
            Wire::Anthropic => {
                let mut headers = vec![("anthropic-version", anthropic::VERSION.to_owned())];
                if let Some(key) = &endpoint.api_key {
                    headers.push(("x-api-key", key.clone()));
                }
                let url = format!("{}/v1/messages", endpoint.base_url);
                let body = anthropic::body(&endpoint.model, request);
                let answer = self.transport.post(provider, &url, &headers, &body).await?;
                anthropic::parse(&answer, provider)
            }
        }
    }
}
