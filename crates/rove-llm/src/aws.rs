//! AWS credentials as the AWS tools find them (the environment, then the
//! shared credentials and config files under a profile), and Signature
//! Version 4 for the requests that carry them.

use ring::{digest, hmac};

use crate::LlmError;

/// Who signs, and for which region. Its `Debug` shows the access key id
/// only: the secret and the session token are as good as a password.
#[derive(Clone, PartialEq)]
pub struct AwsCredentials {
    /// `AKIA…` or `ASIA…`: not a secret (it appears in every signature).
    pub access_key_id: String,
    /// The secret access key.
    pub secret_access_key: String,
    /// The session token of temporary credentials.
    pub session_token: Option<String>,
    /// The region the requests go to (`us-east-1`).
    pub region: String,
}

impl std::fmt::Debug for AwsCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hidden = rove_base::redact::HIDDEN;
        f.debug_struct("AwsCredentials")
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &hidden)
            .field(
                "session_token",
                &self.session_token.as_ref().map(|_| hidden),
            )
            .field("region", &self.region)
            .finish()
    }
}

impl AwsCredentials {
    /// The credentials and region from `env` (the process environment),
    /// then from the files: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`; else the profile `AWS_PROFILE` (default
    /// `default`) of `~/.aws/credentials` and `~/.aws/config` (or
    /// `AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE`). The region is
    /// [`region`]'s.
    pub(crate) fn resolve(env: &dyn Fn(&str) -> Option<String>) -> Result<Self, LlmError> {
        let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let profile = Profile::load(env)?;
        let (access_key_id, secret_access_key, session_token) = match (
            var("AWS_ACCESS_KEY_ID"),
            var("AWS_SECRET_ACCESS_KEY"),
        ) {
            (Some(id), Some(secret)) => (id, secret, var("AWS_SESSION_TOKEN")),
            _ => match (
                profile.get("aws_access_key_id"),
                profile.get("aws_secret_access_key"),
            ) {
                (Some(id), Some(secret)) => (id, secret, profile.get("aws_session_token")),
                _ => {
                    return Err(LlmError::NoKey {
                        provider: "bedrock".into(),
                        vars: format!(
                            "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary credentials), a profile {:?} in ~/.aws/credentials, or AWS_BEARER_TOKEN_BEDROCK",
                            profile.name
                        ),
                    });
                }
            },
        };
        Ok(AwsCredentials {
            access_key_id,
            secret_access_key,
            session_token,
            region: region(env)?,
        })
    }
}

/// The region: `AWS_REGION`, `AWS_DEFAULT_REGION`, or the profile's in
/// `~/.aws/config`.
pub(crate) fn region(env: &dyn Fn(&str) -> Option<String>) -> Result<String, LlmError> {
    let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    if let Some(region) = var("AWS_REGION").or_else(|| var("AWS_DEFAULT_REGION")) {
        return Ok(region);
    }
    let profile = Profile::load(env)?;
    lookup(&profile.config, "region").ok_or_else(|| {
        LlmError::Config(format!(
            "bedrock needs a region: set AWS_REGION (or give the profile {:?} a region in ~/.aws/config)",
            profile.name
        ))
    })
}

/// One profile of the shared files.
struct Profile {
    name: String,
    credentials: Vec<(String, String)>,
    config: Vec<(String, String)>,
}

impl Profile {
    /// The profile `AWS_PROFILE` (default `default`) of the credentials
    /// and config files.
    fn load(env: &dyn Fn(&str) -> Option<String>) -> Result<Profile, LlmError> {
        let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let name = var("AWS_PROFILE").unwrap_or_else(|| "default".into());
        let home = var("HOME");
        let file = |var_name: &'static str, default: &str| {
            var(var_name)
                .map(std::path::PathBuf::from)
                .or_else(|| home.as_ref().map(|h| std::path::Path::new(h).join(default)))
                .map(|path| (var_name, path))
        };
        // The credentials file names a profile `[name]`; the config file
        // `[profile name]`, except for `[default]`.
        Ok(Profile {
            credentials: read_profile(
                file("AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials"),
                &name,
                false,
            )?,
            config: read_profile(file("AWS_CONFIG_FILE", ".aws/config"), &name, true)?,
            name,
        })
    }

    /// A key of the profile, the credentials file first.
    fn get(&self, key: &str) -> Option<String> {
        lookup(&self.credentials, key).or_else(|| lookup(&self.config, key))
    }
}

