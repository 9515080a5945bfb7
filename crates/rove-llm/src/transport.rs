//! One POST of JSON to a provider, with retries: backoff with jitter on 429
//! and 5xx and on connection failures, honouring `Retry-After`; typed
//! errors for what is not retried (401/403, other 4xx).

use std::time::Duration;

use rove_base::limits;
use serde_json::Value;

use crate::LlmError;

/// How retries are spaced.
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub retries: u32,
    /// The first pause; each next one doubles.
    pub base: Duration,
    /// The longest pause, `Retry-After` included.
    pub max: Duration,
    /// The deadline of one attempt.
    pub attempt_timeout: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            retries: limits::MODEL_RETRIES,
            base: limits::MODEL_RETRY.first,
            max: limits::MODEL_RETRY.max,
            attempt_timeout: limits::MODEL_ATTEMPT,
        }
    }
}

/// An HTTP client for providers.
#[derive(Debug, Clone)]
pub(crate) struct Transport {
    client: reqwest::Client,
    policy: RetryPolicy,
}

impl Transport {
    pub(crate) fn new(policy: RetryPolicy) -> Result<Transport, LlmError> {
        static PROVIDER: std::sync::Once = std::sync::Once::new();
        PROVIDER.call_once(|| {
            // Another part of the process may have chosen one already.
            let _ = rustls::crypto::ring::default_provider().install_default();
        });
        let client = reqwest::Client::builder()
            .timeout(policy.attempt_timeout)
            .build()
            .map_err(|e| LlmError::Config(format!("no HTTP client: {e}")))?;
        Ok(Transport { client, policy })
    }

    /// POSTs `payload` (of `content_type`) and returns the JSON answer.
    /// With a `deadline` (which the caller enforces around this call), a
    /// pause that would outlast it is not taken: the last error is returned
    /// at once, as it is more telling than running out of time asleep.
    /// Whatever the provider said comes back with the call's credentials
    /// hidden ([`LlmError::hiding`]).
    pub(crate) async fn post_bytes(
        &self,
        provider: &str,
        url: &str,
        headers: &[(&str, String)],
        content_type: &str,
        payload: Vec<u8>,
        deadline: Option<tokio::time::Instant>,
    ) -> Result<Value, LlmError> {
        self.attempts(provider, url, headers, content_type, payload, deadline)
            .await
            .map_err(|e| e.hiding(&credentials_of(headers)))
    }

    async fn attempts(
        &self,
        provider: &str,
        url: &str,
        headers: &[(&str, String)],
        content_type: &str,
        payload: Vec<u8>,
        deadline: Option<tokio::time::Instant>,
    ) -> Result<Value, LlmError> {
        let mut attempt = 0;
        loop {
            let mut request = self
                .client
                .post(url)
                .header("content-type", content_type)
                .body(payload.clone());
            for (name, value) in headers {
                request = request.header(*name, value);
            }
            let failure = match request.send().await {
                // Nothing listens there: retrying in a second will not
                // start it.
                Err(e) if refused(&e) => Failed::Final(LlmError::Refused {
                    provider: provider.to_owned(),
                    message: with_causes(&e.without_url()),
                }),
                // Without the URL: a query string may carry a key.
                Err(e) => Failed::Retry(
                    LlmError::Network {
                        provider: provider.to_owned(),
                        message: with_causes(&e.without_url()),
                    },
                    None,
                ),
                Ok(response) => {
                    let status = response.status().as_u16();
                    let retry_after = response
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<u64>().ok());
                    let text = capped_text(response, provider).await?;
                    match status {
                        200..=299 => {
                            return serde_json::from_str(&text).map_err(|e| {
                                LlmError::BadResponse {
                                    provider: provider.to_owned(),
                                    message: format!("not JSON ({e})"),
                                }
                            });
                        }
                        429 => Failed::Retry(
                            LlmError::RateLimited {
                                provider: provider.to_owned(),
                                retry_after,
                            },
                            retry_after,
                        ),
                        401 | 403 => Failed::Final(LlmError::Auth {
                            provider: provider.to_owned(),
                            status,
                            message: message_of(&text),
                        }),
                        500..=599 => Failed::Retry(
                            LlmError::Provider {
                                provider: provider.to_owned(),
                                status,
                                message: message_of(&text),
                            },
                            retry_after,
                        ),
                        _ => Failed::Final(LlmError::Provider {
                            provider: provider.to_owned(),
                            status,
                            message: message_of(&text),
                        }),
                    }
                }
            };
            match failure {
                Failed::Final(e) => return Err(e),
                Failed::Retry(e, _) if attempt >= self.policy.retries => return Err(e),
                Failed::Retry(e, retry_after) => {
                    let pause = self.pause(attempt, retry_after);
                    if deadline.is_some_and(|d| tokio::time::Instant::now() + pause >= d) {
                        return Err(e);
                    }
                    // Routine: the final error says what failed, so a retry
                    // is no warning (`-v` shows them).
                    tracing::debug!(target: "rove_llm", provider, error = %e, attempt = attempt + 1, pause_ms = pause.as_millis() as u64, "retrying");
                    tokio::time::sleep(pause).await;
                    attempt += 1;
                }
            }
        }
    }

    /// Exponential backoff with up to 25 % jitter, at least `Retry-After`,
    /// at most the policy's maximum.
    fn pause(&self, attempt: u32, retry_after: Option<u64>) -> Duration {
        let backoff = self.policy.base.saturating_mul(1 << attempt.min(10));
        let jitter = backoff.mul_f64(0.25 * jitter_fraction());
        let wanted = (backoff + jitter).max(Duration::from_secs(retry_after.unwrap_or(0)));
        wanted.min(self.policy.max)
    }
}

