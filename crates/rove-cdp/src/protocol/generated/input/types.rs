//! The types of the `Input` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// UTC time in seconds, counted from January 1, 1970.
pub type TimeSinceEpoch = f64;

/// The values of `type` in `DispatchDragEvent`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum DispatchDragEventType {
    /// `dragEnter`.
    #[serde(rename = "dragEnter")]
    DragEnter,
    /// `dragOver`.
    #[serde(rename = "dragOver")]
    DragOver,
    /// `drop`.
    #[serde(rename = "drop")]
    Drop,
    /// `dragCancel`.
    #[serde(rename = "dragCancel")]
    DragCancel,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl DispatchDragEventType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::DragEnter => "dragEnter",
            Self::DragOver => "dragOver",
            Self::Drop => "drop",
            Self::DragCancel => "dragCancel",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `type` in `DispatchKeyEvent`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum DispatchKeyEventType {
    /// `keyDown`.
    #[serde(rename = "keyDown")]
    KeyDown,
    /// `keyUp`.
    #[serde(rename = "keyUp")]
    KeyUp,
    /// `rawKeyDown`.
    #[serde(rename = "rawKeyDown")]
    RawKeyDown,
    /// `char`.
    #[serde(rename = "char")]
    Char,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl DispatchKeyEventType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::KeyDown => "keyDown",
            Self::KeyUp => "keyUp",
            Self::RawKeyDown => "rawKeyDown",
            Self::Char => "char",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `pointerType` in `DispatchMouseEvent`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum DispatchMouseEventPointerType {
    /// `mouse`.
    #[serde(rename = "mouse")]
    Mouse,
    /// `pen`.
    #[serde(rename = "pen")]
    Pen,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl DispatchMouseEventPointerType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Mouse => "mouse",
            Self::Pen => "pen",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `type` in `DispatchMouseEvent`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum DispatchMouseEventType {
    /// `mousePressed`.
    #[serde(rename = "mousePressed")]
    MousePressed,
    /// `mouseReleased`.
    #[serde(rename = "mouseReleased")]
    MouseReleased,
    /// `mouseMoved`.
    #[serde(rename = "mouseMoved")]
    MouseMoved,
    /// `mouseWheel`.
    #[serde(rename = "mouseWheel")]
    MouseWheel,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl DispatchMouseEventType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MousePressed => "mousePressed",
            Self::MouseReleased => "mouseReleased",
            Self::MouseMoved => "mouseMoved",
            Self::MouseWheel => "mouseWheel",
            Self::Unrecognized => "",
        }
    }
}

/// MouseButton
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum MouseButton {
    /// `none`.
    #[serde(rename = "none")]
    None,
    /// `left`.
    #[serde(rename = "left")]
    Left,
    /// `middle`.
    #[serde(rename = "middle")]
    Middle,
    /// `right`.
    #[serde(rename = "right")]
    Right,
    /// `back`.
    #[serde(rename = "back")]
    Back,
    /// `forward`.
    #[serde(rename = "forward")]
    Forward,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl MouseButton {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Left => "left",
            Self::Middle => "middle",
            Self::Right => "right",
            Self::Back => "back",
            Self::Forward => "forward",
            Self::Unrecognized => "",
        }
    }
}

/// Experimental.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DragData {
    /// items
    pub items: Vec<super::DragDataItem>,
    /// List of filenames that should be included when dropping
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    /// Bit field representing allowed drag operations. Copy = 1, Link = 2, Move = 16
    pub drag_operations_mask: i64,
}

/// Experimental.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DragDataItem {
    /// Mime type of the dragged data.
    pub mime_type: String,
    /// Depending of the value of `mimeType`, it contains the dragged link, text, HTML markup or
    /// any other data.
    pub data: String,
    /// Title associated with a link. Only valid when `mimeType` == "text/uri-list".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Stores the base URL for the contained markup. Only valid when `mimeType` == "text/html".
    #[serde(rename = "baseURL", skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
}
