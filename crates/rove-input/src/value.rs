//! Filling the inputs whose value a native picker sets: `date`, `time`,
//! `datetime-local`, `month`, `week` and `color` (a range input is moved
//! with keys instead: slider.rs).
//!
//! Their pickers are browser chrome (like a native select's popup), so no
//! key press reaches a date's digits in a form rove can rely on across
//! locales. rove sets the value as the page itself would, through the
//! element's value setter, and fires the `input` and `change` events a
//! picker fires (not `isTrusted`). The value must be the ISO form the input
//! holds (`2026-03-14`, `09:30`, `#3366cc`): one the browser would read
//! otherwise (`2026-13-45`, `14/03/2026`) or
//! one outside the input's `min` and `max` (which its picker never offers)
//! is refused before the field is touched, naming the form. Afterwards the
//! field must hold what the browser read, or the page changed it.

use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::Element;
use serde::Deserialize;

use crate::InputError;
use crate::edit_outcome::EditOutcome;
use crate::settle::{arm_element, settle};

const SET_VALUE: &str = include_str!("set_value.js");

#[derive(Debug, Deserialize)]
struct SetAnswer {
    state: String,
    #[serde(default)]
    reads: Option<String>,
    #[serde(default)]
    min: Option<String>,
    #[serde(default)]
    max: Option<String>,
}

/// The form an input of `kind` takes, with an example, as an error names it.
fn form_of(kind: &str) -> &'static str {
    match kind {
        "date" => "YYYY-MM-DD (2026-03-14)",
        "time" => "HH:MM or HH:MM:SS, 24-hour (09:30)",
        "datetime-local" => "YYYY-MM-DDTHH:MM (2026-03-14T09:30)",
        "month" => "YYYY-MM (2026-03)",
        "week" => "YYYY-Www (2026-W11)",
        "color" => "#rrggbb (#3366cc)",
        _ => "a number",
    }
}

/// Sets the value of the picker input `element` (of type `kind`) to
/// `text`; see the module's documentation.
pub(crate) async fn set_value(
    tab: &rove_browser::Tab,
    element: &Element,
    kind: &str,
    text: &str,
) -> Result<EditOutcome, InputError> {
    let target = element.reference.to_string();
    // Subscribed before the events, so a navigation they start is seen.
    let events = crate::channel::InputChannel::of(tab).await?.subscribe();
    let mut armed = arm_element(tab, element, events).await;
    let call = CallFunctionOn::on("set_value.js", SET_VALUE, element.object_id.as_str())
        .value(text)
        .by_value();
    let answer: SetAnswer = element.session.run_checked_value(&call, None).await?;
    let reads = match answer.state.as_str() {
        "ok" => answer.reads.clone().unwrap_or_default(),
        "format" => {
            return Err(InputError::Format {
                target,
                kind: kind.to_owned(),
                wanted: text.to_owned(),
                form: form_of(kind).to_owned(),
            });
        }
        "limits" => {
            let bound = |b: &Option<String>| b.clone().filter(|b| !b.is_empty());
            let limits = match (bound(&answer.min), bound(&answer.max)) {
                (Some(min), Some(max)) => format!("from {min} to {max}"),
                (Some(min), None) => format!("from {min} on"),
                (None, Some(max)) => format!("up to {max}"),
                (None, None) => "within its limits".to_owned(),
            };
            return Err(InputError::Format {
                target,
                kind: kind.to_owned(),
                wanted: text.to_owned(),
                form: format!("{} {limits}", form_of(kind)),
            });
        }
        other => {
            return Err(InputError::NotActionable {
                target,
                reason: other.to_owned(),
                cover: None,
            });
        }
    };
    let settled = settle(tab, &mut armed).await;
    let Some(value) = crate::keystrokes::value_after(element).await? else {
        return Ok(EditOutcome::field_gone(settled));
    };
    if value != reads {
        return Err(InputError::Ignored {
            target,
            wanted: text.to_owned(),
            holds: value,
        });
    }
    Ok(EditOutcome::took(value, settled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_picker_type_names_its_form() {
        // editable.js sends these types here.
        let editable = include_str!("editable.js");
        for kind in ["date", "time", "datetime-local", "month", "week", "color"] {
            assert!(editable.contains(&format!("'{kind}'")), "{kind}");
            assert_ne!(form_of(kind), "a number", "{kind}");
        }
        assert!(form_of("date").starts_with("YYYY-MM-DD"));
    }
}
