//! The server's setup reply: the keycode range, and of the chosen screen
//! its root window, size and how its pixels are laid out.

use super::X11Error;

/// What the server said about one screen, as far as capturing it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Screen {
    pub root: u32,
    pub width: u16,
    pub height: u16,
    pub depth: u8,
    /// Of the pixmap format of the root's depth.
    pub bits_per_pixel: u8,
    pub scanline_pad: u8,
    /// The image byte order: most significant byte first.
    pub msb_first: bool,
    /// The root visual's class (4 TrueColor, 5 DirectColor, …).
    pub class: u8,
    pub red_mask: u32,
    pub green_mask: u32,
    pub blue_mask: u32,
}

/// The parts of the setup reply rove uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Setup {
    pub min_keycode: u8,
    pub max_keycode: u8,
    pub screen: Screen,
}

/// Bounds-checked little-endian reads; past the end is a protocol error.
pub(super) struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes, at: 0 }
    }

    pub fn take(&mut self, n: usize) -> Result<&'a [u8], X11Error> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| X11Error::Protocol("the setup reply ends early".into()))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    pub fn u8(&mut self) -> Result<u8, X11Error> {
        Ok(self.take(1)?[0])
    }

    pub fn u16(&mut self) -> Result<u16, X11Error> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn u32(&mut self) -> Result<u32, X11Error> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Rounds up to a multiple of four, as X pads strings and lists.
pub(super) fn pad4(n: usize) -> usize {
    n.div_ceil(4) * 4
}

/// Parses the setup reply's data (what follows its 8-byte header) for
/// screen `screen_number`.
pub(super) fn parse(data: &[u8], screen_number: u32) -> Result<Setup, X11Error> {
    let mut c = Cursor::new(data);
    c.take(16)?; // release, resource id base and mask, motion buffer size
    let vendor_len = usize::from(c.u16()?);
    c.u16()?; // maximum request length
    let screens = c.u8()?;
    let formats = c.u8()?;
    let msb_first = match c.u8()? {
        0 => false,
        1 => true,
        other => return Err(X11Error::Protocol(format!("image byte order {other}"))),
    };
    c.take(3)?; // bitmap bit order, scanline unit and pad
    let min_keycode = c.u8()?;
    let max_keycode = c.u8()?;
    if min_keycode < 8 || max_keycode < min_keycode {
        return Err(X11Error::Protocol(format!(
            "keycodes {min_keycode}..={max_keycode}"
        )));
    }
    c.take(4)?;
    c.take(pad4(vendor_len))?;
    // depth → (bits per pixel, scanline pad)
    let mut pixmap_formats = Vec::with_capacity(usize::from(formats));
    for _ in 0..formats {
        let f = c.take(8)?;
        pixmap_formats.push((f[0], f[1], f[2]));
    }
    if screen_number >= u32::from(screens) {
        return Err(X11Error::Protocol(format!(
            "DISPLAY asks for screen {screen_number}; the server has {screens}"
        )));
    }
    for n in 0..screens {
        let screen = parse_screen(&mut c, msb_first, &pixmap_formats)?;
        if u32::from(n) == screen_number {
            return Ok(Setup {
                min_keycode,
                max_keycode,
                screen,
            });
        }
    }
    Err(X11Error::Protocol("no screens".into()))
}

