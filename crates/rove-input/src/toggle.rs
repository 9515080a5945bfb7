//! Checking and unchecking: a click when the state differs, then a check
//! that the state really changed.

use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::{PageModel, Ref};

use crate::mouse::{ClickOptions, click, on_element};
use crate::{InputError, Settled};

/// What `set_checked` did.
#[derive(Debug, Clone, PartialEq)]
pub struct ToggleOutcome {
    /// The state was already as asked: nothing was clicked.
    pub unchanged: bool,
    /// What the page did after the click, if there was one.
    pub settled: Option<Settled>,
}

/// Checks (`true`) or unchecks (`false`) a checkbox, switch, radio, an ARIA
/// element with `aria-checked`, or a toggle button (`aria-pressed`: checked
/// means pressed), by clicking it when its state differs. The
/// state is read again afterwards; a click that did not change it is
/// reported, never taken for success.
pub async fn set_checked(
    model: &mut PageModel,
    target: Ref,
    checked: bool,
) -> Result<ToggleOutcome, InputError> {
    let before = state(model, target).await?;
    if before.checked == checked {
        return Ok(ToggleOutcome {
            unchanged: true,
            settled: None,
        });
    }
    if before.radio && !checked {
        return Err(InputError::Rejected(format!(
            "{target} is a radio button: it is unchecked by checking another in its group"
        )));
    }
    let outcome = click(model, target, &ClickOptions::default()).await?;
    let after = state(model, target).await?;
    if after.checked != checked {
        return Err(InputError::Ignored {
            target: target.to_string(),
            wanted: if checked { "checked" } else { "unchecked" }.into(),
            holds: if after.checked {
                "checked"
            } else {
                "unchecked"
            }
            .into(),
        });
    }
    Ok(ToggleOutcome {
        unchanged: false,
        settled: Some(outcome.settled),
    })
}

struct State {
    checked: bool,
    radio: bool,
}

async fn state(model: &mut PageModel, target: Ref) -> Result<State, InputError> {
    on_element(model, target, async |_tab, element| {
        let call = CallFunctionOn::on(
            "the checked state",
            "function() { const aria = this.getAttribute('aria-checked'); const pressed = this.getAttribute('aria-pressed'); const checkable = 'checked' in this && this.tagName === 'INPUT' && ['checkbox', 'radio'].includes(this.type); if (!checkable && aria === null && pressed === null) return null; return {checked: checkable ? this.checked : aria !== null ? aria === 'true' : pressed === 'true', radio: this.type === 'radio' || this.getAttribute('role') === 'radio'}; }",
            element.object_id.as_str(),
        )
        .by_value();
        let value: serde_json::Value = element.session.run_checked_value(&call, None).await?;
        let value = &value;
        match value["checked"].as_bool() {
            Some(checked) => Ok(State { checked, radio: value["radio"].as_bool().unwrap_or(false) }),
            None => Err(InputError::NotActionable {
                target: target.to_string(),
                reason: "it cannot be checked (not a checkbox, radio, switch, aria-checked element or toggle button)".into(),
                cover: None,
            }),
        }
    })
    .await
}
