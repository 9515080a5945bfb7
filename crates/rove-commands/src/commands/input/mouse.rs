//! `mouse` (group `vision`): pointer input at coordinates of the viewport,
//! for a model that aims from a screenshot instead of a ref.
//!
//! The session remembers, per tab, where the pointer is and which buttons
//! are held, so `down`, `move`, `up` across calls is one drag (every event
//! while a button is down must say so), and `down`/`up`/`wheel` without a
//! point act where the pointer is. A point outside the viewport is refused
//! before anything is sent.

use rove_input::{Button, Modifiers, Point, PointerStep};

use crate::answer::MouseDid;
use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::Session;
use crate::session::pointers::PointerState;
use crate::{CommandError, MouseAction, MouseArgs, MouseButton};

fn input_button(button: MouseButton) -> Button {
    match button {
        MouseButton::Left => Button::Left,
        MouseButton::Right => Button::Right,
        MouseButton::Middle => Button::Middle,
    }
}

/// Where a pointer step goes.
fn step_point(step: &PointerStep) -> Point {
    match *step {
        PointerStep::Move(at) | PointerStep::Press { at, .. } | PointerStep::Release { at, .. } => {
            at
        }
    }
}

fn pair(p: Point) -> (f64, f64) {
    (p.x, p.y)
}

fn rejected(text: impl Into<String>) -> CommandError {
    CommandError::Rejected(text.into())
}

/// The point the arguments give: both coordinates, or neither.
fn given_point(args: &MouseArgs) -> Result<Option<Point>, CommandError> {
    match (args.x, args.y) {
        (Some(x), Some(y)) => Ok(Some(Point { x, y })),
        (None, None) => Ok(None),
        _ => Err(rejected("give both x and y, or neither")),
    }
}

impl Session {
    pub(crate) async fn mouse(
        &mut self,
        args: &MouseArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let tab = self.focused()?;
        let state = self
            .pointers_mut()
            .0
            .get(&tab.id())
            .copied()
            .unwrap_or_default();
        let given = given_point(args)?;
        let button = input_button(args.button);
        let is_held = state.held & button.bit() != 0;
        let button_name = format!("{:?}", args.button).to_lowercase();
        let placed = |verb: &str| {
            given.or(state.at).ok_or_else(|| {
                rejected(format!(
                    "{verb} needs x and y: the pointer has not been placed on this tab yet"
                ))
            })
        };
        // A move first when a point is given, so the page sees the pointer
        // arrive before the button acts there.
        let arrive = |at: Point| -> Vec<PointerStep> {
            if given.is_some() && state.at != Some(at) {
                vec![PointerStep::Move(at)]
            } else {
                Vec::new()
            }
        };
        let (steps, did) = match args.action {
            MouseAction::Move => {
                let at = given.ok_or_else(|| rejected("mouse move needs x and y"))?;
                let did = MouseDid::Moved {
                    at: pair(at),
                    dragging: state.held != 0,
                };
                (vec![PointerStep::Move(at)], did)
            }
            MouseAction::Down => {
                if is_held {
                    return Err(rejected(format!(
                        "the {button_name} button is already down; mouse up first"
                    )));
                }
                let at = placed("mouse down")?;
                let mut steps = arrive(at);
                steps.push(PointerStep::Press {
                    at,
                    button,
                    count: 1,
                });
                let did = MouseDid::Pressed {
                    button: args.button,
                    at: pair(at),
                };
                (steps, did)
            }
            MouseAction::Up => {
                if !is_held {
                    return Err(rejected(format!(
                        "the {button_name} button is not down (mouse down presses it); nothing was sent"
                    )));
                }
                let at = placed("mouse up")?;
                let mut steps = arrive(at);
                steps.push(PointerStep::Release {
                    at,
                    button,
                    count: 1,
                });
                let did = MouseDid::Released {
                    button: args.button,
                    at: pair(at),
                };
                (steps, did)
            }
            MouseAction::Click => {
                let at = given.ok_or_else(|| rejected("mouse click needs x and y"))?;
                let count = args.count.unwrap_or(1);
                if !(1..=3).contains(&count) {
                    return Err(rejected("count is 1, 2 (a double click) or 3"));
                }
                if is_held {
                    return Err(rejected(format!(
                        "the {button_name} button is held down; mouse up first"
                    )));
                }
                let mut steps = vec![PointerStep::Move(at)];
                for n in 1..=count {
                    steps.push(PointerStep::Press {
                        at,
                        button,
                        count: n,
                    });
                    steps.push(PointerStep::Release {
                        at,
                        button,
                        count: n,
                    });
                }
                let did = MouseDid::Clicked {
                    button: args.button,
                    count,
                    at: pair(at),
                };
                (steps, did)
            }
            MouseAction::Wheel => return self.wheel(args, given, state, out).await,
        };
        // The element is named where the pointer arrived, after the move
        // (a hover style or a mousemove handler can change what is under
        // it) and before a button acts there (a click may remove what it
        // hit): the moves go first, then the naming, then the buttons.
        let arrived = steps
            .iter()
            .rposition(|s| matches!(s, PointerStep::Move(_)))
            .map_or(0, |i| i + 1);
        let (moves, presses) = steps.split_at(arrived);
        let mut held = state.held;
        let mut settled = None;
        if !moves.is_empty() {
            let moved = rove_input::pointer(&tab, moves, held, Modifiers::default()).await?;
            held = moved.held;
            settled = Some(moved.settled);
        }
        let over = match steps.last() {
            Some(step) => self.element_at(step_point(step)).await,
            None => None,
        };
        if !presses.is_empty() {
            let done = rove_input::pointer(&tab, presses, held, Modifiers::default()).await?;
            held = done.held;
            settled = Some(done.settled);
        }
        let at = steps.last().map(step_point);
        self.pointers_mut().0.insert(
            tab.id(),
            PointerState {
                at: at.or(state.at),
                held,
            },
        );
        out.happened.push(Happened::Mouse(did, over));
        self.after_settle(&settled.unwrap_or_default(), out).await
    }

