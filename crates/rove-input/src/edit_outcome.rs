//! What an edit left in a field: the outcome every way of filling one
//! (keys, a picker's value, a slider's steps, an editor, a combobox's list)
//! reports, below all of them.

use crate::settle::Settled;

/// What an edit left in the field.
#[derive(Debug, Clone)]
pub struct EditOutcome {
    /// The field's value (text, for an editable element) afterwards.
    pub value: String,
    /// What the page did afterwards.
    pub settled: Settled,
    /// The page took the field away after the text reached it (an inline
    /// editor that commits and closes): the text was sent, and what the
    /// field held can no longer be read.
    pub field_gone: bool,
    /// For an editor that draws only the lines in its view: the lines of the
    /// text that could be checked (the rest were sent but not drawn).
    pub shown_lines: Option<ShownLines>,
    /// What became of the text in a combobox's list of options.
    pub list: ListChoice,
}

impl EditOutcome {
    /// The outcome of an edit the field took: it holds `value` now.
    pub(crate) fn took(value: String, settled: Settled) -> EditOutcome {
        EditOutcome {
            value,
            settled,
            field_gone: false,
            shown_lines: None,
            list: ListChoice::None,
        }
    }

    /// The outcome of an edit whose field the page took away once the
    /// input reached it.
    pub(crate) fn field_gone(settled: Settled) -> EditOutcome {
        EditOutcome {
            value: String::new(),
            settled,
            field_gone: true,
            shown_lines: None,
            list: ListChoice::None,
        }
    }
}

/// Lines of the text sent that the editor showed, when it showed only some
/// (1-based, inclusive), of how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShownLines {
    /// The first line checked.
    pub first: usize,
    /// The last line checked.
    pub last: usize,
    /// The lines sent.
    pub of: usize,
}

/// What a fill did with a combobox's list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ListChoice {
    /// The field has no list of options (or it offered none).
    #[default]
    None,
    /// The option named by the text was chosen from the list.
    Chose(String),
    /// The text begins these options; the list stays open with them.
    Offers(Vec<String>),
    /// No option contained the text: it was committed with Tab and the
    /// field kept it (a free-text box).
    KeptText,
}
