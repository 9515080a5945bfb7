//! Models named `provider:model`, and where each provider is reached.

use rove_base::redact::HIDDEN;

use crate::LlmError;
use crate::aws::AwsCredentials;
use crate::google::ServiceAccount;

/// Azure OpenAI's `api-version` when none is set: its current GA version
/// of the data-plane API.
pub const AZURE_API_VERSION: &str = "2024-10-21";

/// Every environment variable that holds a model's credential beyond the
/// providers' `*_API_KEY` (which are all credentials): an Entra ID token,
/// AWS's secret, session token and Bedrock bearer token, a service
/// account's key file. Text a model reads must never be filled from them.
pub const CREDENTIAL_VARS: &[&str] = &[
    "AZURE_OPENAI_AD_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK",
    "GOOGLE_APPLICATION_CREDENTIALS",
];

/// Every variable rove reads a model's credential from: each provider's
/// key variable and [`CREDENTIAL_VARS`].
pub fn credential_vars() -> Vec<&'static str> {
    let mut vars: Vec<&'static str> = KNOWN.iter().filter_map(|k| k.key_var).collect();
    vars.extend_from_slice(CREDENTIAL_VARS);
    vars.sort_unstable();
    vars.dedup();
    vars
}

/// Whether the environment variable `name` holds a model's credential.
pub fn is_credential_var(name: &str) -> bool {
    name.ends_with("_API_KEY")
        || CREDENTIAL_VARS.contains(&name)
        || KNOWN.iter().any(|k| k.key_var == Some(name))
}

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
    /// OpenAI Chat Completions at an Azure OpenAI deployment.
    Azure,
    /// Mistral's chat completions (OpenAI's shape, with Mistral's rules).
    Mistral,
    /// Amazon Bedrock's Converse API.
    Bedrock,
    /// Gemini's `generateContent` on Google Cloud's Vertex AI.
    Vertex,
}

