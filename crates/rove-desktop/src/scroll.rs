//! Bringing an element into view where the toolkit does not do it on
//! request (GTK 3 and 4 answer `Component.ScrollTo` with false): the wheel
//! is turned over the nearest ancestor that does not hold the element
//! (the list or text that scrolls, whose extents are what it shows) until
//! the element is inside it.

use crate::node::{Extents, NodeId, Wheel};
use rove_base::limits;

use crate::{Backend, DesktopError, EventWait};

/// Wheel turns tried before giving up.
const ROUNDS_MAX: usize = 30;
/// How long a turn of the wheel is given to take effect.
const SCROLLED: EventWait = EventWait {
    first: limits::DESKTOP_SCROLLED_FIRST,
    quiet: limits::DESKTOP_SCROLLED_QUIET,
    within: limits::SETTLE_DOM,
};
/// Pixels one wheel step is taken to move until a turn shows what it
/// moves (as `scroll` counts them).
const STEP_PX: i64 = 50;
/// The most steps of one turn.
const STEPS_MAX: i64 = 50;

impl Extents {
    /// Whether `inner` is shown inside this rectangle: wholly, along each
    /// axis where it fits, else overlapping it.
    pub fn shows(&self, inner: &Extents) -> bool {
        let along = |start: i32, length: i32, from: i32, size: i32| {
            let (end, to) = (
                i64::from(start) + i64::from(length),
                i64::from(from) + i64::from(size),
            );
            let (start, from) = (i64::from(start), i64::from(from));
            if length <= size {
                start >= from && end <= to
            } else {
                start < to && end > from
            }
        };
        along(inner.x, inner.width, self.x, self.width)
            && along(inner.y, inner.height, self.y, self.height)
    }
}

/// An element and where it sits: the ancestors that hold it (nearest
/// first) and the elements beside it in its parent, in order, with its own
/// place among them.
#[derive(Debug)]
pub struct InView<'a> {
    pub element: &'a NodeId,
    pub ancestors: &'a [NodeId],
    pub siblings: &'a [NodeId],
    pub index: usize,
}

/// Turns the wheel over the nearest ancestor that does not show the
/// element, towards it, until every ancestor shows it. GTK gives a list
/// row out of view no position at all (`i32::MIN`): then the way is told
/// by the nearest row beside it that has one. An element that does not
/// move is [`DesktopError::NotActionable`].
pub fn wheel_into_view(bus: &mut dyn Backend, it: &InView<'_>) -> Result<(), DesktopError> {
    // What one step moves, learnt from the first turn (GTK moves a list
    // by its height to the power 2/3: 21 pixels for a list 100 high).
    let mut step_px = STEP_PX;
    for _ in 0..ROUNDS_MAX {
        let at = bus.extents(it.element)?;
        let turn = if placed(&at) {
            match port_for(bus, it.ancestors, &at)? {
                None => return Ok(()),
                Some((port, shown)) => {
                    let (way, distance) = towards(&at, &shown);
                    (port, way, distance, it.element.clone(), at)
                }
            }
        } else {
            let Some((sibling, seen, before)) = nearest_placed(bus, it)? else {
                return Err(DesktopError::NotActionable(
                    "be scrolled into view: the application gives neither it nor the elements beside it a place on the screen".to_owned(),
                ));
            };
            let port = it.ancestors.first().ok_or_else(|| {
                DesktopError::NotActionable("be scrolled into view: nothing holds it".to_owned())
            })?;
            let rows = i64::try_from(it.index.abs_diff(sibling)).unwrap_or(i64::MAX);
            let way = if before { Wheel::Down } else { Wheel::Up };
            let distance = rows.saturating_mul(i64::from(seen.height.max(1)));
            (port, way, distance, it.siblings[sibling].clone(), seen)
        };
        let (port, way, distance, watched, was) = turn;
        // Rounded down, so as not to overshoot and come back.
        let steps = (distance / step_px).clamp(1, STEPS_MAX);
        bus.wheel(port, way, u32::try_from(steps).unwrap_or(1))?;
        // The application scrolls when it has handled the wheel's events:
        // its own events say when (an application that sends none is
        // measured after the wait's first part).
        bus.events_from(it.element, SCROLLED)?;
        let now = bus.extents(&watched)?;
        if now == was {
            return Err(DesktopError::NotActionable(
                "be scrolled into view: turning the wheel over what holds it does not move it"
                    .to_owned(),
            ));
        }
        if placed(&now) && placed(&was) {
            let moved = match way {
                Wheel::Up | Wheel::Down => i64::from(now.y).abs_diff(i64::from(was.y)),
                Wheel::Left | Wheel::Right => i64::from(now.x).abs_diff(i64::from(was.x)),
            };
            let per_step = i64::try_from(moved).unwrap_or(i64::MAX) / steps;
            if per_step > 0 {
                step_px = per_step;
            }
        }
    }
    Err(DesktopError::NotActionable(format!(
        "be scrolled into view within {ROUNDS_MAX} turns of the wheel"
    )))
}

