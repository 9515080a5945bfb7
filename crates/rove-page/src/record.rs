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
    /// The element's uid in its document (for text: the owning element's).
    #[serde(rename = "u")]
    pub uid: u32,
    /// Nesting depth within its frame.
    #[serde(default, rename = "d")]
    pub depth: u16,
    /// Chromium's role, or rove's (`text`, `clickable`, `frame`, `more`).
    #[serde(rename = "r")]
    pub role: String,
    /// The accessible name.
    #[serde(default, rename = "n", deserialize_with = "cleaned")]
    pub name: String,
    /// A control's value.
    #[serde(default, rename = "v", deserialize_with = "cleaned_opt")]
    pub value: Option<String>,
    /// A password field: its value is never shown.
    #[serde(default, rename = "s")]
    pub secret: bool,
    /// States: checked, expanded, focused …
    #[serde(default, rename = "f")]
    pub flags: Flags,
    /// The kind of popup a control opens, when not a menu (`listbox`).
    #[serde(default, rename = "p", deserialize_with = "cleaned_opt")]
    pub popup: Option<String>,
    /// A link's target.
    #[serde(default, rename = "h", deserialize_with = "cleaned_opt")]
    pub href: Option<String>,
    /// A heading's level.
    #[serde(default, rename = "l")]
    pub level: Option<u8>,
    /// A select's or listbox's options.
    #[serde(default, rename = "o", deserialize_with = "cleaned_list")]
    pub options: Option<Vec<String>>,
    /// How many (options, rows, items left out).
    #[serde(default, rename = "c")]
    pub count: Option<u64>,
    /// A text run.
    #[serde(default, rename = "t", deserialize_with = "cleaned_opt")]
    pub text: Option<String>,
    /// The text run is a line of code (its spaces and breaks show): it is
    /// written as it is, after a code mark.
    #[serde(default, rename = "b")]
    pub code: bool,
    /// Its text was cut where the reading's budget ran out (`…`): a
    /// reading of more reach reads more of the same text.
    #[serde(default, rename = "cu")]
    pub cut: bool,
    /// Where a `find` match is (its heading or landmark).
    #[serde(default, rename = "x", deserialize_with = "cleaned_opt")]
    pub context: Option<String>,
    /// What an unnamed clickable shows (an icon's hint).
    #[serde(default, rename = "k", deserialize_with = "cleaned_opt")]
    pub hint: Option<String>,
}

/// An element's states, one bit each, as states.js's `FLAG` numbers them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub(crate) struct Flags(pub u32);

impl Flags {
    pub const DISABLED: u32 = 1;
    pub const MIXED: u32 = 2;
    pub const CHECKED: u32 = 4;
    pub const PRESSED: u32 = 8;
    pub const HASPOPUP: u32 = 16;
    pub const EXPANDED: u32 = 32;
    pub const COLLAPSED: u32 = 64;
    pub const SELECTED: u32 = 128;
    pub const CURRENT: u32 = 256;
    pub const REQUIRED: u32 = 512;
    pub const READONLY: u32 = 1024;
    pub const INVALID: u32 = 2048;
    pub const FOCUSED: u32 = 4096;
    pub const LIVE: u32 = 8192;
    pub const CLICKABLE: u32 = 16384;
    pub const MODAL: u32 = 32768;

