//! A secret's value and the disguises a hostile page could echo it in:
//! reversed, in another case, base64- or hex-encoded, URL-encoded (in any
//! mix of `%XX` in either case, `+` or `%20` for a space, or encoded twice,
//! as a query string shows it), or spaced out letter by letter with
//! whitespace, controls or invisible characters (the one list of
//! [`crate::text`], so bidi controls, variation selectors and tag
//! characters count too), each also when it stands escaped as a log line
//! or a JSON text writes it (`\u200b`, `\u{200b}`, `\n`, a backslash
//! doubled by a second escaping). What it cannot catch is documented in
//! docs/errors.md ("What rove guarantees"): encodings beyond those (ROT13,
//! base32, character codes, encryption), and a value leaked a piece at a
//! time.

use base64::Engine;

/// Values shorter than this are only hidden as written (in any case):
/// their disguises would match ordinary text.
pub const FUZZY_MIN_CHARS: usize = 4;

/// A secret's value with its disguises worked out once, and what each
/// becomes.
#[derive(Clone)]
pub struct Disguised {
    value: String,
    placeholder: String,
    /// Each a sequence of characters to find without regard to case,
    /// longest first so a longer disguise is replaced whole.
    forms: Vec<Vec<char>>,
}

impl std::fmt::Debug for Disguised {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Disguised({})", self.placeholder)
    }
}

impl Disguised {
    /// `value` and its disguises, each to become `placeholder`.
    pub fn new(value: &str, placeholder: &str) -> Disguised {
        let mut forms = vec![value.to_owned()];
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
        unique.sort_by_key(|f| std::cmp::Reverse(f.len()));
        Disguised {
            value: value.to_owned(),
            placeholder: placeholder.to_owned(),
            forms: unique,
        }
    }

    /// Whether `other` hides the same value as the same placeholder.
    pub fn same_as(&self, other: &Disguised) -> bool {
        self.value == other.value && self.placeholder == other.placeholder
    }

    /// `text` with the value, and each of its disguises, replaced by the
    /// placeholder.
    pub fn hide_in(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for form in &self.forms {
            out = replace_loosely(&out, form, &self.placeholder);
        }
        if self.value.chars().count() >= FUZZY_MIN_CHARS {
            out = replace_url_encoded(&out, self.value.as_bytes(), &self.placeholder);
        }
        out
    }
}

/// Characters a page may put between the letters of a value to hide it:
/// whitespace, controls and the invisible ones, as page text is cleaned.
fn is_filler(c: char) -> bool {
    c.is_whitespace() || crate::text::is_unclean(c)
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
    let chars = units(text);
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    let mut i = 0;
    while i < chars.len() {
        if same_letter(chars[i].1, first)
            && let Some(end) = match_at(&chars, i, needle)
        {
            out.push_str(&text[copied_to..chars[i].0]);
            out.push_str(placeholder);
            copied_to = chars.get(end).map_or(text.len(), |(at, _)| *at);
            i = end;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[copied_to..]);
    out
}

/// The characters of `text` as it reads once unescaped, each with the
/// byte where its spelling starts: an escape a JSON text or a log line
/// writes (`\u200b`, a surrogate pair `\ud83d\ude00`, `\u{200b}`, `\n`,
/// `\"`, behind any number of backslashes, as escaping twice leaves them)
/// is one character, so a value spaced with invisible characters is found
/// in a log line too. A run of backslashes before anything else is one
/// backslash.
fn units(text: &str) -> Vec<(usize, char)> {
    if !text.contains('\\') {
        return text.char_indices().collect();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            // `i` is on a character boundary: every step below ends on one.
            let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) else {
                break;
            };
            out.push((i, c));
            i += c.len_utf8();
            continue;
        }
        let mut after = i;
        while after < bytes.len() && bytes[after] == b'\\' {
            after += 1;
        }
        let (c, end) = escaped_at(bytes, after).unwrap_or(('\\', after));
        out.push((i, c));
        i = end;
    }
    out
}

/// The character an escape whose letter is at `at` (just past its
/// backslashes) stands for, and where the escape ends.
fn escaped_at(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    let simple = match *bytes.get(at)? {
        b'n' => Some('\n'),
        b't' => Some('\t'),
        b'r' => Some('\r'),
        b'b' => Some('\u{8}'),
        b'f' => Some('\u{c}'),
        b'"' => Some('"'),
        b'/' => Some('/'),
        b'u' => None,
        _ => return None,
    };
    if let Some(c) = simple {
        return Some((c, at + 1));
    }
    if bytes.get(at + 1) == Some(&b'{') {
        let close = (at + 2..bytes.len().min(at + 10)).find(|&j| bytes[j] == b'}')?;
        let code = hex_number(bytes.get(at + 2..close)?)?;
        return Some((char::from_u32(code)?, close + 1));
    }
    let code = hex_number(bytes.get(at + 1..at + 5)?)?;
    if (0xD800..0xDC00).contains(&code) {
        // A high surrogate: a character only with the low one after it.
        let mut next = at + 5;
        while bytes.get(next) == Some(&b'\\') {
            next += 1;
        }
        if next > at + 5
            && bytes.get(next) == Some(&b'u')
            && let Some(low) = bytes.get(next + 1..next + 5).and_then(hex_number)
            && (0xDC00..0xE000).contains(&low)
        {
            let joined = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            return Some((char::from_u32(joined)?, next + 5));
        }
        return None;
    }
    Some((char::from_u32(code)?, at + 5))
}

