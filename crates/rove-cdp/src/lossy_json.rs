//! JSON from the browser that a page's text may have made invalid.
//!
//! JavaScript strings are UTF-16 and may hold a lone surrogate (half of an
//! emoji, cut by a page's script or by a `slice`); Chromium sends it as an
//! unpaired `\udXXX` escape, which is not valid JSON for serde. One such
//! character in a page's text would make every answer that quotes it fail
//! to decode (a view, a `read`, a console message). So a decode that fails
//! is tried once more with each unpaired surrogate escape replaced by
//! U+FFFD, as a browser shows it. Valid text costs nothing extra.

use serde::de::DeserializeOwned;

/// `text` decoded; on failure, decoded again with its unpaired surrogate
/// escapes as `\ufffd` (the first error is returned when there are none).
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    match serde_json::from_str(text) {
        Ok(value) => Ok(value),
        Err(first) => match without_lone_surrogates(text) {
            Some(repaired) => serde_json::from_str(&repaired),
            None => Err(first),
        },
    }
}

/// `text` with each `\uD800`–`\uDFFF` escape that is not half of a pair
/// replaced by `\ufffd`; `None` when there is none. Backslashes only occur
/// inside JSON strings, so every one starts an escape.
fn without_lone_surrogates(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        if bytes.get(at) != Some(&b'\\') || bytes.get(at + 1) != Some(&b'u') {
            return None;
        }
        let hex = text.get(at + 2..at + 6)?;
        u16::from_str_radix(hex, 16).ok()
    };
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(u) = unit(i) else {
            // Another escape (`\"`, `\\`, `\n` …): its two bytes.
            i += 2;
            continue;
        };
        let high = (0xD800..=0xDBFF).contains(&u);
        let low = (0xDC00..=0xDFFF).contains(&u);
        if high && unit(i + 6).is_some_and(|next| (0xDC00..=0xDFFF).contains(&next)) {
            i += 12;
            continue;
        }
        if high || low {
            out.push_str(&text[copied..i]);
            out.push_str("\\ufffd");
            changed = true;
            copied = i + 6;
        }
        i += 6;
    }
    if !changed {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn lone_surrogates_become_replacement_characters_and_pairs_stay() {
        let v: Value = from_json(r#"{"a":"x\ud83dy","b":"\ud83d\ude00","c":"\ude00\\ud83d"}"#)
            .expect("repaired");
        assert_eq!(v["a"], "x\u{FFFD}y");
        assert_eq!(v["b"], "😀");
        // A low half alone, then an escaped backslash followed by "ud83d"
        // (text, not an escape).
        assert_eq!(v["c"], "\u{FFFD}\\ud83d");
        let end: Value = from_json(r#"["T\ud83d"]"#).expect("at the end");
        assert_eq!(end[0], "T\u{FFFD}");
        assert!(
            from_json::<Value>(r#"{"a":"#).is_err(),
            "other errors stay errors"
        );
    }
}
