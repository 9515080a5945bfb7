//! What logs must never show, for the life of the process.
//!
//! Logs are process-wide, so what they must hide is too: the layers above
//! register what they know to be secret (a session's typed secrets, with
//! the disguises `rove-commands` knows; the model's API key, as written)
//! and every log line that may carry page or wire data passes [`scrub`].
//! `scrub` also hides the values of URL parameters whose names say they
//! hold a credential (`token=`, `api_key=`, `password=`, …), whoever
//! registered nothing.
//!
//! Nothing is ever unregistered: a secret once typed may still sit in a
//! page a later message echoes.

use std::sync::{Arc, RwLock};

/// A way to hide something in a text: returns the text with it replaced.
pub type Redactor = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// Values hidden as written, and redactors that know more disguises.
#[derive(Default)]
struct Registry {
    literals: Vec<String>,
    redactors: Vec<(String, Redactor)>,
}

static REGISTRY: RwLock<Option<Registry>> = RwLock::new(None);

/// Literals shorter than this are not registered: hiding `a` or `12`
/// everywhere would hide nothing and mangle every line.
const MIN_LITERAL: usize = 4;

/// What a hidden literal becomes.
pub const HIDDEN: &str = "<redacted>";

/// URL parameters whose values are credentials, lower-case: one list for
/// the logs and for every URL rove shows (the network tools use it too).
pub const SECRET_PARAMS: &[&str] = &[
    "token",
    "access_token",
    "refresh_token",
    "id_token",
    "api_key",
    "apikey",
    "key",
    "password",
    "passwd",
    "pwd",
    "secret",
    "client_secret",
    "auth",
    "sig",
    "signature",
    "code",
    "session",
    "sessionid",
];

/// Hides `value` as written from every log line from now on (an API key, a
/// bearer token).
pub fn hide_literal(value: &str) {
    if value.len() < MIN_LITERAL {
        return;
    }
    let mut guard = REGISTRY.write().unwrap_or_else(|p| p.into_inner());
    let registry = guard.get_or_insert_with(Registry::default);
    if !registry.literals.iter().any(|l| l == value) {
        registry.literals.push(value.to_owned());
        // Longest first, so a key that contains another is hidden whole.
        registry
            .literals
            .sort_by_key(|l| std::cmp::Reverse(l.len()));
    }
}

/// Hides whatever `redactor` finds from every log line from now on. `key`
/// names it: a second registration with the same key replaces nothing (a
/// session started again with the same secrets adds no work to each line).
pub fn hide_with(key: &str, redactor: Redactor) {
    let mut guard = REGISTRY.write().unwrap_or_else(|p| p.into_inner());
    let registry = guard.get_or_insert_with(Registry::default);
    if !registry.redactors.iter().any(|(k, _)| k == key) {
        registry.redactors.push((key.to_owned(), redactor));
    }
}

/// `text` with every registered secret and every credential in a URL
/// parameter hidden.
pub fn scrub(text: &str) -> String {
    let mut out = hide_url_params(text);
    let guard = REGISTRY.read().unwrap_or_else(|p| p.into_inner());
    if let Some(registry) = guard.as_ref() {
        for literal in &registry.literals {
            if out.contains(literal.as_str()) {
                out = out.replace(literal.as_str(), HIDDEN);
            }
        }
        for (_, redactor) in &registry.redactors {
            out = redactor(&out);
        }
    }
    out
}

/// Replaces the value of each `?name=` or `&name=` whose name is in
/// [`SECRET_PARAMS`] (any case) with [`HIDDEN`]. A value ends at `&`, `#`,
/// a quote, a backslash (JSON's escapes), whitespace or `<`.
fn hide_url_params(text: &str) -> String {
    if !text.contains('=') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'?' || bytes[i] == b'&' {
            let name_start = i + 1;
            let mut name_end = name_start;
            while name_end < bytes.len()
                && (bytes[name_end].is_ascii_alphanumeric() || bytes[name_end] == b'_')
            {
                name_end += 1;
            }
            if name_end < bytes.len()
                && bytes[name_end] == b'='
                && name_end > name_start
                && SECRET_PARAMS
                    .iter()
                    .any(|p| p.eq_ignore_ascii_case(&text[name_start..name_end]))
            {
                let value_start = name_end + 1;
                let mut value_end = value_start;
                while value_end < bytes.len()
                    && !matches!(
                        bytes[value_end],
                        b'&' | b'#' | b'"' | b'\'' | b'\\' | b'<' | b' ' | b'\t' | b'\n' | b'\r'
                    )
                {
                    value_end += 1;
                }
                if value_end > value_start {
                    // Every cut is next to an ASCII byte, so on a
                    // character boundary.
                    out.push_str(&text[copied_to..value_start]);
                    out.push_str(HIDDEN);
                    copied_to = value_end;
                    i = value_end;
                    continue;
                }
            }
        }
        i += 1;
    }
    out.push_str(&text[copied_to..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_in_url_parameters_are_hidden_and_others_kept() {
        let text = r#"{"url":"http://127.0.0.1:80/a?q=lamp&token=abc123&Api_Key=zz#top","x":"b?key=v\"k"}"#;
        let scrubbed = scrub(text);
        assert!(!scrubbed.contains("abc123"), "{scrubbed}");
        assert!(!scrubbed.contains("=zz"), "{scrubbed}");
        assert!(scrubbed.contains("q=lamp"), "{scrubbed}");
        assert!(scrubbed.contains("#top"), "{scrubbed}");
        assert!(scrubbed.contains("key=<redacted>\\\"k"), "{scrubbed}");
        // Not a parameter: a word that happens to be followed by `=`.
        assert_eq!(scrub("monkey=1 token = 2"), "monkey=1 token = 2");
    }

    #[test]
    fn registered_values_are_hidden_from_then_on() {
        hide_literal("sk-live-0123456789");
        hide_literal("ab");
        hide_with(
            "upper",
            Arc::new(|t: &str| t.replace("HUNTER2X", "<secret>PW</secret>")),
        );
        let scrubbed = scrub("key sk-live-0123456789 typed HUNTER2X; ab stays");
        assert_eq!(
            scrubbed,
            "key <redacted> typed <secret>PW</secret>; ab stays"
        );
    }
}
