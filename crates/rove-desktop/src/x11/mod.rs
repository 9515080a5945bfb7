//! A small X11 client: the screen's pixels (as PNG) and the server's
//! keymap, on a socket rove opens itself.
//!
//! Why rove has its own, as with D-Bus (`dbus/`): rove needs three
//! requests (the setup, `GetImage`, `GetKeyboardMapping`); `x11rb` or
//! Xlib would bring a protocol's worth of generated code or a C library
//! for them. The PNG encoder (`png.rs`) is the same size of problem: rows,
//! a filter byte, CRC-32, and deflate from `miniz_oxide`.
//!
//! Calls block on the socket; every read and write has what is left of the
//! call's deadline (the `Duration` given to [`Display::connect`], counted
//! afresh for each call). Async callers run them on the blocking pool.
//! Every length the server sends is checked against what the request
//! implies before anything is allocated for it.

mod auth;
mod connect;
mod image;
mod keymap;
mod png;
mod setup;
mod stream;
mod wire;

use std::time::{Duration, Instant};

pub use connect::DisplayName;
use setup::Screen;
use wire::Wire;

/// The most pixels one capture reads (a 5K screen is 14.7 million): the
/// reply is up to four bytes a pixel, all held at once.
const CAPTURE_PIXELS_MAX: u64 = 16_000_000;
/// The longest side of one capture.
const CAPTURE_SIDE_MAX: u64 = 16_384;

/// What can go wrong speaking X11.
#[derive(Debug, thiserror::Error)]
pub enum X11Error {
    /// `DISPLAY` is not set.
    #[error("no X display: DISPLAY is not set")]
    NoDisplay,
    /// `DISPLAY` is set to something rove does not connect to.
    #[error("DISPLAY={0:?} is not a local X display (:N, :N.S, unix:N or localhost:N)")]
    BadDisplay(String),
    /// Nothing answers at the display's socket.
    #[error("cannot connect to the X display {display}: {source}")]
    Connect {
        display: String,
        #[source]
        source: std::io::Error,
    },
    /// The server refused the connection (usually authorization).
    #[error("the X server refused the connection: {reason}")]
    Refused { reason: String },
    /// An X error, or bytes that are not the reply the request implies.
    #[error("X11 protocol: {0}")]
    Protocol(String),
    /// What this client does not read (a colormapped visual, 8 bpp).
    #[error("not supported by rove's X11 client: {0}")]
    Unsupported(String),
    /// A capture over the size limit.
    #[error(
        "a capture of {width}x{height} is over the limit ({CAPTURE_SIDE_MAX} a side, {CAPTURE_PIXELS_MAX} pixels)"
    )]
    TooLarge { width: u64, height: u64 },
    /// A capture rectangle with nothing of the screen in it.
    #[error(
        "the rectangle {width}x{height} at ({x}, {y}) is off the {screen_width}x{screen_height} screen"
    )]
    OffScreen {
        x: i32,
        y: i32,
        width: u32,
        height: u32,
        screen_width: u16,
        screen_height: u16,
    },
    /// The socket failed or the deadline passed (kind `TimedOut`).
    #[error("X11 connection: {0}")]
    Io(#[from] std::io::Error),
}

/// One connection to an X server, on its default (or `DISPLAY`'s) screen.
#[derive(Debug)]
pub struct Display {
    wire: Wire,
    screen: Screen,
    min_keycode: u8,
    max_keycode: u8,
    /// Read on the first [`Display::keycode_of`].
    keymap: Option<keymap::Keymap>,
    deadline: Duration,
}

/// Pixels as 8-bit RGB, row after row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rgb {
    pub width: u32,
    pub height: u32,
    /// `width * height * 3` bytes.
    pub pixels: Vec<u8>,
}

impl Rgb {
    /// The pixels as a PNG file (8-bit RGB).
    pub fn to_png(&self) -> Vec<u8> {
        png::encode(self)
    }
}

