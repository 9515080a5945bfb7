//! The arguments of `mouse` (group `vision`) and `fill_form` (group
//! `forms`). Same rules as `args.rs`: field names are the argument names
//! everywhere, doc comments are what a model reads.

use rove_page::Target;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::MouseButton;

/// What `mouse` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MouseAction {
    /// Move the pointer to x, y (held buttons stay held: a drag).
    Move,
    /// Press a button where the pointer is (or at x, y) and keep it down.
    Down,
    /// Release a held button where the pointer is (or at x, y).
    Up,
    /// Click at x, y.
    Click,
    /// Turn the wheel by dx, dy where the pointer is (or at x, y).
    Wheel,
}

/// `mouse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MouseArgs {
    /// move, down, up, click or wheel.
    #[schemars(extend("description" = ""))]
    pub action: MouseAction,
    /// CSS pixels from the viewport's left edge.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub x: Option<f64>,
    /// CSS pixels from the viewport's top edge.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub y: Option<f64>,
    /// left (default), right or middle.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub button: MouseButton,
    /// click: 2 for a double click.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub count: Option<u8>,
    /// wheel: pixels rightwards.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub dx: Option<f64>,
    /// wheel: pixels downwards.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub dy: Option<f64>,
}

/// What a form field is given: text (or an option's label, for a select),
/// or checked / unchecked. The schema says string (hosts refuse `anyOf`);
/// JSON `true`/`false` parse too, as do the strings for a checkbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FieldValue {
    /// Check (true) or uncheck (false) a checkbox, radio or switch.
    Checked(bool),
    /// The text, date or number to fill, or the option to select.
    Text(String),
}

/// One field of `fill_form`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormField {
    /// The field's ref.
    #[schemars(extend("description" = ""))]
    #[serde(rename = "ref")]
    #[schemars(with = "String")]
    pub target: Target,
    /// Text, an option label, or true/false for a checkbox.
    #[schemars(extend("description" = ""))]
    #[schemars(with = "String")]
    pub value: FieldValue,
}

/// `fill_form`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FillFormArgs {
    /// Filled in order.
    #[schemars(extend("description" = ""))]
    pub fields: Vec<FormField>,
}
