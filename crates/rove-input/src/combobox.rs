//! What `fill` does after typing into an editable combobox whose list
//! offers options.
//!
//! Typing into such a box only filters its list: an app whose value must be
//! one of the options (Gradio's dropdown, most autocompletes of a fixed set)
//! keeps its old choice and throws the text away when the box loses the
//! focus, while the box still shows the text. So a fill that names an option
//! chooses it, as a user clicks the option they typed; a text that only
//! begins options leaves the list open and says which it offers (a free-text
//! box may want the text as it is, and the user may want to pick); a text
//! that no option contains is committed as a user would (Tab), and if the
//! box goes back to something else, the app keeps only options: a typed
//! error listing them, never "filled".

use rove_browser::Tab;
use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::{Element, FindQuery, PageModel, Ref};
use serde::Deserialize;

use crate::InputError;
use crate::edit_outcome::{EditOutcome, ListChoice};
use crate::keystrokes::{press, value_after};
use crate::mouse::{ClickOptions, click, on_element};

/// The options a combobox's list shows, read after typing.
#[derive(Debug, Deserialize)]
struct Listed {
    options: Vec<String>,
}

/// The visible options of the list the combobox controls (or, when it
/// names none, of the lists open in its document); null when the element
/// is not a combobox that takes text.
const LISTED: &str = r#"function () {
  const role = this.getAttribute('role') || this.computedRole;
  if (role !== 'combobox' || !this.matches('input, textarea')) return null;
  const root = this.getRootNode();
  const byId = (id) => (root.getElementById ? root.getElementById(id) : null) || document.getElementById(id);
  const ids = ((this.getAttribute('aria-controls') || '') + ' ' + (this.getAttribute('aria-owns') || ''))
    .split(/\s+/).filter(Boolean);
  let lists = ids.map(byId).filter((l) => l && l.checkVisibility());
  if (!lists.length && this.getAttribute('aria-expanded') === 'true') {
    lists = Array.from(document.querySelectorAll('[role=listbox]')).filter((l) => l.checkVisibility());
  }
  const name = (o) => (o.getAttribute('aria-label') || o.innerText || '').replace(/\s+/g, ' ').trim();
  const options = [];
  for (const list of lists) {
    const found = list.matches('[role=option]') ? [list] : list.querySelectorAll('[role=option]');
    for (const o of found) if (o.checkVisibility() && options.length < 50) options.push(name(o));
  }
  return {options: options.filter(Boolean)};
}"#;

/// After `text` was typed into `target` (the fill's `edit`): chooses,
/// offers or commits as the module says. Not a combobox with a list: the
/// edit as it was.
pub(crate) async fn after_fill(
    model: &mut PageModel,
    target: Ref,
    text: &str,
    edit: EditOutcome,
) -> Result<EditOutcome, InputError> {
    if edit.field_gone || text.is_empty() {
        return Ok(edit);
    }
    let listed = on_element(model, target, async |_tab: &Tab, element: &Element| {
        let call = CallFunctionOn::on("the combobox's options", LISTED, element.object_id.as_str())
            .by_value();
        let listed: Option<Listed> = element.session.run_checked_value(&call, None).await?;
        Ok(listed)
    })
    .await?;
    let Some(listed) = listed.filter(|l| !l.options.is_empty()) else {
        return Ok(edit);
    };
    let wanted = text.trim();
    let low = wanted.to_lowercase();
    let exact = listed
        .options
        .iter()
        .find(|o| o.as_str() == wanted)
        .or_else(|| listed.options.iter().find(|o| o.to_lowercase() == low));
    if let Some(option) = exact.cloned() {
        return choose(model, target, &option).await;
    }
    let begun: Vec<String> = listed
        .options
        .iter()
        .filter(|o| o.to_lowercase().starts_with(&low))
        .cloned()
        .collect();
    if !begun.is_empty() {
        return Ok(EditOutcome {
            list: ListChoice::Offers(begun),
            ..edit
        });
    }
    if listed
        .options
        .iter()
        .any(|o| o.to_lowercase().contains(&low))
    {
        // A palette or a fuzzy search lists what the text matches: the text
        // is a query, and leaving the field would close the list.
        return Ok(edit);
    }
    commit_or_refuse(model, target, text, &listed.options, edit).await
}

