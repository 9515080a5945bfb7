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
        // Password fields whether or not the session has secrets: what a
        // person typed there is one too.
        let shown: Vec<_> = elements
            .iter()
            .filter(|e| shows_secret(e, &secrets))
            .filter_map(|e| target.ids.get(&e.key).cloned())
            .collect();
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
                            // A window with no area, or none on the screen
                            // (`i32::MIN`), would stretch the union over
                            // other applications, or off the screen.
                            if !has_area(&at) {
                                continue;
                            }
                            whole = Some(match whole {
                                Some(w) => union(&w, &at),
                                None => at,
                            });
                        }
                        let whole = whole.ok_or_else(|| {
                            rove_desktop::DesktopError::NotActionable(
                                "be captured: no window of it has a place on the screen".to_owned(),
                            )
                        })?;
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

/// Whether `element` may show one of `secrets`: its name or value holds
/// one (in any disguise), or it is a password field, whose value rove
/// never reads but which shows it in the clear once its text is made
/// visible (GTK 4's peek icon).
fn shows_secret(element: &rove_page::NativeElement, secrets: &crate::Secrets) -> bool {
    if element.states.secret {
        return true;
    }
    if secrets.is_empty() {
        return false;
    }
    let text = format!(
        "{} {}",
        element.name,
        element.value.as_deref().unwrap_or_default()
    );
    secrets.redact(&text) != text
}

/// Whether a window's extents are somewhere: a size, and a place.
fn has_area(at: &Extents) -> bool {
    at.width > 0 && at.height > 0 && at.x != i32::MIN && at.y != i32::MIN
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

/// `clip` (pixels from the windows' top-left corner) on the screen, cut
/// to the windows: what lies beyond them is other applications', whose
/// secrets are not looked for.
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
    let int = |v: f64| i64::from(v.round() as i32);
    let cut = |from: i32, size: i32, start: f64, length: f64| {
        let (from, to) = (i64::from(from), i64::from(from) + i64::from(size));
        let start = from + int(start);
        let end = start + int(length);
        let (start, end) = (start.clamp(from, to), end.clamp(from, to));
        // Within the windows' i32 rectangle, so these fit.
        (
            i32::try_from(start).unwrap_or(i32::MAX),
            i32::try_from(end - start).unwrap_or(0),
        )
    };
    let (x, width) = cut(whole.x, whole.width, clip.x, clip.width);
    let (y, height) = cut(whole.y, whole.height, clip.y, clip.height);
    if width <= 0 || height <= 0 {
        return Err(rove_desktop::DesktopError::Unsupported(format!(
            "a clip of {} × {} at ({}, {}) outside the windows ({} × {})",
            clip.width, clip.height, clip.x, clip.y, whole.width, whole.height
        )));
    }
    Ok(Extents {
        x,
        y,
        width,
        height,
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
        // Past the windows' edges: cut to them, never another
        // application's pixels.
        let wide = crate::Clip {
            x: -50.0,
            y: 150.0,
            width: 10_000.0,
            height: 10_000.0,
        };
        assert_eq!(
            clipped(&dialog, &wide).expect("a clip"),
            Extents {
                x: 100,
                y: 200,
                width: 500,
                height: 50
            }
        );
        let beside = crate::Clip { x: 600.0, ..clip };
        assert!(clipped(&dialog, &beside).is_err());
    }

    #[test]
    fn a_window_without_a_place_or_a_size_joins_nothing() {
        let at = |x, y, width, height| Extents {
            x,
            y,
            width,
            height,
        };
        assert!(has_area(&at(100, 50, 500, 200)));
        assert!(!has_area(&at(0, 0, 0, 0)));
        assert!(!has_area(&at(10, 10, -1, 5)));
        assert!(!has_area(&at(i32::MIN, i32::MIN, 300, 200)));
    }

    #[test]
    fn a_password_field_is_painted_over_whatever_it_shows() {
        let secrets = crate::Secrets(vec![
            crate::session::secrets::Secret::parse("PIN=31337").expect("a secret"),
        ]);
        let element = |name: &str, value: Option<&str>, secret: bool| rove_page::NativeElement {
            name: name.to_owned(),
            value: value.map(str::to_owned),
            states: rove_page::NativeStates {
                secret,
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(shows_secret(
            &element("PIN", Some("31337"), false),
            &secrets
        ));
        assert!(shows_secret(&element("313", Some("37"), false), &secrets));
        assert!(!shows_secret(
            &element("PIN", Some("1234"), false),
            &secrets
        ));
        // Its value is never read: it is painted over all the same.
        assert!(shows_secret(&element("Password", None, true), &secrets));
    }
}
