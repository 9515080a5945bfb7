//! What the commands do to a desktop application's elements: its
//! accessibility actions, keys and the wheel, each refused on a disabled
//! control as on a page.

use rove_base::limits;
use rove_desktop::{Action, Backend, DesktopError, NodeId, Wheel};
use rove_page::Ref;

use crate::answer::happened::Happened;
use crate::session::desktop::DesktopTarget;
use crate::{CommandError, Direction};

/// `select`: the option named like the first value (exactly, else in
/// any case), chosen through the control's `Selection`.
pub(super) async fn select_option(
    target: &mut DesktopTarget,
    r: Ref,
    values: &[String],
) -> Result<String, CommandError> {
    let wanted = values
        .first()
        .ok_or_else(|| CommandError::Rejected("select needs the option to choose".to_owned()))?;
    let id = node(target, r)?;
    let options = target
        .bus
        .run(limits::DESKTOP_TREE, move |b| b.options(&id))
        .await?;
    let index = options
        .iter()
        .position(|o| o == wanted)
        .or_else(|| options.iter().position(|o| o.eq_ignore_ascii_case(wanted)))
        .ok_or_else(|| {
            CommandError::Rejected(format!(
                "{r} has no option {wanted:?}; its options: {}",
                options.join(", ")
            ))
        })?;
    let child = i32::try_from(index).unwrap_or(i32::MAX);
    act(target, r, Action::SelectChild(child)).await?;
    Ok(options[index].clone())
}

/// What `fill` does: a slider or spin button takes a number as its value;
/// a field takes text.
pub(super) fn fill_action(
    target: &DesktopTarget,
    r: Ref,
    text: &str,
) -> Result<Action, CommandError> {
    let key = target.model.element(r)?;
    let ranged = target
        .last
        .iter()
        .any(|e| e.key == key && matches!(e.role.as_str(), "slider" | "spinbutton"));
    Ok(match text.trim().parse::<f64>() {
        Ok(n) if ranged && n.is_finite() => Action::SetValue(n),
        _ => Action::SetText(text.to_owned()),
    })
}

/// Sends keys: into the element `at` (focused first), else into the
/// window (its first element) with whatever it has focused.
pub(super) async fn send_keys(
    target: &mut DesktopTarget,
    at: Option<Ref>,
    keys: Vec<rove_desktop::Chord>,
) -> Result<(), CommandError> {
    if let Some(r) = at {
        act(target, r, Action::Focus).await?;
    }
    let within = input_target(target, at).await?;
    target
        .bus
        .run(limits::DESKTOP_TREE, move |b| {
            press_all(&keys, KEYS_WITHIN, |chord| b.press_key(&within, chord))
        })
        .await?;
    Ok(())
}

/// How long the keys of one `type` or `press` may take together: a long
/// text (each key moves the pointer, reading the element's extents) or an
/// application that answers each call just within its deadline is cut
/// off within the call's backstop (`limits::DESKTOP_TREE`), leaving the
/// last key's calls their time, rather than typing on after rove said the
/// call timed out.
const KEYS_WITHIN: std::time::Duration = limits::DESKTOP_TREE.saturating_sub(limits::DESKTOP_CALL);

/// Sends `keys` in order with `press`, none after `budget`.
fn press_all(
    keys: &[rove_desktop::Chord],
    budget: std::time::Duration,
    mut press: impl FnMut(&rove_desktop::Chord) -> Result<(), DesktopError>,
) -> Result<(), DesktopError> {
    let until = std::time::Instant::now() + budget;
    for (i, chord) in keys.iter().enumerate() {
        if std::time::Instant::now() >= until {
            return Err(DesktopError::Timeout {
                after: budget,
                during: "sending keys",
                sent: i > 0,
            });
        }
        press(chord)?;
    }
    Ok(())
}

/// The most wheel steps one `scroll` sends.
const WHEEL_STEPS_MAX: u32 = 100;

/// `scroll` a way: the wheel turned over the element `at`, else over the
/// window, by `pixels` (80% of its height or width when not given) in
/// steps of `rove_desktop::WHEEL_STEP_PX`. Returns the steps sent.
async fn turn_wheel(
    target: &mut DesktopTarget,
    at: Option<Ref>,
    direction: Direction,
    pixels: Option<f64>,
) -> Result<u32, CommandError> {
    if pixels.is_some_and(|p| !(p.is_finite() && p > 0.0)) {
        return Err(CommandError::Rejected(
            "pixels is a number above 0".to_owned(),
        ));
    }
    let within = input_target(target, at).await?;
    let id = within.clone();
    let extents = target
        .bus
        .run(limits::DESKTOP_TREE, move |b| b.extents(&id))
        .await?;
    let (way, along) = match direction {
        Direction::Down => (Wheel::Down, extents.height),
        Direction::Up => (Wheel::Up, extents.height),
        Direction::Left => (Wheel::Left, extents.width),
        Direction::Right => (Wheel::Right, extents.width),
    };
    let pixels = pixels.unwrap_or(0.8 * f64::from(along.max(0)));
    let steps = (1..WHEEL_STEPS_MAX)
        .find(|n| f64::from(*n) * f64::from(rove_desktop::WHEEL_STEP_PX) >= pixels)
        .unwrap_or(WHEEL_STEPS_MAX);
    target
        .bus
        .run(limits::DESKTOP_TREE, move |b| b.wheel(&within, way, steps))
        .await?;
    Ok(steps)
}