/// Clicks the option named `option` in the open list, then reads back what
/// the combobox holds.
async fn choose(
    model: &mut PageModel,
    target: Ref,
    option: &str,
) -> Result<EditOutcome, InputError> {
    let found = model
        .find(&FindQuery {
            text: option.to_owned(),
            role: Some("option".into()),
            limit: Some(50),
        })
        .await?;
    let Some(pick) = pick_option(&found.found, option).cloned() else {
        return Err(InputError::Rejected(format!(
            "{target}'s list showed the option {option:?}, and it was gone before it could be chosen"
        )));
    };
    let clicked = click(model, pick.reference, &ClickOptions::default()).await?;
    let value = on_element(model, target, async |_tab: &Tab, element: &Element| {
        value_after(element).await
    })
    .await;
    // The app may replace the box once it has its choice: then what it
    // shows is in the view after the click.
    let value = match value {
        Ok(Some(value)) => value,
        Ok(None) | Err(_) => pick.name.clone(),
    };
    Ok(EditOutcome {
        value,
        settled: clicked.settled,
        field_gone: false,
        shown_lines: None,
        list: ListChoice::Chose(pick.name),
    })
}

/// Commits the text as a user would, with Tab, and reads the box back: a
/// box that kept it takes free text; one that went back to something else
/// takes only its options.
async fn commit_or_refuse(
    model: &mut PageModel,
    target: Ref,
    text: &str,
    options: &[String],
    edit: EditOutcome,
) -> Result<EditOutcome, InputError> {
    let (settled, value) = on_element(model, target, async |tab: &Tab, element: &Element| {
        let settled = press(tab, "Tab").await?;
        Ok((settled, value_after(element).await?))
    })
    .await?;
    match value {
        Some(value) if value.trim_end_matches('\n') == text => Ok(EditOutcome {
            value,
            settled,
            list: ListChoice::KeptText,
            ..edit
        }),
        Some(value) => Err(InputError::NotAnOption {
            target: target.to_string(),
            wanted: text.to_owned(),
            holds: value,
            options: options.to_vec(),
        }),
        None => Ok(EditOutcome::field_gone(settled)),
    }
}

/// The option found for `value`: named exactly, then ignoring case, then
/// the only one found (an option whose name carries more, a price or a
/// count, is still the one asked for when it is the only one).
pub(crate) fn pick_option<'a>(
    found: &'a [rove_page::Match],
    value: &str,
) -> Option<&'a rove_page::Match> {
    let wanted = value.trim();
    found
        .iter()
        .find(|m| m.name.trim() == wanted)
        .or_else(|| {
            found
                .iter()
                .find(|m| m.name.trim().eq_ignore_ascii_case(wanted))
        })
        .or_else(|| (found.len() == 1).then(|| &found[0]))
}

/// Opens the ARIA widget `target` with a click (unless `click_first` is
/// false or it is a listbox, open already) and clicks the option named
/// `value`; the option's name and what the page did after.
pub(crate) async fn open_and_choose(
    model: &mut PageModel,
    target: Ref,
    value: &str,
    role: &str,
    click_first: bool,
) -> Result<(String, crate::settle::Settled), InputError> {
    if click_first && role != "listbox" {
        click(model, target, &ClickOptions::default()).await?;
    }
    let found = model
        .find(&FindQuery {
            text: value.to_owned(),
            role: Some("option".into()),
            limit: Some(50),
        })
        .await?;
    let Some(pick) = pick_option(&found.found, value).cloned() else {
        return Err(InputError::Rejected(format!(
            "{target} is a {role}; after opening it no option is named {value:?}{}",
            if found.found.is_empty() {
                String::new()
            } else {
                format!(
                    " (options containing it: {})",
                    found
                        .found
                        .iter()
                        .map(|m| format!("{:?}", m.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        )));
    };
    let settled = click(model, pick.reference, &ClickOptions::default())
        .await?
        .settled;
    Ok((pick.name, settled))
}
