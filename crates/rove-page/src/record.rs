//! What the walker sends back, and the lines a view is made of.

use serde::Deserialize;

use crate::refs::NodeKey;

/// One record from the walker (see walker.js for the field meanings).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub(crate) struct Record {
    pub u: u32,
    #[serde(default)]
    pub d: u16,
    pub r: String,
    #[serde(default)]
    pub n: String,
    #[serde(default)]
    pub v: Option<String>,
    #[serde(default)]
    pub f: String,
    #[serde(default)]
    pub h: Option<String>,
    #[serde(default)]
    pub l: Option<u8>,
    #[serde(default)]
    pub o: Option<Vec<String>>,
    #[serde(default)]
    pub c: Option<u64>,
    #[serde(default)]
    pub t: Option<String>,
    #[serde(default)]
    pub x: Option<String>,
    #[serde(default)]
    pub k: Option<String>,
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
    #[serde(default)]
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
