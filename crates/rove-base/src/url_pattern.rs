//! The one URL pattern of rove: `wait`'s `url` and the `url` of
//! `network block` and `network mock` mean the same thing.
//!
//! A pattern with a `*` is a glob of the whole URL: `*` stands for any run
//! of characters (`/` included), `\` makes the next character plain (`\*`
//! is a star), and every other character stands for itself. A pattern
//! without `*` matches every URL containing it.
//!
//! `?` is a plain character, as in the URLs the patterns are written
//! against: `*/search?q=*` means the query, never "any one character".
//! (Two copies once disagreed: the network rules took `?` as any one
//! character, `wait` as itself. Playwright's URL globs dropped `?` as a
//! wildcard for the same reason.) No other glob syntax (`[…]`, `{a,b}`,
//! `**`) is special either: brackets and braces appear in URLs as they are.
//!
//! Chromium's request interception takes its own glob syntax, where `?` is
//! any one character; [`UrlPattern::interception_glob`] writes a pattern
//! the browser matches on at least every URL rove's pattern matches, and
//! rove judges each paused request by its own [`UrlPattern::matches`].

/// A URL pattern, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlPattern {
    /// What the person or model wrote.
    text: String,
    /// A plain substring, or the glob's pieces.
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// Matches URLs containing it.
    Contains,
    /// The whole URL: literal runs between stars.
    Glob(Vec<Piece>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Star,
    Literal(String),
}

