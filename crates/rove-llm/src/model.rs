//! Models named `provider:model`, and where each provider is reached.

use rove_base::redact::HIDDEN;

use crate::LlmError;

/// The wire format a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// OpenAI Chat Completions (and every compatible server).
    OpenAiChat,
    /// OpenAI's Responses API.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini's `generateContent`.
    Gemini,
}

/// One model at one provider, with how to reach it. Its `Debug` shows the
/// key as `<redacted>`: an endpoint may be logged or printed with `{:?}`.
#[derive(Clone, PartialEq)]
pub struct Endpoint {
    /// The provider's name as written in the model name (`openai`).
    pub provider: String,
    /// The model as the provider names it (`gpt-5-mini`, `qwen3:8b`).
    pub model: String,
    /// Its wire format.
    pub wire: Wire,
    /// The API's base URL (`https://api.openai.com/v1`).
    pub base_url: String,
    /// The key, when the provider needs one. Never logged.
    pub api_key: Option<String>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("provider", &self.provider)
            .field("model", &self.model)
            .field("wire", &self.wire)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| HIDDEN))
            .finish()
    }
}

/// What each provider needs: wire, default base URL, and the environment
/// variables of its key and base URL.
struct Known {
    name: &'static str,
    wire: Wire,
    base_url: &'static str,
    key_var: Option<&'static str>,
    base_var: Option<&'static str>,
}

const KNOWN: &[Known] = &[
    Known {
        name: "openai",
        wire: Wire::OpenAiChat,
        base_url: "https://api.openai.com/v1",
        key_var: Some("OPENAI_API_KEY"),
        base_var: Some("OPENAI_BASE_URL"),
    },
    Known {
        name: "openai-responses",
        wire: Wire::OpenAiResponses,
        base_url: "https://api.openai.com/v1",
        key_var: Some("OPENAI_API_KEY"),
        base_var: Some("OPENAI_BASE_URL"),
    },
    Known {
        name: "anthropic",
        wire: Wire::Anthropic,
        base_url: "https://api.anthropic.com",
        key_var: Some("ANTHROPIC_API_KEY"),
        base_var: Some("ANTHROPIC_BASE_URL"),
    },
    Known {
        name: "gemini",
        wire: Wire::Gemini,
        base_url: "https://generativelanguage.googleapis.com",
        key_var: Some("GEMINI_API_KEY"),
        base_var: Some("GEMINI_BASE_URL"),
    },
    Known {
        name: "ollama",
        wire: Wire::OpenAiChat,
        base_url: "http://127.0.0.1:11434",
        key_var: None,
        base_var: Some("OLLAMA_HOST"),
    },
    Known {
        name: "openrouter",
        wire: Wire::OpenAiChat,
        base_url: "https://openrouter.ai/api/v1",
        key_var: Some("OPENROUTER_API_KEY"),
        base_var: None,
    },
    Known {
        name: "deepseek",
        wire: Wire::OpenAiChat,
        base_url: "https://api.deepseek.com/v1",
        key_var: Some("DEEPSEEK_API_KEY"),
        base_var: None,
    },
    Known {
        name: "groq",
        wire: Wire::OpenAiChat,
        base_url: "https://api.groq.com/openai/v1",
        key_var: Some("GROQ_API_KEY"),
        base_var: None,
    },
];

