//! Locators: other ways to name an element where a ref is taken.
//!
//! A [`Target`] is what an element argument holds: a ref (`e7`) or a
//! [`Locator`] — `css=SELECTOR`, `role=ROLE`, `role=ROLE[name="Exact"]`,
//! `role=ROLE[name*="part"]` (a name without quotes or brackets may leave
//! its quotes out), `text=part` or `text="Exact text"`. It is parsed once, when the call is parsed, so bad syntax is refused before
//! anything runs; the page model resolves a locator to a ref
//! (`PageModel::resolve`), and the command then acts on that ref as on any
//! other.

use std::fmt;

use crate::{LOCATOR_FORMS, PageError, Ref};

/// The longest locator accepted, in bytes: a selector is a line a model
/// writes, never a document.
const MAX_LEN: usize = 2_000;

/// How a role locator matches the accessible name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NameMatch {
    /// `name="…"`: the whole name, white space collapsed.
    Exact(String),
    /// `name*="…"`: a part of the name, any case.
    Contains(String),
}

/// A way to find one element other than its ref.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Locator {
    /// `css=SELECTOR`, matched in each frame's document and its open
    /// shadow roots.
    Css(String),
    /// `role=ROLE`, optionally with a name: the role as views show it.
    Role {
        /// The role, lower case.
        role: String,
        /// The name, if one was given.
        name: Option<NameMatch>,
    },
    /// `text=…`: the innermost element holding the text (any case, a part);
    /// `text="…"`: whose whole text is exactly this.
    Text {
        /// The text.
        text: String,
        /// Quoted: the whole text, case kept.
        exact: bool,
    },
}

/// An element argument: a ref, or a locator still to be resolved to one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A ref from a view.
    Ref(Ref),
    /// A locator; the session resolves it to a ref before the command runs.
    /// (Boxed: a command holds targets, and a ref is small.)
    Locator(Box<Locator>),
}

impl Target {
    /// The ref this target names. A locator has none until the session has
    /// resolved it (it replaces it with its ref before any command runs).
    pub fn reference(&self) -> Result<Ref, PageError> {
        match self {
            Target::Ref(r) => Ok(*r),
            Target::Locator(l) => Err(PageError::Script(format!(
                "the locator {l} reached a command unresolved"
            ))),
        }
    }

    /// The locator, if this is one.
    pub fn locator(&self) -> Option<&Locator> {
        match self {
            Target::Locator(l) => Some(l.as_ref()),
            Target::Ref(_) => None,
        }
    }
}

impl From<Ref> for Target {
    fn from(r: Ref) -> Self {
        Target::Ref(r)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Ref(r) => write!(f, "{r}"),
            Target::Locator(l) => write!(f, "{l}"),
        }
    }
}

/// `"…"` with `"` and `\` escaped, as the parser reads it back
/// (`rove_base::text::quoted`, whole).
fn quoted(s: &str) -> String {
    rove_base::text::quoted(s, usize::MAX)
}

impl fmt::Display for Locator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Locator::Css(s) => write!(f, "css={s}"),
            Locator::Role { role, name: None } => write!(f, "role={role}"),
            Locator::Role {
                role,
                name: Some(NameMatch::Exact(n)),
            } => write!(f, "role={role}[name={}]", quoted(n)),
            Locator::Role {
                role,
                name: Some(NameMatch::Contains(n)),
            } => write!(f, "role={role}[name*={}]", quoted(n)),
            Locator::Text { text, exact: true } => write!(f, "text={}", quoted(text)),
            Locator::Text { text, exact: false } => write!(f, "text={text}"),
        }
    }
}

fn bad(input: &str, why: &str) -> PageError {
    let shown = rove_base::text::char_prefix(input, 80);
    let more = if shown.len() < input.len() { "…" } else { "" };
    PageError::Rejected(format!(
        "{shown:?}{more} {why}; an element is named by {LOCATOR_FORMS}"
    ))
}

/// A quoted string at the start of `s` (`"…"` or `'…'`, `\` escaping the
/// next character): its content and what follows it.
fn unquote(s: &str) -> Option<(String, &str)> {
    let mut chars = s.char_indices();
    let (_, open) = chars.next()?;
    if open != '"' && open != '\'' {
        return None;
    }
    let mut out = String::new();
    let mut escaped = false;
    for (i, c) in chars {
        if escaped {
            out.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == open {
            return Some((out, &s[i + c.len_utf8()..]));
        } else {
            out.push(c);
        }
    }
    None
}

impl std::str::FromStr for Locator {
    type Err = PageError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let input = s.trim();
        if input.len() > MAX_LEN {
            return Err(bad(input, &format!("is longer than {MAX_LEN} bytes")));
        }
        let (kind, body) = input
            .split_once('=')
            .ok_or_else(|| bad(input, "is not a ref or a locator"))?;
        let body = body.trim();
        match kind.trim().to_ascii_lowercase().as_str() {
            "css" if body.is_empty() => Err(bad(input, "has no selector")),
            "css" => Ok(Locator::Css(body.to_owned())),
            "text" => parse_text(input, body),
            "role" => parse_role(input, body),
            _ => Err(bad(input, "is not a ref or a locator")),
        }
    }
}

fn parse_text(input: &str, body: &str) -> Result<Locator, PageError> {
    if let Some((text, rest)) = unquote(body) {
        if !rest.trim().is_empty() {
            return Err(bad(input, "has more after its closing quote"));
        }
        let text = collapse(&text);
        if text.is_empty() {
            return Err(bad(input, "has no text"));
        }
        return Ok(Locator::Text { text, exact: true });
    }
    if body.starts_with(['"', '\'']) {
        return Err(bad(input, "has no closing quote"));
    }
    let text = collapse(body);
    if text.is_empty() {
        return Err(bad(input, "has no text"));
    }
    Ok(Locator::Text { text, exact: false })
}

