//! Key names and chords (`Enter`, `Control+Shift+R`, `a`) and the facts CDP
//! needs to send each key as a real keyboard would: `key`, `code`, the
//! Windows virtual key code, and the text it types.

use crate::{InputError, Modifiers};

/// One key, as `Input.dispatchKeyEvent` wants it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Key {
    pub key: String,
    pub code: String,
    pub key_code: u32,
    /// The text the key types; empty for keys that type nothing.
    pub text: String,
    /// 1 left, 2 right, 3 numpad; 0 elsewhere.
    pub location: u32,
}

/// A chord: modifiers held, then one key.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Chord {
    pub modifiers: Modifiers,
    pub held: Vec<Key>,
    pub key: Key,
}

const NAMED: &[(&str, &str, u32, &str)] = &[
    ("Enter", "Enter", 13, "\r"),
    ("Tab", "Tab", 9, ""),
    ("Backspace", "Backspace", 8, ""),
    ("Delete", "Delete", 46, ""),
    ("Escape", "Escape", 27, ""),
    ("Space", "Space", 32, " "),
    ("ArrowUp", "ArrowUp", 38, ""),
    ("ArrowDown", "ArrowDown", 40, ""),
    ("ArrowLeft", "ArrowLeft", 37, ""),
    ("ArrowRight", "ArrowRight", 39, ""),
    ("Home", "Home", 36, ""),
    ("End", "End", 35, ""),
    ("PageUp", "PageUp", 33, ""),
    ("PageDown", "PageDown", 34, ""),
    ("Insert", "Insert", 45, ""),
    ("F1", "F1", 112, ""),
    ("F2", "F2", 113, ""),
    ("F3", "F3", 114, ""),
    ("F4", "F4", 115, ""),
    ("F5", "F5", 116, ""),
    ("F6", "F6", 117, ""),
    ("F7", "F7", 118, ""),
    ("F8", "F8", 119, ""),
    ("F9", "F9", 120, ""),
    ("F10", "F10", 121, ""),
    ("F11", "F11", 122, ""),
    ("F12", "F12", 123, ""),
];

const ALIASES: &[(&str, &str)] = &[
    ("Return", "Enter"),
    ("Esc", "Escape"),
    ("Up", "ArrowUp"),
    ("Down", "ArrowDown"),
    ("Left", "ArrowLeft"),
    ("Right", "ArrowRight"),
    ("Del", "Delete"),
    (" ", "Space"),
];

/// US-layout punctuation: the character, its `code`, its key code, and
/// whether Shift is part of it.
const PUNCTUATION: &[(char, &str, u32)] = &[
    (' ', "Space", 32),
    ('-', "Minus", 189),
    ('_', "Minus", 189),
    ('=', "Equal", 187),
    ('+', "Equal", 187),
    ('[', "BracketLeft", 219),
    ('{', "BracketLeft", 219),
    (']', "BracketRight", 221),
    ('}', "BracketRight", 221),
    ('\\', "Backslash", 220),
    ('|', "Backslash", 220),
    (';', "Semicolon", 186),
    (':', "Semicolon", 186),
    ('\'', "Quote", 222),
    ('"', "Quote", 222),
    (',', "Comma", 188),
    ('<', "Comma", 188),
    ('.', "Period", 190),
    ('>', "Period", 190),
    ('/', "Slash", 191),
    ('?', "Slash", 191),
    ('`', "Backquote", 192),
    ('~', "Backquote", 192),
    ('!', "Digit1", 49),
    ('@', "Digit2", 50),
    ('#', "Digit3", 51),
    ('$', "Digit4", 52),
    ('%', "Digit5", 53),
    ('^', "Digit6", 54),
    ('&', "Digit7", 55),
    ('*', "Digit8", 56),
    ('(', "Digit9", 57),
    (')', "Digit0", 48),
    ('\n', "Enter", 13),
    ('\t', "Tab", 9),
];

/// The key for one character, or `None` for characters no US keyboard has
/// (they are inserted as text instead).
pub(crate) fn key_for_char(c: char) -> Option<Key> {
    if c.is_ascii_alphabetic() {
        let upper = c.to_ascii_uppercase();
        return Some(Key {
            key: c.to_string(),
            code: format!("Key{upper}"),
            key_code: upper as u32,
            text: c.to_string(),
            location: 0,
        });
    }
    if c.is_ascii_digit() {
        return Some(Key {
            key: c.to_string(),
            code: format!("Digit{c}"),
            key_code: c as u32,
            text: c.to_string(),
            location: 0,
        });
    }
    PUNCTUATION
        .iter()
        .find(|(p, _, _)| *p == c)
        .map(|(p, code, key_code)| {
            let (key, text) = match p {
                '\n' => ("Enter".to_owned(), "\r".to_owned()),
                '\t' => ("Tab".to_owned(), String::new()),
                other => (other.to_string(), other.to_string()),
            };
            Key {
                key,
                code: (*code).to_owned(),
                key_code: *key_code,
                text,
                location: 0,
            }
        })
}

/// Sets one modifier's flag.
type SetModifier = fn(&mut Modifiers);

fn modifier(name: &str) -> Option<(Key, SetModifier)> {
    let (key, code, key_code, set): (&str, &str, u32, SetModifier) =
        match name.to_ascii_lowercase().as_str() {
            "control" | "ctrl" => ("Control", "ControlLeft", 17, |m| m.ctrl = true),
            "shift" => ("Shift", "ShiftLeft", 16, |m| m.shift = true),
            "alt" | "option" => ("Alt", "AltLeft", 18, |m| m.alt = true),
            "meta" | "cmd" | "command" | "super" => ("Meta", "MetaLeft", 91, |m| m.meta = true),
            _ => return None,
        };
    Some((
        Key {
            key: key.into(),
            code: code.into(),
            key_code,
            text: String::new(),
            location: 1,
        },
        set,
    ))
}

