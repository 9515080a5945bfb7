//! `rove-desktop`: native applications as rove targets.
//!
//! A desktop application is read through the platform's accessibility
//! interface: on Linux AT-SPI2 over D-Bus (`atspi/`, on the small D-Bus
//! client in `dbus/`). A [`Backend`] lists applications, reads a window's
//! elements as [`Node`]s (roles already in the view's vocabulary, see
//! `roles.rs`) and acts on them; every call has a deadline
//! (`rove_base::limits::DESKTOP_CALL`). Failures are [`DesktopError`]s,
//! with `DESKTOP_UNAVAILABLE` when there is no bus or display.
//!
//! The page model (`rove-page`) renders the nodes: refs, budgets and diffs
//! are the page's. macOS (AX API) and Windows (UI Automation) would each be
//! one more [`Backend`] (docs/desktop.md).

// One unsafe block: the death signal of an application rove starts
// (launch.rs), as rove-browser's for a browser.
#![deny(unsafe_code)]

mod atspi;
pub mod dbus;
mod error;
mod keys;
mod launch;
mod node;
mod roles;
mod scroll;
pub mod x11;

pub use atspi::{AtSpi, DesktopEnv};
pub use error::DesktopError;
pub use keys::{Chord, chord, keysym, typed};
pub use launch::Launched;
pub use node::{Action, App, Extents, Node, NodeId, States, Wheel};
pub use roles::view_role;
pub use scroll::{InView, WHEEL_STEP_PX, wheel_into_view};

/// How long [`Backend::events_from`] waits: for a first event at most
/// `first`, then until none came for `quiet`, all within `within`.
#[derive(Debug, Clone, Copy)]
pub struct EventWait {
    pub first: std::time::Duration,
    pub quiet: std::time::Duration,
    pub within: std::time::Duration,
}

/// What [`Backend::events_from`] heard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heard {
    /// The application's events.
    pub events: u32,
    /// It fell silent for the wait's `quiet` (or sent nothing within
    /// `first`), rather than the wait running out while it still spoke.
    pub fell_silent: bool,
}

/// One platform's accessibility interface. Calls block (within their
/// deadline); async callers run them on the blocking pool.
pub trait Backend: Send {
    /// The applications exposed on the bus, with their windows.
    fn apps(&mut self) -> Result<Vec<App>, DesktopError>;
    /// The elements of `app`'s windows, in document order, at most
    /// `limit` of them.
    fn tree(&mut self, app: &NodeId, limit: usize) -> Result<Vec<Node>, DesktopError>;
    /// The whole text of an element (a label's name, a field's content).
    fn text(&mut self, node: &NodeId) -> Result<String, DesktopError>;
    /// Does `action` to `node`.
    fn act(&mut self, node: &NodeId, action: &Action) -> Result<(), DesktopError>;
    /// The names of the options a combo box or list offers, in order
    /// (closed menus included): what `Action::SelectChild` counts.
    fn options(&mut self, node: &NodeId) -> Result<Vec<String>, DesktopError>;
    /// Where the element is on the screen.
    fn extents(&mut self, node: &NodeId) -> Result<Extents, DesktopError>;
    /// Where each element is, read together; `None` for one that is gone
    /// or did not answer.
    fn extents_of(&mut self, nodes: &[NodeId]) -> Result<Vec<Option<Extents>>, DesktopError>;
    /// Sends a key (with its modifiers held) to the window that holds
    /// `within`: the pointer is moved into the element first, so the key
    /// reaches its window also where no window manager gives focus.
    fn press_key(&mut self, within: &NodeId, chord: &Chord) -> Result<(), DesktopError>;
    /// Waits for the application `app` (its root) to send events and then
    /// fall silent, as `wait` says. Events sent before
    /// the last action (`act`, `press_key`, `wheel`) are not counted.
    fn events_from(&mut self, app: &NodeId, wait: EventWait) -> Result<Heard, DesktopError>;
    /// The events `app` sent since the last look (during a reading of its
    /// tree, say), without waiting.
    fn events_since(&mut self, app: &NodeId) -> u32;
    /// Turns the mouse wheel `notches` steps over the middle of `within`.
    fn wheel(&mut self, within: &NodeId, way: Wheel, notches: u32) -> Result<(), DesktopError>;
    /// The size of the screen that input and screenshots go to: whether
    /// they can (`DESKTOP_UNAVAILABLE` when not).
    fn screen_size(&mut self) -> Result<(u16, u16), DesktopError>;
    /// The screen's pixels in `area` (a window's or an element's extents,
    /// cut to the screen) as a PNG file, with the rectangles `hide` (where
    /// a secret shows) painted over.
    fn capture(&mut self, area: &Extents, hide: &[Extents]) -> Result<Vec<u8>, DesktopError>;
}
