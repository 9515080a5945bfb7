//! rove's own X11 client against a real X server: a capture as PNG, and the
//! keymap. Without a display this fails (NoDisplay), it does not skip.

use std::time::Duration;

use rove_desktop::x11::{Display, X11Error};

/// The rows of a PNG's IDAT, after checking its IHDR says `width`×`height`
/// 8-bit RGB.
fn png_rows(png: &[u8], width: u32, height: u32) -> Vec<u8> {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    assert_eq!(&png[16..20], width.to_be_bytes());
    assert_eq!(&png[20..24], height.to_be_bytes());
    assert_eq!(&png[24..26], &[8, 2], "8-bit RGB");
    let mut rest = &png[8..];
    let mut idat = Vec::new();
    while rest.len() >= 12 {
        let len = u32::from_be_bytes(rest[..4].try_into().expect("4 bytes")) as usize;
        if &rest[4..8] == b"IDAT" {
            idat.extend_from_slice(&rest[8..8 + len]);
        }
        rest = &rest[12 + len..];
    }
    miniz_oxide::inflate::decompress_to_vec_zlib(&idat).expect("IDAT inflates")
}

#[test]
fn x11_captures_the_screen_as_png_and_reads_the_keymap() {
    let mut display = Display::connect(Duration::from_secs(5))
        .expect("an X display (run inside scripts/desktop-env.sh)");
    let (width, height) = display.screen_size();
    assert!(width >= 100 && height >= 80, "{width}x{height}");

    let rgb = display.capture(10, 20, 100, 80).expect("captures");
    assert_eq!(
        (rgb.width, rgb.height, rgb.pixels.len()),
        (100, 80, 100 * 80 * 3)
    );
    let rows = png_rows(&rgb.to_png(), 100, 80);
    assert_eq!(rows.len(), 80 * (1 + 300));

    // Clamped to the screen: 50 of the 100 columns are on it.
    let edge = display
        .capture(i32::from(width) - 50, -10, 100, 40)
        .expect("captures the part on the screen");
    assert_eq!((edge.width, edge.height), (50, 30));
    let off = display
        .capture(-200, 0, 100, 100)
        .expect_err("off the screen");
    assert!(matches!(off, X11Error::OffScreen { .. }), "{off}");

    assert_eq!(
        display.keycode_of(0xffe3).expect("the keymap"),
        Some(37),
        "Control_L"
    );
    assert_eq!(display.keycode_of(0x1234567).expect("the keymap"), None);
    // The connection is still in step after all of it.
    display.capture(0, 0, 1, 1).expect("captures again");
}
