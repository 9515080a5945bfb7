//! What rove must never show, and the one way it is hidden.
//!
//! Logs are process-wide, so what they must hide is too: the layers above
//! register what they know to be secret (a session's typed secrets, with
//! their disguises; the model's API key and the MCP token, as written) and
//! every log line and trace entry that may carry page or wire data passes
//! [`scrub`]. Whoever registered nothing, `scrub` also hides the
//! credentials a URL carries ([`hide_url_credentials`]: a password before
//! the host, the values of parameters named like credentials).
//!
//! A hidden value becomes [`HIDDEN`], the one placeholder, everywhere
//! (logs, traces, `network`'s URLs, a `Debug` of a key); a session's secret
//! becomes its own `<secret>NAME</secret>` instead, so a model reading it
//! knows which secret stood there.
//!
//! Nothing is ever unregistered: a secret once typed may still sit in a
//! page a later message echoes.

mod disguise;
mod fields;
mod path;

use std::sync::RwLock;

pub use disguise::{Disguised, FUZZY_MIN_CHARS};
pub use fields::{hide_credential_fields, is_credential_name};
pub use path::secret_path_segments;

/// What a hidden value becomes.
pub const HIDDEN: &str = "<redacted>";

/// HTTP headers whose values are credentials, lower-case: one list for
/// what `network` and its HAR export never show, what `set headers`
/// echoes as hidden, and what the model's client registers as secret.
pub const SECRET_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "x-api-key",
    "api-key",
    "x-goog-api-key",
    "x-amz-security-token",
];

/// Whether a header (in any case) carries a credential: one of
/// [`SECRET_HEADERS`].
pub fn is_secret_header(name: &str) -> bool {
    SECRET_HEADERS.contains(&name.to_ascii_lowercase().as_str())
}

/// URL parameters whose values are credentials, lower-case: one list for
/// the logs and for every URL rove shows.
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
    "jwt",
];

/// Literals shorter than this are not registered: hiding `a` or `12`
/// everywhere would hide nothing and mangle every line.
const MIN_LITERAL: usize = 4;

/// Values hidden as written, and secrets hidden in their disguises.
#[derive(Default)]
struct Registry {
    literals: Vec<String>,
    disguised: Vec<Disguised>,
}

static REGISTRY: RwLock<Option<Registry>> = RwLock::new(None);

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

/// Hides `secret`, in every disguise it knows, from every log line from
/// now on. The same secret registered twice (a session started again with
/// the same secrets) adds no work to each line.
pub fn hide_disguised(secret: Disguised) {
    let mut guard = REGISTRY.write().unwrap_or_else(|p| p.into_inner());
    let registry = guard.get_or_insert_with(Registry::default);
    if !registry.disguised.iter().any(|d| d.same_as(&secret)) {
        registry.disguised.push(secret);
    }
}

/// `text` with every registered secret and every credential a URL carries
/// hidden.
pub fn scrub(text: &str) -> String {
    hide_registered(&hide_url_credentials(text))
}

/// `value` with [`scrub`] applied to every string in it, keys included: a
/// JSON document (a history, a trace line, an answer) about to be written.
pub fn scrub_json(value: &serde_json::Value) -> serde_json::Value {
    scrub_json_with(value, scrub)
}

