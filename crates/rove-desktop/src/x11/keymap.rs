//! The server's keymap (`GetKeyboardMapping`): which keycode types a
//! keysym.

use std::time::Instant;

use super::X11Error;
use super::wire::Wire;

const GET_KEYBOARD_MAPPING: u8 = 101;

/// The keysyms of every keycode, `per` a keycode, from `first` on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Keymap {
    first: u8,
    per: usize,
    keysyms: Vec<u32>,
}

impl Keymap {
    /// Reads the keysyms of keycodes `min..=max` (the setup's range).
    pub fn read(wire: &mut Wire, min: u8, max: u8, until: Instant) -> Result<Keymap, X11Error> {
        // The setup's parser checked min <= max: at most 248 keycodes.
        let count = max - min + 1;
        let request = [GET_KEYBOARD_MAPPING, 0, 2, 0, min, count, 0, 0];
        let reply = wire.round_trip(&request, until, |header| {
            // keysyms per keycode (at most 255) × keycodes × 4 bytes
            Ok(usize::from(header[1]) * usize::from(count) * 4)
        })?;
        Ok(Keymap {
            first: min,
            per: usize::from(reply.header[1]),
            keysyms: reply
                .body
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
        })
    }

    /// The keycode with `keysym`, looked for column by column (unshifted
    /// first), as `XKeysymToKeycode` does: the key that types it with the
    /// fewest modifiers. `None` for NoSymbol (0) or a keysym no key has.
    pub fn keycode_of(&self, keysym: u32) -> Option<u8> {
        if keysym == 0 || self.per == 0 {
            return None;
        }
        (0..self.per).find_map(|column| {
            self.keysyms
                .chunks_exact(self.per)
                .position(|keys| keys[column] == keysym)
                .and_then(|i| u8::try_from(usize::from(self.first) + i).ok())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unshifted_column_wins_then_the_lowest_keycode() {
        let keymap = Keymap {
            first: 8,
            per: 2,
            keysyms: vec![
                0x61, 0x41, // 8: a A
                0x62, 0x61, // 9: b a (an odd layout)
                0xffe3, 0, // 10: Control_L
                0x41, 0, // 11: A unshifted
            ],
        };
        assert_eq!(keymap.keycode_of(0x61), Some(8));
        assert_eq!(keymap.keycode_of(0x62), Some(9));
        assert_eq!(keymap.keycode_of(0x41), Some(11));
        assert_eq!(keymap.keycode_of(0xffe3), Some(10));
        assert_eq!(keymap.keycode_of(0x1234567), None);
        assert_eq!(keymap.keycode_of(0), None);
    }
}
