//! Pointer input at coordinates, for a model that aims from a screenshot.
//!
//! Points are CSS pixels from the top-left corner of the tab's viewport:
//! what `Input.dispatchMouseEvent` takes, and what a screenshot of the
//! viewport shows at a device scale factor of 1. A point outside the
//! viewport (or negative, or not a number) is refused before anything is
//! sent: the browser would deliver it nowhere, or to the wrong place.
//!
//! Buttons can stay down between calls (a drag made of `down`, `move`,
//! `up`): the caller keeps the mask of held buttons and passes it in, since
//! every event must say which buttons are down for Chromium to see a drag.
//! The wheel is turned by `scroll.rs` (`wheel_at`), which waits for the
//! scroll to rest.

use rove_browser::Tab;
use rove_cdp::protocol::input::{DispatchMouseEvent, DispatchMouseEventType, MouseButton};

use crate::mouse::{Button, refuse_while_dialog};
use crate::point::Point;
use crate::settle::Settled;
use crate::{InputError, Modifiers};

/// One pointer event to send.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PointerStep {
    /// The pointer moves to the point (with the held buttons still held).
    Move(Point),
    /// A button goes down at the point.
    Press {
        /// Where.
        at: Point,
        /// Which button.
        button: Button,
        /// 1, or 2 for the second press of a double click.
        count: u8,
    },
    /// A button comes up at the point.
    Release {
        /// Where.
        at: Point,
        /// Which button.
        button: Button,
        /// As the press it ends.
        count: u8,
    },
}

impl PointerStep {
    fn point(&self) -> Point {
        match *self {
            PointerStep::Move(at)
            | PointerStep::Press { at, .. }
            | PointerStep::Release { at, .. } => at,
        }
    }
}

/// What pointer input did.
#[derive(Debug, Clone)]
pub struct PointerOutcome {
    /// The buttons held afterwards, as a mask (left 1, right 2, middle 4).
    pub held: u32,
    /// What the page did afterwards.
    pub settled: Settled,
}

impl Button {
    /// The button's bit in a mask of held buttons.
    pub fn bit(self) -> u32 {
        self.cdp().1
    }
}

/// The size of the tab's viewport in CSS pixels (width, height), as the
/// browser lays it out: the page cannot change what this reads.
pub async fn viewport_size(tab: &Tab) -> Result<(f64, f64), InputError> {
    let metrics = tab
        .send(&rove_cdp::protocol::page::GetLayoutMetrics {})
        .await?;
    let visual = &metrics.css_visual_viewport;
    Ok((visual.client_width, visual.client_height))
}

/// Refuses (`OutOfViewport`) the first of `points` outside the viewport.
pub(crate) async fn check_inside(tab: &Tab, points: &[Point]) -> Result<(), InputError> {
    let (width, height) = viewport_size(tab).await?;
    for p in points {
        let inside = p.x.is_finite()
            && p.y.is_finite()
            && p.x >= 0.0
            && p.y >= 0.0
            && p.x < width
            && p.y < height;
        if !inside {
            return Err(InputError::OutOfViewport {
                x: p.x,
                y: p.y,
                width,
                height,
            });
        }
    }
    Ok(())
}

