//! What a `mouse` call did ([`MouseDid`]), rendered as its line.

use std::fmt;

use crate::MouseButton;

/// What a `mouse` call did; renders as its line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MouseDid {
    /// The pointer moved; `held` buttons were down (a drag).
    Moved {
        /// Where to.
        at: (f64, f64),
        /// Whether a button was held.
        dragging: bool,
    },
    /// A button went down and stays down.
    Pressed {
        /// Which.
        button: MouseButton,
        /// Where.
        at: (f64, f64),
    },
    /// A held button came up.
    Released {
        /// Which.
        button: MouseButton,
        /// Where.
        at: (f64, f64),
    },
    /// A click (count 2: a double click).
    Clicked {
        /// Which button.
        button: MouseButton,
        /// How many clicks.
        count: u8,
        /// Where.
        at: (f64, f64),
    },
    /// The wheel turned; the page's scroll before and after.
    Wheeled {
        /// The turn.
        delta: (f64, f64),
        /// Where.
        at: (f64, f64),
        /// The page's scroll (x, y) before.
        from: (f64, f64),
        /// And after.
        to: (f64, f64),
    },
}

impl MouseDid {
    /// Its line; `over` names the element under the pointer, as a view
    /// would (`e7 button "Save"`), when the point was on one.
    pub fn line(&self, over: Option<&str>) -> String {
        let name = |b: &MouseButton| format!("{b:?}").to_lowercase();
        let place = |at: &(f64, f64), word: &str| match over {
            Some(element) => format!("({:.0}, {:.0}) {word} {element}", at.0, at.1),
            None => format!("({:.0}, {:.0})", at.0, at.1),
        };
        match self {
            MouseDid::Moved { at, dragging } => {
                let held = if *dragging { " with a button held" } else { "" };
                format!("moved the pointer to {}{held}", place(at, "over"))
            }
            MouseDid::Pressed { button, at } => format!(
                "pressed the {} button at {}; it stays down until mouse up",
                name(button),
                place(at, "on")
            ),
            MouseDid::Released { button, at } => {
                format!(
                    "released the {} button at {}",
                    name(button),
                    place(at, "on")
                )
            }
            MouseDid::Clicked { button, count, at } => {
                let what = match (count, button) {
                    (2, _) => "double-clicked".to_owned(),
                    (3, _) => "triple-clicked".to_owned(),
                    (_, MouseButton::Left) => "clicked".to_owned(),
                    (_, b) => format!("{}-clicked", name(b)),
                };
                format!("{what} at {}", place(at, "on"))
            }
            MouseDid::Wheeled {
                delta,
                at,
                from,
                to,
            } => {
                let turned = format!(
                    "turned the wheel by ({:.0}, {:.0}) at {}: ",
                    delta.0,
                    delta.1,
                    place(at, "over")
                );
                if (to.0 - from.0).abs() < 1.0 && (to.1 - from.1).abs() < 1.0 {
                    format!(
                        "{turned}the page stayed at ({:.0}, {:.0}) (a box under the pointer may have scrolled)",
                        to.0, to.1
                    )
                } else {
                    format!(
                        "{turned}the page scrolled from ({:.0}, {:.0}) to ({:.0}, {:.0})",
                        from.0, from.1, to.0, to.1
                    )
                }
            }
        }
    }
}

impl fmt::Display for MouseDid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line(None))
    }
}
