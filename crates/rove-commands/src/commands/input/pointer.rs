//! `scroll` and `drag`: pointer commands beyond the click.

use rove_input::ScrollPosition;

use rove_page::Ref;

use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::Session;
use crate::{CommandError, Direction, DragArgs, ScrollArgs};

impl Session {
    pub(crate) async fn scroll(
        &mut self,
        args: &ScrollArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let target = args
            .target
            .as_ref()
            .map(rove_page::Target::reference)
            .transpose()?;
        let Some(direction) = args.direction else {
            let Some(target) = target else {
                return Err(CommandError::Rejected(
                    "scroll needs a direction (up, down, left, right), a ref to bring into view, or both"
                        .into(),
                ));
            };
            rove_input::scroll_into_view_of(self.model()?, target).await?;
            out.happened.push(Happened::ScrolledIntoView(target));
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
        out.happened.push(describe_scroll(
            target,
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
        let from = args.from.reference()?;
        let to = args.to.reference()?;
        if from == to {
            return Err(CommandError::Rejected(
                "drag needs two different elements".into(),
            ));
        }
        let timeout = self.config().action_timeout;
        let dragged = rove_input::drag(self.model()?, from, to, timeout).await?;
        out.happened.push(Happened::Dragged {
            from,
            to,
            html5: dragged.html5,
        });
        self.after_settle(&dragged.settled, out).await
    }
}

fn describe_scroll(
    what: Option<Ref>,
    direction: Direction,
    before: &ScrollPosition,
    after: &ScrollPosition,
) -> Happened {
    let vertical = matches!(direction, Direction::Up | Direction::Down);
    let (from, to, max) = if vertical {
        (before.y, after.y, after.max_y)
    } else {
        (before.x, after.x, after.max_x)
    };
    let moved = (to - from).abs();
    if moved < 1.0 {
        return Happened::DidNotScroll { what, direction };
    }
    Happened::Scrolled {
        what,
        direction,
        moved,
        to,
        max,
    }
}
