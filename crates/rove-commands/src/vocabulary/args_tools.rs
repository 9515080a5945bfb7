//! The arguments of the opt-in tools (capability groups other than `core`:
//! see `caps.rs`). Same rules as `args.rs`: field names are the argument
//! names everywhere, doc comments are what a model reads.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A console level, as `console` filters by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LevelArg {
    /// Everything.
    Debug,
    /// log and info.
    Info,
    /// Warnings and errors.
    Warning,
    /// Errors only.
    Error,
}

impl LevelArg {
    /// The least severe rank kept (see `rove_browser::ConsoleLevel::rank`).
    pub fn rank(self) -> u8 {
        match self {
            LevelArg::Debug => 0,
            LevelArg::Info => 1,
            LevelArg::Warning => 2,
            LevelArg::Error => 3,
        }
    }
}

/// `console`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConsoleArgs {
    /// Every message kept, not only those since the last call.
    #[serde(default)]
    pub all: bool,
    /// Only this level and worse.
    #[serde(default)]
    pub level: Option<LevelArg>,
}

/// What `network` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NetworkAction {
    /// List requests.
    #[default]
    List,
    /// One request's headers and bodies.
    Show,
    /// Fail requests whose URL matches.
    Block,
    /// Answer requests whose URL matches.
    Mock,
    /// Drop every block and mock rule, and forget the requests seen.
    Clear,
    /// Write the requests kept as a HAR file.
    Har,
}

/// `network`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NetworkArgs {
    /// list (default), show, block, mock, clear or har.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub action: NetworkAction,
    /// show: the request's number (r3 is 3).
    #[serde(default)]
    pub id: Option<u64>,
    /// list: URLs containing this. block, mock: URLs containing this, or with a *, a glob of the whole URL (? is itself).
    #[serde(default)]
    pub url: Option<String>,
    /// list: only this resource type (document, script, fetch, xhr, image…).
    #[serde(default, rename = "type")]
    pub resource_type: Option<String>,
    /// list: only this status (0: failed). mock: the status to answer (200).
    #[serde(default)]
    pub status: Option<u16>,
    /// mock: the body to answer with.
    #[serde(default)]
    pub body: Option<String>,
    /// mock: read the body from this file. har: write here.
    #[serde(default)]
    pub file: Option<String>,
    /// mock: the Content-Type (guessed from the body).
    #[serde(default)]
    pub content_type: Option<String>,
    /// list: every request kept, not only those since the last call.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub all: bool,
    /// show: most bytes of each body (4000).
    #[serde(default)]
    pub max_bytes: Option<usize>,
    /// har: include request bodies (credential fields redacted).
    #[serde(default)]
    pub bodies: bool,
}

/// What `cookies` and `storage` do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StoreAction {
    /// Read.
    #[default]
    Get,
    /// Write one.
    Set,
    /// Remove (those matching, or all).
    Clear,
}

/// `cookies`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CookiesArgs {
    /// get (default), set or clear.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub action: StoreAction,
    /// get, clear: cookies sent to this URL. set: the cookie's URL (default: the page's).
    #[serde(default)]
    pub url: Option<String>,
    /// get, clear: cookies of this domain and its subdomains. set: the cookie's domain.
    #[serde(default)]
    pub domain: Option<String>,
    /// set: the cookie's name; get, clear: only cookies of this name.
    #[serde(default)]
    pub name: Option<String>,
    /// set: the value.
    #[serde(default)]
    pub value: Option<String>,
    /// set: the path (/).
    #[serde(default)]
    pub path: Option<String>,
    /// set: seconds since the epoch when it expires (default: when the session ends).
    #[serde(default)]
    pub expires: Option<f64>,
    /// set: hidden from scripts.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub http_only: bool,
    /// set: HTTPS only.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub secure: bool,
}

/// Which web storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StorageKind {
    /// `localStorage`.
    #[default]
    Local,
    /// `sessionStorage`.
    Session,
}

