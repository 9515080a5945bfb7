//! Typing, filling and pressing keys, with real key events.

use std::time::Duration;

use crate::channel::InputChannel;
use rove_browser::Tab;
use rove_page::{Element, PageModel, Ref};
use serde::Deserialize;
use serde_json::json;

use crate::keys::{Key, key_for_char, parse_chord};
use crate::mouse::{on_element, refuse_while_dialog, scroll_into_view};
use crate::settle::{Settled, settle_document};
use crate::{InputError, Modifiers};

const EDITABLE: &str = include_str!("editable.js");

/// What an edit left in the field.
#[derive(Debug, Clone)]
pub struct EditOutcome {
    /// The field's value (text, for an editable element) afterwards.
    pub value: String,
    /// What the page did afterwards.
    pub settled: Settled,
}

/// How to type.
#[derive(Debug, Clone, Default)]
pub struct TypeOptions {
    /// A pause between keys, for pages that react to typing speed.
    pub delay: Option<Duration>,
}

#[derive(Debug, Deserialize)]
struct Prepared {
    state: String,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    detail: Option<String>,
}

/// Types `text` at the end of the field `target` names, one real key press
/// per character (keydown, keypress, input, keyup, all trusted); characters no
/// US keyboard has are inserted as text. The field must end with the text,
/// or the edit is reported as ignored.
pub async fn type_text(
    model: &mut PageModel,
    target: Ref,
    text: &str,
    opts: &TypeOptions,
) -> Result<EditOutcome, InputError> {
    on_element(model, target, async |tab: &Tab, element: &Element| {
        let before = prepare(element, "append").await?;
        let session = crate::channel::InputChannel::of(tab).await?;
        let mut events = session.subscribe();
        for (i, c) in text.chars().enumerate() {
            let sent = i > 0;
            match key_for_char(c) {
                Some(key) => {
                    let shifted = needs_shift(c);
                    let modifiers = Modifiers {
                        shift: shifted,
                        ..Modifiers::default()
                    };
                    if shifted {
                        key_event(&session, "rawKeyDown", &shift_key(), modifiers)
                            .await
                            .map_err(|e| InputError::browser(e, sent))?;
                    }
                    stroke(&session, &key, modifiers)
                        .await
                        .map_err(|e| InputError::browser(e, true))?;
                    if shifted {
                        key_event(&session, "keyUp", &shift_key(), Modifiers::default())
                            .await
                            .map_err(|e| InputError::browser(e, true))?;
                    }
                }
                None => {
                    session
                        .call("Input.insertText", json!({"text": c.to_string()}))
                        .await
                        .map_err(|e| InputError::browser(e, true))?;
                }
            }
            if let Some(delay) = opts.delay {
                tokio::time::sleep(delay).await;
            }
        }
        let settled = settle_document(tab, &element.session, &element.object_id, &mut events).await;
        let value = current_value(element).await?;
        let expected = format!("{before}{text}");
        if !value.ends_with(text) && value != expected {
            return Err(ignored(target, text, &value));
        }
        Ok(EditOutcome { value, settled })
    })
    .await
}

/// Replaces the value of the field `target` names with `text`, as a user's
/// select-all and paste would (trusted `beforeinput` and `input`), then
/// leaves the field so the page gets its `change`. The field must hold the
/// text afterwards, or the edit is reported as ignored.
pub async fn fill(
    model: &mut PageModel,
    target: Ref,
    text: &str,
) -> Result<EditOutcome, InputError> {
    on_element(model, target, async |tab: &Tab, element: &Element| {
        prepare(element, "replace").await?;
        let session = crate::channel::InputChannel::of(tab).await?;
        let mut events = session.subscribe();
        if text.is_empty() {
            stroke(&session, &named("Delete"), Modifiers::default()).await.map_err(|e| InputError::browser(e, false))?;
        } else {
            session
                .call("Input.insertText", json!({"text": text}))
                .await
                .map_err(|e| InputError::browser(e, false))?;
        }
        // Leaving the field commits the edit: the page sees `change`.
        element
            .session
            .call(
                "Runtime.callFunctionOn",
                json!({"functionDeclaration": "function() { this.blur(); }", "objectId": element.object_id}),
            )
            .await
            .map_err(|e| InputError::browser(e, true))?;
        let settled = settle_document(tab, &element.session, &element.object_id, &mut events).await;
        let value = current_value(element).await?;
        if value.trim_end_matches('\n') != text {
            return Err(ignored(target, text, &value));
        }
        Ok(EditOutcome { value, settled })
    })
    .await
}

/// Gives the element `target` names the keyboard focus, as tabbing to it
/// would (no click: nothing under the pointer reacts).
pub async fn focus(model: &mut PageModel, target: Ref) -> Result<(), InputError> {
    on_element(model, target, async |_tab: &Tab, element: &Element| {
        element
            .session
            .call("DOM.focus", json!({"objectId": element.object_id}))
            .await?;
        Ok(())
    })
    .await
}