/// The `key = value` lines of one profile's section, or none when the
/// file or the section is missing. `file` is the variable that named the
/// file (or would have) and its path: a FIFO or a device there is refused
/// at once, never waited on or read without end, and so is a file too
/// large to be one of AWS's.
fn read_profile(
    file: Option<(&str, std::path::PathBuf)>,
    profile: &str,
    config: bool,
) -> Result<Vec<(String, String)>, LlmError> {
    let Some((var, path)) = file else {
        return Ok(Vec::new());
    };
    let text =
        match rove_base::user_file::read_text(&path, rove_base::limits::CREDENTIALS_FILE_BYTES) {
            Ok(text) => text,
            Err(rove_base::user_file::UserFileError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Ok(Vec::new());
            }
            Err(e) => {
                return Err(LlmError::Config(format!(
                    "{var} ({}): {}",
                    path.display(),
                    e.into_io()
                )));
            }
        };
    let wanted = if config && profile != "default" {
        format!("profile {profile}")
    } else {
        profile.to_owned()
    };
    let mut inside = false;
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with(';') || line.is_empty() {
            continue;
        }
        if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = section.trim() == wanted;
            continue;
        }
        if inside && let Some((key, value)) = line.split_once('=') {
            found.push((key.trim().to_lowercase(), value.trim().to_owned()));
        }
    }
    Ok(found)
}

fn lookup(pairs: &[(String, String)], key: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(k, v)| k == key && !v.is_empty())
        .map(|(_, v)| v.clone())
}

/// One request as SigV4 sees it.
pub(crate) struct Signable<'a> {
    /// `GET`, `POST`.
    pub method: &'a str,
    /// The path as sent on the wire (its segments percent-encoded once).
    pub path: &'a str,
    /// The headers to sign, names in lower case; `host` and `x-amz-date`
    /// among them (and `x-amz-security-token` with temporary credentials).
    pub headers: &'a [(String, String)],
    /// The body.
    pub payload: &'a [u8],
}

/// The `Authorization` header of `request` for `service`, signed at
/// `amz_date` (`20150830T123600Z`).
pub(crate) fn authorization(
    request: &Signable<'_>,
    credentials: &AwsCredentials,
    service: &str,
    amz_date: &str,
) -> String {
    let mut headers: Vec<(String, String)> = request
        .headers
        .iter()
        .map(|(k, v)| (k.to_lowercase(), collapse_spaces(v)))
        .collect();
    headers.sort();
    let signed: Vec<&str> = headers.iter().map(|(k, _)| k.as_str()).collect();
    let signed = signed.join(";");
    let canonical_headers: String = headers.iter().map(|(k, v)| format!("{k}:{v}\n")).collect();
    let canonical = format!(
        "{}\n{}\n\n{canonical_headers}\n{signed}\n{}",
        request.method,
        canonical_uri(request.path),
        hex(digest::digest(&digest::SHA256, request.payload).as_ref())
    );
    let day = amz_date.get(..8).unwrap_or(amz_date);
    let scope = format!("{day}/{}/{service}/aws4_request", credentials.region);
    let to_sign = format!(
        "AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{}",
        hex(digest::digest(&digest::SHA256, canonical.as_bytes()).as_ref())
    );
    let mut key = format!("AWS4{}", credentials.secret_access_key).into_bytes();
    for part in [day, credentials.region.as_str(), service, "aws4_request"] {
        key = mac(&key, part.as_bytes());
    }
    let signature = hex(&mac(&key, to_sign.as_bytes()));
    format!(
        "AWS4-HMAC-SHA256 Credential={}/{scope}, SignedHeaders={signed}, Signature={signature}",
        credentials.access_key_id
    )
}

fn mac(key: &[u8], data: &[u8]) -> Vec<u8> {
    hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, key), data)
        .as_ref()
        .to_vec()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A header value as SigV4 canonicalises it: trimmed, runs of spaces one.
