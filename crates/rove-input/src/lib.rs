//! `rove-input`: actions that really happen, as a user's would, or fail with a
//! typed error saying why and whether anything reached the page.
//!
//! Every action resolves its target through the page model (a stale ref is
//! `REF_NOT_FOUND`), refuses while a JavaScript dialog blocks the page
//! (`DIALOG_OPEN`), checks actionability in the page (attached, visible,
//! enabled, still, receiving the pointer: a covered element is
//! `NOT_ACTIONABLE` naming the cover), sends trusted input through
//! `Input.dispatch*` (the page sees `isTrusted === true`), and waits for the
//! page to settle. `action_sent` on errors is honest: once the first press
//! was dispatched, a failure is `possibly_sent`.

#![forbid(unsafe_code)]

mod channel;
mod combobox;
mod commit;
mod coords;
mod drag;
mod edit_outcome;
mod editor;
mod error;
mod guard;
mod keyboard;
mod keys;
mod keystrokes;
mod mouse;
mod point;
mod scroll;
mod select;
mod settle;
mod slider;
mod toggle;
mod value;

pub use commit::{Committed, commit_number};
pub use coords::{PointerOutcome, PointerStep, pointer, viewport_size};
pub use drag::{DragOutcome, drag};
pub use edit_outcome::{EditOutcome, ListChoice, ShownLines};
pub use error::InputError;
pub use keyboard::{TypeOptions, fill, focus, focus_for_keys, type_focused, type_text};
pub use keystrokes::press;
pub use mouse::{Button, ClickOptions, ClickOutcome, click, hover};
pub use point::Point;
pub use scroll::{ScrollOutcome, ScrollPosition, scroll_by, scroll_into_view_of, wheel_at};
pub use select::{SelectOutcome, select_options};
pub use settle::{
    ServerWait, SettleLimits, Settled, StreamEnd, page_busy_within, server_answered, settle_after,
    settle_after_dialog, with_settle_limits,
};
pub use toggle::{ToggleOutcome, set_checked};

/// Keys held during an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Modifiers {
    /// Alt (Option).
    pub alt: bool,
    /// Control.
    pub ctrl: bool,
    /// Meta (Command, Windows key).
    pub meta: bool,
    /// Shift.
    pub shift: bool,
}

impl Modifiers {
    /// The CDP bit mask: Alt 1, Ctrl 2, Meta 4, Shift 8.
    pub fn bits(self) -> u32 {
        u32::from(self.alt)
            | u32::from(self.ctrl) << 1
            | u32::from(self.meta) << 2
            | u32::from(self.shift) << 3
    }
}
