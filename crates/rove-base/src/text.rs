//! Text as rove shows it: page text made safe to show a model on one line,
//! text cut to a length, and text escaped for the HTML and XML files rove
//! writes.
//!
//! Page text reaches the model in views, dialog messages, tab lists, the
//! console, the network log and `read`. A page can use line breaks to start
//! a line that passes for an element or a tab, and invisible code points to
//! hide instructions or to make one text look like another. Every face
//! cleans page text with [`clean`] (or [`clean_lines`] where lines are the
//! format's own), the walker matches names by the same lists, and the
//! redaction skips the same invisible characters between a secret's
//! letters: the lists live here, once.

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

/// The first `max` characters of `text` (all of it when it is shorter):
/// characters, never bytes, so a cut never splits one.
pub fn char_prefix(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        None => text,
        Some((at, _)) => &text[..at],
    }
}

/// The longest start of `text` of at most `max` bytes that ends on a
/// character boundary: for budgets counted in bytes (a log payload, a
/// body).
pub fn byte_prefix(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `text` in at most `max` characters: whole when it fits, else its first
/// `max - 1` and `…` (the ellipsis counts). How a long text is shortened in
/// a line, a trace, a report or a message; `max` 0 leaves nothing.
pub fn ellipsized(text: &str, max: usize) -> String {
    let kept = char_prefix(text, max);
    if kept.len() == text.len() {
        return text.to_owned();
    }
    match max {
        0 => String::new(),
        _ => format!("{}…", char_prefix(kept, max - 1)),
    }
}

/// Page text quoted inside rove's own words: cleaned as by [`clean`], at
/// most `max` characters (a cut text ends in `…`, inside the quotes, so a
/// reader knows it is not whole), with `"` and `\` escaped so where the text
/// ends is never in doubt. The one way rove quotes a page's text: names in
/// views and locators, cookie and storage values, announcements.
pub fn quoted(text: &str, max: usize) -> String {
    let taken = char_prefix(text, max.saturating_add(1));
    let cleaned = clean(taken.to_owned());
    let shown = if taken.len() < text.len() || cleaned.chars().count() > max {
        match max {
            0 => String::new(),
            _ => format!("{}…", char_prefix(&cleaned, max - 1)),
        }
    } else {
        cleaned
    };
    let mut out = String::with_capacity(shown.len() + 2);
    out.push('"');
    for c in shown.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Foreign text (a model's answer, a judge's reason, a page's message, a
/// task's name) on one line of rove's own output: each line break and
/// other [`BREAKING`] character written as an escape (`\n`, `\r`, `\t`,
/// `\u{2028}`), so no text rove prints for someone else can start a line
/// that passes for one of rove's (`PASSED`, `== result: success … ==`).
/// Nothing is lost: the escape says what stood there.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_breaking) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_breaking(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Text as HTML text or a quoted attribute value: one escaping for every
/// static page rove writes (and the demo shop's pages).
pub fn html_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Text fit for an XML attribute or element (JUnit files): markup
/// escaped, a line break kept as `&#10;` (an attribute would fold it),
/// tabs and carriage returns as spaces, and characters XML 1.0 cannot carry
/// at all dropped.
pub fn xml_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoted_text_is_clean_escaped_and_cut_where_it_says_so() {
        assert_eq!(
            super::quoted("say \"hi\"\n\\o/", 100),
            r#""say \"hi\" \\o/""#
        );
        assert_eq!(super::quoted("abcdef", 4), "\"abc…\"");
        assert_eq!(super::quoted("abcd", 4), "\"abcd\"");
        // An invisible character is left out before the length is counted.
        assert_eq!(super::quoted("ab\u{200B}cd", 4), "\"abcd\"");
        assert_eq!(super::quoted("abc", usize::MAX), "\"abc\"");
    }

    use super::*;

    #[test]
    fn foreign_text_stays_on_one_line_and_says_what_broke_it() {
        assert_eq!(one_line("plain text"), "plain text");
        assert_eq!(
            one_line("bad\n1 attempts: 1 passed\r\nPASSED\u{2028}x\u{85}\ty"),
            "bad\\n1 attempts: 1 passed\\r\\nPASSED\\u{2028}x\\u{85}\\ty"
        );
        assert_eq!(one_line("a\n").lines().count(), 1);
    }

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

    #[test]
    fn the_invisible_list_is_ordered_and_holds_what_hides_text() {
        for pair in INVISIBLE.windows(2) {
            assert!(
                pair[0].1 < pair[1].0,
                "{pair:?} overlap or are out of order"
            );
        }
        // Zero-width, bidi controls and isolates, variation selectors,
        // tags: each can sit between a secret's letters unseen.
        for c in [
            '\u{200B}',
            '\u{200D}',
            '\u{202E}',
            '\u{2066}',
            '\u{2069}',
            '\u{FE0F}',
            '\u{E0041}',
            '\u{E0100}',
            '\u{FEFF}',
        ] {
            assert!(is_invisible(c), "{:X}", u32::from(c));
        }
        assert!(!is_invisible('a') && !is_invisible(' ') && !is_invisible('é'));
    }

    #[test]
    fn a_cut_counts_characters_and_the_ellipsis_is_one_of_them() {
        assert_eq!(ellipsized("héllo", 5), "héllo");
        assert_eq!(ellipsized("héllo", 4), "hél…");
        assert_eq!(ellipsized("héllo", 1), "…");
        assert_eq!(ellipsized("héllo", 0), "");
        assert_eq!(ellipsized("", 0), "");
        let long = "ab".repeat(300);
        assert_eq!(ellipsized(&long, 500).chars().count(), 500);
        assert_eq!(char_prefix("héllo", 2), "hé");
        assert_eq!(char_prefix("hé", 9), "hé");
        assert_eq!(byte_prefix("héllo", 2), "h");
        assert_eq!(byte_prefix("héllo", 3), "hé");
        assert_eq!(byte_prefix("hé", 99), "hé");
    }

    #[test]
    fn page_text_cannot_become_markup() {
        assert_eq!(
            html_escaped("<img src=x onerror=\"alert('1')\">&"),
            "&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;"
        );
        assert_eq!(
            xml_escaped("a<b & \"c\"\u{1}\nd\te'"),
            "a&lt;b &amp; &quot;c&quot;&#10;d e&apos;"
        );
    }
}