    /// Each flag's word, in the order a view shows them.
    const WORDS: [(u32, &'static str); 16] = [
        (Self::DISABLED, "disabled"),
        (Self::MIXED, "mixed"),
        (Self::CHECKED, "checked"),
        (Self::PRESSED, "pressed"),
        (Self::HASPOPUP, "haspopup"),
        (Self::EXPANDED, "expanded"),
        (Self::COLLAPSED, "collapsed"),
        (Self::SELECTED, "selected"),
        (Self::CURRENT, "current"),
        (Self::REQUIRED, "required"),
        (Self::READONLY, "readonly"),
        (Self::INVALID, "invalid"),
        (Self::FOCUSED, "focused"),
        (Self::LIVE, "live"),
        (Self::CLICKABLE, "clickable"),
        (Self::MODAL, "modal"),
    ];

    /// The flags a view's words name (tests build records this way).
    #[cfg(test)]
    pub fn from_words(words: &str) -> Flags {
        Flags(
            words
                .split_whitespace()
                .filter_map(|w| Self::WORDS.iter().find(|(_, word)| *word == w))
                .fold(0, |bits, (bit, _)| bits | bit),
        )
    }

    pub fn has(self, flag: u32) -> bool {
        self.0 & flag != 0
    }

    pub fn without(self, flag: u32) -> Flags {
        Flags(self.0 & !flag)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl Record {
    /// The flags as a view shows them (`checked focused`,
    /// `haspopup=listbox expanded`); empty when there are none.
    pub(crate) fn flags_text(&self) -> String {
        let mut words: Vec<String> = Vec::new();
        for (bit, word) in Flags::WORDS {
            if !self.flags.has(bit) {
                continue;
            }
            match (bit, &self.popup) {
                (Flags::HASPOPUP, Some(kind)) => words.push(format!("haspopup={kind}")),
                _ => words.push(word.to_owned()),
            }
        }
        words.join(" ")
    }
}

/// `text` with line breaks and controls as spaces and invisible characters
/// removed (the rules: [`rove_base::text`]).
pub(crate) fn clean(text: String) -> String {
    rove_base::text::clean(text)
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
        self.role == "text"
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
    /// What the page's hidden live regions say now (walker.js `announcer`).
    #[serde(default)]
    pub announced: Vec<Announced>,
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
    /// `find` stopped counting at `total` (find.js's FIND_COUNT_MAX).
    #[serde(default)]
    pub capped: bool,
    /// `find` has more to search: rove calls it again (a slice each).
    #[serde(default)]
    pub more: bool,
    #[serde(default)]
    pub url: String,
    #[serde(default, deserialize_with = "cleaned")]
    pub title: String,
    /// The challenges this document holds (captcha.js).
    #[serde(default)]
    pub captchas: Vec<crate::captcha::Finding>,
    /// This document is a challenge widget's own frame: what it says.
    #[serde(default, rename = "captchaFrame")]
    pub captcha_frame: Option<crate::captcha::InnerState>,
    /// The document's version as the walk began (its mutation count), -1
    /// when unknown.
    #[serde(default = "unknown_version")]
    pub v: i64,
}

fn unknown_version() -> i64 {
    -1
}

/// The text of a live region the page draws nowhere.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct Announced {
    /// The region's element.
    pub u: u32,
    /// What it says.
    #[serde(default)]
    pub t: String,
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
    use super::{Flags, Record, clean};

    #[test]
    fn flags_arrive_as_bits_and_read_as_the_words_a_view_shows() {
        let record: Record = serde_json::from_value(serde_json::json!({
            "u": 7, "d": 1, "r": "button", "n": "Menu",
            "f": Flags::FOCUSED | Flags::HASPOPUP | Flags::EXPANDED | Flags::CLICKABLE,
            "p": "listbox",
        }))
        .expect("decodes");
        assert_eq!(record.uid, 7);
        assert_eq!(record.role, "button");
        assert!(record.flags.has(Flags::EXPANDED));
        assert!(!record.flags.has(Flags::CHECKED));
        assert_eq!(
            record.flags_text(),
            "haspopup=listbox expanded focused clickable"
        );
        let plain = Record {
            flags: Flags(Flags::DISABLED | Flags::CHECKED | Flags::HASPOPUP),
            ..Record::default()
        };
        assert_eq!(plain.flags_text(), "disabled checked haspopup");
        assert_eq!(
            plain.flags.without(Flags::CHECKED).0,
            Flags::DISABLED | Flags::HASPOPUP
        );
        assert_eq!(Record::default().flags_text(), "");
    }

    #[test]
    fn the_walker_numbers_the_flags_as_rust_does() {
        // states.js's FLAG table and Flags must agree bit for bit.
        let walker = include_str!("states.js");
        for (bit, word) in Flags::WORDS {
            assert!(
                walker.contains(&format!(" {word}: {bit},")),
                "states.js's FLAG.{word} is not {bit}"
            );
        }
    }

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