/// Parses `Control+Shift+R`, `Enter`, `a`, `Shift+Tab`. Names are
/// case-insensitive; a single character is that character's key.
pub(crate) fn parse_chord(chord: &str) -> Result<Chord, InputError> {
    let rejected = |why: &str| {
        InputError::Rejected(format!(
            "{chord:?} is not a key chord: {why} (a key is a name like Enter, Tab, ArrowDown or F5, a single character like a or /, or a key code like KeyA, Digit1 or Period; chords like Control+A, Shift+Tab)"
        ))
    };
    // `+` itself is a key: `Control++` holds Control and presses `+`.
    let parts: Vec<&str> = match chord.strip_suffix("++") {
        _ if chord == "+" => vec!["+"],
        Some(held) => held.split('+').chain(std::iter::once("+")).collect(),
        None => chord.split('+').collect(),
    };
    let (last, held_names) = parts.split_last().ok_or_else(|| rejected("it is empty"))?;
    let mut modifiers = Modifiers::default();
    let mut held = Vec::new();
    for name in held_names {
        let (key, set) = modifier(name.trim())
            .ok_or_else(|| rejected(&format!("{name:?} is not a modifier")))?;
        set(&mut modifiers);
        held.push(key);
    }
    let name = last.trim();
    let name = if name.is_empty() && !last.is_empty() {
        " "
    } else {
        name
    };
    let key = named_key(name).ok_or_else(|| rejected(&format!("{name:?} is not a key name")))?;
    Ok(Chord {
        modifiers,
        held,
        key,
    })
}

fn named_key(name: &str) -> Option<Key> {
    let canonical = ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
        .map(|(_, k)| *k)
        .unwrap_or(name);
    if let Some((key, code, key_code, text)) = NAMED
        .iter()
        .find(|(k, ..)| k.eq_ignore_ascii_case(canonical))
    {
        let key = if *key == "Space" { " " } else { key };
        return Some(Key {
            key: key.to_string(),
            code: (*code).to_owned(),
            key_code: *key_code,
            text: (*text).to_owned(),
            location: 0,
        });
    }
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => key_for_char(c),
        _ => code_key(name).or_else(|| modifier(name).map(|(key, _)| key)),
    }
}

/// A key by its DOM `code` (`KeyA`, `Digit1`, `Period`, `Minus` …), as
/// agents often name keys: the character that key types without Shift.
fn code_key(name: &str) -> Option<Key> {
    let lower = name.to_ascii_lowercase();
    let single = |rest: &str| {
        let mut chars = rest.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        }
    };
    if let Some(c) = lower.strip_prefix("key").and_then(single) {
        return c.is_ascii_alphabetic().then(|| key_for_char(c)).flatten();
    }
    if let Some(c) = lower.strip_prefix("digit").and_then(single) {
        return c.is_ascii_digit().then(|| key_for_char(c)).flatten();
    }
    if lower == "plus" {
        return key_for_char('+');
    }
    // The first character of a code in the table is the unshifted one.
    PUNCTUATION
        .iter()
        .find(|(_, code, _)| code.eq_ignore_ascii_case(name))
        .and_then(|(c, _, _)| key_for_char(*c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_parse_with_modifiers_and_aliases() {
        let c = parse_chord("Control+Shift+R").expect("chord");
        assert!(c.modifiers.ctrl && c.modifiers.shift && !c.modifiers.alt);
        assert_eq!(c.key.code, "KeyR");
        assert_eq!(c.held.len(), 2);
        assert_eq!(parse_chord("enter").expect("enter").key.key, "Enter");
        assert_eq!(parse_chord("Esc").expect("esc").key.key, "Escape");
        assert_eq!(parse_chord("Shift+Tab").expect("tab").key.code, "Tab");
        assert_eq!(parse_chord("a").expect("a").key.text, "a");
        assert_eq!(parse_chord("Control++").expect("plus").key.key, "+");
        assert_eq!(parse_chord("Space").expect("space").key.text, " ");
    }

    #[test]
    fn dom_codes_name_their_keys() {
        for (code, text) in [
            ("Period", "."),
            ("Minus", "-"),
            ("Comma", ","),
            ("Slash", "/"),
            ("KeyA", "a"),
            ("keyz", "z"),
            ("Digit1", "1"),
            ("Backquote", "`"),
            ("BracketLeft", "["),
        ] {
            let key = parse_chord(code)
                .unwrap_or_else(|e| panic!("{code}: {e}"))
                .key;
            assert_eq!(key.text, text, "{code}");
        }
        let chord = parse_chord("Control+KeyS").expect("chord");
        assert!(chord.modifiers.ctrl);
        assert_eq!(chord.key.code, "KeyS");
        assert_eq!(
            parse_chord("Shift+Period").expect("chord").key.code,
            "Period"
        );
        let err = parse_chord("KeyAB").expect_err("not a code");
        assert!(err.to_string().contains("single character"), "{err}");
    }

    #[test]
    fn bad_chords_are_rejected_with_the_reason() {
        for bad in ["", "Hyper+A", "Control+NoSuchKey", "Ctrl+"] {
            let err = parse_chord(bad).expect_err(bad);
            assert!(err.to_string().contains("not a"), "{bad}: {err}");
        }
    }

    #[test]
    fn characters_map_to_us_keys() {
        assert_eq!(key_for_char('A').map(|k| k.code), Some("KeyA".into()));
        assert_eq!(key_for_char('7').map(|k| k.key_code), Some(55));
        assert_eq!(key_for_char('@').map(|k| k.code), Some("Digit2".into()));
        assert_eq!(key_for_char('é'), None);
    }
}