    /// The element under `at` as a view names it (`e7 button "Save"`), if
    /// one is; `None` too when the page cannot say (naming is a courtesy:
    /// it never fails the input).
    async fn element_at(&mut self, at: Point) -> Option<String> {
        let naming = self.model().ok()?.element_at(at.x, at.y);
        match tokio::time::timeout(rove_base::limits::POINTER_NAMING, naming).await {
            Ok(Ok(found)) => found.map(|l| l.describe()),
            Ok(Err(e)) => {
                tracing::debug!(error = %e, "the element under the pointer was not named");
                None
            }
            Err(_) => {
                tracing::debug!("the page did not name the element under the pointer in time");
                None
            }
        }
    }

    async fn wheel(
        &mut self,
        args: &MouseArgs,
        given: Option<Point>,
        state: PointerState,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let (dx, dy) = (args.dx.unwrap_or(0.0), args.dy.unwrap_or(0.0));
        if !(dx.is_finite() && dy.is_finite()) || (dx == 0.0 && dy == 0.0) {
            return Err(rejected(
                "mouse wheel needs dx or dy: pixels to turn (dy > 0 scrolls down)",
            ));
        }
        let tab = self.focused()?;
        let at = match given.or(state.at) {
            Some(at) => at,
            None => {
                let (width, height) = rove_input::viewport_size(&tab).await?;
                Point {
                    x: (width / 2.0).floor(),
                    y: (height / 2.0).floor(),
                }
            }
        };
        let over = self.element_at(at).await;
        let turned = rove_input::wheel_at(&tab, at, dx, dy).await?;
        self.pointers_mut().0.insert(
            tab.id(),
            PointerState {
                at: Some(at),
                held: state.held,
            },
        );
        let did = MouseDid::Wheeled {
            delta: (dx, dy),
            at: pair(at),
            from: (turned.before.x, turned.before.y),
            to: (turned.after.x, turned.after.y),
        };
        out.happened.push(Happened::Mouse(did, over));
        Ok(())
    }
}
