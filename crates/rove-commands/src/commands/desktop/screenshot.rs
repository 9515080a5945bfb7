//! `screenshot` of a desktop application: its windows (or an element, or a
//! clip of the windows) read from the X display as PNG, within the byte
//! budget, with every element that shows one of the session's secrets
//! painted over, as a page's are masked.

use rove_base::limits;
use rove_desktop::{Backend, Extents};

use crate::answer::happened::Shot;
use crate::{CommandError, DEFAULT_MAX_BYTES, ImageFormat, Outcome, ScreenshotArgs, Session};

impl Session {
    pub(super) async fn desktop_screenshot(
        &mut self,
        args: &ScreenshotArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        if args.full_page {
            return Err(CommandError::Rejected(
                "a desktop application has no page beyond its windows: screenshot takes the windows, an element (ref) or a clip of them".to_owned(),
            ));
        }
        if args.format == ImageFormat::Jpeg || args.quality.is_some() {
            return Err(CommandError::Rejected(
                "a desktop application's screenshot is PNG; leave out format and quality"
                    .to_owned(),
            ));
        }
        if args.target.is_some() && args.clip.is_some() {
            return Err(CommandError::Rejected(
                "choose one of ref and clip".to_owned(),
            ));
        }
        let secrets = self.config().secrets.clone();
        let Some(target) = self.desktop() else {
            return Err(CommandError::Rejected("no desktop target".to_owned()));
        };
        // Read afresh: windows move, and a secret may have been typed since.
        let elements = target.read().await?;
        let windows: Vec<_> = elements
            .iter()
            .filter(|e| e.depth == 0)
            .filter_map(|e| target.ids.get(&e.key).cloned())
            .collect();
        let shown: Vec<_> = if secrets.is_empty() {
            Vec::new()
        } else {
            elements
                .iter()
                .filter(|e| {
                    let text = format!("{} {}", e.name, e.value.as_deref().unwrap_or_default());
                    secrets.redact(&text) != text
                })
                .filter_map(|e| target.ids.get(&e.key).cloned())
                .collect()
        };
        let element = match &args.target {
            Some(t) => Some(super::node(target, t.reference()?)?),
            None => None,
        };
        let clip = args.clip;
        let png = target
            .bus
            .run(limits::DESKTOP_TREE, move |b| {
                let area = match (element, clip) {
                    (Some(node), _) => b.extents(&node)?,
                    (None, clip) => {
                        let mut whole: Option<Extents> = None;
                        for window in &windows {
                            let at = b.extents(window)?;
                            whole = Some(match whole {
                                Some(w) => union(&w, &at),
                                None => at,
                            });
                        }
                        let whole = whole.ok_or(rove_desktop::DesktopError::NodeGone)?;
                        match clip {
                            Some(c) => clipped(&whole, &c)?,
                            None => whole,
                        }
                    }
                };
                let hide = shown
                    .iter()
                    .map(|node| b.extents(node))
                    .collect::<Result<Vec<_>, _>>()?;
                b.capture(&area, &hide)
            })
            .await?;
        let budget = args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
        if png.len() > budget {
            return Err(CommandError::ScreenshotBudget {
                bytes: png.len(),
                budget,
            });
        }
        let what = match &args.target {
            Some(t) => Shot::Element(t.to_string()),
            None if args.clip.is_some() => Shot::Clip,
            None => Shot::Window,
        };
        self.hand_over_image(what, png, "image/png", args.path.as_deref(), out)
    }
}

/// The smallest rectangle that holds both.
fn union(a: &Extents, b: &Extents) -> Extents {
    let (x, y) = (a.x.min(b.x), a.y.min(b.y));
    let right = a.x.saturating_add(a.width).max(b.x.saturating_add(b.width));
    let bottom =
        a.y.saturating_add(a.height)
            .max(b.y.saturating_add(b.height));
    Extents {
        x,
        y,
        width: right.saturating_sub(x),
        height: bottom.saturating_sub(y),
    }
}

/// `clip` (pixels from the windows' top-left corner) on the screen.
fn clipped(whole: &Extents, clip: &crate::Clip) -> Result<Extents, rove_desktop::DesktopError> {
    let fits = |v: f64| v.is_finite() && v.abs() < f64::from(i32::MAX / 2);
    if !(fits(clip.x) && fits(clip.y) && fits(clip.width) && fits(clip.height))
        || clip.width < 1.0
        || clip.height < 1.0
    {
        return Err(rove_desktop::DesktopError::Unsupported(format!(
            "a clip of {} × {} at ({}, {})",
            clip.width, clip.height, clip.x, clip.y
        )));
    }
    // Within ±2^30 (checked above), so these convert exactly enough.
    let int = |v: f64| v.round() as i32;
    Ok(Extents {
        x: whole.x.saturating_add(int(clip.x)),
        y: whole.y.saturating_add(int(clip.y)),
        width: int(clip.width),
        height: int(clip.height),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_join_and_a_clip_counts_from_their_corner() {
        let main = Extents {
            x: 0,
            y: 0,
            width: 400,
            height: 300,
        };
        let dialog = Extents {
            x: 100,
            y: 50,
            width: 500,
            height: 200,
        };
        assert_eq!(
            union(&main, &dialog),
            Extents {
                x: 0,
                y: 0,
                width: 600,
                height: 300
            }
        );
        let clip = crate::Clip {
            x: 10.0,
            y: 20.0,
            width: 30.4,
            height: 40.6,
        };
        assert_eq!(
            clipped(&dialog, &clip).expect("a clip"),
            Extents {
                x: 110,
                y: 70,
                width: 30,
                height: 41
            }
        );
        let empty = crate::Clip { width: 0.0, ..clip };
        assert!(clipped(&dialog, &empty).is_err());
        let huge = crate::Clip {
            x: f64::INFINITY,
            ..clip
        };
        assert!(clipped(&dialog, &huge).is_err());
    }
}