/// `value` with `hide` applied to every string in it, keys included: the
/// one JSON walker of every redaction (traces, histories, a session's
/// secrets, an eval's results). Keys are hidden too, because a key can be
/// page or model text as much as a value is (a header map, a page's JSON
/// keyed by what it echoes).
pub fn scrub_json_with(
    value: &serde_json::Value,
    hide: impl Fn(&str) -> String + Copy,
) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(s) => Value::String(hide(s)),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| scrub_json_with(v, hide)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (hide(k), scrub_json_with(v, hide)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `text` with every registered value hidden (the keys and tokens rove
/// holds or obtained, the sessions' secrets in their disguises), and
/// nothing else changed: for what rove writes that must keep a page's
/// URLs as they were (a command's output), where [`scrub`] would hide
/// their parameters too.
pub fn hide_registered(text: &str) -> String {
    let mut out = text.to_owned();
    let guard = REGISTRY.read().unwrap_or_else(|p| p.into_inner());
    if let Some(registry) = guard.as_ref() {
        for literal in &registry.literals {
            if out.contains(literal.as_str()) {
                out = out.replace(literal.as_str(), HIDDEN);
            }
        }
        for secret in &registry.disguised {
            out = secret.hide_in(&out);
        }
    }
    out
}

/// `text` with the credentials of every URL in it replaced by [`HIDDEN`]:
/// the password of `scheme://user:password@host`, and the value of each
/// `?name=`, `&name=` or `;name=` whose name, decoded, is a credential's
/// ([`is_credential_name`]: [`SECRET_PARAMS`] and names containing `token`,
/// `apikey`, `secret` …, in any case and spelling). A
/// value ends where a URL would (`&`, `#`, whitespace) or where the text
/// around it takes over (a quote, a backslash of a JSON escape, `<`).
/// Everything else stays as written, so a URL is still recognisable.
pub fn hide_url_credentials(text: &str) -> String {
    fields::hide_json_credentials(&hide_url_params(&hide_url_passwords(text)))
}

/// An address rove connects to (`--cdp-url`), with its credentials hidden:
/// those of [`hide_url_credentials`], a lone user name too, which is a
/// farm's key when written `wss://KEY@host`, a key written as a segment of
/// the path (`wss://host/ws/KEY`, `/token/KEY/…`: [`secret_path_segments`];
/// whoever parses an address registers them, so that logs hide them too),
/// and any `#fragment`. For one URL, not a text.
pub fn hide_endpoint_credentials(url: &str) -> String {
    let url = path::hide_path_secrets(url);
    let url = url.as_str();
    // An endpoint has no fragment (one is refused): whatever was typed
    // after `#` is hidden whole, as it may be a key in any shape.
    let url = match url.split_once('#') {
        Some((before, after)) if !after.is_empty() => format!("{before}#{HIDDEN}"),
        _ => url.to_owned(),
    };
    let mut out = hide_url_credentials(&url);
    if let Some((scheme, rest)) = out.split_once("://") {
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if let Some((user, _)) = authority.rsplit_once('@')
            && !user.is_empty()
            && !user.contains(HIDDEN)
        {
            out = format!("{scheme}://{HIDDEN}@{}", &rest[user.len() + 1..]);
        }
    }
    out
}

/// Whether `b` ends a URL's part inside a longer text.
fn ends_url_part(b: u8) -> bool {
    matches!(
        b,
        b'#' | b'"' | b'\'' | b'\\' | b'<' | b' ' | b'\t' | b'\n' | b'\r'
    )
}

fn hide_url_params(text: &str) -> String {
    if !text.contains('=') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    let mut i = 0;
    while i < bytes.len() {
        // `;` separates parameters too, for the servers that read it so.
        if matches!(bytes[i], b'?' | b'&' | b';') {
            let name_start = i + 1;
            let mut name_end = name_start;
            while name_end < bytes.len()
                && (bytes[name_end].is_ascii_alphanumeric()
                    || matches!(bytes[name_end], b'_' | b'-' | b'.' | b'%'))
            {
                name_end += 1;
            }
            // Judged as the server decodes the name, by the rule that
            // judges a form's fields: keys are spelt `accessToken`,
            // `x-api-key`, `%74oken` as well as `token`.
            if name_end < bytes.len()
                && bytes[name_end] == b'='
                && name_end > name_start
                && is_credential_name(&fields::form_decoded(&text[name_start..name_end]))
            {
                let value_start = name_end + 1;
                let mut value_end = value_start;
                while value_end < bytes.len()
                    && !matches!(bytes[value_end], b'&' | b';')
                    && !ends_url_part(bytes[value_end])
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

fn hide_url_passwords(text: &str) -> String {
    if !text.contains("://") || !text.contains('@') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    let mut from = 0;
    while let Some(found) = text[from..].find("://") {
        let authority_start = from + found + 3;
        let rest = &text.as_bytes()[authority_start..];
        let authority_len = rest
            .iter()
            .position(|&b| matches!(b, b'/' | b'?' | b'>') || ends_url_part(b))
            .unwrap_or(rest.len());
        let authority = &text[authority_start..authority_start + authority_len];
        if let (Some(at), Some(colon)) = (authority.rfind('@'), authority.find(':'))
            && colon < at
            && colon + 1 < at
        {
            // Both cuts are next to an ASCII byte: character boundaries.
            out.push_str(&text[copied_to..authority_start + colon + 1]);
            out.push_str(HIDDEN);
            copied_to = authority_start + at;
        }
        from = authority_start + authority_len;
    }
    out.push_str(&text[copied_to..]);
    out
}

/// A value whose `Debug` is `"<redacted>"` ([`HIDDEN`]); `expose` gives it
/// (an API key or a bearer token on the command line: the parsed arguments
/// are `Debug`, and a `{:?}` in a log or a panic message would otherwise
/// print it).
#[derive(Clone, PartialEq, Eq)]
pub struct Redacted(String);

impl Redacted {
    /// Keeps `value` hidden from `Debug`.
    pub fn new(value: impl Into<String>) -> Redacted {
        Redacted(value.into())
    }

    /// The value itself, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for Redacted {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Redacted(s.to_owned()))
    }
}

impl std::fmt::Debug for Redacted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{HIDDEN:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endpoint_hides_a_lone_user_name_too() {
        assert_eq!(
            hide_endpoint_credentials("wss://K3Yvalue@farm.test/?x=1"),
            format!("wss://{HIDDEN}@farm.test/?x=1")
        );
        assert_eq!(
            hide_endpoint_credentials("wss://u:pw@farm.test/?apiKey=K3Y"),
            format!("wss://u:{HIDDEN}@farm.test/?apiKey={HIDDEN}")
        );
        assert_eq!(
            hide_endpoint_credentials("ws://h:1/p?q=1"),
            "ws://h:1/p?q=1"
        );
        // An @ in the query is not a user name.
        assert_eq!(
            hide_endpoint_credentials("ws://h:1/p?mail=a@b"),
            "ws://h:1/p?mail=a@b"
        );
        // A key as a segment of the path (issue 43).
        assert_eq!(
            hide_endpoint_credentials("wss://u:pw@farm.test/token/K3Yvalue/x?apiKey=K3Y"),
            format!("wss://u:{HIDDEN}@farm.test/token/{HIDDEN}/x?apiKey={HIDDEN}")
        );
        // A fragment is refused, and the message that says so must not
        // show a key typed there.
        assert_eq!(
            hide_endpoint_credentials("ws://h:1/?x=1#token=K3Yvalue"),
            format!("ws://h:1/?x=1#{HIDDEN}")
        );
    }

    #[test]
    fn parameters_named_like_credentials_in_any_spelling_are_hidden() {
        // Farms and clouds name their keys every way; a name is judged as
        // the server decodes it (`%74oken` is `token`).
        for name in [
            "accessToken",
            "x-api-key",
            "apiToken",
            "auth_token",
            "browserless.token",
            "session_token",
            "%74oken",
            "TOKEN",
        ] {
            let url = format!("wss://farm.test/?launch=1&{name}=S3cr3tV4lue&x=2");
            for shown in [hide_endpoint_credentials(&url), scrub(&url)] {
                assert_eq!(
                    shown,
                    format!("wss://farm.test/?launch=1&{name}={HIDDEN}&x=2"),
                    "{name}"
                );
            }
        }
        // A `;` starts a parameter too.
        assert_eq!(
            hide_url_credentials("ws://farm.test/?a=1;token=S3cr3t;b=2"),
            format!("ws://farm.test/?a=1;token={HIDDEN};b=2")
        );
        // Names that only contain a credential's letters stay.
        let kept = "http://h.test/?monkey=1&keyboard=2&page=3";
        assert_eq!(hide_url_credentials(kept), kept);
    }

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
    fn a_urls_password_is_hidden_wherever_the_url_stands() {
        assert_eq!(
            hide_url_credentials("https://ada:hunter2@x.test/p?token=abc&page=2"),
            "https://ada:<redacted>@x.test/p?token=<redacted>&page=2"
        );
        assert_eq!(
            hide_url_credentials(r#"see "ftp://u:p%40ss@h:21/f" and http://v:w@y.test?q=1"#),
            r#"see "ftp://u:<redacted>@h:21/f" and http://v:<redacted>@y.test?q=1"#
        );
        // A user without a password, a port, an `@` in the path: all kept.
        for kept in [
            "https://ada@x.test/",
            "http://x.test:8080/a@b",
            "https://x.test/p?q=1",
            "not a url",
            "mailto:a@b.test",
        ] {
            assert_eq!(hide_url_credentials(kept), kept);
        }
    }

    #[test]
    fn registered_values_are_hidden_from_then_on() {
        hide_literal("sk-live-0123456789");
        hide_literal("ab");
        hide_disguised(Disguised::new("HUNTER2X", "<secret>PW</secret>"));
        hide_disguised(Disguised::new("HUNTER2X", "<secret>PW</secret>"));
        let scrubbed = scrub("key sk-live-0123456789 typed h\u{200B}unter2x; ab stays");
        assert_eq!(
            scrubbed,
            "key <redacted> typed <secret>PW</secret>; ab stays"
        );
        let guard = REGISTRY.read().unwrap_or_else(|p| p.into_inner());
        let twice = guard.as_ref().map_or(0, |r| {
            r.disguised
                .iter()
                .filter(|d| d.same_as(&Disguised::new("HUNTER2X", "<secret>PW</secret>")))
                .count()
        });
        assert_eq!(twice, 1, "registered once");
    }

    #[test]
    fn a_redacted_value_never_shows_in_debug() {
        let key: Redacted = "sk-live-51c0ffee".parse().expect("infallible");
        let shown = format!("{key:?} {:?}", Some(&key));
        assert_eq!(shown, "\"<redacted>\" Some(\"<redacted>\")");
        assert_eq!(key.expose(), "sk-live-51c0ffee");
    }
}