/// The values of `headers` that prove who calls (a key, a bearer token, a
/// session token: `rove_base::redact::SECRET_HEADERS`), as the provider
/// may repeat them.
fn credentials_of<'a>(headers: &'a [(&str, String)]) -> Vec<&'a str> {
    headers
        .iter()
        .filter(|(name, _)| rove_base::redact::is_secret_header(name))
        .map(|(_, value)| value.strip_prefix("Bearer ").unwrap_or(value))
        .collect()
}

/// The answer's text, read a chunk at a time and refused past
/// `limits::MODEL_ANSWER_BYTES` (said by its length or found while reading,
/// for an answer sent in chunks): never more than that is held.
async fn capped_text(mut response: reqwest::Response, provider: &str) -> Result<String, LlmError> {
    let limit = limits::MODEL_ANSWER_BYTES;
    let too_large = || LlmError::TooLarge {
        provider: provider.to_owned(),
        limit,
    };
    if response.content_length().is_some_and(|n| n > limit) {
        return Err(too_large());
    }
    let mut body: Vec<u8> = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() as u64 + chunk.len() as u64 > limit {
                    return Err(too_large());
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => break,
            // A body cut short reads as what came: its shape is judged
            // next, as before.
            Err(_) => break,
        }
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// `body` as the bytes of a request.
pub(crate) fn json_bytes(body: &Value) -> Result<Vec<u8>, LlmError> {
    serde_json::to_vec(body)
        .map_err(|e| LlmError::Config(format!("the request did not serialize: {e}")))
}

/// Whether a failed request found nothing listening at the address.
fn refused(error: &reqwest::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(inner) = cause {
        if inner
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::ConnectionRefused)
        {
            return true;
        }
        cause = inner.source();
    }
    false
}

/// An error and its causes in one line ("error sending request: … :
/// Connection refused"): the last cause is usually the one that tells.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let said = inner.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = inner.source();
    }
    text
}

enum Failed {
    Retry(LlmError, Option<u64>),
    Final(LlmError),
}

/// A number in [0, 1) that differs between calls (jitter needs no more).
fn jitter_fraction() -> f64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    f64::from(nanos % 1000) / 1000.0
}

/// The provider's own error message, when its body has one.
fn message_of(body: &str) -> String {
    let parsed: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    parsed["error"]["message"]
        .as_str()
        .or_else(|| parsed["error"].as_str())
        .or_else(|| parsed["message"].as_str())
        .map(str::to_owned)
        .unwrap_or_else(|| rove_base::text::char_prefix(body, 300).to_owned())
}
