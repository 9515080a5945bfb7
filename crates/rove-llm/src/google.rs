//! A Google service account (the JSON key `GOOGLE_APPLICATION_CREDENTIALS`
//! names) and the OAuth access token it gets: a JWT signed with its RSA key
//! (RS256), exchanged at its `token_uri`.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::signature::{RSA_PKCS1_SHA256, RsaKeyPair};
use serde_json::{Value, json};

use crate::LlmError;
use crate::transport::Transport;

/// The scope Vertex AI's calls need.
const SCOPE: &str = "https://www.googleapis.com/auth/cloud-platform";

/// How long a token is asked to last (Google's most).
const LIFETIME: u64 = 3600;

/// A service account, where its calls go, and its key. Its `Debug` shows
/// no key.
#[derive(Clone, PartialEq)]
pub struct ServiceAccount {
    /// The account (`name@project.iam.gserviceaccount.com`).
    pub client_email: String,
    /// The key's id, named in the JWT's header.
    pub private_key_id: Option<String>,
    /// The RSA key, PEM (PKCS #8).
    pub(crate) private_key: String,
    /// Where tokens are issued.
    pub token_uri: String,
    /// The Google Cloud project.
    pub project: String,
    /// The region (`us-central1`) or `global`.
    pub location: String,
}

impl std::fmt::Debug for ServiceAccount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceAccount")
            .field("client_email", &self.client_email)
            .field("private_key", &rove_base::redact::HIDDEN)
            .field("token_uri", &self.token_uri)
            .field("project", &self.project)
            .field("location", &self.location)
            .finish()
    }
}

impl ServiceAccount {
    /// The account of the key file `GOOGLE_APPLICATION_CREDENTIALS`, its
    /// project (`GOOGLE_CLOUD_PROJECT`, else the key's `project_id`) and
    /// location (`GOOGLE_CLOUD_LOCATION`, else `us-central1`).
    pub(crate) fn resolve(env: &dyn Fn(&str) -> Option<String>) -> Result<Self, LlmError> {
        let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let Some(path) = var("GOOGLE_APPLICATION_CREDENTIALS") else {
            return Err(LlmError::NoKey {
                provider: "vertex".into(),
                vars: "GOOGLE_APPLICATION_CREDENTIALS to a service account's JSON key".into(),
            });
        };
        let bad = |why: String| {
            LlmError::Config(format!("GOOGLE_APPLICATION_CREDENTIALS ({path}): {why}"))
        };
        // A path the environment names: a FIFO or a device is refused at
        // once (an open would wait for ever, a read never end).
        let text = rove_base::user_file::read_text(
            std::path::Path::new(&path),
            rove_base::limits::CREDENTIALS_FILE_BYTES,
        )
        .map_err(|e| bad(e.into_io().to_string()))?;
        let key: Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON ({e})")))?;
        if key["type"] != "service_account" {
            return Err(bad(format!(
                "the key's type is {}, and rove signs in with a service account's key (type service_account)",
                key["type"]
            )));
        }
        let field = |name: &str| {
            key[name]
                .as_str()
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let (Some(client_email), Some(private_key)) = (field("client_email"), field("private_key"))
        else {
            return Err(bad("no client_email or private_key".into()));
        };
        // The key must load now: a broken one is a configuration error,
        // not a failure at step 1.
        key_pair(&private_key)?;
        let project = var("GOOGLE_CLOUD_PROJECT")
            .or_else(|| field("project_id"))
            .ok_or_else(|| bad("no project: set GOOGLE_CLOUD_PROJECT".into()))?;
        Ok(ServiceAccount {
            client_email,
            private_key_id: field("private_key_id"),
            private_key,
            token_uri: field("token_uri")
                .unwrap_or_else(|| "https://oauth2.googleapis.com/token".into()),
            project,
            location: var("GOOGLE_CLOUD_LOCATION").unwrap_or_else(|| "us-central1".into()),
        })
    }

    /// A fresh access token and how long it lasts.
    pub(crate) async fn access_token(
        &self,
        transport: &Transport,
        deadline: Option<tokio::time::Instant>,
    ) -> Result<(String, Duration), LlmError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let assertion = self.assertion(now)?;
        let form = format!(
            "grant_type={}&assertion={assertion}",
            crate::aws::uri_encode("urn:ietf:params:oauth:grant-type:jwt-bearer")
        );
        let answer = transport
            .post_bytes(
                "vertex",
                &self.token_uri,
                &[],
                "application/x-www-form-urlencoded",
                form.into_bytes(),
                deadline,
            )
            .await?;
        let token = answer["access_token"]
            .as_str()
            .filter(|t| !t.is_empty())
            .ok_or_else(|| LlmError::BadResponse {
                provider: "vertex".into(),
                message: "the token endpoint gave no access_token".into(),
            })?;
        rove_base::redact::hide_literal(token);
        let lasts = answer["expires_in"].as_u64().unwrap_or(LIFETIME);
        Ok((token.to_owned(), Duration::from_secs(lasts)))
    }

    /// The signed JWT that asks for a token, issued at `now` (seconds
    /// since 1970).
    fn assertion(&self, now: u64) -> Result<String, LlmError> {
        let mut header = json!({"alg": "RS256", "typ": "JWT"});
        if let Some(id) = &self.private_key_id {
            header["kid"] = json!(id);
        }
        let claims = json!({
            "iss": self.client_email,
            "scope": SCOPE,
            "aud": self.token_uri,
            "iat": now,
            "exp": now + LIFETIME,
        });
        let signed = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let pair = key_pair(&self.private_key)?;
        let mut signature = vec![0; pair.public().modulus_len()];
        pair.sign(
            &RSA_PKCS1_SHA256,
            &ring::rand::SystemRandom::new(),
            signed.as_bytes(),
            &mut signature,
        )
        .map_err(|_| LlmError::Config("the service account's key could not sign".into()))?;
        Ok(format!("{signed}.{}", URL_SAFE_NO_PAD.encode(signature)))
    }
}

/// The RSA key of a PEM `PRIVATE KEY` (PKCS #8), as service account keys
/// hold it.
fn key_pair(pem: &str) -> Result<RsaKeyPair, LlmError> {
    let body: String = pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .map(str::trim)
        .collect();
    let der = STANDARD.decode(body).map_err(|e| {
        LlmError::Config(format!(
            "the service account's private_key is not PEM ({e})"
        ))
    })?;
    RsaKeyPair::from_pkcs8(&der).map_err(|e| {
        LlmError::Config(format!(
            "the service account's private_key is not an RSA key in PKCS #8 ({e})"
        ))
    })
}