/// Presses a key chord (`Enter`, `Control+A`, `Shift+Tab`) on whatever has
/// focus, holding the modifiers around the key as a keyboard does.
pub async fn press(tab: &Tab, chord: &str) -> Result<Settled, InputError> {
    let chord = parse_chord(chord)?;
    refuse_while_dialog(tab).await?;
    let session = crate::channel::InputChannel::of(tab).await?;
    let mut events = session.subscribe();
    let mut held = Modifiers::default();
    for (i, key) in chord.held.iter().enumerate() {
        apply_modifier(&mut held, &key.key);
        key_event(&session, "rawKeyDown", key, held)
            .await
            .map_err(|e| InputError::browser(e, i > 0))?;
    }
    let mut key = chord.key.clone();
    // With Control, Alt or Meta held a key types nothing; with Shift alone a
    // letter types its capital.
    if chord.modifiers.ctrl || chord.modifiers.alt || chord.modifiers.meta {
        key.text.clear();
    } else if chord.modifiers.shift && key.text.len() == 1 {
        key.text = key.text.to_uppercase();
        key.key = key.key.to_uppercase();
    }
    stroke(&session, &key, chord.modifiers)
        .await
        .map_err(|e| InputError::browser(e, true))?;
    for key in chord.held.iter().rev() {
        release_modifier(&mut held, &key.key);
        key_event(&session, "keyUp", key, held)
            .await
            .map_err(|e| InputError::browser(e, true))?;
    }
    if session.dialog_open() {
        // The page is blocked; there is nothing to wait for.
        return Ok(Settled::default());
    }
    let document = session
        .call(
            "Runtime.evaluate",
            json!({"expression": "document", "objectGroup": "rove-press"}),
        )
        .await?;
    let settled = match document["result"]["objectId"].as_str() {
        Some(object) => settle_document(tab, session.session(), object, &mut events).await,
        None => Settled::default(),
    };
    let _ = session
        .call(
            "Runtime.releaseObjectGroup",
            json!({"objectGroup": "rove-press"}),
        )
        .await;
    Ok(settled)
}

async fn prepare(element: &Element, mode: &str) -> Result<String, InputError> {
    scroll_into_view(element).await;
    let answer = element
        .session
        .call(
            "Runtime.callFunctionOn",
            json!({
                "functionDeclaration": EDITABLE,
                "objectId": element.object_id,
                "arguments": [{"value": mode}],
                "returnByValue": true,
            }),
        )
        .await?;
    let prepared: Prepared =
        serde_json::from_value(answer["result"]["value"].clone()).unwrap_or(Prepared {
            state: "detached".into(),
            value: None,
            detail: None,
        });
    let reason = match prepared.state.as_str() {
        "ok" => return Ok(prepared.value.unwrap_or_default()),
        "hidden" => "it is hidden".to_owned(),
        "disabled" => "it is disabled".to_owned(),
        "readonly" => "it is read-only".to_owned(),
        "not_editable" => format!(
            "it is not editable ({})",
            prepared.detail.unwrap_or_default()
        ),
        "unfocusable" => "it does not take the focus".to_owned(),
        other => other.to_owned(),
    };
    Err(InputError::NotActionable {
        target: element.reference.to_string(),
        reason,
        cover: None,
    })
}

async fn current_value(element: &Element) -> Result<String, InputError> {
    let answer = element
        .session
        .call(
            "Runtime.callFunctionOn",
            json!({
                "functionDeclaration": "function() { return 'value' in this && this.tagName !== 'LI' ? String(this.value) : this.innerText; }",
                "objectId": element.object_id,
                "returnByValue": true,
            }),
        )
        .await
        .map_err(|e| InputError::browser(e, true))?;
    Ok(answer["result"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned())
}

fn ignored(target: Ref, text: &str, value: &str) -> InputError {
    InputError::Ignored {
        target: target.to_string(),
        wanted: text.to_owned(),
        holds: value.to_owned(),
    }
}

/// keyDown (typing the key's text) then keyUp.
async fn stroke(
    session: &InputChannel,
    key: &Key,
    modifiers: Modifiers,
) -> Result<(), rove_cdp::CdpError> {
    let down = if key.text.is_empty() {
        "rawKeyDown"
    } else {
        "keyDown"
    };
    key_event(session, down, key, modifiers).await?;
    key_event(session, "keyUp", key, modifiers).await
}

async fn key_event(
    session: &InputChannel,
    kind: &str,
    key: &Key,
    modifiers: Modifiers,
) -> Result<(), rove_cdp::CdpError> {
    let mut params = json!({
        "type": kind,
        "key": key.key,
        "code": key.code,
        "windowsVirtualKeyCode": key.key_code,
        "nativeVirtualKeyCode": key.key_code,
        "modifiers": modifiers.bits(),
        "location": key.location,
    });
    if kind == "keyDown" && !key.text.is_empty() {
        params["text"] = json!(key.text);
        params["unmodifiedText"] = json!(key.text);
    }
    session
        .call("Input.dispatchKeyEvent", params)
        .await
        .map(|_| ())
}

fn needs_shift(c: char) -> bool {
    c.is_ascii_uppercase() || "~!@#$%^&*()_+{}|:\"<>?".contains(c)
}

fn shift_key() -> Key {
    Key {
        key: "Shift".into(),
        code: "ShiftLeft".into(),
        key_code: 16,
        text: String::new(),
        location: 1,
    }
}

fn named(name: &str) -> Key {
    parse_chord(name)
        .map(|c| c.key)
        .unwrap_or_else(|_| shift_key())
}

fn apply_modifier(m: &mut Modifiers, key: &str) {
    match key {
        "Control" => m.ctrl = true,
        "Shift" => m.shift = true,
        "Alt" => m.alt = true,
        "Meta" => m.meta = true,
        _ => {}
    }
}

fn release_modifier(m: &mut Modifiers, key: &str) {
    match key {
        "Control" => m.ctrl = false,
        "Shift" => m.shift = false,
        "Alt" => m.alt = false,
        "Meta" => m.meta = false,
        _ => {}
    }
}
