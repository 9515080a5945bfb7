//! Filling code and rich-text editors: CodeMirror 5 and 6, Monaco,
//! contenteditable hosts such as ProseMirror, and editors rove has no rules
//! for (Ace, an in-house one: a textarea drawn nowhere inside the box that
//! draws the text, read back from what that box shows).
//!
//! Their text is not a field's value: keys go to a hidden textarea (or a
//! contenteditable) and the editor moves what arrives into its document at
//! its own cursor. Inserting there replaced nothing (Datasette's SQL box
//! ended up `<new><old>`), and reading the textarea back said nothing about
//! the document. So the whole editor is replaced through real input, as a
//! user would: its input is focused, Control+A selects everything (the
//! editor's own select-all), and the text is inserted as an IME would. Then
//! the text the editor *shows* is read back, line by line: equal, or an
//! error saying what the editor holds. A virtualised editor taller than its
//! view (CodeMirror, Monaco) draws only some lines; when those are a run of
//! the lines sent, that run is what could be checked, and the outcome says
//! which lines it was.

use rove_browser::Tab;
use rove_cdp::protocol::input::InsertText;
use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::Element;
use serde::Deserialize;

use crate::InputError;
use crate::channel::InputChannel;
use crate::edit_outcome::{EditOutcome, ShownLines};
use crate::keys::parse_chord;
use crate::keystrokes::send_chord;
use crate::settle::{arm_element, settle};

const EDITOR: &str = include_str!("editor.js");

#[derive(Debug, Deserialize)]
struct Answer {
    state: String,
    #[serde(default)]
    selected: bool,
    #[serde(default)]
    text: String,
    #[serde(default)]
    scrolls: bool,
}

async fn call(element: &Element, mode: &str) -> Result<Answer, InputError> {
    let call = CallFunctionOn::on("editor.js", EDITOR, element.object_id.as_str())
        .value(mode)
        .by_value()
        .awaiting();
    Ok(element.session.run_checked_value(&call, None).await?)
}

/// The text the editor `element` belongs to shows, line by line; `None`
/// when the element is gone.
pub(crate) async fn shown(element: &Element) -> Result<Option<String>, InputError> {
    match call(element, "read").await {
        Ok(read) => Ok(Some(read.text)),
        Err(e) if e.element_gone() => Ok(None),
        Err(e) => Err(e),
    }
}

/// Where the lines `shown` sit as a run in `sent`, if they do.
fn run_of(sent: &str, shown: &str) -> Option<ShownLines> {
    let sent: Vec<&str> = sent.split('\n').collect();
    let shown: Vec<&str> = shown.split('\n').collect();
    if shown.is_empty() || shown.len() >= sent.len() {
        return None;
    }
    let start = sent
        .windows(shown.len())
        .position(|w| w == shown.as_slice())?;
    Some(ShownLines {
        first: start + 1,
        last: start + shown.len(),
        of: sent.len(),
    })
}

/// Gives the editor `element` belongs to the focus, as a click would,
/// its caret left where it was.
pub(crate) async fn focus(element: &Element) -> Result<(), InputError> {
    let focused = call(element, "focus").await?;
    let reason = match focused.state.as_str() {
        "ok" => None,
        "hidden" => Some("it is hidden".to_owned()),
        "disabled" => Some("it is disabled".to_owned()),
        "readonly" => Some("it is read-only".to_owned()),
        "unfocusable" => Some("it does not take the focus".to_owned()),
        other => Some(other.to_owned()),
    };
    match reason {
        Some(reason) => Err(InputError::NotActionable {
            target: element.reference.to_string(),
            reason,
            cover: None,
        }),
        None => Ok(()),
    }
}

/// Replaces the whole text of the editor `element` belongs to with `text`;
/// see the module's documentation.
pub(crate) async fn replace(
    tab: &Tab,
    element: &Element,
    text: &str,
) -> Result<EditOutcome, InputError> {
    focus(element).await?;
    let session = InputChannel::of(tab).await?;
    let mut armed = arm_element(tab, element, session.subscribe()).await;
    let select_all = parse_chord("Control+A")?;
    send_chord(&session, &select_all).await?;
    // An editor that had not caught up with the focus may have kept its
    // caret: select all once more, after it has.
    if !call(element, "selected")
        .await
        .map_err(InputError::after_input)?
        .selected
    {
        send_chord(&session, &select_all)
            .await
            .map_err(InputError::after_input)?;
    }
    if text.is_empty() {
        send_chord(&session, &parse_chord("Delete")?)
            .await
            .map_err(InputError::after_input)?;
    } else {
        session
            .send(&InsertText {
                text: text.to_owned(),
            })
            .await
            .map_err(|e| InputError::browser(e, true))?;
    }
    let settled = settle(tab, &mut armed).await;
    let read = match call(element, "read").await {
        Ok(read) => read,
        Err(e) if e.element_gone() => {
            return Ok(EditOutcome::field_gone(settled));
        }
        Err(e) => return Err(e),
    };
    let wanted = text.trim_end_matches('\n');
    let shown = read.text.trim_end_matches('\n');
    if shown == wanted {
        return Ok(EditOutcome::took(read.text, settled));
    }
    if read.scrolls
        && let Some(lines) = run_of(wanted, shown)
    {
        return Ok(EditOutcome {
            value: read.text,
            settled,
            field_gone: false,
            shown_lines: Some(lines),
            list: crate::ListChoice::None,
        });
    }
    Err(InputError::Ignored {
        target: element.reference.to_string(),
        wanted: text.to_owned(),
        holds: read.text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_lines_is_found_only_inside_a_longer_text() {
        assert_eq!(
            run_of("a\nb\nc\nd", "b\nc"),
            Some(ShownLines {
                first: 2,
                last: 3,
                of: 4
            })
        );
        assert_eq!(run_of("a\nb", "a\nb"), None, "all of it is no run");
        assert_eq!(run_of("a\nb\nc", "b\nx"), None);
    }
}
