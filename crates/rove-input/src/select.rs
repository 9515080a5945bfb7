//! Choosing options of a native `<select>`.
//!
//! The one place rove sets state from script: a native select's popup is
//! browser chrome, outside the page, so no input event can pick an option in
//! it. rove selects the options the way the page itself would and fires the
//! `input` and `change` events a user's choice fires (they are not
//! `isTrusted`), then reads the selection back. ARIA listboxes and comboboxes
//! are ordinary page elements: click them, then click the option.

use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::{PageModel, Ref};

use crate::InputError;
use crate::keyboard::fill;
use crate::mouse::on_element;
use crate::settle::{Settled, arm_element, settle};

/// What a selection left selected.
#[derive(Debug, Clone, PartialEq)]
pub struct SelectOutcome {
    /// The labels of the selected options afterwards.
    pub selected: Vec<String>,
    /// What the page did after the choice (a jump menu navigates).
    pub settled: Settled,
}

const SELECT: &str = r#"function (wanted) {
  if (this.tagName !== 'SELECT') return {state: 'not_select', role: this.computedRole || this.getAttribute('role') || this.tagName.toLowerCase(), editable: (this.matches('input, textarea') && !this.readOnly) || this.matches('[contenteditable=""], [contenteditable="true"]'), popup: !!this.getAttribute('aria-haspopup') && this.getAttribute('aria-haspopup') !== 'false'};
  if (this.disabled || this.matches(':disabled')) return {state: 'disabled'};
  if (!this.multiple && wanted.length > 1) return {state: 'single'};
  const options = Array.from(this.options);
  const label = (o) => (o.label || o.textContent).replace(/\s+/g, ' ').trim();
  const low = (s) => s.toLowerCase();
  // Edit distance, for the nearest labels when none matches.
  const distance = (a, b) => {
    a = a.slice(0, 80); b = b.slice(0, 80);
    let row = Array.from({length: b.length + 1}, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) {
        next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      row = next;
    }
    return row[b.length];
  };
  const picked = [];
  for (const w of wanted) {
    // The view cuts long labels with an ellipsis: the text shown is a prefix.
    const shown = w.endsWith('\u2026') ? w.slice(0, -1).trimEnd() : w;
    const prefixed = options.filter((o) => low(label(o)).startsWith(low(shown)));
    const match = options.find((o) => label(o) === w) || options.find((o) => o.value === w) ||
      options.find((o) => low(label(o)) === low(w)) || (shown && prefixed.length === 1 ? prefixed[0] : null);
    if (!match) {
      const nearest = options.map((o) => [distance(low(label(o)), low(shown)), label(o)])
        .sort((x, y) => x[0] - y[0]).slice(0, 3).map((x) => x[1]);
      return {state: 'missing', value: w, options: options.slice(0, 20).map(label), total: options.length,
        nearest, ambiguous: prefixed.length > 1 ? prefixed.slice(0, 5).map(label) : []};
    }
    if (match.disabled) return {state: 'option_disabled', value: w};
    picked.push(match);
  }
  for (const o of options) o.selected = picked.includes(o);
  this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {state: 'ok', selected: Array.from(this.selectedOptions).map(label)};
}"#;

/// Selects the options labelled (or valued) `values` in the native select
/// `target` names; every other option is deselected. One value for a single
/// select, any number for a `multiple` one.
pub async fn select_options(
    model: &mut PageModel,
    target: Ref,
    values: &[String],
) -> Result<SelectOutcome, InputError> {
    if values.is_empty() {
        return Err(InputError::Rejected(
            "name at least one option to select".into(),
        ));
    }
    match native_select(model, target, values).await? {
        Native::Done(outcome) => Ok(outcome),
        Native::NotSelect { role, editable } => {
            aria_select(model, target, values, &role, editable).await
        }
    }
}

/// What the native attempt found.
enum Native {
    Done(SelectOutcome),
    /// The element is an ARIA widget: its role, and whether it takes text.
    NotSelect {
        role: String,
        editable: bool,
    },
}

