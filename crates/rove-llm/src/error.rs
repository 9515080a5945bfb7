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
    /// The answer did not have the provider's documented shape.
    #[error("{provider} answered in an unexpected shape: {message}")]
    BadResponse {
        /// The provider.
        provider: String,
        /// What was wrong.
        message: String,
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
            | LlmError::Timeout { .. } => true,
            LlmError::Provider { status, .. } => *status == 402 || *status >= 500,
            _ => false,
        }
    }
}