/// Whether the toolkit gave the element a place (GTK gives a row out of
/// view `i32::MIN` for both).
fn placed(at: &Extents) -> bool {
    at.x != i32::MIN && at.y != i32::MIN
}

/// The nearest ancestor that does not show `at`, with what it shows.
fn port_for<'a>(
    bus: &mut dyn Backend,
    ancestors: &'a [NodeId],
    at: &Extents,
) -> Result<Option<(&'a NodeId, Extents)>, DesktopError> {
    for ancestor in ancestors {
        let shown = bus.extents(ancestor)?;
        if !shown.shows(at) {
            return Ok(Some((ancestor, shown)));
        }
    }
    Ok(None)
}

/// The way from what `shown` shows to `at`, and how far.
fn towards(at: &Extents, shown: &Extents) -> (Wheel, i64) {
    // In i64: a toolkit may give extents near i32's ends.
    let (top, bottom) = (i64::from(at.y), i64::from(at.y) + i64::from(at.height));
    let (left, right) = (i64::from(at.x), i64::from(at.x) + i64::from(at.width));
    let (shown_top, shown_bottom) = (
        i64::from(shown.y),
        i64::from(shown.y) + i64::from(shown.height),
    );
    let (shown_left, shown_right) = (
        i64::from(shown.x),
        i64::from(shown.x) + i64::from(shown.width),
    );
    if top < shown_top {
        (Wheel::Up, shown_top - top)
    } else if bottom > shown_bottom {
        (Wheel::Down, bottom - shown_bottom)
    } else if left < shown_left {
        (Wheel::Left, shown_left - left)
    } else {
        (Wheel::Right, right - shown_right)
    }
}

/// Siblings read on each side, nearest first, when looking for one with
/// a place.
const SIBLINGS_READ: usize = 1_000;

/// The sibling nearest the element that has a place: its index, its
/// extents, and whether it comes before the element.
fn nearest_placed(
    bus: &mut dyn Backend,
    it: &InView<'_>,
) -> Result<Option<(usize, Extents, bool)>, DesktopError> {
    let from = it.index.saturating_sub(SIBLINGS_READ);
    let to = it
        .index
        .saturating_add(SIBLINGS_READ + 1)
        .min(it.siblings.len());
    let Some(window) = it.siblings.get(from..to) else {
        return Ok(None);
    };
    let seen = bus.extents_of(window)?;
    Ok(seen
        .into_iter()
        .enumerate()
        .filter_map(|(i, e)| Some((from + i, e?)))
        .filter(|(i, e)| *i != it.index && placed(e))
        .min_by_key(|(i, _)| i.abs_diff(it.index))
        .map(|(i, e)| (i, e, i < it.index)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: i32, y: i32, width: i32, height: i32) -> Extents {
        Extents {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn a_rectangle_shows_what_lies_inside_it_or_overlaps_it_when_larger() {
        let list = at(0, 100, 200, 300);
        assert!(list.shows(&at(10, 120, 100, 20)));
        assert!(!list.shows(&at(10, 390, 100, 20)), "cut at the bottom");
        assert!(!list.shows(&at(10, 900, 100, 20)), "far below");
        assert!(!list.shows(&at(10, 80, 100, 30)), "cut at the top");
        assert!(
            list.shows(&at(10, 50, 100, 600)),
            "taller than the list, across it"
        );
        assert!(!list.shows(&at(10, 450, 100, 600)), "taller, and below it");
        assert!(!list.shows(&at(250, 120, 10, 20)), "to the right");
    }
}
