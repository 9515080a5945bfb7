//! What the walker sends back, and the lines a view is made of.

use serde::{Deserialize, Deserializer};

use crate::refs::NodeKey;

/// One record from the walker (see walker.js for the field meanings).
///
/// Every string the page wrote (names, values, texts, options, context,
/// hints) is cleaned as it is read (see [`clean`]): no line break or
/// invisible character of the page's can reach the view, where it could
/// start a line of its own and pass for an element or a tab.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub(crate) struct Record {
    pub u: u32,
    #[serde(default)]
    pub d: u16,
    pub r: String,
    #[serde(default, deserialize_with = "cleaned")]
    pub n: String,
    #[serde(default, deserialize_with = "cleaned_opt")]
    pub v: Option<String>,
    #[serde(default)]
    pub f: String,
    #[serde(default, deserialize_with = "cleaned_opt")]
    pub h: Option<String>,
    #[serde(default)]
    pub l: Option<u8>,
    #[serde(default, deserialize_with = "cleaned_list")]
    pub o: Option<Vec<String>>,
    #[serde(default)]
    pub c: Option<u64>,
    #[serde(default, deserialize_with = "cleaned_opt")]
    pub t: Option<String>,
    #[serde(default, deserialize_with = "cleaned_opt")]
    pub x: Option<String>,
    #[serde(default, deserialize_with = "cleaned_opt")]
    pub k: Option<String>,
}

/// `text` with line breaks and controls as spaces and invisible characters
/// removed (the rules: [`rove_browser::page_text`]).
pub(crate) fn clean(text: String) -> String {
    rove_browser::page_text::clean(text)
}

fn cleaned<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    String::deserialize(d).map(clean)
}

fn cleaned_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d).map(|s| s.map(clean))
}

fn cleaned_list<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    Option::<Vec<String>>::deserialize(d).map(|l| l.map(|l| l.into_iter().map(clean).collect()))
}

impl Record {
    pub(crate) fn is_text(&self) -> bool {
        self.r == "text"
    }
}

/// The walker's answer for one frame.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct WalkOutput {
    pub token: String,
    #[serde(default)]
    pub records: Vec<Record>,
    #[serde(default)]
    pub hosts: Vec<u32>,
    #[serde(default)]
    pub native: bool,
    #[serde(default)]
    pub dead: Vec<u32>,
    #[serde(default)]
    pub cut: Option<u32>,
    #[serde(default, rename = "moreInteractive")]
    pub more_interactive: Option<u64>,
    #[serde(default)]
    pub gone: bool,
    #[serde(default)]
    pub total: Option<u64>,
    #[serde(default)]
    pub url: String,
    #[serde(default, deserialize_with = "cleaned")]
    pub title: String,
}

/// One line of a view, with the identity it is diffed by.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    /// The element the line is about (for text: the element owning the text).
    pub key: NodeKey,
    /// 0 for an element's own line; n for its n-th text run.
    pub text_index: u16,
    /// Nesting depth in the view (frames add their owner's depth).
    pub depth: u16,
    pub record: Record,
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn page_text_cannot_break_a_line_or_hide_characters() {
        assert_eq!(clean("plain text".into()), "plain text");
        assert_eq!(
            clean("a\ne12 button \"Pay\"".into()),
            "a e12 button \"Pay\""
        );
        assert_eq!(clean("\u{200B}e1 button".into()), "e1 button");
        assert_eq!(clean("x\u{2028}tabs: t2".into()), "x tabs: t2");
        assert_eq!(clean("r\u{202E}evil".into()), "revil");
    }
}