/// `storage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StorageArgs {
    /// local or session.
    #[schemars(extend("description" = ""))]
    pub kind: StorageKind,
    /// get (default), set or clear.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub action: StoreAction,
    /// get, clear: only this key. set: the key.
    #[serde(default)]
    pub key: Option<String>,
    /// set: the value.
    #[serde(default)]
    pub value: Option<String>,
}

/// What `state` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StateAction {
    /// Write the session's cookies and local storage to a file.
    #[default]
    Save,
    /// Restore them from a file.
    Load,
}

/// `state`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateArgs {
    /// save or load.
    #[schemars(extend("description" = ""))]
    pub action: StateAction,
    /// The file (Playwright's storage-state JSON).
    pub file: String,
}

/// What `set` changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SetWhat {
    /// The viewport's size and scale.
    Viewport,
    /// A device's size, scale, touch and user agent.
    Device,
    /// The color scheme or print media.
    Media,
    /// The position the page is told.
    Geo,
    /// Whether the network is cut.
    Offline,
    /// Extra HTTP headers on every request.
    Headers,
    /// The user agent string.
    UserAgent,
    /// The time zone.
    Timezone,
    /// The locale.
    Locale,
}

/// `set`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetArgs {
    /// What to set.
    #[schemars(extend("description" = ""))]
    pub what: SetWhat,
    /// device: iPhone 15, Pixel 8, iPad, desktop. media: dark, light, print, screen. offline: on, off. Else the value, e.g. Europe/Paris, fr-FR (none: the browser's).
    #[serde(default)]
    pub value: Option<String>,
    /// viewport: width, CSS px.
    #[serde(default)]
    pub width: Option<u32>,
    /// viewport: height, CSS px.
    #[serde(default)]
    pub height: Option<u32>,
    /// viewport: device pixel ratio (1).
    #[serde(default)]
    pub scale: Option<f64>,
    /// geo: latitude.
    #[serde(default)]
    pub latitude: Option<f64>,
    /// geo: longitude.
    #[serde(default)]
    pub longitude: Option<f64>,
    /// headers: "Name: value" sent with every request ([]: none).
    #[serde(default)]
    pub headers: Vec<String>,
}

/// A paper size for `pdf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
pub enum PaperFormat {
    /// 210 × 297 mm.
    #[default]
    A4,
    /// 297 × 420 mm.
    A3,
    /// 148 × 210 mm.
    A5,
    /// 8.5 × 11 in.
    Letter,
    /// 8.5 × 14 in.
    Legal,
    /// 11 × 17 in.
    Tabloid,
}

impl PaperFormat {
    /// Width and height in inches, upright.
    pub fn inches(self) -> (f64, f64) {
        match self {
            PaperFormat::A4 => (8.27, 11.69),
            PaperFormat::A3 => (11.69, 16.54),
            PaperFormat::A5 => (5.83, 8.27),
            PaperFormat::Letter => (8.5, 11.0),
            PaperFormat::Legal => (8.5, 14.0),
            PaperFormat::Tabloid => (11.0, 17.0),
        }
    }
}

/// `pdf`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PdfArgs {
    /// A plain file name.
    pub file: String,
    /// Paper (A4).
    #[serde(default)]
    pub format: Option<PaperFormat>,
    /// Landscape.
    #[serde(default)]
    pub landscape: bool,
    /// Print backgrounds.
    #[serde(default)]
    pub background: bool,
}

/// What `get` reads of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GetWhat {
    /// Its visible text.
    Text,
    /// A field's value.
    Value,
    /// An attribute (name).
    Attr,
    /// Its box on the page.
    Box,
    /// Whether it is visible.
    Visible,
    /// Whether it is enabled.
    Enabled,
    /// Whether it is checked (or pressed).
    Checked,
}

/// `get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetArgs {
    /// What to read.
    #[schemars(extend("description" = ""))]
    pub what: GetWhat,
    /// The element.
    #[schemars(extend("description" = ""))]
    #[serde(rename = "ref")]
    #[schemars(with = "String")]
    pub target: rove_page::Target,
    /// attr: the attribute's name.
    #[serde(default)]
    pub name: Option<String>,
}
