//! Text a page wrote, made safe to show a model on one line.
//!
//! Page text reaches the model in views, dialog messages, tab lists and
//! `read`. A page can use line breaks to start a line that passes for an
//! element or a tab, and invisible code points to hide instructions or to
//! make one text look like another. Every face cleans page text with
//! [`clean`] (or [`clean_lines`] where lines are the format's own), so the
//! rules live in one place, at the lowest layer that hands out page text.

/// Whether a character must not reach the model as it is: line breaks and
/// other controls (shown as a space), and the invisible ones (left out).
pub fn is_unclean(c: char) -> bool {
    is_breaking(c) || is_invisible(c)
}

/// The controls (C0, DEL, C1) and the Unicode line and paragraph
/// separators: shown as a space. Inclusive ranges; the walker gets the same
/// list as a pattern, so a locator matches names as views show them.
pub const BREAKING: &[(char, char)] = &[
    ('\u{0000}', '\u{001F}'),
    ('\u{007F}', '\u{009F}'),
    ('\u{2028}', '\u{2029}'),
];

/// Whether `c` is one of the [`BREAKING`] characters.
pub fn is_breaking(c: char) -> bool {
    BREAKING
        .iter()
        .any(|(low, high)| (*low..=*high).contains(&c))
}

/// Characters that show nothing (or nothing of their own) and so can hide
/// or disguise text: format and bidi controls, zero-width characters, tag
/// characters (which can spell a whole hidden instruction), variation
/// selectors, and the blank letters (Hangul fillers, the braille blank)
/// that render as empty space. Inclusive ranges; the walker gets the same
/// list as a pattern, so a locator matches names as views show them.
pub const INVISIBLE: &[(char, char)] = &[
    ('\u{00AD}', '\u{00AD}'),
    ('\u{034F}', '\u{034F}'),
    ('\u{061C}', '\u{061C}'),
    ('\u{115F}', '\u{1160}'),
    ('\u{17B4}', '\u{17B5}'),
    ('\u{180B}', '\u{180F}'),
    ('\u{200B}', '\u{200F}'),
    ('\u{202A}', '\u{202E}'),
    ('\u{2060}', '\u{206F}'),
    ('\u{2800}', '\u{2800}'),
    ('\u{3164}', '\u{3164}'),
    ('\u{FE00}', '\u{FE0F}'),
    ('\u{FEFF}', '\u{FEFF}'),
    ('\u{FFA0}', '\u{FFA0}'),
    ('\u{FFF9}', '\u{FFFB}'),
    ('\u{1D173}', '\u{1D17A}'),
    ('\u{E0000}', '\u{E007F}'),
    ('\u{E0100}', '\u{E01EF}'),
];

/// Whether `c` is one of the [`INVISIBLE`] characters.
pub fn is_invisible(c: char) -> bool {
    // Most page text is below the first one: one comparison each.
    c >= '\u{00AD}'
        && INVISIBLE
            .iter()
            .any(|(low, high)| (*low..=*high).contains(&c))
}

/// `text` on one line: line breaks and controls as spaces, invisible
/// characters left out. Text without any (nearly all of it) is returned as
/// it is.
pub fn clean(text: String) -> String {
    if !text.chars().any(is_unclean) {
        return text;
    }
    text.chars()
        .filter(|c| !is_invisible(*c))
        .map(|c| if is_unclean(c) { ' ' } else { c })
        .collect()
}

/// `text` whose `\n` are its own line breaks (markdown rove made): each
/// line cleaned as by [`clean`], `\r` and the other breaks included.
pub fn clean_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| clean(line.to_owned()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_become_spaces_and_invisibles_go() {
        assert_eq!(clean("plain text".into()), "plain text");
        assert_eq!(clean("a\ne12 button".into()), "a e12 button");
        assert_eq!(clean("x\u{2028}tabs: t2".into()), "x tabs: t2");
        assert_eq!(clean("r\u{202E}evil\u{2066}".into()), "revil");
        for hidden in [
            "\u{E0049}\u{E0047}\u{E004E}",
            "\u{FE0F}\u{FE00}\u{E0100}\u{E01EF}",
            "\u{115F}\u{1160}\u{3164}\u{FFA0}",
            "\u{2800}",
        ] {
            assert_eq!(clean(format!("Pay{hidden} now")), "Pay now", "{hidden:?}");
        }
        assert_eq!(clean_lines("a\u{200B}\nb\rc"), "a\nb c");
    }

    #[test]
    fn the_breaking_list_is_every_control_and_the_two_separators() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let expected = c.is_control() || matches!(c, '\u{2028}' | '\u{2029}');
            assert_eq!(is_breaking(c), expected, "{:X}", u32::from(c));
        }
    }
}
