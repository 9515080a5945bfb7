//! Keys as a keyboard sends them: one key's down and up events, a chord
//! with its modifiers held around the key, and the value a field holds
//! after keys reached it. Below every way of typing.

use rove_browser::Tab;
use rove_cdp::protocol::input::{DispatchKeyEvent, DispatchKeyEventType};
use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::Element;

use crate::channel::InputChannel;
use crate::keys::{Key, parse_chord};
use crate::mouse::refuse_while_dialog;
use crate::settle::{Settled, Watched, arm, settle};
use crate::{InputError, Modifiers};

/// Presses a key chord (`Enter`, `Control+A`, `Shift+Tab`) on whatever has
/// focus, holding the modifiers around the key as a keyboard does.
pub async fn press(tab: &Tab, chord: &str) -> Result<Settled, InputError> {
    let parsed = parse_chord(chord)?;
    refuse_while_dialog(tab).await?;
    let session = crate::channel::InputChannel::of(tab).await?;
    let mut armed = arm(tab, Watched::MainFrame, session.subscribe()).await;
    send_chord(&session, &parsed).await?;
    if session.dialog_open() {
        // The page is blocked; there is nothing to wait for.
        return Ok(Settled::default());
    }
    Ok(settle(tab, &mut armed).await)
}

/// Presses `chord` on whatever has focus, holding its modifiers around the
/// key; no settling.
pub(crate) async fn send_chord(
    session: &InputChannel,
    chord: &crate::keys::Chord,
) -> Result<(), InputError> {
    let mut held = Modifiers::default();
    for (i, key) in chord.held.iter().enumerate() {
        apply_modifier(&mut held, &key.key);
        session
            .send(&key_params(DispatchKeyEventType::RawKeyDown, key, held))
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
    stroke(session, &key, chord.modifiers)
        .await
        .map_err(|e| InputError::browser(e, true))?;
    for key in chord.held.iter().rev() {
        release_modifier(&mut held, &key.key);
        session
            .send(&key_params(DispatchKeyEventType::KeyUp, key, held))
            .await
            .map_err(|e| InputError::browser(e, true))?;
    }
    Ok(())
}

/// What the field holds after the edit; `None` when the page took the
/// field away (the text reached it first).
pub(crate) async fn value_after(element: &Element) -> Result<Option<String>, InputError> {
    let call = CallFunctionOn::on(
        "the field's value",
        "function() { if (!this.isConnected) return null; return 'value' in this && this.tagName !== 'LI' ? String(this.value) : this.innerText; }",
        element.object_id.as_str(),
    )
    .by_value();
    match element.session.run_checked_value(&call, None).await {
        Ok(value) => Ok(value),
        Err(e) => {
            let error = InputError::browser(e, true);
            if error.element_gone() {
                Ok(None)
            } else {
                Err(error)
            }
        }
    }
}

/// keyDown (typing the key's text) then keyUp.
pub(crate) async fn stroke(
    session: &InputChannel,
    key: &Key,
    modifiers: Modifiers,
) -> Result<(), rove_cdp::CdpError> {
    let down = if key.text.is_empty() {
        DispatchKeyEventType::RawKeyDown
    } else {
        DispatchKeyEventType::KeyDown
    };
    session.send(&key_params(down, key, modifiers)).await?;
    session
        .send(&key_params(DispatchKeyEventType::KeyUp, key, modifiers))
        .await
}

/// One `Input.dispatchKeyEvent`.
pub(crate) fn key_params(
    kind: DispatchKeyEventType,
    key: &Key,
    modifiers: Modifiers,
) -> DispatchKeyEvent {
    let text =
        (kind == DispatchKeyEventType::KeyDown && !key.text.is_empty()).then(|| key.text.clone());
    DispatchKeyEvent {
        kind,
        key: Some(key.key.clone()),
        code: Some(key.code.clone()),
        windows_virtual_key_code: Some(i64::from(key.key_code)),
        native_virtual_key_code: Some(i64::from(key.key_code)),
        modifiers: Some(i64::from(modifiers.bits())),
        location: Some(i64::from(key.location)),
        unmodified_text: text.clone(),
        text,
        ..Default::default()
    }
}

pub(crate) fn needs_shift(c: char) -> bool {
    c.is_ascii_uppercase() || "~!@#$%^&*()_+{}|:\"<>?".contains(c)
}

pub(crate) fn shift_key() -> Key {
    Key {
        key: "Shift".into(),
        code: "ShiftLeft".into(),
        key_code: 16,
        text: String::new(),
        location: 1,
    }
}

pub(crate) fn named(name: &str) -> Key {
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
