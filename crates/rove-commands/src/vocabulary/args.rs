//! The arguments of each command, as typed structs. Their field names are
//! the argument names everywhere (CLI flags are the same words), and their
//! doc comments are what a model reads in the tool's schema, so they are
//! written for a model: short, and about when to use the argument.
//!
//! An argument whose name says it all keeps its doc comment for Rust readers
//! but carries no description in the schema (`#[schemars(extend("description" = ""))]`):
//! every word here is read by a model on every turn.
//!
//! Element arguments deserialize straight into a [`Target`] (a ref such as
//! `e7`, or a locator: `css=…`, `role=…`, `text=…`; the session resolves a
//! locator to a ref before the command runs, in `locate.rs`), tab ids into
//! a [`TabId`]: a malformed one is refused while the call is parsed, before
//! anything runs.

use rove_browser::TabId;
use rove_page::{Ref, Target};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A command that takes no arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// `open`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenArgs {
    /// The address; example.com means https://example.com.
    #[schemars(extend("description" = ""))]
    pub url: String,
    /// Open it in a new tab.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub new_tab: bool,
}

/// Which view `snapshot` returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SnapshotMode {
    /// The whole page within the budget.
    #[default]
    Full,
    /// Only actionable elements, under their headings.
    Interactive,
    /// What changed since the last view.
    Diff,
}

/// `snapshot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotArgs {
    /// full (default), interactive (controls only) or diff (changes since the last view).
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub mode: SnapshotMode,
    /// Only the subtree under this ref.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub scope: Option<Target>,
    /// Max tokens; 0: no limit.
    #[serde(default)]
    pub budget: Option<usize>,
    /// Continue a cut view after this ref.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub after: Option<Ref>,
    /// Show link targets.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub urls: bool,
}

/// `find`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindArgs {
    /// Text in the element's name, value or content.
    #[schemars(extend("description" = ""))]
    pub text: String,
    /// Only this role (button, link…).
    #[serde(default)]
    pub role: Option<String>,
    /// Max results.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A command that names one element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefArgs {
    /// Element ref from a view, e.g. e7.
    #[schemars(extend("description" = ""))]
    #[serde(rename = "ref")]
    #[schemars(with = "String")]
    pub target: Target,
}

/// Which mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MouseButton {
    /// The primary button.
    #[default]
    Left,
    /// The context-menu button.
    Right,
    /// The middle button.
    Middle,
}

/// `click`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClickArgs {
    /// Element ref from a view, e.g. e7.
    #[schemars(extend("description" = ""))]
    #[serde(rename = "ref")]
    #[schemars(with = "String")]
    pub target: Target,
    /// left (default), right or middle.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub button: MouseButton,
    /// A double click.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub double: bool,
    /// Keys held: Alt, Control, Meta, Shift.
    #[serde(default)]
    pub modifiers: Vec<String>,
}

/// `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypeArgs {
    /// The field; leave out to type into the focused element.
    #[schemars(extend("description" = ""))]
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub target: Option<Target>,
    /// The text.
    #[schemars(extend("description" = ""))]
    pub text: String,
    /// Milliseconds between keys.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub delay_ms: Option<u64>,
    /// Press Enter after.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub submit: bool,
}

/// `fill`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FillArgs {
    /// The field's ref, e.g. e7.
    #[schemars(extend("description" = ""))]
    #[serde(rename = "ref")]
    #[schemars(with = "String")]
    pub target: Target,
    /// The text.
    #[schemars(extend("description" = ""))]
    pub text: String,
    /// Press Enter after.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub submit: bool,
}

/// `press`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PressArgs {
    /// A chord: Enter, Escape, Control+A, Shift+Tab.
    #[schemars(extend("description" = ""))]
    pub keys: String,
    /// Focus this element first.
    #[serde(default, rename = "ref")]
    #[schemars(with = "Option<String>")]
    pub target: Option<Target>,
}

/// `select`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectArgs {
    /// The select, listbox or combobox.
    #[schemars(extend("description" = ""))]
    #[serde(rename = "ref")]
    #[schemars(with = "String")]
    pub target: Target,
    /// Labels or values (several: a multiple select).
    pub values: Vec<String>,
}

/// Which way to scroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Towards the end.
    #[default]
    Down,
    /// Towards the start.
    Up,
    /// Leftwards.
    Left,
    /// Rightwards.
    Right,
}

/// `scroll`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScrollArgs {
    /// Scroll inside this element; with no direction, bring it into view.
    #[schemars(extend("description" = ""))]
    #[serde(default, rename = "ref")]
    #[schemars(with = "Option<String>")]
    pub target: Option<Target>,
    /// Which way.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub direction: Option<Direction>,
    /// CSS pixels (default 80% of the view).
    #[serde(default)]
    pub pixels: Option<f64>,
}

/// `drag`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DragArgs {
    /// Ref of the element to pick up.
    #[schemars(extend("description" = ""))]
    #[schemars(with = "String")]
    pub from: Target,
    /// Ref of the element to drop it on.
    #[schemars(extend("description" = ""))]
    #[schemars(with = "String")]
    pub to: Target,
}

