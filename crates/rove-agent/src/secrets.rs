//! Secrets the model may use but never see: it writes
//! `<secret>NAME</secret>`, rove puts the value in at action time (only on a
//! page whose host matches the secret's domain pattern), and every text that
//! goes back to the model or into the history has the values replaced by
//! their placeholders again.

use serde_json::Value;

/// One secret.
#[derive(Clone)]
pub struct Secret {
    /// What the model calls it.
    pub name: String,
    /// Its value; never shown.
    pub value: String,
    /// Hosts it may be used on: `example.com` (and its subdomains),
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

    fn placeholder(&self) -> String {
        format!("<secret>{}</secret>", self.name)
    }

    fn allowed_on(&self, url: &str) -> bool {
        let Some(pattern) = &self.domain else {
            return true;
        };
        let host = url
            .split_once("://")
            .map(|(_, rest)| rest)
            .unwrap_or(url)
            .split(['/', '?', '#'])
            .next()
            .unwrap_or_default();
        let host = host.rsplit_once('@').map(|(_, h)| h).unwrap_or(host);
        let host = host.split(':').next().unwrap_or(host).to_ascii_lowercase();
        let pattern = pattern.trim_start_matches("*.").to_ascii_lowercase();
        host == pattern || host.ends_with(&format!(".{pattern}"))
    }
}

/// The secrets of a run.
#[derive(Debug, Clone, Default)]
pub struct Secrets(pub Vec<Secret>);

impl Secrets {
    /// The line that tells the model which secrets it may use.
    pub fn briefing(&self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let names: Vec<String> = self.0.iter().map(Secret::placeholder).collect();
        Some(format!(
            "Secrets you may type without seeing them (write the placeholder as the text): {}",
            names.join(", ")
        ))
    }

    /// Puts the values into the string arguments of a call, for a page at
    /// `url`. A placeholder for a secret not allowed there is an error, and
    /// nothing is sent.
    pub fn fill_in(&self, arguments: &mut Value, url: &str) -> Result<(), String> {
        match arguments {
            Value::String(text) => {
                for secret in &self.0 {
                    let placeholder = secret.placeholder();
                    if text.contains(&placeholder) {
                        if !secret.allowed_on(url) {
                            return Err(format!(
                                "the secret {} may only be used on {}, not on this page",
                                secret.name,
                                secret.domain.as_deref().unwrap_or("any site")
                            ));
                        }
                        *text = text.replace(&placeholder, &secret.value);
                    }
                }
                Ok(())
            }
            Value::Array(items) => items.iter_mut().try_for_each(|v| self.fill_in(v, url)),
            Value::Object(map) => map.values_mut().try_for_each(|v| self.fill_in(v, url)),
            _ => Ok(()),
        }
    }

    /// `text` with every secret value replaced by its placeholder.
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for secret in &self.0 {
            if out.contains(&secret.value) {
                out = out.replace(&secret.value, &secret.placeholder());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_fill_in_only_where_allowed_and_never_show() {
        let secrets = Secrets(vec![
            Secret::parse("PASSWORD@example.com=hunter2").expect("scoped"),
            Secret::parse("TOKEN=abc123").expect("any"),
        ]);
        let mut args = json!({"ref": "e2", "text": "<secret>PASSWORD</secret>"});
        secrets
            .fill_in(&mut args, "https://login.example.com/x")
            .expect("allowed");
        assert_eq!(args["text"], "hunter2");
        let mut args = json!({"text": "<secret>PASSWORD</secret>"});
        assert!(
            secrets
                .fill_in(&mut args, "https://evil.test/example.com")
                .is_err()
        );
        assert_eq!(
            secrets.redact("value hunter2 and abc123"),
            "value <secret>PASSWORD</secret> and <secret>TOKEN</secret>"
        );
        assert!(Secret::parse("bad name=x").is_none());
        assert!(!format!("{:?}", secrets).contains("hunter2"));
    }
}
