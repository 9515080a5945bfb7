//! What rove reads of the X display beside the accessibility bus: the
//! screen's pixels for a window's screenshot, and the keymap's modifier
//! keycodes. The connection is opened on first use and kept.

use rove_base::limits;

use crate::DesktopError;
use crate::node::Extents;
use crate::x11::{Display, Rgb, X11Error};

use super::AtSpi;

impl AtSpi {
    /// Runs `call` on the X display, opening it first if need be; a
    /// failed call drops the connection (a timed-out one is out of step).
    fn on_display<T>(
        &mut self,
        during: &'static str,
        call: impl FnOnce(&mut Display) -> Result<T, X11Error>,
    ) -> Result<T, DesktopError> {
        let display = match self.display.as_mut() {
            Some(display) => display,
            None => {
                let opened = Display::connect(limits::DESKTOP_CALL)
                    .map_err(|e| DesktopError::from_x11(e, during))?;
                self.display.insert(opened)
            }
        };
        call(display).map_err(|e| {
            self.display = None;
            DesktopError::from_x11(e, during)
        })
    }

    /// The X screen's size, connecting to the display if need be.
    pub(super) fn display_size(&mut self) -> Result<(u16, u16), DesktopError> {
        self.on_display("sending keys and taking screenshots", |d| {
            Ok(d.screen_size())
        })
    }

    /// `area` of the screen as a PNG file, `hide` painted over.
    pub(super) fn capture_png(
        &mut self,
        area: &Extents,
        hide: &[Extents],
    ) -> Result<Vec<u8>, DesktopError> {
        let (width, height) = match (u32::try_from(area.width), u32::try_from(area.height)) {
            (Ok(w), Ok(h)) if w > 0 && h > 0 => (w, h),
            _ => {
                return Err(DesktopError::NotActionable(format!(
                    "be captured: it has no area on the screen ({} × {})",
                    area.width, area.height
                )));
            }
        };
        let mut pixels = self.on_display("capturing the window", |d| {
            d.capture(area.x, area.y, width, height)
        })?;
        // The capture starts where the area meets the screen.
        let origin = (area.x.max(0), area.y.max(0));
        for rect in hide {
            paint_over(&mut pixels, origin, rect);
        }
        Ok(pixels.to_png())
    }

    /// The keycode that holds the modifier `keysym`: the server's keymap's,
    /// else the evdev keymap's (Xorg's, Xvfb's and XWayland's default) when
    /// the keymap cannot be read.
    pub(super) fn modifier_keycode(&mut self, keysym: u32) -> Result<u32, DesktopError> {
        match self.on_display("reading the keymap", |d| d.keycode_of(keysym)) {
            Ok(Some(code)) => Ok(u32::from(code)),
            Ok(None) => Err(DesktopError::Unsupported(format!(
                "the X server's keymap has no key for the modifier {keysym:#x}"
            ))),
            Err(error) => {
                tracing::debug!(%error, "the keymap is unread; holding the evdev keycode");
                crate::keys::evdev_keycode(keysym).ok_or(error)
            }
        }
    }
}

/// Paints `rect` (screen coordinates) black where it meets `pixels`, a
/// capture whose top-left corner is at `origin` on the screen.
fn paint_over(pixels: &mut Rgb, origin: (i32, i32), rect: &Extents) {
    let span = |start: i32, length: i32, from: i32, size: u32| {
        let first = i64::from(start) - i64::from(from);
        let last = first + i64::from(length.max(0));
        let clamp = |v: i64| usize::try_from(v.clamp(0, i64::from(size))).unwrap_or(0);
        clamp(first)..clamp(last)
    };
    let columns = span(rect.x, rect.width, origin.0, pixels.width);
    let width = usize::try_from(pixels.width).unwrap_or(0);
    for row in span(rect.y, rect.height, origin.1, pixels.height) {
        let start = (row * width + columns.start) * 3;
        let end = (row * width + columns.end) * 3;
        if let Some(run) = pixels.pixels.get_mut(start..end) {
            run.fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_rectangle_is_painted_only_where_it_meets_the_capture() {
        let mut pixels = Rgb {
            width: 4,
            height: 3,
            pixels: vec![255; 4 * 3 * 3],
        };
        // The capture's corner is at (10, 20); the rectangle starts left of
        // it and ends inside, on its second row only.
        let rect = Extents {
            x: 5,
            y: 21,
            width: 7,
            height: 1,
        };
        paint_over(&mut pixels, (10, 20), &rect);
        let black: Vec<bool> = pixels.pixels.chunks(3).map(|p| p == [0, 0, 0]).collect();
        assert_eq!(
            black,
            [
                false, false, false, false, //
                true, true, false, false, //
                false, false, false, false,
            ]
        );
        // Wholly outside: nothing changes.
        let before = pixels.clone();
        paint_over(
            &mut pixels,
            (10, 20),
            &Extents {
                x: 100,
                y: 0,
                width: 5,
                height: 5,
            },
        );
        assert_eq!(pixels, before);
    }
}