/// `upload`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UploadArgs {
    /// A file input, or the element that opens a file chooser.
    #[schemars(extend("description" = ""))]
    #[serde(rename = "ref")]
    #[schemars(with = "String")]
    pub target: Target,
    /// Files in the upload folder.
    pub paths: Vec<String>,
}

/// `solve`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SolveArgs {
    /// The challenge (its `captcha` line's ref); the only one when left out.
    #[schemars(extend("description" = ""))]
    #[serde(default, rename = "ref")]
    #[schemars(with = "Option<String>")]
    pub target: Option<Target>,
}

/// `dialog`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DialogArgs {
    /// Accept (OK) or dismiss (Cancel).
    #[schemars(extend("description" = ""))]
    pub accept: bool,
    /// The answer to a prompt.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub text: Option<String>,
}

/// What `tab` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TabAction {
    /// List the session's tabs.
    #[default]
    List,
    /// Open a new tab (at `url`, if given) and focus it.
    New,
    /// Focus a tab.
    Switch,
    /// Close a tab (the focused one if none is named).
    Close,
}

/// `tab`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TabArgs {
    /// list (default), new, switch or close.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub action: TabAction,
    /// The tab, e.g. t2.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub tab: Option<TabId>,
    /// For new: where to go.
    #[serde(default)]
    pub url: Option<String>,
}

/// What `desktop` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DesktopAction {
    /// List the accessible applications and their windows.
    #[default]
    Apps,
    /// Start an application and make it the target.
    Open,
    /// Make a running application (by name or process id) the target.
    Attach,
    /// Go back to the browser's tab (an application rove started ends).
    Leave,
}

/// `desktop`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DesktopArgs {
    /// apps (default), open, attach or leave.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub action: DesktopAction,
    /// open: command line; attach: app name or pid.
    #[serde(default)]
    pub target: Option<String>,
}

/// Image format of a screenshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImageFormat {
    /// Lossless.
    #[default]
    Png,
    /// Smaller; `quality` applies.
    Jpeg,
}

/// A rectangle in CSS pixels of the page.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Clip {
    /// Left edge.
    #[schemars(extend("description" = ""))]
    pub x: f64,
    /// Top edge.
    #[schemars(extend("description" = ""))]
    pub y: f64,
    /// Width.
    #[schemars(extend("description" = ""))]
    pub width: f64,
    /// Height.
    #[schemars(extend("description" = ""))]
    pub height: f64,
}

/// `screenshot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotArgs {
    /// Only this element.
    #[schemars(extend("description" = ""))]
    #[serde(default, rename = "ref")]
    #[schemars(with = "Option<String>")]
    pub target: Option<Target>,
    /// The whole scrollable page.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub full_page: bool,
    /// Only this rectangle, in CSS pixels.
    #[serde(default)]
    pub clip: Option<Clip>,
    /// png (default) or jpeg.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub format: ImageFormat,
    /// JPEG quality, 0-100.
    #[serde(default)]
    pub quality: Option<u8>,
    /// Max image bytes (default 2 MiB).
    #[serde(default)]
    pub max_bytes: Option<usize>,
    /// Save to this file in the output folder instead.
    #[serde(default)]
    pub path: Option<String>,
}

/// `read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadArgs {
    /// Only the subtree under this ref (the tool's description says so).
    #[schemars(extend("description" = ""))]
    #[serde(default, rename = "ref")]
    #[schemars(with = "Option<String>")]
    pub target: Option<Target>,
    /// Max tokens (8000; 0: no limit).
    #[serde(default)]
    pub budget: Option<usize>,
}

/// A load state to wait for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LoadState {
    /// The DOM is parsed.
    Domcontentloaded,
    /// The load event fired.
    Load,
    /// The load event fired and no request has been in flight for 500 ms.
    Networkidle,
}

/// `wait`: exactly one condition, or only `ms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitArgs {
    /// Until this text appears.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub text: Option<String>,
    /// Until this text is gone.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub text_gone: Option<String>,
    /// Substring of the URL, or a * glob.
    #[serde(default)]
    pub url: Option<String>,
    /// Until the page reaches this load state.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub load: Option<LoadState>,
    /// Alone: the wait; else the timeout (10000).
    #[serde(default)]
    pub ms: Option<u64>,
}

/// `eval`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvalArgs {
    /// An expression, or a function (called with the element if ref is given). Promises are awaited.
    #[schemars(extend("description" = ""))]
    pub js: String,
    /// Pass this element to the function.
    #[schemars(extend("description" = ""))]
    #[serde(default, rename = "ref")]
    #[schemars(with = "Option<String>")]
    pub target: Option<Target>,
}

/// The default byte budget: what common model APIs accept inline.
pub const DEFAULT_MAX_BYTES: usize = 2 * 1024 * 1024;

/// The longest side captured, in image pixels (CSS pixels times the
/// device scale: 1 unless `set` chose another): what Chromium's compositor
/// handles as one texture on common GPUs and in software.
pub const MAX_SIDE: f64 = 16_384.0;

/// The most image pixels captured at once (64 Mi: 256 MiB of RGBA while
/// the browser encodes it).
pub const MAX_PIXELS: f64 = 64.0 * 1024.0 * 1024.0;
