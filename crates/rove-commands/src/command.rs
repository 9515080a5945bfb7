//! The command vocabulary: every request the CLI, the MCP server and the agent
//! can make, as one typed enum with the same argument names everywhere
//! (`url`, `ref`, `text`, `keys`, `values`, `js` …).
//!
//! Commands deserialize from JSON (`{"command": "click", "ref": "e7"}`) so a
//! face only has to parse its own wire format into this shape.

use serde::{Deserialize, Serialize};

/// One request to a session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Navigate the focused tab, or a new one.
    Open(OpenArgs),
    /// Go back in the focused tab's history.
    Back,
    /// Go forward in the focused tab's history.
    Forward,
    /// Reload the focused tab.
    Reload,
    /// A view of the page.
    Snapshot(SnapshotArgs),
    /// Elements matching text, with a line of context each.
    Find(FindArgs),
    /// Click an element.
    Click(ClickArgs),
    /// Move the pointer over an element.
    Hover(RefArgs),
    /// Type text at the end of a field, key by key.
    Type(TextArgs),
    /// Replace a field's value.
    Fill(TextArgs),
    /// Press a key chord (`Enter`, `Control+Shift+R`).
    Press(PressArgs),
    /// Choose options in a native select, an ARIA listbox or a combobox.
    Select(SelectArgs),
    /// Check a checkbox, switch or radio.
    Check(RefArgs),
    /// Uncheck a checkbox or switch.
    Uncheck(RefArgs),
    /// Scroll the page or an element.
    Scroll(ScrollArgs),
    /// Drag one element onto another.
    Drag(DragArgs),
    /// Give files to a file input, or to the chooser a button opens.
    Upload(UploadArgs),
    /// Answer the JavaScript dialog that blocks the page.
    Dialog(DialogArgs),
    /// List, open, switch to or close tabs.
    Tab(TabArgs),
    /// Capture the viewport, the full page, an element or a clip.
    Screenshot(ScreenshotArgs),
    /// The page's main content as markdown.
    Read(ReadArgs),
    /// Wait for text, a URL, a load state or a time.
    Wait(WaitArgs),
    /// Run JavaScript in the page; the result as JSON.
    Eval(EvalArgs),
}

impl Command {
    /// The command's name, as the CLI and MCP spell it.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Open(_) => "open",
            Command::Back => "back",
            Command::Forward => "forward",
            Command::Reload => "reload",
            Command::Snapshot(_) => "snapshot",
            Command::Find(_) => "find",
            Command::Click(_) => "click",
            Command::Hover(_) => "hover",
            Command::Type(_) => "type",
            Command::Fill(_) => "fill",
            Command::Press(_) => "press",
            Command::Select(_) => "select",
            Command::Check(_) => "check",
            Command::Uncheck(_) => "uncheck",
            Command::Scroll(_) => "scroll",
            Command::Drag(_) => "drag",
            Command::Upload(_) => "upload",
            Command::Dialog(_) => "dialog",
            Command::Tab(_) => "tab",
            Command::Screenshot(_) => "screenshot",
            Command::Read(_) => "read",
            Command::Wait(_) => "wait",
            Command::Eval(_) => "eval",
        }
    }

    /// Whether the command sends input to elements of the page on screen
    /// (and so would be lost if that page is replaced under it).
    pub fn acts_on_elements(&self) -> bool {
        matches!(
            self,
            Command::Click(_)
                | Command::Hover(_)
                | Command::Type(_)
                | Command::Fill(_)
                | Command::Press(_)
                | Command::Select(_)
                | Command::Check(_)
                | Command::Uncheck(_)
                | Command::Scroll(_)
                | Command::Drag(_)
                | Command::Upload(_)
        )
    }

    /// Whether the command may change the page (and so is followed by a view
    /// of what changed). Reading commands return their own result instead.
    pub fn acts(&self) -> bool {
        !matches!(
            self,
            Command::Snapshot(_)
                | Command::Find(_)
                | Command::Screenshot(_)
                | Command::Read(_)
                | Command::Wait(_)
                | Command::Tab(TabArgs {
                    action: TabAction::List,
                    ..
                })
        )
    }
}

/// `open`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct OpenArgs {
    /// Where to go; `example.com` means `https://example.com`.
    pub url: String,
    /// Open it in a new tab (which gets the focus).
    #[serde(default)]
    pub new_tab: bool,
}

/// Which view `snapshot` returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SnapshotArgs {
    /// Which view.
    #[serde(default)]
    pub mode: SnapshotMode,
    /// Only the subtree under this ref.
    #[serde(default)]
    pub scope: Option<String>,
    /// Token budget (0: no limit).
    #[serde(default)]
    pub budget: Option<usize>,
    /// Continue a cut view after this ref.
    #[serde(default)]
    pub after: Option<String>,
    /// Show link targets.
    #[serde(default)]
    pub urls: bool,
}

