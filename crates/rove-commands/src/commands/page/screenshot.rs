//! `screenshot`: the viewport, the full page, an element or a clip, as PNG
//! or JPEG, within a byte budget. A PNG over budget is retried as JPEG at
//! falling quality before giving up with `SCREENSHOT_BUDGET_EXCEEDED`.
//!
//! An area is captured only up to [`MAX_SIDE`] pixels a side and
//! [`MAX_PIXELS`] in all: a page a million pixels tall (or a clip that
//! size, or a viewport set that large at a high scale) makes Chromium's renderer die trying. A larger area is cut to its
//! top-left part and the answer says so, naming `clip` and `ref` for the
//! rest, rather than failing: the top of a long page is usually what was
//! wanted.

use base64::Engine;
use rove_cdp::protocol::page;
use serde_json::Value;

use crate::answer::happened::{Happened, Shot};
use crate::answer::outcome::Outcome;
use crate::session::Session;
use crate::{
    Clip, CommandError, DEFAULT_MAX_BYTES, ImageFormat, MAX_PIXELS, MAX_SIDE, ScreenshotArgs,
};

/// `clip` (CSS pixels) cut to its top-left part so that, at `ratio` image
/// pixels per CSS pixel, it stays within [`MAX_SIDE`] and [`MAX_PIXELS`];
/// `None` when it fits as it is.
fn capped(clip: &Clip, ratio: f64) -> Option<Clip> {
    let ratio = if ratio.is_finite() && ratio > 1.0 {
        ratio
    } else {
        1.0
    };
    let (side, pixels) = (MAX_SIDE / ratio, MAX_PIXELS / (ratio * ratio));
    let width = clip.width.min(side);
    let mut height = clip.height.min(side);
    if width * height > pixels {
        height = (pixels / width).floor();
    }
    (width < clip.width || height < clip.height).then_some(Clip {
        width,
        height,
        ..*clip
    })
}

/// JPEG qualities tried, in order, when an image is over budget.
const FALLBACK_QUALITIES: [u8; 3] = [80, 60, 40];

impl Session {
    pub(crate) async fn screenshot(
        &mut self,
        args: &ScreenshotArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let chosen = [args.target.is_some(), args.full_page, args.clip.is_some()]
            .iter()
            .filter(|c| **c)
            .count();
        if chosen > 1 {
            return Err(CommandError::Rejected(
                "choose one of ref, full_page and clip".into(),
            ));
        }
        if args.quality.is_some_and(|q| q > 100) {
            return Err(CommandError::Rejected("quality is 0 to 100".into()));
        }
        let budget = args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
        let tab = self.focused()?;
        if let Some(dialog) = tab.watch().await?.dialog() {
            return Err(crate::session::blocked_by(dialog));
        }
        let clip = match (&args.target, args.full_page, &args.clip) {
            (Some(target), _, _) => Some(self.element_clip(target).await?),
            (None, true, _) => {
                let metrics = tab.send(&page::GetLayoutMetrics {}).await?;
                let size = &metrics.css_content_size;
                Some(Clip {
                    x: 0.0,
                    y: 0.0,
                    width: size.width,
                    height: size.height,
                })
            }
            (None, false, Some(clip)) => Some(*clip),
            // The viewport is captured whole unless it is over the limits
            // (a large viewport at a high scale): then it is cut as a full
            // page is, from its top-left corner.
            (None, false, None) => {
                let metrics = tab.send(&page::GetLayoutMetrics {}).await?;
                let seen = &metrics.css_visual_viewport;
                let whole = Clip {
                    x: seen.page_x,
                    y: seen.page_y,
                    width: seen.client_width,
                    height: seen.client_height,
                };
                capped(&whole, self.device_scale()).map(|_| whole)
            }
        };
        if let Some(c) = &clip
            && !(c.width >= 1.0 && c.height >= 1.0 && c.x.is_finite() && c.y.is_finite())
        {
            return Err(CommandError::Rejected(format!(
                "the area to capture is empty ({} × {})",
                c.width, c.height
            )));
        }
        let clip = match clip {
            Some(whole) => match capped(&whole, self.device_scale()) {
                Some(part) => {
                    out.happened.push(Happened::ScreenshotCut {
                        whole: (whole.width, whole.height),
                        part: (part.width, part.height),
                    });
                    Some(part)
                }
                None => Some(whole),
            },
            None => None,
        };
        // Where the page shows a secret, measured before and after the
        // capture (a page that moves in between is masked at both places).
        let secrets = self.config().secrets.clone();
        let shown_before = super::mask::find_secret_boxes(&tab, &secrets).await?;
        let mut format = args.format;
        let mut quality = args.quality;
        let mut bytes = capture(&tab, format, quality, clip.as_ref()).await?;
        let mut smallest = bytes.len();
        let mut qualities = FALLBACK_QUALITIES.iter();
        while bytes.len() > budget {
            let Some(q) = qualities.next() else {
                return Err(CommandError::ScreenshotBudget {
                    bytes: smallest,
                    budget,
                });
            };
            if format == ImageFormat::Jpeg && quality.is_some_and(|current| current <= *q) {
                continue;
            }
            format = ImageFormat::Jpeg;
            quality = Some(*q);
            bytes = capture(&tab, format, quality, clip.as_ref()).await?;
            smallest = smallest.min(bytes.len());
            out.happened.push(Happened::Retaken {
                budget,
                quality: *q,
            });
        }
        let mime = match format {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
        };
        if let Some(before) = shown_before {
            let shown = match super::mask::find_secret_boxes(&tab, &secrets).await? {
                Some(after) => before.and(after),
                None => before,
            };
            let mut frame = super::mask::Frame {
                base64: base64::engine::general_purpose::STANDARD.encode(&bytes),
                mime,
                quality: (format == ImageFormat::Jpeg).then(|| quality.unwrap_or(80)),
                area: clip,
            };
            let regions = super::mask::paint(&tab, &mut frame, &shown).await?;
            if regions > 0 {
                bytes = unbase64(&frame.base64)?;
                out.happened.push(Happened::SecretsMasked { regions });
            }
        }
        let what = match (&args.target, args.full_page, &args.clip) {
            (Some(t), _, _) => Shot::Element(t.to_string()),
            (None, true, _) => Shot::FullPage,
            (None, false, Some(_)) => Shot::Clip,
            (None, false, None) => Shot::Viewport,
        };
        self.hand_over_image(what, bytes, mime, args.path.as_deref(), out)?;
        Ok(())
    }

