//! `GetImage` of the root window, and its pixels as 8-bit RGB.

use std::time::Instant;

use super::setup::{Screen, pad4};
use super::wire::Wire;
use super::{Rgb, X11Error};

const GET_IMAGE: u8 = 73;
const Z_PIXMAP: u8 = 2;
const TRUE_COLOR: u8 = 4;
const DIRECT_COLOR: u8 = 5;

/// A rectangle already clamped to the screen.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rect {
    pub x: i16,
    pub y: i16,
    pub width: u16,
    pub height: u16,
}

/// How the pixels of a `ZPixmap` image are laid out.
#[derive(Debug, Clone)]
struct Layout {
    bits_per_pixel: u8,
    msb_first: bool,
    /// Bytes a row, padding included.
    stride: usize,
    masks: [u32; 3],
}

impl Layout {
    fn of(screen: &Screen, width: u16) -> Result<Layout, X11Error> {
        if screen.class != TRUE_COLOR && screen.class != DIRECT_COLOR {
            return Err(X11Error::Unsupported(format!(
                "a root visual of class {} (a colormap, not RGB masks)",
                screen.class
            )));
        }
        if ![16, 24, 32].contains(&screen.bits_per_pixel) {
            return Err(X11Error::Unsupported(format!(
                "{} bits a pixel",
                screen.bits_per_pixel
            )));
        }
        if ![8, 16, 32].contains(&screen.scanline_pad) {
            return Err(X11Error::Protocol(format!(
                "a scanline pad of {}",
                screen.scanline_pad
            )));
        }
        let masks = [screen.red_mask, screen.green_mask, screen.blue_mask];
        if masks.contains(&0) {
            return Err(X11Error::Protocol(format!("the visual's masks {masks:x?}")));
        }
        let pad = usize::from(screen.scanline_pad);
        let bits = usize::from(width) * usize::from(screen.bits_per_pixel);
        Ok(Layout {
            bits_per_pixel: screen.bits_per_pixel,
            msb_first: screen.msb_first,
            stride: bits.div_ceil(pad) * pad / 8,
            masks,
        })
    }
}

/// The pixels of the root window in `rect`.
pub(super) fn capture(
    wire: &mut Wire,
    screen: &Screen,
    rect: Rect,
    until: Instant,
) -> Result<Rgb, X11Error> {
    let layout = Layout::of(screen, rect.width)?;
    let mut request = vec![GET_IMAGE, Z_PIXMAP, 5, 0];
    request.extend_from_slice(&screen.root.to_le_bytes());
    request.extend_from_slice(&rect.x.to_le_bytes());
    request.extend_from_slice(&rect.y.to_le_bytes());
    request.extend_from_slice(&rect.width.to_le_bytes());
    request.extend_from_slice(&rect.height.to_le_bytes());
    request.extend_from_slice(&u32::MAX.to_le_bytes()); // all planes
    let size = pad4(layout.stride * usize::from(rect.height));
    let reply = wire.round_trip(&request, until, |_| Ok(size))?;
    if reply.header[1] != screen.depth {
        return Err(X11Error::Protocol(format!(
            "an image of depth {} from a root of depth {}",
            reply.header[1], screen.depth
        )));
    }
    let pixels = to_rgb(&reply.body, &layout, rect.width, rect.height)?;
    Ok(Rgb {
        width: u32::from(rect.width),
        height: u32::from(rect.height),
        pixels,
    })
}

/// Where a colour channel sits in a pixel, and how wide it is.
#[derive(Debug, Clone, Copy)]
struct Channel {
    mask: u32,
    shift: u32,
    max: u32,
}

impl Channel {
    fn new(mask: u32) -> Channel {
        let shift = mask.trailing_zeros();
        let bits = (mask >> shift).count_ones();
        // At least 1: a mask of 0 is refused before (Layout::of).
        let max = if bits >= 32 {
            u32::MAX
        } else {
            (1u32 << bits) - 1
        }
        .max(1);
        Channel { mask, shift, max }
    }

    /// The channel's value scaled to 0..=255.
    fn get(self, pixel: u32) -> u8 {
        let value = u64::from((pixel & self.mask) >> self.shift);
        let max = u64::from(self.max);
        // Rounded to the nearest: 5 bits of 31 are 255, 16 of 31 are 132.
        ((value * 255 + max / 2) / max).min(255) as u8
    }
}