impl UrlPattern {
    /// `text` as a pattern: a glob when it has a `*` (an escaped one
    /// included), else a substring.
    pub fn new(text: &str) -> UrlPattern {
        let kind = if text.contains('*') {
            Kind::Glob(pieces(text))
        } else {
            Kind::Contains
        };
        UrlPattern {
            text: text.to_owned(),
            kind,
        }
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The same pattern as a glob of the whole URL: itself when it is one,
    /// `*text*` (its own `\` kept plain) when it is a substring.
    pub fn as_glob(&self) -> String {
        match self.kind {
            Kind::Glob(_) => self.text.clone(),
            Kind::Contains => format!("*{}*", self.text.replace('\\', "\\\\")),
        }
    }

    /// Whether `url` matches.
    pub fn matches(&self, url: &str) -> bool {
        match &self.kind {
            Kind::Contains => url.contains(self.text.as_str()),
            Kind::Glob(pieces) => glob_matches(pieces, url),
        }
    }

    /// The pattern in the syntax of Chromium's `Fetch.enable` patterns
    /// (`*` any run, `?` any one character): every plain `?`, `*` or `\`
    /// becomes `?`, so the browser pauses at least every request this
    /// pattern matches (and rove lets the others go on).
    pub fn interception_glob(&self) -> String {
        let pieces = match &self.kind {
            Kind::Glob(pieces) => pieces.clone(),
            Kind::Contains => vec![Piece::Star, Piece::Literal(self.text.clone()), Piece::Star],
        };
        let mut out = String::new();
        for piece in pieces {
            match piece {
                Piece::Star => out.push('*'),
                Piece::Literal(text) => out.extend(text.chars().map(|c| {
                    if matches!(c, '?' | '*' | '\\') {
                        '?'
                    } else {
                        c
                    }
                })),
            }
        }
        out
    }
}

/// A glob's stars and the literal runs between them (escapes resolved).
fn pieces(glob: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut chars = glob.chars();
    while let Some(c) = chars.next() {
        match c {
            '*' => {
                if !literal.is_empty() {
                    pieces.push(Piece::Literal(std::mem::take(&mut literal)));
                }
                if pieces.last() != Some(&Piece::Star) {
                    pieces.push(Piece::Star);
                }
            }
            // A trailing `\` escapes nothing: it stands for itself.
            '\\' => literal.push(chars.next().unwrap_or('\\')),
            c => literal.push(c),
        }
    }
    if !literal.is_empty() {
        pieces.push(Piece::Literal(literal));
    }
    pieces
}

/// Whether `text` as a whole matches `pieces`: the first literal is a
/// prefix, the last a suffix, and those between are found in order, each
/// as early as it can be (which never loses a match, since a star takes
/// any run).
fn glob_matches(pieces: &[Piece], text: &str) -> bool {
    let mut rest = text;
    let mut after_star = false;
    for (i, piece) in pieces.iter().enumerate() {
        let Piece::Literal(literal) = piece else {
            after_star = true;
            continue;
        };
        let last = i + 1 == pieces.len();
        if !after_star {
            let Some(after) = rest.strip_prefix(literal.as_str()) else {
                return false;
            };
            rest = after;
        } else if last {
            return rest.ends_with(literal.as_str());
        } else {
            let Some(at) = rest.find(literal.as_str()) else {
                return false;
            };
            rest = &rest[at + literal.len()..];
        }
        after_star = false;
    }
    after_star || rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::UrlPattern;

    fn matches(pattern: &str, url: &str) -> bool {
        UrlPattern::new(pattern).matches(url)
    }

    #[test]
    fn a_pattern_without_a_star_is_a_substring() {
        assert!(matches("/done", "http://a.test/done?x=1"));
        assert!(!matches("/done", "http://a.test/start"));
        // `?` is itself: a query written as it appears.
        assert!(matches("/done?x=1", "http://a.test/done?x=1&y=2"));
        assert!(!matches("/done?x=1", "http://a.test/doneXx=1"));
        assert!(matches("", "anything"));
    }

    #[test]
    fn a_pattern_with_a_star_is_a_glob_of_the_whole_url() {
        assert!(matches("http://*/done*", "http://a.test/done?x=1"));
        assert!(!matches("https://*", "http://a.test/done?x=1"));
        assert!(matches("*/b/*", "http://a.test/a/b/c"));
        assert!(matches("*/api/*", "http://x/api/items"));
        assert!(matches("*.png", "http://x/a.png"));
        assert!(!matches("*.png", "http://x/a.png?v=1"));
        assert!(matches("*", ""));
        assert!(matches("*", "anything"));
        assert!(matches("**", "anything"));
        assert!(matches("*a*a*", "http://x/banana"));
        assert!(!matches("*a*b", "http://x/ba"));
        assert!(matches("http://x/*", "http://x/"));
        assert!(!matches("http://x/*", "http://y/x/"));
    }

    #[test]
    fn a_question_mark_is_itself_and_a_backslash_escapes() {
        assert!(matches("*/search?q=*", "http://x/search?q=lamp"));
        assert!(!matches("*/search?q=*", "http://x/searchXq=lamp"));
        assert!(!matches("http://x/?*", "http://x/a"));
        assert!(matches("*\\?v=1", "http://x/a?v=1"));
        assert!(matches("*a\\*b", "http://x/a*b"));
        assert!(!matches("*a\\*b", "http://x/aXb"));
        assert!(matches("*[1]{2}*", "http://x/[1]{2}/"));
        assert!(matches("*end\\", "http://x/end\\"));
    }

    #[test]
    fn a_substring_reads_as_the_glob_it_stands_for() {
        let substring = UrlPattern::new("/a\\b?c");
        assert_eq!(substring.as_glob(), "*/a\\\\b?c*");
        let glob = UrlPattern::new(&substring.as_glob());
        assert!(glob.matches("http://x/a\\b?c=1"));
        assert_eq!(UrlPattern::new("*/x").as_glob(), "*/x");
    }

    #[test]
    fn the_browser_pauses_at_least_what_rove_matches() {
        assert_eq!(
            UrlPattern::new("*/search?q=*").interception_glob(),
            "*/search?q=*"
        );
        assert_eq!(UrlPattern::new("*a\\*b").interception_glob(), "*a?b");
        assert_eq!(UrlPattern::new("ads").interception_glob(), "*ads*");
        assert_eq!(UrlPattern::new("a\\b").interception_glob(), "*a?b*");
    }
}
