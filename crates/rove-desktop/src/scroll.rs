//! Bringing an element into view where the toolkit does not do it on
//! request (GTK 3 and 4 answer `Component.ScrollTo` with false): the wheel
//! is turned over the nearest ancestor that does not hold the element
//! (the list or text that scrolls, whose extents are what it shows) until
//! the element is inside it.

use std::time::{Duration, Instant};

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
/// Pixels one wheel step is taken to move, until a turn shows what it
/// moves here, and in `scroll`'s `pixels`: GTK scrolls a view of 400
/// pixels by 54 (the view's size to the power ⅔), Qt by three lines.
pub const WHEEL_STEP_PX: u16 = 50;
/// The most steps of one turn.
const STEPS_MAX: i64 = 50;
/// How long the turns may take together: an application that answers
/// each call just within its deadline, or whose element moves at every
/// turn, is given up on within the caller's backstop
/// (`limits::DESKTOP_TREE`), which also holds its `ScrollTo` and the last
/// turn's calls.
const TURNS_WITHIN: Duration = limits::DESKTOP_TREE
    .saturating_sub(limits::DESKTOP_CALL)
    .saturating_sub(limits::DESKTOP_CALL);

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
/// move is [`DesktopError::NotActionable`]; turns past ten seconds
/// (`TURNS_WITHIN`) are a [`DesktopError::Timeout`].
pub fn wheel_into_view(bus: &mut dyn Backend, it: &InView<'_>) -> Result<(), DesktopError> {
    wheel_into_view_within(bus, it, TURNS_WITHIN)
}

/// [`wheel_into_view`], giving up after `within`.
fn wheel_into_view_within(
    bus: &mut dyn Backend,
    it: &InView<'_>,
    within: Duration,
) -> Result<(), DesktopError> {
    let until = Instant::now() + within;
    let mut turned = false;
    let late = |turned: bool| {
        (Instant::now() >= until).then_some(DesktopError::Timeout {
            after: within,
            during: "turning the wheel to scroll an element into view",
            sent: turned,
        })
    };
    // What one step moves, learnt from the first turn (GTK moves a list
    // by its height to the power 2/3: 21 pixels for a list 100 high).
    let mut step_px = i64::from(WHEEL_STEP_PX);
    for _ in 0..ROUNDS_MAX {
        if let Some(error) = late(turned) {
            return Err(error);
        }
        let at = bus.extents(it.element)?;
        let turn = if placed(&at) {
            match port_for(bus, it.ancestors, &at, &|| late(turned))? {
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
        turned = true;
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

/// The nearest ancestor that does not show `at`, with what it shows;
/// `late`'s error once it says the time is up.
fn port_for<'a>(
    bus: &mut dyn Backend,
    ancestors: &'a [NodeId],
    at: &Extents,
    late: &dyn Fn() -> Option<DesktopError>,
) -> Result<Option<(&'a NodeId, Extents)>, DesktopError> {
    for ancestor in ancestors {
        if let Some(error) = late() {
            return Err(error);
        }
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

    /// An application whose element moves at every turn of the wheel and
    /// never comes into its list, and that takes a while over each turn.
    struct Restless {
        element: NodeId,
        y: i32,
        turns: u32,
    }

    impl Backend for Restless {
        fn apps(&mut self) -> Result<Vec<crate::App>, DesktopError> {
            Ok(Vec::new())
        }
        fn tree(&mut self, _: &NodeId, _: usize) -> Result<Vec<crate::Node>, DesktopError> {
            Ok(Vec::new())
        }
        fn text(&mut self, _: &NodeId) -> Result<String, DesktopError> {
            Ok(String::new())
        }
        fn act(&mut self, _: &NodeId, _: &crate::Action) -> Result<(), DesktopError> {
            Ok(())
        }
        fn options(&mut self, _: &NodeId) -> Result<Vec<String>, DesktopError> {
            Ok(Vec::new())
        }
        fn extents(&mut self, node: &NodeId) -> Result<Extents, DesktopError> {
            Ok(if *node == self.element {
                self.y += 1;
                at(0, 1000 + self.y, 10, 10)
            } else {
                at(0, 0, 100, 100)
            })
        }
        fn extents_of(&mut self, nodes: &[NodeId]) -> Result<Vec<Option<Extents>>, DesktopError> {
            nodes.iter().map(|n| self.extents(n).map(Some)).collect()
        }
        fn press_key(&mut self, _: &NodeId, _: &crate::Chord) -> Result<(), DesktopError> {
            Ok(())
        }
        fn events_from(&mut self, _: &NodeId, _: EventWait) -> Result<crate::Heard, DesktopError> {
            std::thread::sleep(Duration::from_millis(5));
            Ok(crate::Heard {
                events: 1,
                fell_silent: false,
            })
        }
        fn events_since(&mut self, _: &NodeId) -> u32 {
            0
        }
        fn wheel(&mut self, _: &NodeId, _: Wheel, _: u32) -> Result<(), DesktopError> {
            self.turns += 1;
            Ok(())
        }
        fn screen_size(&mut self) -> Result<(u16, u16), DesktopError> {
            Ok((640, 480))
        }
        fn capture(&mut self, _: &Extents, _: &[Extents]) -> Result<Vec<u8>, DesktopError> {
            Ok(Vec::new())
        }
    }

    #[test]
    fn an_element_that_moves_at_every_turn_is_given_up_on_in_time() {
        let id = |path: &str| NodeId {
            bus: ":1.1".to_owned(),
            path: path.to_owned(),
        };
        let (element, list) = (id("/row"), id("/list"));
        let mut app = Restless {
            element: element.clone(),
            y: 0,
            turns: 0,
        };
        let ancestors = [list];
        let it = InView {
            element: &element,
            ancestors: &ancestors,
            siblings: std::slice::from_ref(&element),
            index: 0,
        };
        let error = wheel_into_view_within(&mut app, &it, Duration::from_millis(40))
            .expect_err("never in view");
        assert!(
            matches!(error, DesktopError::Timeout { sent: true, .. }),
            "{error}"
        );
        assert!(app.turns < 20, "{} turns", app.turns);
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
