//! Text on the frames of a run's GIF (`animation.rs`): a font found on the
//! system, lines wrapped to the frame's width, and glyphs drawn into RGB.
//!
//! rove ships no font. It takes `ROVE_FONT` (a TrueType or OpenType file)
//! when set, else the first of DejaVu Sans (Debian's `fonts-dejavu-core`, under the
//! Bitstream Vera licence and public domain changes: free to use) or
//! Liberation Sans (`fonts-liberation`, SIL Open Font License), at the
//! paths distributions install them; none there is
//! [`FontError::NoFont`], naming where it looked and how to give one.

use std::path::{Path, PathBuf};

use ab_glyph::{Font as _, FontVec, PxScale, ScaleFont as _, point};

/// Why no font could be had.
#[derive(Debug, thiserror::Error)]
pub enum FontError {
    /// None at any place looked.
    #[error(
        "no font to write on the frames: looked at {}; set ROVE_FONT to a .ttf file or install fonts-dejavu-core",
        looked.join(", ")
    )]
    NoFont {
        /// The paths tried.
        looked: Vec<String>,
    },
    /// The font file is no font.
    #[error("{}: not a TrueType or OpenType font", path.display())]
    BadFont {
        /// It.
        path: PathBuf,
    },
}

/// Where fonts are looked for, in order, after `ROVE_FONT`.
const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
];

/// The largest font file read (bytes).
const FONT_BYTES: u64 = 32 << 20;

/// A font at one size.
pub(crate) struct Pen {
    font: FontVec,
    scale: PxScale,
}

impl Pen {
    /// The system's font (see the module doc) at `px` pixels.
    pub(crate) fn find(px: f32) -> Result<Pen, FontError> {
        // A font named is the one used: never another in its place.
        let given = std::env::var_os("ROVE_FONT").map(PathBuf::from);
        let places: Vec<&Path> = match &given {
            Some(path) => vec![path.as_path()],
            None => FONT_PATHS.iter().map(Path::new).collect(),
        };
        for path in &places {
            let Ok(bytes) = rove_base::user_file::read_bytes(path, FONT_BYTES) else {
                continue;
            };
            let font = FontVec::try_from_vec(bytes).map_err(|_| FontError::BadFont {
                path: path.to_path_buf(),
            })?;
            return Ok(Pen {
                font,
                scale: PxScale::from(px),
            });
        }
        Err(FontError::NoFont {
            looked: places.iter().map(|p| p.display().to_string()).collect(),
        })
    }

    /// The height of a line, in pixels.
    pub(crate) fn line_height(&self) -> u32 {
        let f = self.font.as_scaled(self.scale);
        (f.height() + f.line_gap()).ceil().max(1.0) as u32
    }

    fn width_of(&self, text: &str) -> f32 {
        let f = self.font.as_scaled(self.scale);
        text.chars().map(|c| f.h_advance(f.glyph_id(c))).sum()
    }

    /// `text` in lines no wider than `width` pixels: broken at spaces, a
    /// word wider than a line broken where it must. At most `max` lines;
    /// more end the last with `…`, so nothing runs past the frame.
    pub(crate) fn wrap(&self, text: &str, width: f32, max: usize) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        for paragraph in text.lines() {
            let mut line = String::new();
            for word in paragraph.split_whitespace() {
                let joined = match line.is_empty() {
                    true => word.to_owned(),
                    false => format!("{line} {word}"),
                };
                if self.width_of(&joined) <= width {
                    line = joined;
                    continue;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                for c in word.chars() {
                    line.push(c);
                    if self.width_of(&line) > width {
                        line.pop();
                        lines.push(std::mem::replace(&mut line, c.to_string()));
                    }
                }
            }
            if !line.is_empty() {
                lines.push(line);
            }
        }
        if lines.len() > max {
            lines.truncate(max);
            if let Some(last) = lines.last_mut() {
                while !last.is_empty() && self.width_of(&format!("{last} …")) > width {
                    last.pop();
                }
                last.push_str(" …");
            }
        }
        lines
    }

    /// Draws `line` into `rgb` (`width` pixels a row) with its top left at
    /// (`x`, `y`), in `colour`; what falls outside is not drawn.
    pub(crate) fn draw(
        &self,
        rgb: &mut [u8],
        width: u32,
        (x, y): (f32, f32),
        line: &str,
        colour: [u8; 3],
    ) {
        let f = self.font.as_scaled(self.scale);
        let height = rgb.len() / (width as usize * 3);
        let mut caret = x;
        let baseline = y + f.ascent();
        for c in line.chars() {
            let id = f.glyph_id(c);
            let glyph = id.with_scale_and_position(self.scale, point(caret, baseline));
            caret += f.h_advance(id);
            let Some(outlined) = self.font.outline_glyph(glyph) else {
                continue;
            };
            let bounds = outlined.px_bounds();
            outlined.draw(|gx, gy, coverage| {
                let px = bounds.min.x as i64 + i64::from(gx);
                let py = bounds.min.y as i64 + i64::from(gy);
                if px < 0 || py < 0 || px >= i64::from(width) || py >= height as i64 {
                    return;
                }
                let at = (py as usize * width as usize + px as usize) * 3;
                let a = coverage.clamp(0.0, 1.0);
                for (k, channel) in colour.iter().enumerate() {
                    let old = f32::from(rgb[at + k]);
                    rgb[at + k] = (old + (f32::from(*channel) - old) * a).round() as u8;
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_lines_fit_the_width_and_keep_every_word() {
        // The system's font: Chromium's dependencies (fontconfig) install
        // DejaVu Sans on Debian.
        let pen = Pen::find(17.0).expect("a font on the system");
        let text = "click the button \"Add to cart\" on the product page \
                    https://shop.example/products/a-very-long-name-without-any-space-in-it-at-all-0123456789abcdef";
        let lines = pen.wrap(text, 300.0, 20);
        assert!(lines.len() > 2, "{lines:?}");
        for line in &lines {
            assert!(
                pen.width_of(line) <= 300.0,
                "{line:?} is wider than the frame"
            );
        }
        let joined: String = lines.concat();
        let words: String = text.split_whitespace().collect();
        assert_eq!(joined.replace(' ', ""), words, "a word was lost");
        // Past the most lines, the last says there is more.
        let cut = pen.wrap(text, 300.0, 2);
        assert_eq!(cut.len(), 2);
        assert!(
            cut[1].ends_with(" …") && pen.width_of(&cut[1]) <= 300.0,
            "{cut:?}"
        );
    }

    #[test]
    fn text_is_drawn_inside_the_picture_only() {
        let pen = Pen::find(17.0).expect("a font on the system");
        let (w, h) = (40u32, 20usize);
        let mut rgb = vec![0u8; w as usize * h * 3];
        // Half of it past the right edge and the bottom: no panic, and
        // what is inside is drawn.
        pen.draw(&mut rgb, w, (20.0, 8.0), "WWWW", [255, 255, 255]);
        assert!(rgb.iter().any(|&v| v > 0));
    }
}
