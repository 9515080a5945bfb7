//! How deeply a task file nests flow collections (`[`, `{`), found in one
//! pass before the YAML parser sees the text.
//!
//! The parser's scanner does work for every open flow level on each token,
//! so its time grows with the square of the depth: 100,000 brackets took
//! 35 s, ignoring every signal. The parser's own recursion limit comes
//! only after that scan, so the depth is bounded here, in linear time.
//!
//! Brackets inside quoted scalars and comments are not counted; a quote
//! opens only where YAML would start a quoted scalar (after an indicator
//! or at the start of a line), so an apostrophe in plain text (`don't`)
//! cannot hide the brackets after it. A bracket in plain text may be
//! counted when YAML would not; it only ever closes one opened before, or
//! a text needs more unclosed ones than the limit to be refused.

/// Where nesting deeper than `max` starts: `(line, column)`, 1-based.
pub(crate) fn too_deep(text: &str, max: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let (mut line, mut column) = (1usize, 0usize);
    // The last character that was not a space on this line, if any.
    let mut before: Option<char> = None;
    // The character just before this one (a comment's `#` follows a space).
    let mut last = '\n';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        column += 1;
        let after_space = matches!(last, ' ' | '\t' | '\n');
        last = c;
        match c {
            '\n' => {
                line += 1;
                column = 0;
                before = None;
                continue;
            }
            ' ' | '\t' | '\r' => continue,
            '#' if after_space => {
                // A comment runs to the end of the line.
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
                continue;
            }
            '\'' | '"' if before.is_none_or(|b| "[{,:-?".contains(b)) => {
                let mut escaped = false;
                while let Some(q) = chars.next() {
                    column += 1;
                    last = q;
                    if q == '\n' {
                        line += 1;
                        column = 0;
                    }
                    if c == '"' && !escaped && q == '\\' {
                        escaped = true;
                        continue;
                    }
                    if q == c && !escaped {
                        // '' inside single quotes is a quote, not the end.
                        if c == '\'' && chars.peek() == Some(&'\'') {
                            chars.next();
                            last = '\'';
                            column += 1;
                            continue;
                        }
                        break;
                    }
                    escaped = false;
                }
            }
            '[' | '{' => {
                depth += 1;
                if depth > max {
                    return Some((line, column));
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        before = Some(c);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_nesting_past_the_limit_is_found_where_it_starts() {
        let deep = format!("name: a\ntask: {}{}\n", "[".repeat(65), "]".repeat(65));
        assert_eq!(too_deep(&deep, 64), Some((2, 71)));
        let fine = format!("name: a\ntask: {}{}\n", "[".repeat(64), "]".repeat(64));
        assert_eq!(too_deep(&fine, 64), None);
        let maps = format!("a: {}1{}", "{b: ".repeat(65), "}".repeat(65));
        assert!(too_deep(&maps, 64).is_some());
    }

    #[test]
    fn brackets_in_quotes_and_comments_do_not_count() {
        let quoted = format!(
            "task: \"{}\"\nother: '{}'\n# {}\nx: a#{}\n",
            "[".repeat(100),
            "{".repeat(100),
            "[".repeat(100),
            "[".repeat(3)
        );
        assert_eq!(too_deep(&quoted, 64), None);
        let escaped = format!("task: \"a \\\" {}\"\n", "[".repeat(100));
        assert_eq!(too_deep(&escaped, 64), None);
    }

    #[test]
    fn an_apostrophe_in_plain_text_hides_nothing() {
        let text = format!("- task: don't\n  x: {}{}\n", "[".repeat(65), "]".repeat(65));
        assert!(too_deep(&text, 64).is_some());
    }

    #[test]
    fn the_scan_is_linear() {
        let huge = format!("task: {}", "[]".repeat(4 << 20));
        let started = std::time::Instant::now();
        assert_eq!(too_deep(&huge, 64), None);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}
