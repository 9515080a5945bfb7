//! Where each of a session's tabs has its pointer and which buttons are
//! held there, kept between `mouse` calls so that down, move, up across
//! calls is one drag.

use std::collections::HashMap;

use rove_browser::TabId;
use rove_input::Point;

/// Where a tab's pointer is and which buttons are held there.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct PointerState {
    /// Where the last pointer event went, if any did.
    pub(crate) at: Option<Point>,
    /// Held buttons, as a mask (left 1, right 2, middle 4).
    pub(crate) held: u32,
}

/// The pointer state of each of the session's tabs.
#[derive(Debug, Default)]
pub(crate) struct Pointers(pub(crate) HashMap<TabId, PointerState>);
