//! Why a model call failed.

/// Why a model call failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    /// The provider is rate-limiting (HTTP 429), after the retries.
    #[error("rate limited by {provider} (HTTP 429){}", retry_after.map(|s| format!(", retry after {s} s")).unwrap_or_default())]
    RateLimited {
        /// The provider.
        provider: String,
        /// What its `Retry-After` said, in seconds.
        retry_after: Option<u64>,
    },
    /// The key is missing, wrong, or not allowed (HTTP 401, 403). Not
    /// retried.
    #[error("{provider} refused the key (HTTP {status}): {message}")]
    Auth {
        /// The provider.
        provider: String,
        /// The HTTP status.
        status: u16,
        /// What it said.
        message: String,
    },
    /// The provider failed (HTTP 5xx after the retries, 402, other errors).
    #[error("{provider} failed (HTTP {status}): {message}")]
    Provider {
        /// The provider.
        provider: String,
        /// The HTTP status.
        status: u16,
        /// What it said.
        message: String,
    },
    /// The answer hit the output limit before it was complete. Not retried
    /// on the same provider.
    #[error("{provider} cut the answer at its output limit")]
    Truncated {
        /// The provider.
        provider: String,
    },
    /// The provider could not be reached (after the retries).
    #[error("could not reach {provider}: {message}")]
    Network {
        /// The provider.
        provider: String,
        /// Why.
        message: String,
    },
    /// Nothing listens at the provider's address (the connection was
    /// refused): a local server that is not running. Not retried.
    #[error("could not reach {provider}: {message}")]
    Refused {
        /// The provider.
        provider: String,
        /// Why.
        message: String,
    },
    /// The answer did not have the provider's documented shape.
    #[error("{provider} answered in an unexpected shape: {message}")]
    BadResponse {
        /// The provider.
        provider: String,
        /// What was wrong.
        message: String,
    },
    /// The provider's answer was longer than rove reads
    /// (`limits::MODEL_ANSWER_BYTES`); the rest was not read. Not retried.
    #[error("{provider} answered with more than {limit} bytes, the most rove reads from a model")]
    TooLarge {
        /// The provider.
        provider: String,
        /// The most bytes read.
        limit: u64,
    },
    /// The provider did not answer within the time this call had (its
    /// share of an agent step), retries included.
    #[error("{provider} did not answer within {seconds:.1} s")]
    Timeout {
        /// The provider.
        provider: String,
        /// The time the call had.
        seconds: f64,
    },
    /// The model name or the configuration is wrong.
    #[error("{0}")]
    Config(String),
    /// The provider needs a key (or credentials) and none was found.
    #[error("{provider} needs a key: set {vars}")]
    NoKey {
        /// The provider.
        provider: String,
        /// Where the key may come from.
        vars: String,
    },
}

impl LlmError {
    /// Whether a fallback model should take over: the failures a different
    /// provider or model may not have (401, 402, 429, 5xx, unreachable, too
    /// slow).
    pub fn warrants_fallback(&self) -> bool {
        match self {
            LlmError::RateLimited { .. }
            | LlmError::Auth { .. }
            | LlmError::Network { .. }
            | LlmError::Refused { .. }
            | LlmError::TooLarge { .. }
            | LlmError::Timeout { .. } => true,
            LlmError::Provider { status, .. } => *status == 402 || *status >= 500,
            _ => false,
        }
    }

    /// The error with each of `secrets` (the credentials of the call that
    /// failed) and whatever the process hides (`rove_base::redact::scrub`)
    /// hidden from its words: a provider that refuses a key often repeats
    /// it (`Incorrect API key provided: sk-…`), and an error is printed,
    /// written to histories and traces, and handed to a model.
    pub fn hiding(self, secrets: &[&str]) -> LlmError {
        let hide = |message: String| {
            let mut message = rove_base::redact::scrub(&message);
            for secret in secrets.iter().filter(|s| s.len() >= 4) {
                if message.contains(secret) {
                    message = message.replace(secret, rove_base::redact::HIDDEN);
                }
            }
            message
        };
        match self {
            LlmError::Auth {
                provider,
                status,
                message,
            } => LlmError::Auth {
                provider,
                status,
                message: hide(message),
            },
            LlmError::Provider {
                provider,
                status,
                message,
            } => LlmError::Provider {
                provider,
                status,
                message: hide(message),
            },
            LlmError::Network { provider, message } => LlmError::Network {
                provider,
                message: hide(message),
            },
            LlmError::Refused { provider, message } => LlmError::Refused {
                provider,
                message: hide(message),
            },
            LlmError::BadResponse { provider, message } => LlmError::BadResponse {
                provider,
                message: hide(message),
            },
            LlmError::Config(message) => LlmError::Config(hide(message)),
            other => other,
        }
    }

    /// The HTTP status the provider answered with, when it answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            LlmError::RateLimited { .. } => Some(429),
            LlmError::Auth { status, .. } | LlmError::Provider { status, .. } => Some(*status),
            _ => None,
        }
    }
}