/// `find`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct FindArgs {
    /// Text in the element's name, value or content.
    pub text: String,
    /// Only elements of this role.
    #[serde(default)]
    pub role: Option<String>,
    /// At most this many results.
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A command that names one element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RefArgs {
    /// The element, as `e7` or `@e7`.
    #[serde(rename = "ref")]
    pub target: String,
}

/// Which mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ClickArgs {
    /// The element.
    #[serde(rename = "ref")]
    pub target: String,
    /// Which button.
    #[serde(default)]
    pub button: MouseButton,
    /// A double click.
    #[serde(default)]
    pub double: bool,
    /// Keys held: `Alt`, `Control`, `Meta`, `Shift`.
    #[serde(default)]
    pub modifiers: Vec<String>,
}

/// `type` and `fill`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TextArgs {
    /// The field. `type` without one types into whatever has the focus (a
    /// field a widget focused itself); `fill` needs one.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The text.
    pub text: String,
    /// `type` only: pause this many milliseconds between keys.
    #[serde(default)]
    pub delay_ms: Option<u64>,
    /// Press Enter afterwards.
    #[serde(default)]
    pub submit: bool,
}

/// `press`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PressArgs {
    /// A chord like `Enter`, `Control+A`, `Shift+Tab`.
    pub keys: String,
    /// Focus this element first (by clicking it).
    #[serde(default, rename = "ref")]
    pub target: Option<String>,
}

/// `select`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SelectArgs {
    /// The select, listbox or combobox.
    #[serde(rename = "ref")]
    pub target: String,
    /// Option labels (or values); several for a multiple select.
    pub values: Vec<String>,
}

/// Which way to scroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ScrollArgs {
    /// Scroll inside this element, or (with no direction) bring it into view.
    #[serde(default, rename = "ref")]
    pub target: Option<String>,
    /// Which way; absent with a ref means "into view".
    #[serde(default)]
    pub direction: Option<Direction>,
    /// How far, in CSS pixels (default: 80% of the viewport or element).
    #[serde(default)]
    pub pixels: Option<f64>,
}

/// `drag`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct DragArgs {
    /// The element to pick up.
    pub from: String,
    /// The element to drop it on.
    pub to: String,
}

/// `upload`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct UploadArgs {
    /// A file input, or the element that opens a file chooser.
    #[serde(rename = "ref")]
    pub target: String,
    /// Files, under the allowed roots.
    pub paths: Vec<String>,
}

/// `dialog`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct DialogArgs {
    /// Accept (OK) or dismiss (Cancel).
    pub accept: bool,
    /// The answer to a prompt.
    #[serde(default)]
    pub text: Option<String>,
}

/// What `tab` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TabArgs {
    /// What to do.
    #[serde(default)]
    pub action: TabAction,
    /// The tab, as `t2`.
    #[serde(default)]
    pub tab: Option<String>,
    /// For `new`: where to go.
    #[serde(default)]
    pub url: Option<String>,
}

/// Image format of a screenshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ImageFormat {
    /// Lossless.
    #[default]
    Png,
    /// Smaller; `quality` applies.
    Jpeg,
}

/// A rectangle in CSS pixels of the page.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Clip {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// `screenshot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotArgs {
    /// Only this element.
    #[serde(default, rename = "ref")]
    pub target: Option<String>,
    /// The whole scrollable page, not just the viewport.
    #[serde(default)]
    pub full_page: bool,
    /// Only this rectangle of the page.
    #[serde(default)]
    pub clip: Option<Clip>,
    /// PNG or JPEG.
    #[serde(default)]
    pub format: ImageFormat,
    /// JPEG quality, 0–100.
    #[serde(default)]
    pub quality: Option<u8>,
    /// The most bytes the image may take (default 2 MiB).
    #[serde(default)]
    pub max_bytes: Option<usize>,
    /// Save it here instead of returning it inline.
    #[serde(default)]
    pub path: Option<String>,
}

/// `read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ReadArgs {
    /// Only the subtree under this ref.
    #[serde(default, rename = "ref")]
    pub target: Option<String>,
    /// At most this many tokens (default 8,000; 0 for no limit).
    #[serde(default)]
    pub budget: Option<usize>,
}

/// A load state to wait for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct WaitArgs {
    /// Until this text appears on the page.
    #[serde(default)]
    pub text: Option<String>,
    /// Until this text is gone from the page.
    #[serde(default)]
    pub text_gone: Option<String>,
    /// Until the URL contains this (or matches it as a `*` glob).
    #[serde(default)]
    pub url: Option<String>,
    /// Until the page reaches this load state.
    #[serde(default)]
    pub load: Option<LoadState>,
    /// With a condition: the most to wait (default 10 s). Alone: how long to
    /// wait.
    #[serde(default)]
    pub ms: Option<u64>,
}

/// `eval`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EvalArgs {
    /// An expression, or a function (`() => …`, `async () => …`), which is
    /// called. Promises are awaited.
    pub js: String,
    /// Call the function with this element as its argument.
    #[serde(default, rename = "ref")]
    pub target: Option<String>,
}
