//! Foreign text (a page's, a model's) quoted inside rove's own sentences.

/// A text in double quotes, shortened to a line (its runs of white space
/// as one space, at most 200 characters: `rove_base::text::quoted`).
pub(crate) fn quote_line(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    rove_base::text::quoted(&flat, 200)
}
