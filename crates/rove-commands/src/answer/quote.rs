//! Foreign text (a page's, a model's) quoted inside rove's own sentences.

/// A text in double quotes, shortened to a line.
pub(crate) fn quote_line(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let short = rove_base::text::char_prefix(&flat, 200);
    if short.len() < flat.len() {
        format!("{short:?}…")
    } else {
        format!("{short:?}")
    }
}