fn parse_role(input: &str, body: &str) -> Result<Locator, PageError> {
    let (role, rest) = match body.find('[') {
        Some(i) => (body[..i].trim(), Some(body[i + 1..].trim())),
        None => (body, None),
    };
    if role.is_empty() || !role.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(bad(input, "needs a role such as button, link or textbox"));
    }
    let role = role.to_ascii_lowercase();
    let Some(rest) = rest else {
        return Ok(Locator::Role { role, name: None });
    };
    let (contains, value) = if let Some(v) = rest.strip_prefix("name*=") {
        (true, v)
    } else if let Some(v) = rest.strip_prefix("name=") {
        (false, v)
    } else {
        return Err(bad(input, "takes only [name=\"…\"] or [name*=\"…\"]"));
    };
    let value = value.trim_start();
    let name = match unquote(value) {
        Some((name, after)) if after.trim() == "]" => name,
        Some(_) => return Err(bad(input, "must end with the name's closing ]")),
        // Unquoted, the name runs to the closing bracket (`[name=Save]`).
        None => match value.strip_suffix(']') {
            Some(name) if !name.contains(['"', '\'', ']']) => name.to_owned(),
            _ => return Err(bad(input, "must end with the name's closing ]")),
        },
    };
    let name = collapse(&name);
    let name = if contains {
        NameMatch::Contains(name)
    } else {
        NameMatch::Exact(name)
    };
    Ok(Locator::Role {
        role,
        name: Some(name),
    })
}

/// White space runs as one space, trimmed, as names and text are compared.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl std::str::FromStr for Target {
    type Err = PageError;

    /// A ref (`e7`, `@e7`) or a locator.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Ok(r) = s.parse::<Ref>() {
            return Ok(Target::Ref(r));
        }
        s.parse::<Locator>().map(|l| Target::Locator(Box::new(l)))
    }
}

/// A target travels as its text (`"e7"`, `"css=#save"`), so a tool call's
/// `ref` argument deserializes straight into one and bad syntax is refused
/// while parsing.
impl serde::Serialize for Target {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Target {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Target {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn each_form_parses_and_prints_back() {
        assert_eq!(parse("e7"), Target::Ref(Ref(7)));
        assert_eq!(parse("@e7"), Target::Ref(Ref(7)));
        assert_eq!(
            parse("css=#save"),
            Target::Locator(Box::new(Locator::Css("#save".into())))
        );
        assert_eq!(
            parse("role=Button[name=\"Save  draft\"]"),
            Target::Locator(Box::new(Locator::Role {
                role: "button".into(),
                name: Some(NameMatch::Exact("Save draft".into())),
            }))
        );
        assert_eq!(
            parse("role=link[name*='more \\'info\\'']"),
            Target::Locator(Box::new(Locator::Role {
                role: "link".into(),
                name: Some(NameMatch::Contains("more 'info'".into())),
            }))
        );
        assert_eq!(
            parse("role=button[name= Save draft ]"),
            Target::Locator(Box::new(Locator::Role {
                role: "button".into(),
                name: Some(NameMatch::Exact("Save draft".into())),
            }))
        );
        assert_eq!(
            parse("role=checkbox"),
            Target::Locator(Box::new(Locator::Role {
                role: "checkbox".into(),
                name: None
            }))
        );
        assert_eq!(
            parse("text=Remember me"),
            Target::Locator(Box::new(Locator::Text {
                text: "Remember me".into(),
                exact: false
            }))
        );
        assert_eq!(
            parse("text=\"Sign in\""),
            Target::Locator(Box::new(Locator::Text {
                text: "Sign in".into(),
                exact: true
            }))
        );
        for text in [
            "e7",
            "css=a[href=\"x\"] > b",
            "role=button[name=\"Say \\\"hi\\\"\"]",
            "role=tab[name*=\"a\\\\b\"]",
            "text=\"Exact\"",
            "text=part of it",
        ] {
            let target = parse(text);
            assert_eq!(parse(&target.to_string()), target, "{text}");
        }
    }

    #[test]
    fn bad_syntax_is_refused_with_the_forms() {
        for bad in [
            "#save",
            "Save",
            "css=",
            "text=",
            "text=\"\"",
            "text=\"open",
            "text=\"a\" b",
            "role=",
            "role=button[",
            "role=button[label=\"x\"]",
            "role=button[name=x",
            "role=button[name=x]]",
            "role=button[name=\"x\"",
            "role=but ton",
            "xpath=//a",
        ] {
            let err = bad.parse::<Target>().expect_err(bad).to_string();
            assert!(err.contains("css=SELECTOR"), "{bad}: {err}");
        }
        let long = format!("css={}", "a".repeat(MAX_LEN));
        assert!(long.parse::<Target>().is_err());
    }

    #[test]
    fn a_target_travels_as_its_text() {
        let t: Target = serde_json::from_value(serde_json::json!("role=button[name=\"Save\"]"))
            .expect("parses");
        assert_eq!(
            serde_json::to_value(&t).expect("serializes"),
            serde_json::json!("role=button[name=\"Save\"]")
        );
        assert!(serde_json::from_value::<Target>(serde_json::json!("nope")).is_err());
        assert!(t.reference().is_err());
        assert_eq!(Target::Ref(Ref(3)).reference().ok(), Some(Ref(3)));
    }
}
