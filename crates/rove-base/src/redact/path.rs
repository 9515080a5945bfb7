//! Keys an address carries in its path: farms that take the key as a path
//! segment (`wss://host/ws/KEY`, `wss://host/token/KEY/devtools`) rather
//! than as `?token=`. A segment is taken for a key when the segment before
//! it is named like a credential (the rule that judges a URL's parameters),
//! or when it looks random: long, of a token's alphabet, letters and digits
//! mixed, with the spread of characters of a generated value. Chromium's
//! own target ids (`/devtools/browser/ID`, `/devtools/page/ID`) are random
//! too but no credential (anyone who reaches the port can list them), and
//! stay as written so that an address is still recognisable.

use super::{HIDDEN, fields::form_decoded, is_credential_name};

/// The shortest segment taken for a key by its look alone.
const RANDOM_MIN_CHARS: usize = 16;

/// The least spread of characters (Shannon entropy, bits a character) of
/// a segment taken for a key by its look: a random hex key has about 3.5
/// and more, base64 about 4.5; words and version numbers stay below.
const RANDOM_MIN_BITS: f64 = 3.0;

/// The range of `url`'s path (after the authority, before `?` or `#`).
fn path_range(url: &str) -> Option<(usize, usize)> {
    let after_scheme = url.find("://")? + 3;
    let start = after_scheme + url[after_scheme..].find('/')?;
    let end = url[start..]
        .find(['?', '#'])
        .map_or(url.len(), |at| start + at);
    // A `?` or `#` before the first `/` means there is no path.
    if url[after_scheme..start].contains(['?', '#']) {
        return None;
    }
    Some((start, end))
}

/// Whether `segment` looks like a generated value rather than a word.
fn looks_random(segment: &str) -> bool {
    let chars: Vec<char> = segment.chars().collect();
    if chars.len() < RANDOM_MIN_CHARS
        || !chars.iter().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~' | '+' | '=' | '%')
        })
        || !chars.iter().any(char::is_ascii_digit)
        || !chars.iter().any(char::is_ascii_alphabetic)
    {
        return false;
    }
    let mut counts = std::collections::HashMap::new();
    for c in &chars {
        *counts.entry(*c).or_insert(0usize) += 1;
    }
    let n = chars.len() as f64;
    let bits: f64 = counts
        .values()
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum();
    bits >= RANDOM_MIN_BITS
}

/// The segments of `url`'s path that are keys, as written.
pub fn secret_path_segments(url: &str) -> Vec<&str> {
    let Some((start, end)) = path_range(url) else {
        return Vec::new();
    };
    let segments: Vec<&str> = url[start..end].split('/').collect();
    let mut secrets = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        if segment.is_empty() {
            continue;
        }
        let before = |back: usize| i.checked_sub(back).map(|j| segments[j]);
        let chromium_id =
            before(2) == Some("devtools") && matches!(before(1), Some("browser" | "page"));
        if chromium_id {
            continue;
        }
        let named =
            before(1).is_some_and(|b| !b.is_empty() && is_credential_name(&form_decoded(b)));
        if named || looks_random(segment) {
            secrets.push(*segment);
        }
    }
    secrets
}

/// `url` with the keys of its path replaced by [`HIDDEN`].
pub fn hide_path_secrets(url: &str) -> String {
    let Some((start, end)) = path_range(url) else {
        return url.to_owned();
    };
    let secrets = secret_path_segments(url);
    if secrets.is_empty() {
        return url.to_owned();
    }
    let path: Vec<&str> = url[start..end]
        .split('/')
        .map(|segment| {
            if secrets.contains(&segment) {
                HIDDEN
            } else {
                segment
            }
        })
        .collect();
    format!("{}{}{}", &url[..start], path.join("/"), &url[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "9f2c4e7a1b3d5f60a8c2";

    #[test]
    fn a_key_as_a_path_segment_is_hidden_by_its_look_or_its_name() {
        for (url, shown) in [
            (
                format!("wss://farm.test/ws/{KEY}"),
                "wss://farm.test/ws/<redacted>".to_owned(),
            ),
            (
                format!("wss://farm.test/token/{KEY}/devtools?x=1"),
                "wss://farm.test/token/<redacted>/devtools?x=1".to_owned(),
            ),
            // Named like a credential, a short or plain value is a key too.
            (
                "ws://farm.test:3000/apiKey/letmein/chromium".to_owned(),
                "ws://farm.test:3000/apiKey/<redacted>/chromium".to_owned(),
            ),
            (
                "wss://farm.test/v1/2bXq9LmZ0pQr7TsUvW3y".to_owned(),
                "wss://farm.test/v1/<redacted>".to_owned(),
            ),
        ] {
            assert_eq!(hide_path_secrets(&url), shown, "{url}");
        }
    }

    #[test]
    fn chromiums_ids_and_plain_paths_stay_as_written() {
        for url in [
            "ws://127.0.0.1:9222/devtools/browser/3c1e0b7a-5d2f-4e8a-9b6c-0f1a2b3c4d5e",
            "ws://127.0.0.1:9222/devtools/page/A1B2C3D4E5F60718293A4B5C6D7E8F90",
            "wss://farm.test/chromium/playwright-stealth?token=x",
            "http://127.0.0.1:9222/json/version",
            "wss://farm.test/v1/sessions/connect-2024",
            "ws://127.0.0.1:9222",
            "ws://127.0.0.1:9222?token=9f2c4e7a1b3d5f60a8c2/x",
        ] {
            assert_eq!(hide_path_secrets(url), url);
        }
    }
}
