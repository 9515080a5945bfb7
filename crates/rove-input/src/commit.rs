//! Committing a number typed into a field that takes it only when it loses
//! the focus.
//!
//! Number fields of component libraries (react-aria's NumberField, and
//! others that parse and format what was typed) keep computing with the old
//! number until the field is left: `fill` that kept the focus reported a
//! value the app had not taken, and the next command (a `select` set from
//! script, which moves no focus) ran against the old one. After filling such
//! a field, rove leaves it as a user does, with Tab, and reads back what the
//! field shows then (the app's formatting of it).

use rove_browser::Tab;
use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::{Element, PageModel, Ref};

use crate::InputError;
use crate::keystrokes::{press, value_after};
use crate::mouse::on_element;
use crate::settle::Settled;

/// A number field that takes text, still focused after the fill.
const NUMBER_FIELD: &str = r#"function () {
  if (this.tagName !== 'INPUT' || this !== (this.getRootNode().activeElement || document.activeElement)) return false;
  const role = this.getAttribute('role') || this.computedRole || '';
  const described = (this.getAttribute('aria-roledescription') || '').toLowerCase();
  const mode = (this.getAttribute('inputmode') || '').toLowerCase();
  return this.type === 'number' || role === 'spinbutton' || mode === 'numeric' || mode === 'decimal' ||
    described.includes('number');
}"#;

/// What leaving the field did.
#[derive(Debug, Clone)]
pub struct Committed {
    /// What the page did after the Tab.
    pub settled: Settled,
    /// What the field shows afterwards; `None` if the page took it away.
    pub value: Option<String>,
}

/// Leaves the number field `target` with Tab when the fill left the focus
/// in it; `None` when it is no such field (nothing is pressed).
pub async fn commit_number(
    model: &mut PageModel,
    target: Ref,
) -> Result<Option<Committed>, InputError> {
    on_element(model, target, async |tab: &Tab, element: &Element| {
        let call = CallFunctionOn::on(
            "whether it is a number field",
            NUMBER_FIELD,
            element.object_id.as_str(),
        )
        .by_value();
        let number: bool = element.session.run_checked_value(&call, None).await?;
        if !number {
            return Ok(None);
        }
        let settled = press(tab, "Tab").await?;
        let value = value_after(element).await?;
        Ok(Some(Committed { settled, value }))
    })
    .await
}
