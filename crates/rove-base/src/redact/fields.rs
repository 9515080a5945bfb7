//! Credentials in a request's body: the values of fields named like
//! credentials (`password`, `new-password`, `api_key`, `csrf_token`,
//! `client_secret` …) in a form (`a=1&password=…`, the same as a query
//! string), a JSON document (at any depth) or a multipart form, replaced by
//! [`HIDDEN`]. Everything else stays as sent, so an exported request still
//! says what it was.

use super::{HIDDEN, SECRET_PARAMS};

/// Parts of a field's name that make it a credential wherever they stand
/// in it (compared without case, `-`, `_` or `.`).
const CREDENTIAL_PARTS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "accesskey",
    "privatekey",
    "credential",
    "authorization",
    "sessionid",
    "signature",
    "jwt",
];

/// Names that are credentials only as a whole (as a part, `pin` is in
/// `shipping`).
const CREDENTIAL_NAMES: &[&str] = &["pass", "pin", "otp", "cvv", "cvc", "totp", "mfa"];

/// Whether a field named `name` holds a credential: by a part of its name
/// (`accessKey`, `x-api-key`, `jwt`), by its whole name (`pin`, `key`,
/// `code`), or by the last part of a dotted one, as farms name their
/// capabilities (`browserstack.key`).
pub fn is_credential_name(name: &str) -> bool {
    if let Some((_, last)) = name.rsplit_once('.')
        && !last.is_empty()
        && is_credential_name(last)
    {
        return true;
    }
    let folded = folded(name);
    CREDENTIAL_PARTS.iter().any(|part| folded.contains(part))
        || CREDENTIAL_NAMES.contains(&folded.as_str())
        || SECRET_PARAMS.iter().any(|p| p.replace('_', "") == folded)
}