/// How a call proves who makes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Auth {
    /// `api_key` (or nothing), as the wire format sends keys.
    Key,
    /// `api_key` as `Authorization: Bearer` (an Entra ID token for Azure,
    /// an API key for Bedrock).
    Bearer,
    /// AWS Signature Version 4.
    Aws(AwsCredentials),
    /// An OAuth token of a Google service account.
    Google(ServiceAccount),
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
    /// How calls are authorised.
    pub auth: Auth,
    /// The API version the URL names (Azure's `api-version`).
    pub api_version: Option<String>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("provider", &self.provider)
            .field("model", &self.model)
            .field("wire", &self.wire)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| HIDDEN))
            .field("auth", &self.auth)
            .field("api_version", &self.api_version)
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
        name: "mistral",
        wire: Wire::Mistral,
        base_url: "https://api.mistral.ai/v1",
        key_var: Some("MISTRAL_API_KEY"),
        base_var: Some("MISTRAL_BASE_URL"),
    },
    Known {
        name: "azure",
        wire: Wire::Azure,
        base_url: "",
        key_var: Some("AZURE_OPENAI_API_KEY"),
        base_var: Some("AZURE_OPENAI_ENDPOINT"),
    },
    Known {
        name: "bedrock",
        wire: Wire::Bedrock,
        base_url: "",
        key_var: Some("AWS_BEARER_TOKEN_BEDROCK"),
        base_var: Some("AWS_ENDPOINT_URL_BEDROCK_RUNTIME"),
    },
    Known {
        name: "vertex",
        wire: Wire::Vertex,
        base_url: "",
        key_var: None,
        base_var: Some("VERTEX_BASE_URL"),
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
        Endpoint::resolve_keyed(name, env, None)
    }

    /// As [`Endpoint::resolve`], with `key` (given on the command line)
    /// standing in for the provider's key variable. A missing key is
    /// [`LlmError::NoKey`], for the caller to name its own way to give one.
    pub fn resolve_keyed(
        name: &str,
        env: impl Fn(&str) -> Option<String>,
        key: Option<&str>,
    ) -> Result<Endpoint, LlmError> {
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
        let var = |v: &str| env(v).filter(|v| !v.trim().is_empty());
        let given = key.filter(|k| !k.is_empty()).map(str::to_owned);
        let mut base_url = known
            .base_var
            .and_then(var)
            .unwrap_or_else(|| known.base_url.to_owned());
        let mut api_key = given.or_else(|| known.key_var.and_then(var));
        let mut auth = Auth::Key;
        let mut api_version = None;
        match known.wire {
            Wire::OpenAiChat if provider == "ollama" => {
                // OLLAMA_HOST may be a bare host:port; its OpenAI API is at /v1.
                if !base_url.contains("://") {
                    base_url = format!("http://{base_url}");
                }
                base_url = format!("{}/v1", base_url.trim_end_matches('/'));
            }
            Wire::Azure => {
                if base_url.is_empty() {
                    return Err(LlmError::Config(
                        "azure needs its resource's endpoint: set AZURE_OPENAI_ENDPOINT (https://NAME.openai.azure.com)".into(),
                    ));
                }
                if api_key.is_none() {
                    api_key = var("AZURE_OPENAI_AD_TOKEN");
                    auth = Auth::Bearer;
                }
                api_version = Some(
                    var("AZURE_OPENAI_API_VERSION")
                        .or_else(|| var("OPENAI_API_VERSION"))
                        .unwrap_or_else(|| AZURE_API_VERSION.to_owned()),
                );
                if api_key.is_none() {
                    return Err(LlmError::NoKey {
                        provider: provider.to_owned(),
                        vars:
                            "AZURE_OPENAI_API_KEY (or an Entra ID token in AZURE_OPENAI_AD_TOKEN)"
                                .into(),
                    });
                }
            }
            Wire::Bedrock => {
                // A Bedrock API key (a bearer token) stands in for
                // signing; the region is needed either way.
                let region = crate::aws::region(&var)?;
                if api_key.is_some() {
                    auth = Auth::Bearer;
                } else {
                    auth = Auth::Aws(AwsCredentials::resolve(&var)?);
                }
                if base_url.is_empty() {
                    base_url = var("AWS_ENDPOINT_URL").unwrap_or_else(|| {
                        format!("https://bedrock-runtime.{region}.amazonaws.com")
                    });
                }
            }
            Wire::Vertex => {
                if key.is_some() {
                    return Err(LlmError::Config(
                        "vertex signs in with a service account (GOOGLE_APPLICATION_CREDENTIALS), not a key".into(),
                    ));
                }
                let account = ServiceAccount::resolve(&var)?;
                if base_url.is_empty() {
                    base_url = match account.location.as_str() {
                        "global" => "https://aiplatform.googleapis.com".to_owned(),
                        region => format!("https://{region}-aiplatform.googleapis.com"),
                    };
                }
                auth = Auth::Google(account);
            }
            _ => {}
        }
        if let (Some(var), None, Auth::Key) = (known.key_var, &api_key, &auth) {
            return Err(LlmError::NoKey {
                provider: provider.to_owned(),
                vars: var.to_owned(),
            });
        }
        Ok(Endpoint {
            provider: provider.to_owned(),
            model: model.to_owned(),
            wire: known.wire,
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key,
            auth,
            api_version,
        })
    }

    /// Whether the model reads images: every hosted model but those known
    /// to read text only (a screenshot sent to one is an error), and not a
    /// local one through Ollama, which rarely does.
    pub fn sees_images(&self) -> bool {
        let model = self.model.to_lowercase();
        // Bedrock names models `vendor.name` (`us.` for a cross-region
        // profile).
        let bare = model
            .strip_prefix("us.")
            .or_else(|| {
                model
                    .strip_prefix("eu.")
                    .or_else(|| model.strip_prefix("apac."))
            })
            .or_else(|| model.strip_prefix("global."))
            .unwrap_or(&model);
        let text_only: &[&str] = match self.provider.as_str() {
            "ollama" => return false,
            "mistral" => &[
                "mistral-large",
                "ministral",
                "codestral",
                "open-mistral",
                "mistral-saba",
                "devstral",
            ],
            "bedrock" => &[
                "amazon.nova-micro",
                "amazon.titan",
                "mistral.",
                "cohere.",
                "ai21.",
                "deepseek.",
                "meta.llama3-8b",
                "meta.llama3-70b",
                "meta.llama3-1",
                "meta.llama3-2-1b",
                "meta.llama3-2-3b",
                "meta.llama3-3",
                "anthropic.claude-instant",
                "anthropic.claude-v2",
            ],
            "deepseek" => &["deepseek"],
            _ => &[],
        };
        !text_only.iter().any(|prefix| bare.starts_with(prefix))
    }

    /// The secrets this endpoint holds (its key, an AWS secret and session
    /// token), for a log filter to hide.
    pub fn secrets(&self) -> Vec<&str> {
        let mut secrets: Vec<&str> = self.api_key.iter().map(String::as_str).collect();
        if let Auth::Aws(credentials) = &self.auth {
            secrets.push(&credentials.secret_access_key);
            secrets.extend(credentials.session_token.as_deref());
        }
        secrets
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
    fn cloud_providers_resolve_their_region_endpoint_and_way_of_signing_in() {
        let bedrock = Endpoint::resolve(
            "bedrock:us.amazon.nova-pro-v1:0",
            env(&[
                ("AWS_BEARER_TOKEN_BEDROCK", "bedrock-key"),
                ("AWS_DEFAULT_REGION", "us-west-2"),
                ("HOME", "/nonexistent"),
            ]),
        )
        .expect("a Bedrock API key");
        assert_eq!(
            (
                bedrock.model.as_str(),
                bedrock.base_url.as_str(),
                &bedrock.auth
            ),
            (
                "us.amazon.nova-pro-v1:0",
                "https://bedrock-runtime.us-west-2.amazonaws.com",
                &Auth::Bearer
            )
        );
        let no_region = Endpoint::resolve(
            "bedrock:m",
            env(&[("AWS_BEARER_TOKEN_BEDROCK", "k"), ("HOME", "/nonexistent")]),
        )
        .expect_err("no region");
        assert!(no_region.to_string().contains("AWS_REGION"), "{no_region}");
        let azure = Endpoint::resolve("azure:d", env(&[("AZURE_OPENAI_API_KEY", "k")]))
            .expect_err("no endpoint");
        assert!(
            azure.to_string().contains("AZURE_OPENAI_ENDPOINT"),
            "{azure}"
        );
        let vertex = Endpoint::resolve_keyed("vertex:gemini-2.5-flash", env(&[]), Some("k"))
            .expect_err("a key for vertex");
        assert!(vertex.to_string().contains("service account"), "{vertex}");
        let no_account =
            Endpoint::resolve("vertex:gemini-2.5-flash", env(&[])).expect_err("no account");
        assert!(
            matches!(&no_account, LlmError::NoKey { vars, .. } if vars.contains("GOOGLE_APPLICATION_CREDENTIALS")),
            "{no_account:?}"
        );
        let mistral =
            Endpoint::resolve_keyed("mistral:mistral-small-latest", env(&[]), Some("given"))
                .expect("a given key stands in for MISTRAL_API_KEY");
        assert_eq!(
            (mistral.api_key.as_deref(), mistral.base_url.as_str()),
            (Some("given"), "https://api.mistral.ai/v1")
        );
    }

    #[test]
    fn text_only_models_are_not_sent_screenshots() {
        let sees = |name: &str| {
            let (provider, model) = name.split_once(':').expect("name");
            Endpoint {
                provider: provider.into(),
                model: model.into(),
                wire: Wire::OpenAiChat,
                base_url: String::new(),
                api_key: None,
                auth: Auth::Key,
                api_version: None,
            }
            .sees_images()
        };
        for reads in [
            "openai:gpt-5-mini",
            "mistral:mistral-medium-latest",
            "mistral:pixtral-large-latest",
            "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "bedrock:amazon.nova-pro-v1:0",
            "bedrock:meta.llama3-2-90b-instruct-v1:0",
            "vertex:gemini-2.5-flash",
        ] {
            assert!(sees(reads), "{reads}");
        }
        for text in [
            "mistral:mistral-large-latest",
            "mistral:codestral-latest",
            "bedrock:amazon.nova-micro-v1:0",
            "bedrock:us.meta.llama3-3-70b-instruct-v1:0",
            "deepseek:deepseek-chat",
            "ollama:qwen3:8b",
        ] {
            assert!(!sees(text), "{text}");
        }
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