    /// The element's box in page coordinates, after bringing it into view.
    async fn element_clip(&mut self, target: &rove_page::Target) -> Result<Clip, CommandError> {
        let target = target.reference()?;
        rove_input::scroll_into_view_of(self.model()?, target).await?;
        let element = self.model()?.element(target).await?;
        let call = rove_cdp::protocol::runtime::CallFunctionOn::on(
            "the element's box",
            "function() { const r = this.getBoundingClientRect(); return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; }",
            element.object_id.as_str(),
        )
        .by_value();
        let v: Value = element.session.run_checked_value(&call, None).await?;
        let clip = Clip {
            x: v["x"].as_f64().unwrap_or(0.0),
            y: v["y"].as_f64().unwrap_or(0.0),
            width: v["width"].as_f64().unwrap_or(0.0),
            height: v["height"].as_f64().unwrap_or(0.0),
        };
        if clip.width < 1.0 || clip.height < 1.0 {
            return Err(CommandError::Input(rove_input::InputError::NotActionable {
                target: target.to_string(),
                reason: "it has no box to capture (hidden or empty)".into(),
                cover: None,
            }));
        }
        Ok(clip)
    }
}

async fn capture(
    tab: &rove_browser::Tab,
    format: ImageFormat,
    quality: Option<u8>,
    clip: Option<&Clip>,
) -> Result<Vec<u8>, CommandError> {
    let mut params = page::CaptureScreenshot {
        format: Some(match format {
            ImageFormat::Png => page::CaptureScreenshotFormat::Png,
            ImageFormat::Jpeg => page::CaptureScreenshotFormat::Jpeg,
        }),
        capture_beyond_viewport: Some(clip.is_some()),
        ..page::CaptureScreenshot::default()
    };
    if let (ImageFormat::Jpeg, Some(q)) = (format, quality) {
        params.quality = Some(i64::from(q));
    }
    if let Some(c) = clip {
        params.clip = Some(page::Viewport {
            x: c.x,
            y: c.y,
            width: c.width,
            height: c.height,
            scale: 1.0,
        });
    }
    let shot = tab.send(&params).await?;
    unbase64(&shot.data)
}

/// An image the browser sent, as bytes.
fn unbase64(data: &str) -> Result<Vec<u8>, CommandError> {
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| {
            CommandError::io(
                "the browser sent an unreadable image",
                std::io::Error::new(std::io::ErrorKind::InvalidData, e),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capped1(clip: &Clip) -> Option<Clip> {
        capped(clip, 1.0)
    }

    #[test]
    fn a_device_scale_cuts_the_css_area_by_as_much() {
        let tall = capped(&clip(400.0, 100_000.0), 4.0).expect("cut");
        assert_eq!((tall.width, tall.height), (400.0, MAX_SIDE / 4.0));
        // A scale below 1 is never taken as room for more.
        assert_eq!(
            capped(&clip(400.0, 100_000.0), 0.5),
            capped1(&clip(400.0, 100_000.0))
        );
    }

    fn clip(width: f64, height: f64) -> Clip {
        Clip {
            x: 10.0,
            y: 20.0,
            width,
            height,
        }
    }

    #[test]
    fn the_largest_capture_fits_one_cdp_message() {
        // An image of 3 bytes a pixel that does not compress, in base64.
        let largest = MAX_PIXELS * 3.0 * 4.0 / 3.0;
        assert!(largest <= rove_base::limits::CDP_MESSAGE_BYTES as f64);
    }

    #[test]
    fn areas_are_cut_to_a_side_and_a_pixel_count() {
        assert!(capped1(&clip(1280.0, MAX_SIDE)).is_none());
        let tall = capped1(&clip(1280.0, 1_000_000.0)).expect("cut");
        assert_eq!((tall.width, tall.height), (1280.0, MAX_SIDE));
        assert_eq!((tall.x, tall.y), (10.0, 20.0), "from the same corner");
        let wide = capped1(&clip(f64::INFINITY, 100.0)).expect("cut");
        assert_eq!((wide.width, wide.height), (MAX_SIDE, 100.0));
        // Both sides at the limit are four times the pixels allowed.
        let square = capped1(&clip(MAX_SIDE, MAX_SIDE)).expect("cut");
        assert_eq!((square.width, square.height), (MAX_SIDE, 4_096.0));
        let odd = capped1(&clip(9_000.0, 9_000.0)).expect("cut");
        assert!(odd.width * odd.height <= MAX_PIXELS);
        assert_eq!(odd.height, (MAX_PIXELS / 9_000.0).floor());
    }
}