/// `name` without case, `-`, `_`, `.` or spaces.
fn folded(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | '.' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether a JSON field found in running text is a credential: by a part
/// of its name, or by the last part of a dotted one (`browserstack.key`).
/// Not by a short whole name alone (`code`, `session`, `key`): in text,
/// those are as often an error's code or a session's name, which must stay.
fn is_credential_in_text(name: &str) -> bool {
    if let Some((_, last)) = name.rsplit_once('.')
        && !last.is_empty()
        && is_credential_name(last)
    {
        return true;
    }
    let folded = folded(name);
    CREDENTIAL_PARTS.iter().any(|part| folded.contains(part))
}

/// `body` (of Content-Type `mime`) with the values of its credential
/// fields hidden.
pub fn hide_credential_fields(body: &str, mime: &str) -> String {
    let mime = mime.to_ascii_lowercase();
    if mime.contains("multipart/form-data") {
        return hide_in_multipart(body);
    }
    if let Ok(mut json) = serde_json::from_str::<serde_json::Value>(body)
        && (json.is_object() || json.is_array())
    {
        hide_in_json(&mut json);
        return json.to_string();
    }
    if body.contains('=') {
        return hide_in_form(body);
    }
    body.to_owned()
}

fn hide_in_json(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if is_credential_name(key) && !value.is_null() {
                    *value = serde_json::Value::String(HIDDEN.into());
                } else {
                    hide_in_json(value);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(hide_in_json),
        _ => {}
    }
}

/// `a=1&password=x` (a form, or a query string) with credentials' values
/// hidden; a name is judged as the form decodes it.
fn hide_in_form(body: &str) -> String {
    body.split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) if !value.is_empty() && is_credential_name(&form_decoded(name)) => {
                format!("{name}={HIDDEN}")
            }
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A form's name decoded: `+` is a space, `%XX` a byte.
pub(super) fn form_decoded(name: &str) -> String {
    let bytes = name.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let byte = name
                    .get(i + 1..i + 3)
                    .and_then(|hex| u8::from_str_radix(hex, 16).ok());
                if let Some(byte) = byte {
                    out.push(byte);
                    i += 3;
                    continue;
                }
                out.push(b'%');
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How a JSON document's quote may be spelt in a text: as written,
/// escaped inside a JSON string (once or twice), URL-encoded (a JSON
/// document that is a URL's parameter: `capabilities={…}`), or both.
/// Longest first, so that an escaped quote is not taken for a bare one.
const QUOTES: &[&str] = &["\\\\\\\"", "%5C%22", "%5c%22", "\\\"", "%22", "\""];

/// How the colon between a name and its value may be spelt.
const COLONS: &[&str] = &["%3A", "%3a", ":"];

/// Spaces around the colon, as written or URL-encoded.
const SPACES: &[&str] = &["%20", " ", "+"];

/// The longest name and value looked at: a credential's name is short, and
/// a bound keeps the scan linear on any text.
const NAME_MAX: usize = 100;
const VALUE_MAX: usize = 4096;

/// `text` with the string value of each JSON field named like a credential
/// ([`is_credential_name`]) hidden wherever a JSON document stands in it,
/// in every spelling of [`QUOTES`]: a farm's capabilities carried in a URL
/// (LambdaTest's `capabilities={"LT:Options":{"accessKey":…}}`,
/// BrowserStack's `caps=`, as written or URL-encoded), the same URL quoted
/// inside a JSON string. Everything else stays as written.
pub(super) fn hide_json_credentials(text: &str) -> String {
    if !(text.contains('"') || text.contains("%22")) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    let mut i = 0;
    while i < text.len() {
        if !text.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let Some(quote) = QUOTES.iter().find(|q| text[i..].starts_with(**q)) else {
            i += 1;
            continue;
        };
        match credential_value(text, i + quote.len(), quote) {
            Some((start, end)) => {
                out.push_str(&text[copied_to..start]);
                out.push_str(HIDDEN);
                copied_to = end;
                i = end;
            }
            None => i += quote.len(),
        }
    }
    out.push_str(&text[copied_to..]);
    out
}

/// Where the value of a credential field is, when `text` at `name_start`
/// (just after an opening `quote`) holds `NAME<quote><colon><quote>VALUE<quote>`
/// with NAME a credential's name and VALUE not empty.
fn credential_value(text: &str, name_start: usize, quote: &str) -> Option<(usize, usize)> {
    let window = &text[name_start..];
    let name_len = window
        .char_indices()
        .take_while(|(at, c)| *at <= NAME_MAX && (c.is_alphanumeric() || "_-.:$@% ".contains(*c)))
        .map(|(at, c)| at + c.len_utf8())
        .last()
        .unwrap_or(0);
    // The name ends at the first quote (`%22` is made of a name's
    // characters, so the run above may go past it).
    let name_end =
        (1..=name_len).find(|&n| window.is_char_boundary(n) && window[n..].starts_with(quote))?;
    let name = form_decoded(&window[..name_end]);
    if !is_credential_in_text(&name) {
        return None;
    }
    let mut at = name_start + name_end + quote.len();
    at = skip_any(text, at, SPACES);
    at = skip_one(text, at, COLONS)?;
    at = skip_any(text, at, SPACES);
    if !text[at..].starts_with(quote) {
        return None;
    }
    let value_start = at + quote.len();
    let value_end = value_end(&text[value_start..], quote)? + value_start;
    (value_end > value_start && &text[value_start..value_end] != HIDDEN)
        .then_some((value_start, value_end))
}

/// The length of a value before its closing `quote` (a bare quote escaped
/// with a backslash is part of the value), within [`VALUE_MAX`].
fn value_end(value: &str, quote: &str) -> Option<usize> {
    let mut from = 0;
    loop {
        let found = value[from..].find(quote)? + from;
        if found > VALUE_MAX {
            return None;
        }
        if quote == "\"" && value[..found].ends_with('\\') {
            from = found + 1;
            continue;
        }
        return Some(found);
    }
}

fn skip_one(text: &str, at: usize, spellings: &[&str]) -> Option<usize> {
    spellings
        .iter()
        .find(|s| text[at..].starts_with(**s))
        .map(|s| at + s.len())
}

fn skip_any(text: &str, mut at: usize, spellings: &[&str]) -> usize {
    while let Some(next) = skip_one(text, at, spellings) {
        at = next;
    }
    at
}

/// A multipart form with the content of each credential part hidden.
fn hide_in_multipart(body: &str) -> String {
    let mut out = Vec::new();
    // Where a part is: its headers, or its content (hidden or not).
    let mut in_headers = false;
    let mut hiding = false;
    let mut hidden_once = false;
    for line in body.split('\n') {
        let bare = line.trim_end_matches('\r');
        if bare.starts_with("--") {
            in_headers = true;
            hiding = false;
            out.push(line.to_owned());
            continue;
        }
        if in_headers {
            if bare.is_empty() {
                in_headers = false;
                hidden_once = false;
            } else if bare.to_ascii_lowercase().starts_with("content-disposition") {
                hiding = part_name(bare).is_some_and(|n| is_credential_name(&n));
            }
            out.push(line.to_owned());
            continue;
        }
        if hiding {
            if !hidden_once {
                hidden_once = true;
                let end = if line.ends_with('\r') { "\r" } else { "" };
                out.push(format!("{HIDDEN}{end}"));
            }
            continue;
        }
        out.push(line.to_owned());
    }
    out.join("\n")
}

/// The `name="…"` of a part's Content-Disposition.
fn part_name(header: &str) -> Option<String> {
    let at = header.find("name=\"")? + "name=\"".len();
    let rest = &header[at..];
    Some(rest[..rest.find('"')?].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_in_json_are_hidden_in_every_spelling_of_a_quote() {
        // LambdaTest's capabilities, as written in a URL and encoded.
        let raw = r#"wss://cdp.lambdatest.com/playwright?capabilities={"browserName":"Chrome","LT:Options":{"user":"ada","accessKey":"LTk3y-S3cr3t"}}"#;
        let shown = super::super::hide_url_credentials(raw);
        assert!(!shown.contains("LTk3y-S3cr3t"), "{shown}");
        assert!(
            shown.contains(r#""user":"ada""#) && shown.contains(r#""accessKey":"<redacted>""#),
            "{shown}"
        );
        let encoded = "wss://cdp.lambdatest.com/playwright?capabilities=%7B%22LT%3AOptions%22%3A%7B%22user%22%3A%22ada%22%2C%22accessKey%22%3A%22LTk3y-S3cr3t%22%7D%7D";
        let shown = super::super::hide_url_credentials(encoded);
        assert!(!shown.contains("LTk3y-S3cr3t"), "{shown}");
        assert!(
            shown.contains("%22accessKey%22%3A%22<redacted>%22%7D"),
            "{shown}"
        );
        // BrowserStack's caps, its key's name dotted, inside a JSON string
        // (an error's JSON, an MCP result) and escaped twice.
        for text in [
            r#"{"message":"no browser at wss://cdp.browserstack.com/playwright?caps={\"browserstack.username\":\"ada\",\"browserstack.key\":\"BSk3yS3cr3t\"}"}"#,
            r#"{"text":"{\"message\":\"at wss://h/?caps={\\\"browserstack.accessKey\\\":\\\"BSk3yS3cr3t\\\"}\"}"}"#,
            "caps=%7B%22browserstack.key%22%3A+%22BSk3yS3cr3t%22%7D",
            "caps=%7B%5C%22browserstack.key%5C%22%3A%5C%22BSk3yS3cr3t%5C%22%7D",
        ] {
            let shown = super::super::hide_url_credentials(text);
            assert!(!shown.contains("BSk3yS3cr3t"), "{shown}");
            assert!(shown.contains("<redacted>"), "{shown}");
        }
        // A value with an escaped quote is hidden whole.
        assert_eq!(
            hide_json_credentials(r#"{"token":"a\"b","n":"c"}"#),
            r#"{"token":"<redacted>","n":"c"}"#
        );
        // Names that are no credential, a credential word as a value, and
        // short names that are as often an error's code or a session's.
        for kept in [
            r#"{"monkey":"1","keyboard":"2","note":"password"}"#,
            r#"{"code":"REF_NOT_FOUND","session":"default","key":"Enter"}"#,
            r#"{"a": "token", "b": "c"}"#,
            r#"say "token" twice: "token""#,
        ] {
            assert_eq!(hide_json_credentials(kept), kept);
        }
    }

    #[test]
    fn a_jwt_is_a_credential_by_its_name() {
        assert!(is_credential_name("jwt") && is_credential_name("id_jwt"));
        assert!(is_credential_name("browserstack.key"));
        assert!(!is_credential_name("keyboard") && !is_credential_name("a.keyboard"));
        assert_eq!(
            super::super::hide_url_credentials("wss://farm.test/?jwt=eyJhbGciOi.x.y&z=1"),
            "wss://farm.test/?jwt=<redacted>&z=1"
        );
        assert_eq!(
            hide_credential_fields(r#"{"jwt":"eyJhbGciOi.x.y","q":1}"#, "application/json"),
            r#"{"jwt":"<redacted>","q":1}"#
        );
    }

    #[test]
    fn credential_fields_are_hidden_in_forms_json_and_multipart() {
        assert_eq!(
            hide_credential_fields(
                "user=ada&password=hunter2&new-password=x%26y&q=lamp&shipping=fast&csrf_token=abc",
                "application/x-www-form-urlencoded"
            ),
            "user=ada&password=<redacted>&new-password=<redacted>&q=lamp&shipping=fast&csrf_token=<redacted>"
        );
        assert_eq!(
            hide_credential_fields("pass%77ord=hunter2&pin=1234", "text/plain"),
            "pass%77ord=<redacted>&pin=<redacted>"
        );
        let json = hide_credential_fields(
            r#"{"user":"ada","auth":{"apiKey":"k-1","refresh_token":"r-2"},"items":[{"clientSecret":"s-3","qty":2}]}"#,
            "application/json",
        );
        assert_eq!(
            json,
            r#"{"auth":"<redacted>","items":[{"clientSecret":"<redacted>","qty":2}],"user":"ada"}"#
        );
        let multipart = "--b\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nada\r\n--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nhunter2\r\nmore\r\n--b--\r\n";
        let hidden = hide_credential_fields(multipart, "multipart/form-data; boundary=b");
        assert!(
            !hidden.contains("hunter2") && !hidden.contains("more"),
            "{hidden}"
        );
        assert!(
            hidden.contains("\r\nada\r\n") && hidden.contains("<redacted>"),
            "{hidden}"
        );
        assert_eq!(hide_credential_fields("plain text", ""), "plain text");
    }
}