/// The number hex digits (at most 6, either case) spell.
fn hex_number(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 6 {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
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

    const SHOWN: &str = "<secret>PASSWORD</secret>";

    fn hunter() -> Disguised {
        Disguised::new("hunter2-Zq", SHOWN)
    }

    #[test]
    fn disguised_values_are_hidden() {
        let secret = hunter();
        let value = "hunter2-Zq";
        let std = base64::engine::general_purpose::STANDARD;
        let url_safe = base64::engine::general_purpose::URL_SAFE;
        let spaced =
            |filler: &str| -> String { value.chars().map(|c| format!("{c}{filler}")).collect() };
        let echoes = [
            value.to_owned(),
            value.to_uppercase(),
            value.chars().rev().collect::<String>(),
            spaced(" "),
            spaced("\u{200B}"),
            // Bidi controls and isolates, a variation selector, a tag
            // character, a control: the view shows none of them.
            spaced("\u{202E}"),
            spaced("\u{2066}"),
            spaced("\u{FE0F}"),
            spaced("\u{E0020}"),
            spaced("\u{0001}"),
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
            let shown = secret.hide_in(&page);
            assert!(shown.contains(SHOWN), "{echo:?} became {shown:?}");
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
    fn url_encodings_in_any_mix_are_hidden() {
        let pw = Disguised::new("Open se!same/\u{e9}", "<secret>PW</secret>");
        let forms = [
            "Open%20se!same%2F%C3%A9",
            "Open+se%21same%2f%c3%a9",
            "open+SE%21SAME/%C3%A9",
            "Open%2520se%2521same%252F%25C3%25A9",
            "Open%252Bse%2521same%252f%25c3%25a9",
            "Open se!same/\u{e9}",
        ];
        for form in forms {
            let shown = pw.hide_in(&format!("https://x.test/?a=1&q={form}&b=\u{1F600}"));
            assert_eq!(
                shown, "https://x.test/?a=1&q=<secret>PW</secret>&b=\u{1F600}",
                "{form}"
            );
        }
        let pin = Disguised::new("4711", "<secret>PIN</secret>");
        assert_eq!(
            pin.hide_in("?pin=%34%37%31%31"),
            "?pin=<secret>PIN</secret>"
        );
        // A near miss stays as it is.
        assert_eq!(pw.hide_in("Open%20se!sam"), "Open%20se!sam");
        assert_eq!(pw.hide_in("%%2%G1%"), "%%2%G1%");
    }

    #[test]
    fn disguises_escaped_as_a_log_line_writes_them_are_hidden() {
        let pw = Disguised::new("Hunter2x", "<secret>PW</secret>");
        let spaced = |filler: &str| -> String {
            let letters: Vec<String> = "Hunter2x".chars().map(String::from).collect();
            letters.join(filler)
        };
        for echo in [
            spaced("\\u200b"),
            spaced("\\u200B"),
            spaced("\\\\u200b"),
            spaced("\\u{200b}"),
            spaced("\\u202e"),
            spaced("\\udb40\\udc20"),
            spaced("\\ufe0f"),
            spaced("\\n"),
            spaced("\\\\t"),
            "\\u0048\\u0075nter2x".to_owned(),
        ] {
            let line = format!(r#"payload={{"args":[{{"value":"zwc:{echo}"}}]}} next"#);
            let shown = pw.hide_in(&line);
            assert_eq!(
                shown, r#"payload={"args":[{"value":"zwc:<secret>PW</secret>"}]} next"#,
                "{echo}"
            );
        }
        // Escapes that are not the value, and broken ones, stay as written.
        for kept in [
            r#"a\u200bb \ud83d\ude00 \u{110000} \uZZZZ \ "Hunter2\""#,
            "tail \\",
            "\\u20",
        ] {
            assert_eq!(pw.hide_in(kept), kept);
        }
    }

    #[test]
    fn short_values_are_hidden_in_any_case_but_not_disguised() {
        let token = Disguised::new("abc", "<secret>TOKEN</secret>");
        assert_eq!(
            token.hide_in("abc, ABC and cba"),
            "<secret>TOKEN</secret>, <secret>TOKEN</secret> and cba"
        );
        assert_eq!(token.hide_in("nothing here"), "nothing here");
        assert!(!format!("{token:?}").contains("abc"));
    }
}
