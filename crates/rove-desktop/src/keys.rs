//! Key names as X keysyms, for keys sent through the accessibility
//! registry (`DeviceEventController.GenerateKeyboardEvent`).

use crate::DesktopError;

/// A key with the modifiers held around it (`Control+A`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chord {
    /// The modifiers' keysyms (`Control_L`), pressed in order and released
    /// in reverse.
    pub modifiers: Vec<u32>,
    /// The key's keysym.
    pub keysym: u32,
}

/// A chord as `press` names it: `Enter`, `a`, `Control+A`, `Shift+Tab`.
/// The modifiers are named by their left keys' keysyms; they are held by
/// keycode (`KEY_PRESS` takes keycodes), looked up in the X server's keymap
/// (`atspi/input.rs`).
pub fn chord(name: &str) -> Result<Chord, DesktopError> {
    let mut parts: Vec<&str> = if name.chars().count() > 1 {
        name.split('+').collect()
    } else {
        vec![name]
    };
    // `Control++` names the plus key.
    if parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
        if let Some(last) = parts.last_mut() {
            *last = "+";
        }
    }
    let key = parts.pop().unwrap_or_default();
    let modifiers = parts
        .iter()
        .map(|m| match m.to_ascii_lowercase().as_str() {
            "control" | "ctrl" => Ok(CONTROL_L),
            "shift" => Ok(SHIFT_L),
            "alt" => Ok(ALT_L),
            "meta" | "super" => Ok(SUPER_L),
            _ => Err(DesktopError::Unsupported(format!(
                "the modifier {m:?} in {name:?} (Control, Shift, Alt and Meta are)"
            ))),
        })
        .collect::<Result<Vec<u32>, _>>()?;
    // A shifted letter is its capital's keysym with Shift held: the key
    // the user meant, whichever case was written.
    let keysym = match (modifiers.is_empty(), key.chars().count()) {
        (false, 1) => keysym(&key.to_lowercase())?,
        _ => keysym(key)?,
    };
    Ok(Chord { modifiers, keysym })
}

const CONTROL_L: u32 = 0xffe3;
const SHIFT_L: u32 = 0xffe1;
const ALT_L: u32 = 0xffe9;
const SUPER_L: u32 = 0xffeb;

/// The keycode of a modifier's keysym in the evdev keymap that Xorg, Xvfb
/// and XWayland use: what rove holds when the server's own keymap cannot
/// be read.
pub(crate) fn evdev_keycode(keysym: u32) -> Option<u32> {
    match keysym {
        CONTROL_L => Some(37),
        SHIFT_L => Some(50),
        ALT_L => Some(64),
        SUPER_L => Some(133),
        _ => None,
    }
}

/// The keys that type `text`: a character's own key, Return for a line
/// break (`\r\n` is one), Tab for a tab.
pub fn typed(text: &str) -> Result<Vec<Chord>, DesktopError> {
    text.replace("\r\n", "\n")
        .chars()
        .map(|c| {
            let keysym = match c {
                '\n' | '\r' => 0xff0d,
                '\t' => 0xff09,
                c => keysym(&c.to_string())?,
            };
            Ok(Chord {
                modifiers: Vec::new(),
                keysym,
            })
        })
        .collect()
}

/// The keysym of one key as `press` names it (`Enter`, `Escape`, `a`,
/// `7`, `F5`).
pub fn keysym(name: &str) -> Result<u32, DesktopError> {
    let named = match name.to_ascii_lowercase().as_str() {
        "enter" | "return" => Some(0xff0d),
        "escape" | "esc" => Some(0xff1b),
        "tab" => Some(0xff09),
        "backspace" => Some(0xff08),
        "delete" => Some(0xffff),
        "insert" => Some(0xff63),
        "home" => Some(0xff50),
        "end" => Some(0xff57),
        "pageup" => Some(0xff55),
        "pagedown" => Some(0xff56),
        "arrowleft" | "left" => Some(0xff51),
        "arrowup" | "up" => Some(0xff52),
        "arrowright" | "right" => Some(0xff53),
        "arrowdown" | "down" => Some(0xff54),
        "space" => Some(0x20),
        _ => None,
    };
    if let Some(sym) = named {
        return Ok(sym);
    }
    if let Some(n) = name
        .strip_prefix(['F', 'f'])
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| (1..=24).contains(n))
    {
        return Ok(0xffbe + n - 1);
    }
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        // Latin-1 keysyms are the code points; the rest of Unicode is
        // 0x01000000 plus the code point.
        (Some(c), None) if u32::from(c) <= 0xff && !c.is_control() => Ok(u32::from(c)),
        (Some(c), None) if !c.is_control() => Ok(0x0100_0000 | u32::from(c)),
        _ => Err(DesktopError::Unsupported(format!(
            "pressing the key {name:?}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_keysyms_x_knows() {
        assert_eq!(keysym("Enter").expect("a key"), 0xff0d);
        assert_eq!(keysym("escape").expect("a key"), 0xff1b);
        assert_eq!(keysym("7").expect("a key"), 0x37);
        assert_eq!(keysym("*").expect("a key"), 0x2a);
        assert_eq!(keysym("+").expect("a key"), 0x2b);
        assert_eq!(keysym("F5").expect("a key"), 0xffc2);
        assert_eq!(keysym("×").expect("a key"), 0xd7);
        assert_eq!(keysym("€").expect("a key"), 0x0100_20ac);
        assert_eq!(
            chord("Control+A").expect("a chord"),
            Chord {
                modifiers: vec![CONTROL_L],
                keysym: 0x61
            }
        );
        assert_eq!(chord("Shift+Tab").expect("a chord").modifiers, [SHIFT_L]);
        assert_eq!(evdev_keycode(SHIFT_L), Some(50));
        assert_eq!(chord("Control++").expect("a chord").keysym, 0x2b);
        assert_eq!(chord("+").expect("a key").keysym, 0x2b);
        assert!(chord("Hyper+A").is_err());
        assert!(keysym("NoSuchKey").is_err());
        assert!(keysym("").is_err());
    }

    #[test]
    fn typed_text_breaks_lines_with_return_and_refuses_other_controls() {
        let keys = |text: &str| -> Vec<u32> {
            typed(text)
                .expect("typable")
                .into_iter()
                .map(|c| c.keysym)
                .collect()
        };
        assert_eq!(keys("a\nb"), [0x61, 0xff0d, 0x62]);
        assert_eq!(keys("a\r\nb\tc"), [0x61, 0xff0d, 0x62, 0xff09, 0x63]);
        assert!(typed("bell\u{7}").is_err());
    }
}
