//! The `Input` domain: trusted pointer events.

use serde::Serialize;

use super::{Command, Empty};

/// `Input.dispatchMouseEvent`: one pointer event, in CSS pixels of the
/// tab's viewport.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DispatchMouseEvent {
    /// `mouseMoved`, `mousePressed`, `mouseReleased` or `mouseWheel`.
    #[serde(rename = "type")]
    pub kind: MouseEventKind,
    /// From the viewport's left edge.
    pub x: f64,
    /// From the viewport's top edge.
    pub y: f64,
    /// Alt 1, Ctrl 2, Meta 4, Shift 8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modifiers: Option<u32>,
    /// `none`, `left`, `middle`, `right`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<&'static str>,
    /// The buttons held down, as a bit mask (left 1, right 2, middle 4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buttons: Option<u32>,
    /// 1 for a click, 2 for the second press of a double click.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub click_count: Option<u8>,
    /// A wheel's horizontal turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta_x: Option<f64>,
    /// A wheel's vertical turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta_y: Option<f64>,
}

/// What a [`DispatchMouseEvent`] does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum MouseEventKind {
    /// The pointer moved.
    #[default]
    MouseMoved,
    /// A button went down.
    MousePressed,
    /// A button came up.
    MouseReleased,
    /// The wheel turned.
    MouseWheel,
}

impl DispatchMouseEvent {
    /// An event of `kind` at (`x`, `y`).
    pub fn at(kind: MouseEventKind, x: f64, y: f64) -> Self {
        DispatchMouseEvent {
            kind,
            x,
            y,
            ..DispatchMouseEvent::default()
        }
    }

    /// A move with no button held.
    pub fn moved(x: f64, y: f64) -> Self {
        DispatchMouseEvent {
            button: Some("none"),
            buttons: Some(0),
            ..DispatchMouseEvent::at(MouseEventKind::MouseMoved, x, y)
        }
    }
}

impl Command for DispatchMouseEvent {
    const METHOD: &'static str = "Input.dispatchMouseEvent";
    type Response = Empty;
}

/// `Input.dispatchKeyEvent`: one key going down or up.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DispatchKeyEvent {
    /// `keyDown`, `rawKeyDown` (no text) or `keyUp`.
    #[serde(rename = "type")]
    pub kind: KeyEventKind,
    /// The DOM `key` (`a`, `Enter`, `Shift`).
    pub key: String,
    /// The DOM `code` (`KeyA`, `Enter`, `ShiftLeft`).
    pub code: String,
    /// The Windows virtual key code.
    pub windows_virtual_key_code: u32,
    /// The same code, as native.
    pub native_virtual_key_code: u32,
    /// Alt 1, Ctrl 2, Meta 4, Shift 8.
    pub modifiers: u32,
    /// 0 standard, 1 left, 2 right, 3 numpad.
    pub location: u32,
    /// The text the key types (only with `keyDown`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The text without modifiers (only with `keyDown`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmodified_text: Option<String>,
}

/// What a [`DispatchKeyEvent`] does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum KeyEventKind {
    /// Down, typing its text.
    #[default]
    KeyDown,
    /// Down, without text (a modifier, Enter's down without a character).
    RawKeyDown,
    /// Up.
    KeyUp,
}

impl Command for DispatchKeyEvent {
    const METHOD: &'static str = "Input.dispatchKeyEvent";
    type Response = Empty;
}

/// `Input.insertText`: text as an IME would commit it (characters no
/// keyboard has).
#[derive(Debug, Clone, Default, Serialize)]
pub struct InsertText {
    /// The text.
    pub text: String,
}

impl Command for InsertText {
    const METHOD: &'static str = "Input.insertText";
    type Response = Empty;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_written_as_chromium_reads_it() {
        let down = DispatchKeyEvent {
            kind: KeyEventKind::KeyDown,
            key: "a".into(),
            code: "KeyA".into(),
            windows_virtual_key_code: 65,
            native_virtual_key_code: 65,
            modifiers: 0,
            location: 0,
            text: Some("a".into()),
            unmodified_text: Some("a".into()),
        };
        assert_eq!(
            serde_json::to_value(&down).expect("encodes"),
            serde_json::json!({"type": "keyDown", "key": "a", "code": "KeyA",
                "windowsVirtualKeyCode": 65, "nativeVirtualKeyCode": 65,
                "modifiers": 0, "location": 0, "text": "a", "unmodifiedText": "a"})
        );
        let up = DispatchKeyEvent {
            kind: KeyEventKind::RawKeyDown,
            text: None,
            unmodified_text: None,
            ..down
        };
        let json = serde_json::to_value(&up).expect("encodes");
        assert_eq!(json["type"], "rawKeyDown");
        assert!(json.get("text").is_none());
    }

    #[test]
    fn a_move_is_written_as_chromium_reads_it() {
        let json = serde_json::to_value(DispatchMouseEvent::moved(1.5, 2.0)).expect("encodes");
        assert_eq!(
            json,
            serde_json::json!({"type": "mouseMoved", "x": 1.5, "y": 2.0, "button": "none", "buttons": 0})
        );
        let wheel = DispatchMouseEvent {
            delta_y: Some(100.0),
            delta_x: Some(0.0),
            ..DispatchMouseEvent::at(MouseEventKind::MouseWheel, 3.0, 4.0)
        };
        assert_eq!(
            serde_json::to_value(wheel).expect("encodes"),
            serde_json::json!({"type": "mouseWheel", "x": 3.0, "y": 4.0, "deltaX": 0.0, "deltaY": 100.0})
        );
    }
}