/// The ARIA way, as a user does it: open the widget (click a combobox or a
/// menu button; type the value into an editable combobox so its suggestions
/// appear), then click each option by its name. A listbox is already open;
/// a read-only combobox (Quasar's QSelect) opens on a click like a button.
async fn aria_select(
    model: &mut PageModel,
    target: Ref,
    values: &[String],
    role: &str,
    editable: bool,
) -> Result<SelectOutcome, InputError> {
    let mut selected = Vec::new();
    let mut settled = Settled::default();
    for value in values {
        if editable {
            // Filling an editable combobox with an option's name chooses it
            // (combobox.rs); otherwise its list now shows the option.
            let edit = fill(model, target, value).await?;
            if let crate::ListChoice::Chose(name) = edit.list {
                selected.push(name);
                settled = edit.settled;
                continue;
            }
        }
        let (name, after) =
            crate::combobox::open_and_choose(model, target, value, role, !editable).await?;
        selected.push(name);
        settled = after;
    }
    Ok(SelectOutcome { selected, settled })
}

async fn native_select(
    model: &mut PageModel,
    target: Ref,
    values: &[String],
) -> Result<Native, InputError> {
    on_element(model, target, async |tab, element| {
        // Subscribed before the change event, so a navigation it starts is seen.
        let events = crate::channel::InputChannel::of(tab).await?.subscribe();
        let mut armed = arm_element(tab, element, events).await;
        let call = CallFunctionOn::on("select.js", SELECT, element.object_id.as_str())
            .value(values.to_vec())
            .by_value();
        let value: serde_json::Value = element.session.run_checked_value(&call, None).await?;
        let value = &value;
        let not_actionable = |reason: String| InputError::NotActionable {
            target: target.to_string(),
            reason,
            cover: None,
        };
        match value["state"].as_str().unwrap_or("detached") {
            "ok" => Ok(Native::Done(SelectOutcome {
                selected: value["selected"]
                    .as_array()
                    .map(|s| {
                        s.iter()
                            .filter_map(|v| v.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default(),
                settled: settle(tab, &mut armed).await,
            })),
            "not_select" => {
                let role = value["role"].as_str().unwrap_or("?").to_owned();
                let popup = value["popup"].as_bool().unwrap_or(false);
                if !matches!(role.as_str(), "combobox" | "listbox") && !popup {
                    return Err(InputError::Rejected(format!(
                        "{target} is a {role}, not a select, listbox or combobox; click it, then click the option"
                    )));
                }
                Ok(Native::NotSelect {
                    role,
                    editable: value["editable"].as_bool().unwrap_or(false),
                })
            }
            "disabled" => Err(not_actionable("it is disabled".into())),
            "option_disabled" => Err(not_actionable(format!(
                "the option {} is disabled",
                value["value"].as_str().unwrap_or_default()
            ))),
            "single" => Err(InputError::Rejected(format!(
                "{target} takes one option, not {}",
                values.len()
            ))),
            "missing" => {
                let shown: Vec<&str> = value["options"]
                    .as_array()
                    .map(|o| o.iter().filter_map(|v| v.as_str()).collect())
                    .unwrap_or_default();
                let total = value["total"].as_u64().unwrap_or(0) as usize;
                let more = if total > shown.len() {
                    format!(", … {} more", total - shown.len())
                } else {
                    String::new()
                };
                let quoted = |key: &str| -> String {
                    value[key]
                        .as_array()
                        .map(|o| {
                            o.iter()
                                .filter_map(|v| v.as_str())
                                .map(|o| format!("{o:?}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        })
                        .unwrap_or_default()
                };
                let closest = match (quoted("ambiguous"), quoted("nearest")) {
                    (several, _) if !several.is_empty() => {
                        format!("; it begins several: {several}")
                    }
                    (_, nearest) if !nearest.is_empty() => format!("; the closest: {nearest}"),
                    _ => String::new(),
                };
                Err(InputError::Rejected(format!(
                    "{target} has no option {:?}{closest}. Its options: {}{more}",
                    value["value"].as_str().unwrap_or_default(),
                    shown
                        .iter()
                        .map(|o| format!("{o:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
            other => Err(not_actionable(other.to_owned())),
        }
    })
    .await
}
