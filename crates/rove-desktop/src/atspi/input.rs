//! Input through the registry's device event controller, which sends it
//! with XTest: keys (by keysym, modifiers by keycode) and the mouse wheel.
//! The pointer is moved into the element first, so what is sent reaches
//! its window also where no window manager gives focus.

use crate::dbus::{Arg, Call};
use crate::keys::Chord;
use crate::node::{Extents, NodeId, Wheel};
use crate::{Backend, DesktopError};

use super::{AtSpi, REGISTRY};

/// The registry's device event controller: input through XTest, done by
/// the registry daemon.
const CONTROLLER: &str = "/org/a11y/atspi/registry/deviceeventcontroller";
const CONTROLLER_INTERFACE: &str = "org.a11y.atspi.DeviceEventController";
/// `ATSPI_KEY_PRESS`, `ATSPI_KEY_RELEASE` (of a keycode) and
/// `ATSPI_KEY_SYM` (press and release the key a keysym names).
const KEY_PRESS: u32 = 0;
const KEY_RELEASE: u32 = 1;
const KEY_SYM: u32 = 3;

impl AtSpi {
    /// Moves the pointer to the middle of `within` and sends the mouse
    /// event `event` there (`abs`: only the move; `b5c`: a click of button
    /// 5, the wheel turned down a notch).
    fn pointer(
        &mut self,
        within: &NodeId,
        event: &str,
        doing: &'static str,
    ) -> Result<(), DesktopError> {
        let at = self.extents(within)?;
        self.pointer_at(middle(&at), event, doing)
    }

    /// Sends the mouse event `event` at `(x, y)` on the screen.
    fn pointer_at(
        &mut self,
        (x, y): (i32, i32),
        event: &str,
        doing: &'static str,
    ) -> Result<(), DesktopError> {
        self.one(
            &Call::new(
                REGISTRY,
                CONTROLLER,
                CONTROLLER_INTERFACE,
                "GenerateMouseEvent",
            )
            .arg(Arg::I32(x))
            .arg(Arg::I32(y))
            .arg(Arg::Str(event.to_owned())),
            false,
            doing,
        )?;
        Ok(())
    }

    /// Turns the wheel `notches` times over the middle of `within`: X's
    /// buttons 4 to 7, which toolkits take as scroll steps.
    pub(super) fn wheel_over(
        &mut self,
        within: &NodeId,
        way: Wheel,
        notches: u32,
    ) -> Result<(), DesktopError> {
        let button = match way {
            Wheel::Up => 4,
            Wheel::Down => 5,
            Wheel::Left => 6,
            Wheel::Right => 7,
        };
        let event = format!("b{button}c");
        // Measured once: an application slow to answer its extents would
        // otherwise be waited for at every notch.
        let at = middle(&self.extents(within)?);
        for _ in 0..notches {
            self.pointer_at(at, &event, "turning the wheel")?;
        }
        Ok(())
    }

    /// Sends a key with its modifiers held to the window under `within`.
    pub(super) fn chord_into(
        &mut self,
        within: &NodeId,
        chord: &Chord,
    ) -> Result<(), DesktopError> {
        self.pointer(within, "abs", "moving the pointer")?;
        let number = |n: u32| {
            i32::try_from(n).map_err(|_| DesktopError::Unsupported(format!("the key {n:#x}")))
        };
        let key = |code: i32, kind: u32| {
            Call::new(
                REGISTRY,
                CONTROLLER,
                CONTROLLER_INTERFACE,
                "GenerateKeyboardEvent",
            )
            .arg(Arg::I32(code))
            .arg(Arg::Str(String::new()))
            .arg(Arg::U32(kind))
        };
        let mut held = Vec::new();
        let mut pressed = Ok(());
        let mut codes = Vec::new();
        for keysym in &chord.modifiers {
            codes.push(self.modifier_keycode(*keysym)?);
        }
        for modifier in &codes {
            pressed = number(*modifier)
                .and_then(|code| self.one(&key(code, KEY_PRESS), true, "pressing a key"))
                .map(|_| held.push(*modifier));
            if pressed.is_err() {
                break;
            }
        }
        if pressed.is_ok() {
            pressed = number(chord.keysym)
                .and_then(|code| self.one(&key(code, KEY_SYM), true, "pressing a key"))
                .map(|_| ());
        }
        // Whatever happened, no modifier stays held.
        for modifier in held.iter().rev() {
            let released = number(*modifier)
                .and_then(|code| self.one(&key(code, KEY_RELEASE), true, "releasing a key"));
            if pressed.is_ok() {
                pressed = released.map(|_| ());
            }
        }
        pressed
    }
}

/// The middle of `at`, in i64 and brought back into i32: an application
/// may give extents near i32's ends (GTK gives a row out of view
/// `i32::MIN`), whose middle does not fit.
fn middle(at: &Extents) -> (i32, i32) {
    let half = |start: i32, length: i32| {
        let v = i64::from(start) + i64::from(length) / 2;
        i32::try_from(v.clamp(i64::from(i32::MIN), i64::from(i32::MAX))).unwrap_or(0)
    };
    (half(at.x, at.width), half(at.y, at.height))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_middle_of_extents_near_i32s_ends_does_not_overflow() {
        let at = |x, y, width, height| Extents {
            x,
            y,
            width,
            height,
        };
        assert_eq!(middle(&at(10, 20, 100, 50)), (60, 45));
        assert_eq!(
            middle(&at(i32::MAX, i32::MAX, 100, 100)),
            (i32::MAX, i32::MAX)
        );
        assert_eq!(
            middle(&at(i32::MIN, i32::MIN, -100, -100)),
            (i32::MIN, i32::MIN)
        );
        assert_eq!(middle(&at(-10, 0, 21, 0)), (0, 0));
    }
}