fn collapse_spaces(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Services other than S3 sign the path with each segment encoded once
/// more than it was sent (`v1%3A0` is signed as `v1%253A0`).
fn canonical_uri(path: &str) -> String {
    if path.is_empty() {
        return "/".into();
    }
    path.split('/')
        .map(uri_encode)
        .collect::<Vec<_>>()
        .join("/")
}

/// Percent-encoding of everything but the unreserved characters, as
/// SigV4 wants it (upper-case hex).
pub(crate) fn uri_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Now as SigV4 writes it: `20150830T123600Z`.
pub(crate) fn amz_date_now() -> String {
    rove_base::time::UtcTime::now().iso8601_basic()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash of an empty payload, the last line of a GET's canonical
    /// request.
    const EMPTY_HASH: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    /// The example credentials of AWS's SigV4 test suite.
    fn suite() -> AwsCredentials {
        AwsCredentials {
            access_key_id: "AKIDEXAMPLE".into(),
            secret_access_key: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".into(),
            session_token: None,
            region: "us-east-1".into(),
        }
    }

    fn suite_headers(extra: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut headers = vec![
            ("host".to_owned(), "example.amazonaws.com".to_owned()),
            ("x-amz-date".to_owned(), "20150830T123600Z".to_owned()),
        ];
        headers.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        headers
    }

    fn sign(method: &str, headers: &[(String, String)]) -> String {
        let request = Signable {
            method,
            path: "/",
            headers,
            payload: b"",
        };
        authorization(&request, &suite(), "service", "20150830T123600Z")
    }

    #[test]
    fn the_suite_vectors_get_vanilla_and_post_vanilla_sign_as_published() {
        assert_eq!(
            sign("GET", &suite_headers(&[])),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        );
        assert!(sign("POST", &suite_headers(&[])).ends_with(
            "Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"
        ));
        assert_eq!(
            hex(digest::digest(&digest::SHA256, b"").as_ref()),
            EMPTY_HASH
        );
    }

    #[test]
    fn the_suite_vector_post_sts_header_before_signs_the_session_token() {
        let token = "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==";
        assert_eq!(
            sign("POST", &suite_headers(&[("x-amz-security-token", token)])),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead"
        );
    }

    #[test]
    fn a_model_id_with_a_colon_is_signed_encoded_twice() {
        assert_eq!(
            canonical_uri("/model/anthropic.claude-v2%3A1/converse"),
            "/model/anthropic.claude-v2%253A1/converse"
        );
    }

    #[test]
    fn credentials_come_from_the_environment_then_the_profile_files() {
        let dir = std::env::temp_dir().join(format!("rove-aws-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(".aws")).expect("dir");
        std::fs::write(
            dir.join(".aws/credentials"),
            "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = s0\n\n[work]\naws_access_key_id=AKIDWORK\naws_secret_access_key=s1\naws_session_token=t1\n",
        )
        .expect("credentials");
        std::fs::write(
            dir.join(".aws/config"),
            "[default]\nregion = eu-west-1\n[profile work]\nregion = ap-south-1\n",
        )
        .expect("config");
        let home = dir.display().to_string();
        let env = |vars: Vec<(&'static str, String)>| {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.clone())
            }
        };
        let work = AwsCredentials::resolve(&env(vec![
            ("HOME", home.clone()),
            ("AWS_PROFILE", "work".into()),
        ]))
        .expect("work profile");
        assert_eq!(
            (
                work.access_key_id.as_str(),
                work.session_token.as_deref(),
                work.region.as_str()
            ),
            ("AKIDWORK", Some("t1"), "ap-south-1")
        );
        let from_env = AwsCredentials::resolve(&env(vec![
            ("HOME", home.clone()),
            ("AWS_ACCESS_KEY_ID", "AKIDENV".into()),
            ("AWS_SECRET_ACCESS_KEY", "s2".into()),
            ("AWS_REGION", "us-west-2".into()),
        ]))
        .expect("environment");
        assert_eq!(
            (from_env.access_key_id.as_str(), from_env.region.as_str()),
            ("AKIDENV", "us-west-2")
        );
        assert!(!format!("{from_env:?}").contains("s2"));
        let none = AwsCredentials::resolve(&env(vec![("HOME", "/nonexistent".into())]))
            .expect_err("no credentials");
        assert!(none.to_string().contains("AWS_ACCESS_KEY_ID"), "{none}");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