fn parse_screen(
    c: &mut Cursor<'_>,
    msb_first: bool,
    pixmap_formats: &[(u8, u8, u8)],
) -> Result<Screen, X11Error> {
    let root = c.u32()?;
    c.take(16)?; // colormap, white and black pixels, input masks
    let width = c.u16()?;
    let height = c.u16()?;
    c.take(8)?; // size in millimetres, installed maps
    let root_visual = c.u32()?;
    c.take(2)?; // backing stores, save unders
    let depth = c.u8()?;
    let depths = c.u8()?;
    let mut found = None;
    for _ in 0..depths {
        let this_depth = c.u8()?;
        c.u8()?;
        let visuals = c.u16()?;
        c.take(4)?;
        for _ in 0..visuals {
            // id, class, bits per RGB value, colormap entries, the
            // red, green and blue masks, 4 unused
            let mut v = Cursor::new(c.take(24)?);
            let id = v.u32()?;
            let class = v.u8()?;
            v.take(3)?;
            let masks = (v.u32()?, v.u32()?, v.u32()?);
            if id == root_visual && this_depth == depth {
                found = Some((class, masks.0, masks.1, masks.2));
            }
        }
    }
    let (class, red_mask, green_mask, blue_mask) = found.ok_or_else(|| {
        X11Error::Protocol(format!(
            "the root visual {root_visual:#x} is not listed at depth {depth}"
        ))
    })?;
    let (_, bits_per_pixel, scanline_pad) =
        pixmap_formats
            .iter()
            .copied()
            .find(|f| f.0 == depth)
            .ok_or_else(|| X11Error::Protocol(format!("no pixmap format for depth {depth}")))?;
    Ok(Screen {
        root,
        width,
        height,
        depth,
        bits_per_pixel,
        scanline_pad,
        msb_first,
        class,
        red_mask,
        green_mask,
        blue_mask,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A setup reply's data: one 24-bit TrueColor screen of 640x480.
    fn sample() -> Vec<u8> {
        let mut d = Vec::new();
        d.extend_from_slice(&[0; 16]);
        d.extend_from_slice(&3u16.to_le_bytes()); // vendor length
        d.extend_from_slice(&0xffffu16.to_le_bytes());
        d.extend_from_slice(&[1, 2, 0, 0, 32, 32, 8, 255, 0, 0, 0, 0]);
        d.extend_from_slice(b"Xv\0\0");
        d.extend_from_slice(&[1, 1, 32, 0, 0, 0, 0, 0]);
        d.extend_from_slice(&[24, 32, 32, 0, 0, 0, 0, 0]);
        d.extend_from_slice(&0x123u32.to_le_bytes()); // root
        d.extend_from_slice(&[0; 16]);
        d.extend_from_slice(&640u16.to_le_bytes());
        d.extend_from_slice(&480u16.to_le_bytes());
        d.extend_from_slice(&[0; 8]);
        d.extend_from_slice(&0x21u32.to_le_bytes()); // root visual
        d.extend_from_slice(&[0, 0, 24, 2]);
        d.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]); // depth 1, no visuals
        d.extend_from_slice(&[24, 0, 1, 0, 0, 0, 0, 0]);
        d.extend_from_slice(&0x21u32.to_le_bytes());
        d.extend_from_slice(&[4, 8, 0, 1]);
        for mask in [0xff0000u32, 0xff00, 0xff, 0] {
            d.extend_from_slice(&mask.to_le_bytes());
        }
        d
    }

    #[test]
    fn the_setup_reply_gives_the_screen_and_its_pixel_layout() {
        let setup = parse(&sample(), 0).expect("parses");
        assert_eq!((setup.min_keycode, setup.max_keycode), (8, 255));
        let s = setup.screen;
        assert_eq!((s.root, s.width, s.height, s.depth), (0x123, 640, 480, 24));
        assert_eq!(
            (s.bits_per_pixel, s.scanline_pad, s.msb_first),
            (32, 32, false)
        );
        assert_eq!(
            (s.class, s.red_mask, s.green_mask, s.blue_mask),
            (4, 0xff0000, 0xff00, 0xff)
        );
    }

    #[test]
    fn a_cut_setup_reply_or_a_missing_screen_is_an_error() {
        let data = sample();
        for cut in [0, 10, 40, data.len() - 1] {
            assert!(parse(&data[..cut], 0).is_err(), "cut at {cut}");
        }
        let said = parse(&data, 1).expect_err("one screen").to_string();
        assert!(said.contains("screen 1"), "{said}");
    }
}
