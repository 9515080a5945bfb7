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
];

/// Names that are credentials only as a whole (as a part, `pin` is in
/// `shipping`).
const CREDENTIAL_NAMES: &[&str] = &["pass", "pin", "otp", "cvv", "cvc", "totp", "mfa"];

/// Whether a field named `name` holds a credential.
pub fn is_credential_name(name: &str) -> bool {
    let folded: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.' | ' '))
        .flat_map(char::to_lowercase)
        .collect();
    CREDENTIAL_PARTS.iter().any(|part| folded.contains(part))
        || CREDENTIAL_NAMES.contains(&folded.as_str())
        || SECRET_PARAMS.iter().any(|p| p.replace('_', "") == folded)
}

/// `body` (of Content-Type `mime`) with the values of its credential
/// fields hidden.
pub fn hide_credential_fields(body: &str, mime: &str) -> String {
    let mime = mime.to_ascii_lowercase();
    if mime.contains("multipart/form-data") {
        return hide_in_multipart(body);
    }
    if let Ok(mut json) = serde_json::from_str::<serde_json::Value>(body) {
        if json.is_object() || json.is_array() {
            hide_in_json(&mut json);
            return json.to_string();
        }
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