/// Sends `steps` in order, `held` being the buttons already down, then
/// waits for the page to settle. Every point is checked against the
/// viewport first: one outside refuses the whole call, nothing sent.
pub async fn pointer(
    tab: &Tab,
    steps: &[PointerStep],
    held: u32,
    modifiers: Modifiers,
) -> Result<PointerOutcome, InputError> {
    refuse_while_dialog(tab).await?;
    let points: Vec<Point> = steps.iter().map(PointerStep::point).collect();
    check_inside(tab, &points).await?;
    let channel = crate::channel::InputChannel::of(tab).await?;
    let watched = crate::settle::Watched::MainFrame;
    let mut armed = crate::settle::arm(tab, watched, channel.subscribe()).await;
    let mut held = held;
    let events: Vec<DispatchMouseEvent> = steps
        .iter()
        .map(|step| event_for(step, &mut held, modifiers.bits()))
        .collect();
    // A click's move, presses and releases go out together: in order, and
    // the press makes the renderer deliver the move at once instead of
    // with the next frame (hover is updated before the press either way).
    // Moves after the first wait for their answers, since the renderer
    // keeps only the last of moves that wait together.
    let is_move = |step: &PointerStep| matches!(step, PointerStep::Move(_));
    let together = steps.iter().skip(1).all(|step| !is_move(step));
    if together && steps.len() > 1 {
        crate::guard::send_at_once(&channel, &events).await?;
    } else {
        for (i, (step, event)) in steps.iter().zip(&events).enumerate() {
            channel
                .send(event)
                .await
                .map_err(|e| InputError::browser(e, i > 0 || !is_move(step)))?;
        }
    }
    if channel.dialog_open() {
        // The page is blocked; there is nothing to wait for.
        return Ok(PointerOutcome {
            held,
            settled: Settled::default(),
        });
    }
    let settled = crate::settle::settle(tab, &mut armed).await;
    Ok(PointerOutcome { held, settled })
}

/// The CDP event for one step; `held` is updated by presses and releases.
fn event_for(step: &PointerStep, held: &mut u32, modifiers: u32) -> DispatchMouseEvent {
    // While a button is down every event names it, as a real mouse's do;
    // Chromium starts a drag only from such moves.
    let first_held = |mask: u32| {
        [Button::Left, Button::Right, Button::Middle]
            .into_iter()
            .find(|b| mask & b.bit() != 0)
            .map(|b| b.cdp().0)
            .unwrap_or(MouseButton::None)
    };
    let base = |kind: DispatchMouseEventType, at: Point| DispatchMouseEvent {
        modifiers: Some(i64::from(modifiers)),
        ..DispatchMouseEvent::at(kind, at.x, at.y)
    };
    match *step {
        PointerStep::Move(at) => DispatchMouseEvent {
            button: Some(first_held(*held)),
            buttons: Some(i64::from(*held)),
            ..base(DispatchMouseEventType::MouseMoved, at)
        },
        PointerStep::Press { at, button, count } => {
            *held |= button.bit();
            DispatchMouseEvent {
                button: Some(button.cdp().0),
                buttons: Some(i64::from(*held)),
                click_count: Some(i64::from(count.max(1))),
                ..base(DispatchMouseEventType::MousePressed, at)
            }
        }
        PointerStep::Release { at, button, count } => {
            *held &= !button.bit();
            DispatchMouseEvent {
                button: Some(button.cdp().0),
                buttons: Some(i64::from(*held)),
                click_count: Some(i64::from(count.max(1))),
                ..base(DispatchMouseEventType::MouseReleased, at)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_button_is_named_by_every_move_until_released() {
        let at = Point { x: 5.0, y: 6.0 };
        let mut held = 0;
        let press = PointerStep::Press {
            at,
            button: Button::Left,
            count: 1,
        };
        let down = event_for(&press, &mut held, 0);
        assert_eq!(
            (down.button, down.buttons),
            (Some(MouseButton::Left), Some(1))
        );
        let moved = event_for(&PointerStep::Move(at), &mut held, 0);
        assert_eq!(
            (moved.button, moved.buttons),
            (Some(MouseButton::Left), Some(1))
        );
        let release = PointerStep::Release {
            at,
            button: Button::Left,
            count: 1,
        };
        let up = event_for(&release, &mut held, 0);
        assert_eq!(
            (up.button, up.buttons, held),
            (Some(MouseButton::Left), Some(0), 0)
        );
        let free = event_for(&PointerStep::Move(at), &mut held, 0);
        assert_eq!(
            (free.button, free.buttons),
            (Some(MouseButton::None), Some(0))
        );
    }
}