impl Display {
    /// Connects to `$DISPLAY` (`:N`, `:N.S`, `unix:N`: the socket
    /// `/tmp/.X11-unix/XN`; `localhost:N`, `127.0.0.1:N`: TCP port
    /// 6000+N), with the MIT-MAGIC-COOKIE-1 of `$XAUTHORITY` (or
    /// `~/.Xauthority`) for it when there is one. `deadline` bounds the
    /// connection and, afterwards, each call.
    pub fn connect(deadline: Duration) -> Result<Display, X11Error> {
        let name = std::env::var("DISPLAY").map_err(|_| X11Error::NoDisplay)?;
        if name.is_empty() {
            return Err(X11Error::NoDisplay);
        }
        Display::connect_to(&DisplayName::parse(&name)?, deadline)
    }

    /// Connects to the display `name`; see [`Display::connect`].
    pub fn connect_to(name: &DisplayName, deadline: Duration) -> Result<Display, X11Error> {
        let until = Instant::now() + deadline;
        let cookie = auth::cookie_for(name);
        let (wire, setup) = connect::open(name, cookie.as_deref(), until, deadline)?;
        let screen = setup.screen;
        Ok(Display {
            wire,
            screen,
            min_keycode: setup.min_keycode,
            max_keycode: setup.max_keycode,
            keymap: None,
            deadline,
        })
    }

    /// The screen's size in pixels.
    pub fn screen_size(&self) -> (u16, u16) {
        (self.screen.width, self.screen.height)
    }

    /// The pixels of the root window in the rectangle (clamped to the
    /// screen), as 8-bit RGB rows. A rectangle with nothing on the screen
    /// is [`X11Error::OffScreen`]; more than 16,384 a side or 16 million
    /// pixels (after clamping) is [`X11Error::TooLarge`].
    pub fn capture(&mut self, x: i32, y: i32, width: u32, height: u32) -> Result<Rgb, X11Error> {
        let (screen_width, screen_height) = self.screen_size();
        let left = i64::from(x).max(0);
        let top = i64::from(y).max(0);
        let right = (i64::from(x) + i64::from(width)).min(i64::from(screen_width));
        let bottom = (i64::from(y) + i64::from(height)).min(i64::from(screen_height));
        if right <= left || bottom <= top {
            return Err(X11Error::OffScreen {
                x,
                y,
                width,
                height,
                screen_width,
                screen_height,
            });
        }
        // Both within the screen's u16 now, and positive.
        let (w, h) = ((right - left) as u64, (bottom - top) as u64);
        if w > CAPTURE_SIDE_MAX || h > CAPTURE_SIDE_MAX || w * h > CAPTURE_PIXELS_MAX {
            return Err(X11Error::TooLarge {
                width: w,
                height: h,
            });
        }
        let until = Instant::now() + self.deadline;
        // X coordinates are 16-bit signed: a screen wider than that has no
        // address for its right part.
        let coordinate = |v: i64| {
            i16::try_from(v).map_err(|_| X11Error::Unsupported(format!("a coordinate of {v}")))
        };
        let rect = image::Rect {
            x: coordinate(left)?,
            y: coordinate(top)?,
            width: w as u16,
            height: h as u16,
        };
        image::capture(&mut self.wire, &self.screen, rect, until)
    }

    /// The keycode the server's keymap gives `keysym` (the key that types
    /// it with the fewest modifiers), `None` when no key has it. The
    /// keymap is read once, on the first call.
    pub fn keycode_of(&mut self, keysym: u32) -> Result<Option<u8>, X11Error> {
        if self.keymap.is_none() {
            let until = Instant::now() + self.deadline;
            self.keymap = Some(keymap::Keymap::read(
                &mut self.wire,
                self.min_keycode,
                self.max_keycode,
                until,
            )?);
        }
        Ok(self.keymap.as_ref().and_then(|k| k.keycode_of(keysym)))
    }
}