impl Endpoint {
    /// Resolves `provider:model` with keys and base URLs from `env` (the
    /// process environment in use: `|v| std::env::var(v).ok()`).
    pub fn resolve(name: &str, env: impl Fn(&str) -> Option<String>) -> Result<Endpoint, LlmError> {
        let Some((provider, model)) = name
            .split_once(':')
            .filter(|(p, m)| !p.is_empty() && !m.is_empty())
        else {
            return Err(LlmError::Config(format!(
                "{name:?} is not a model name: write provider:model, like openai:gpt-5-mini or ollama:qwen3:8b"
            )));
        };
        let Some(known) = KNOWN.iter().find(|k| k.name == provider) else {
            let names: Vec<&str> = KNOWN.iter().map(|k| k.name).collect();
            return Err(LlmError::Config(format!(
                "unknown provider {provider:?}; known: {}",
                names.join(", ")
            )));
        };
        let mut base_url = known
            .base_var
            .and_then(&env)
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| known.base_url.to_owned());
        if provider == "ollama" {
            // OLLAMA_HOST may be a bare host:port; its OpenAI API is at /v1.
            if !base_url.contains("://") {
                base_url = format!("http://{base_url}");
            }
            base_url = format!("{}/v1", base_url.trim_end_matches('/'));
        }
        let api_key = known.key_var.and_then(&env).filter(|k| !k.is_empty());
        if let (Some(var), None) = (known.key_var, &api_key) {
            return Err(LlmError::Config(format!(
                "{provider} needs a key: set {var} (or pass it with --api-key)"
            )));
        }
        Ok(Endpoint {
            provider: provider.to_owned(),
            model: model.to_owned(),
            wire: known.wire,
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    #[test]
    fn debug_output_never_shows_a_key() {
        let key = "sk-live-7f3a9c";
        let endpoint = Endpoint::resolve("openai:gpt-5-mini", env(&[("OPENAI_API_KEY", key)]))
            .expect("endpoint");
        assert_eq!(endpoint.api_key.as_deref(), Some(key));
        let fallback = Endpoint::resolve(
            "anthropic:claude-sonnet-4-5",
            env(&[("ANTHROPIC_API_KEY", "ak-live-2b8e")]),
        )
        .expect("fallback");
        let shown = format!("{endpoint:?}");
        assert!(!shown.contains(key), "{shown}");
        assert!(
            shown.contains("<redacted>") && shown.contains("gpt-5-mini"),
            "{shown}"
        );
        // The client holds both endpoints; its Debug must not show either.
        let llm =
            crate::Llm::new(endpoint, Some(fallback), crate::RetryPolicy::default()).expect("llm");
        let shown = format!("{llm:?} {llm:#?}");
        assert!(
            !shown.contains(key) && !shown.contains("ak-live-2b8e"),
            "{shown}"
        );
        assert!(shown.contains("<redacted>"), "{shown}");
    }

    #[test]
    fn names_resolve_with_the_usual_environment() {
        let openai = Endpoint::resolve("openai:gpt-5-mini", env(&[("OPENAI_API_KEY", "k")]))
            .expect("openai");
        assert_eq!(
            (openai.wire, openai.base_url.as_str(), openai.model.as_str()),
            (Wire::OpenAiChat, "https://api.openai.com/v1", "gpt-5-mini")
        );
        let local = Endpoint::resolve(
            "openai:m",
            env(&[
                ("OPENAI_API_KEY", "k"),
                ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1/"),
            ]),
        )
        .expect("base");
        assert_eq!(local.base_url, "http://127.0.0.1:9/v1");
        let ollama =
            Endpoint::resolve("ollama:qwen3:8b", env(&[("OLLAMA_HOST", "10.0.0.2:11434")]))
                .expect("ollama");
        assert_eq!(
            (
                ollama.model.as_str(),
                ollama.base_url.as_str(),
                ollama.api_key.is_none()
            ),
            ("qwen3:8b", "http://10.0.0.2:11434/v1", true)
        );
        let claude = Endpoint::resolve(
            "anthropic:claude-sonnet-4-5",
            env(&[("ANTHROPIC_API_KEY", "k")]),
        )
        .expect("anthropic");
        assert_eq!(claude.wire, Wire::Anthropic);
        for bad in ["gpt-5", "nope:model", "openai:", ":x"] {
            assert!(
                Endpoint::resolve(bad, env(&[("OPENAI_API_KEY", "k")])).is_err(),
                "{bad}"
            );
        }
        let missing = Endpoint::resolve("anthropic:x", env(&[])).expect_err("no key");
        assert!(missing.to_string().contains("ANTHROPIC_API_KEY"));
    }
}