/// The image's rows as RGB, dropping each row's padding.
fn to_rgb(data: &[u8], layout: &Layout, width: u16, height: u16) -> Result<Vec<u8>, X11Error> {
    let bytes_per_pixel = usize::from(layout.bits_per_pixel / 8);
    let row_bytes = usize::from(width) * bytes_per_pixel;
    if layout.stride < row_bytes || data.len() < layout.stride * usize::from(height) {
        return Err(X11Error::Protocol("an image shorter than its size".into()));
    }
    let [red, green, blue] = layout.masks.map(Channel::new);
    let mut out = Vec::with_capacity(usize::from(width) * usize::from(height) * 3);
    for row in data.chunks_exact(layout.stride).take(usize::from(height)) {
        for p in row[..row_bytes].chunks_exact(bytes_per_pixel) {
            let pixel = p.iter().enumerate().fold(0u32, |acc, (i, &b)| {
                if layout.msb_first {
                    acc << 8 | u32::from(b)
                } else {
                    acc | u32::from(b) << (8 * i)
                }
            });
            out.extend_from_slice(&[red.get(pixel), green.get(pixel), blue.get(pixel)]);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(bits_per_pixel: u8, msb_first: bool, stride: usize, masks: [u32; 3]) -> Layout {
        Layout {
            bits_per_pixel,
            msb_first,
            stride,
            masks,
        }
    }

    #[test]
    fn bgrx_32_bits_little_endian() {
        let l = layout(32, false, 8, [0xff0000, 0xff00, 0xff]);
        // Two rows of two: B G R X each.
        let data = [
            0x30, 0x20, 0x10, 0xee, 0, 0, 0xff, 0, //
            0xff, 0, 0, 0, 1, 2, 3, 4,
        ];
        let rgb = to_rgb(&data, &l, 2, 2).expect("converts");
        assert_eq!(rgb, [0x10, 0x20, 0x30, 0xff, 0, 0, 0, 0, 0xff, 3, 2, 1]);
        // The same pixels most significant byte first: X R G B.
        let msb = layout(32, true, 4, [0xff0000, 0xff00, 0xff]);
        let rgb = to_rgb(&[0xee, 0x10, 0x20, 0x30], &msb, 1, 1).expect("converts");
        assert_eq!(rgb, [0x10, 0x20, 0x30]);
    }

    #[test]
    fn rgb_565_in_16_bits_with_row_padding() {
        let l = layout(16, false, 8, [0xf800, 0x07e0, 0x001f]);
        // Three pixels a row and two bytes of padding, then a second row.
        let mut data = Vec::new();
        for pixel in [0xf800u16, 0x07e0, 0x001f] {
            data.extend_from_slice(&pixel.to_le_bytes());
        }
        data.extend_from_slice(&[0xaa, 0xaa]);
        for pixel in [0x8410u16, 0xffff, 0] {
            data.extend_from_slice(&pixel.to_le_bytes());
        }
        data.extend_from_slice(&[0xaa, 0xaa]);
        let rgb = to_rgb(&data, &l, 3, 2).expect("converts");
        assert_eq!(
            rgb,
            [
                255, 0, 0, 0, 255, 0, 0, 0, 255, //
                132, 130, 132, 255, 255, 255, 0, 0, 0
            ]
        );
        let msb = layout(16, true, 2, [0xf800, 0x07e0, 0x001f]);
        assert_eq!(
            to_rgb(&[0xf8, 0x00], &msb, 1, 1).expect("converts"),
            [255, 0, 0]
        );
    }

    #[test]
    fn packed_24_bits_both_orders() {
        let lsb = layout(24, false, 8, [0xff0000, 0xff00, 0xff]);
        let data = [0x03, 0x02, 0x01, 0x06, 0x05, 0x04, 0, 0];
        assert_eq!(
            to_rgb(&data, &lsb, 2, 1).expect("converts"),
            [1, 2, 3, 4, 5, 6]
        );
        let msb = layout(24, true, 4, [0xff0000, 0xff00, 0xff]);
        assert_eq!(
            to_rgb(&[1, 2, 3, 0], &msb, 1, 1).expect("converts"),
            [1, 2, 3]
        );
    }

    #[test]
    fn a_short_image_is_an_error() {
        let l = layout(32, false, 8, [0xff0000, 0xff00, 0xff]);
        assert!(to_rgb(&[0; 15], &l, 2, 2).is_err());
    }

    #[test]
    fn the_stride_follows_the_scanline_pad() {
        let mut screen = Screen {
            root: 1,
            width: 100,
            height: 100,
            depth: 16,
            bits_per_pixel: 16,
            scanline_pad: 32,
            msb_first: false,
            class: TRUE_COLOR,
            red_mask: 0xf800,
            green_mask: 0x07e0,
            blue_mask: 0x1f,
        };
        assert_eq!(Layout::of(&screen, 3).expect("a layout").stride, 8);
        screen.scanline_pad = 16;
        assert_eq!(Layout::of(&screen, 3).expect("a layout").stride, 6);
        screen.bits_per_pixel = 8;
        assert!(Layout::of(&screen, 3).is_err());
        screen.bits_per_pixel = 16;
        screen.class = 3; // PseudoColor
        assert!(Layout::of(&screen, 3).is_err());
    }
}