/// The element input goes to: `at`'s, else the window's (its first
/// element).
async fn input_target(target: &mut DesktopTarget, at: Option<Ref>) -> Result<NodeId, CommandError> {
    if let Some(r) = at {
        return node(target, r);
    }
    if target.last.is_empty() {
        target.read().await?;
    }
    let first = target
        .last
        .first()
        .map(|e| e.key.clone())
        .unwrap_or_default();
    target
        .ids
        .get(&first)
        .cloned()
        .ok_or(CommandError::Desktop(DesktopError::NodeGone))
}

/// The id of the element `r` names.
pub(super) fn node(target: &DesktopTarget, r: Ref) -> Result<NodeId, CommandError> {
    let key = target.model.element(r)?;
    target.ids.get(key).cloned().ok_or_else(|| gone(r))
}

/// `r`'s element is no longer in the application (its window closed, or
/// the application rebuilt it): `REF_NOT_FOUND`, to which the session
/// adds a fresh view.
fn gone(r: Ref) -> CommandError {
    CommandError::Page(rove_page::PageError::RefNotFound {
        reference: r,
        reason:
            "it is gone from the application (its window closed, or the application rebuilt it)"
                .to_owned(),
        fresh_view: None,
    })
}

pub(super) async fn act(
    target: &mut DesktopTarget,
    r: Ref,
    action: Action,
) -> Result<(), CommandError> {
    let id = node(target, r)?;
    // As on a page: a disabled control is not acted on (the action would
    // be refused, or worse, done by the toolkit anyway).
    let key = id.key();
    if target
        .last
        .iter()
        .any(|e| e.key == key && e.states.disabled)
    {
        return Err(CommandError::Desktop(DesktopError::NotActionable(format!(
            "be used: {r} is disabled"
        ))));
    }
    match target
        .bus
        .run(limits::DESKTOP_TREE, move |b| b.act(&id, &action))
        .await
    {
        Err(DesktopError::NodeGone) => Err(gone(r)),
        other => Ok(other?),
    }
}

/// `scroll`: an element into view, or the wheel turned a way.
pub(super) async fn scroll(
    target: &mut DesktopTarget,
    args: &crate::ScrollArgs,
) -> Result<Happened, CommandError> {
    let at = args.target.as_ref().map(|t| t.reference()).transpose()?;
    Ok(match (at, args.direction) {
        (Some(r), None) => {
            scroll_into_view(target, r).await?;
            Happened::ScrolledIntoView(r)
        }
        (at, direction) => {
            let direction = direction.unwrap_or_default();
            let notches = turn_wheel(target, at, direction, args.pixels).await?;
            Happened::WheelTurned {
                what: at,
                direction,
                notches,
            }
        }
    })
}

/// `scroll eN`: the toolkit's own `ScrollTo` where it does it; else the
/// wheel over what holds the element (rove-desktop's `wheel_into_view`).
async fn scroll_into_view(target: &mut DesktopTarget, r: Ref) -> Result<(), CommandError> {
    let id = node(target, r)?;
    let key = id.key();
    let (ancestors, siblings, index) = placement(target, &key);
    target
        .bus
        .run(limits::DESKTOP_TREE, move |b| {
            match b.act(&id, &Action::ScrollIntoView) {
                Err(DesktopError::NotActionable(_)) => rove_desktop::wheel_into_view(
                    b,
                    &rove_desktop::InView {
                        element: &id,
                        ancestors: &ancestors,
                        siblings: &siblings,
                        index,
                    },
                ),
                done => done,
            }
        })
        .await?;
    Ok(())
}

/// Where the element `key` sits in the last reading: its ancestors
/// (nearest first), the elements beside it in its parent (itself among
/// them), and its place there.
fn placement(target: &DesktopTarget, key: &str) -> (Vec<NodeId>, Vec<NodeId>, usize) {
    let lines = &target.last;
    let id = |e: &rove_page::NativeElement| target.ids.get(&e.key).cloned();
    let Some(at) = lines.iter().position(|e| e.key == key) else {
        return (Vec::new(), Vec::new(), 0);
    };
    let depth = lines[at].depth;
    let mut ancestors = Vec::new();
    let mut above = depth;
    let mut parent = 0;
    for (i, e) in lines[..at].iter().enumerate().rev() {
        if e.depth < above {
            if above == depth {
                parent = i;
            }
            above = e.depth;
            ancestors.extend(id(e));
        }
    }
    // The siblings: the lines at its depth and of its role (a list's
    // header stays in place while its rows scroll) after its parent, until
    // one with less depth ends the parent.
    let role = &lines[at].role;
    let start = if ancestors.is_empty() { 0 } else { parent + 1 };
    let mut siblings = Vec::new();
    let mut index = 0;
    for (i, e) in lines.iter().enumerate().skip(start) {
        if e.depth < depth {
            break;
        }
        if e.depth == depth && &e.role == role {
            if i == at {
                index = siblings.len();
            }
            siblings.extend(id(e));
        }
    }
    (ancestors, siblings, index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_stops_at_its_deadline_not_after() {
        let keys = rove_desktop::typed(&"x".repeat(1000)).expect("keys");
        let budget = std::time::Duration::from_millis(50);
        // An application that takes a while over each key.
        let mut pressed = 0;
        let slow = |_: &rove_desktop::Chord| {
            std::thread::sleep(std::time::Duration::from_millis(5));
            pressed += 1;
            Ok(())
        };
        let error = press_all(&keys, budget, slow).expect_err("cut off");
        assert!(
            matches!(error, DesktopError::Timeout { sent: true, .. }),
            "{error}"
        );
        assert!(pressed < 100, "{pressed} keys");
        let mut pressed = 0;
        press_all(&keys[..3], budget, |_| {
            pressed += 1;
            Ok(())
        })
        .expect("three keys in time");
        assert_eq!(pressed, 3);
    }
}
