//! The models of `rove run` and `rove test` (the agent's, its fallback, the
//! judge): each resolved with a key and a base URL of its own, its secrets
//! hidden from every log, and the failures of a model as typed reports
//! (`MODEL_FAILED` with the provider, the model and the HTTP status as
//! facts; a refused key is `retry: never`).

use rove_errors::{ErrorCode, Retry};
use rove_llm::{Endpoint, LlmError};
use serde_json::json;

use crate::failure::Failure;

/// The flags that name one model and give its key.
#[derive(Debug, Clone, Copy)]
pub struct Flags {
    /// The flag that names the model (`--model`, `--judge-model`).
    pub model: &'static str,
    /// The flag that gives its key (`--api-key`, `--judge-api-key`).
    pub key: &'static str,
}

/// The agent's model.
pub const MAIN: Flags = Flags {
    model: "--model",
    key: "--api-key",
};
/// The agent's fallback.
pub const FALLBACK: Flags = Flags {
    model: "--fallback-model",
    key: "--fallback-api-key",
};
/// The judge.
pub const JUDGE: Flags = Flags {
    model: "--judge-model",
    key: "--judge-api-key",
};

/// `name` (`provider:model`) with `key` standing in for its provider's key
/// variable and `base_url` for its base URL. A missing key's error names
/// `flags.key`; a bad name is bad input, named by `flags.model` (but for
/// the main model, whose flag is the obvious one).
pub fn resolve(
    name: &str,
    key: Option<&str>,
    base_url: Option<&str>,
    flags: Flags,
) -> Result<Endpoint, Failure> {
    let env = |var: &str| std::env::var(var).ok();
    let mut endpoint = Endpoint::resolve_keyed(name, env, key).map_err(|e| {
        let prefix = match flags.model {
            "--model" => String::new(),
            flag => format!("{flag}: "),
        };
        let (message, hint) = match &e {
            LlmError::NoKey { .. } => (
                format!("{prefix}{e} (or pass it with {})", flags.key),
                format!("give {} or set the variable", flags.key),
            ),
            _ => (
                format!("{prefix}{e}"),
                format!(
                    "fix {} or its provider's environment variables",
                    flags.model
                ),
            ),
        };
        Failure::new(ErrorCode::CommandRejected, message, hint)
    })?;
    if let Some(base) = base_url {
        endpoint.base_url = base.trim_end_matches('/').to_owned();
    }
    // No log line may show a key, whatever a layer prints.
    for secret in endpoint.secrets() {
        rove_base::redact::hide_literal(secret);
    }
    Ok(endpoint)
}

/// A base URL as it may be shown: without a user, password or query (a
/// key can hide in them).
pub fn address(base_url: &str) -> String {
    match url::Url::parse(base_url) {
        Ok(mut parsed) => {
            let _ = parsed.set_username("");
            let _ = parsed.set_password(None);
            parsed.set_query(None);
            parsed.to_string().trim_end_matches('/').to_owned()
        }
        Err(_) => "an address that is not a URL".into(),
    }
}

/// A failure of `endpoint`'s model: typed, with the provider, the model
/// and the HTTP status (when there was one) as facts; one that could not
/// be reached names the address tried and what to do about it.
pub fn model_failure(e: &LlmError, endpoint: &Endpoint) -> Failure {
    let mut failure = match e {
        LlmError::Network { message, .. } | LlmError::Refused { message, .. } => {
            let at = address(&endpoint.base_url);
            let hint = if endpoint.provider == "ollama" {
                "start Ollama (ollama serve) or, if it listens elsewhere, point OLLAMA_HOST or --base-url at it"
            } else if matches!(e, LlmError::Refused { .. }) {
                "nothing listens there: start the model's server, or fix --base-url and the provider's *_BASE_URL variable"
            } else {
                "check the network, or --base-url and the provider's *_BASE_URL variable; --fallback-model takes over when a provider is unreachable"
            };
            Failure::new(
                ErrorCode::ModelFailed,
                format!(
                    "could not reach {}:{} at {at}: {message}",
                    endpoint.provider, endpoint.model
                ),
                hint,
            )
        }
        _ => setup_failure(e),
    };
    if failure.report.code == ErrorCode::ModelFailed {
        let mut facts = json!({"provider": endpoint.provider, "model": endpoint.model});
        if let Some(status) = e.status() {
            facts["status"] = json!(status);
        }
        failure.report.facts = Some(facts);
        // The same key is refused the same way on every try.
        if matches!(e, LlmError::Auth { .. }) {
            failure.report.retry = Retry::Never;
        }
    }
    failure
}

/// A model error outside a call to a known endpoint (setting a model up):
/// a bad name or a missing key is bad input; the provider's failures are
/// its own.
pub fn setup_failure(e: &LlmError) -> Failure {
    let (code, hint) = match e {
        LlmError::Config(_) | LlmError::NoKey { .. } => (
            ErrorCode::CommandRejected,
            "fix --model or the provider's environment variables",
        ),
        LlmError::Auth { .. } => (
            ErrorCode::ModelFailed,
            "check the API key (or the provider's credentials)",
        ),
        LlmError::RateLimited { .. } => (ErrorCode::ModelFailed, "wait, or give --fallback-model"),
        LlmError::Truncated { .. } => (
            ErrorCode::ModelFailed,
            "the model's answer was cut at its output limit: try another model",
        ),
        _ => (
            ErrorCode::ModelFailed,
            "the model's provider failed: try again, or give --fallback-model",
        ),
    };
    let mut failure = Failure::new(code, e.to_string(), hint);
    if matches!(e, LlmError::Auth { .. }) {
        failure.report.retry = Retry::Never;
    }
    failure
}
