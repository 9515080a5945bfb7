//! `scroll` and `drag`: pointer commands beyond the click.

use rove_input::ScrollPosition;

use crate::outcome::Outcome;
use crate::session::Session;
use crate::{CommandError, Direction, DragArgs, ScrollArgs};

impl Session {
    pub(crate) async fn scroll(
        &mut self,
        args: &ScrollArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let target = args.target;
        let Some(direction) = args.direction else {
            let Some(target) = target else {
                return Err(CommandError::Rejected(
                    "scroll needs a direction (up, down, left, right), a ref to bring into view, or both"
                        .into(),
                ));
            };
            rove_input::scroll_into_view_of(self.model()?, target).await?;
            out.happened.push(format!("scrolled {target} into view"));
            return Ok(());
        };
        if args.pixels.is_some_and(|p| !p.is_finite() || p <= 0.0) {
            return Err(CommandError::Rejected(
                "pixels must be a positive number".into(),
            ));
        }
        let step = match direction {
            Direction::Down => (0.0, 1.0),
            Direction::Up => (0.0, -1.0),
            Direction::Right => (1.0, 0.0),
            Direction::Left => (-1.0, 0.0),
        };
        let scrolled = rove_input::scroll_by(self.model()?, target, step, args.pixels).await?;
        let what = target
            .map(|t| t.to_string())
            .unwrap_or_else(|| "the page".into());
        out.happened.push(describe_scroll(
            &what,
            direction,
            &scrolled.before,
            &scrolled.after,
        ));
        Ok(())
    }

    pub(crate) async fn drag(
        &mut self,
        args: &DragArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let from = args.from;
        let to = args.to;
        if from == to {
            return Err(CommandError::Rejected(
                "drag needs two different elements".into(),
            ));
        }
        let timeout = self.config.action_timeout;
        let dragged = rove_input::drag(self.model()?, from, to, timeout).await?;
        out.happened.push(if dragged.html5 {
            format!("dragged {from} onto {to} (the page's drag and drop took it)")
        } else {
            format!("dragged {from} onto {to}")
        });
        self.after_settle(&dragged.settled, out).await
    }
}

fn describe_scroll(
    what: &str,
    direction: Direction,
    before: &ScrollPosition,
    after: &ScrollPosition,
) -> String {
    let vertical = matches!(direction, Direction::Up | Direction::Down);
    let (from, to, max) = if vertical {
        (before.y, after.y, after.max_y)
    } else {
        (before.x, after.x, after.max_x)
    };
    let moved = (to - from).abs();
    if moved < 1.0 {
        let edge = match direction {
            Direction::Down => "bottom",
            Direction::Up => "top",
            Direction::Left => "left edge",
            Direction::Right => "right edge",
        };
        return format!("{what} did not move: it is at its {edge} or does not scroll");
    }
    let dir = format!("{direction:?}").to_lowercase();
    let at_end = if to >= max - 1.0 && matches!(direction, Direction::Down | Direction::Right) {
        " (the end)"
    } else if to < 1.0 {
        " (the start)"
    } else {
        ""
    };
    format!("scrolled {what} {dir} {moved:.0} px: now at {to:.0} of {max:.0}{at_end}")
}
