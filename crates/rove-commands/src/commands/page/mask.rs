//! Secrets masked out of images of the page.
//!
//! A page that shows a secret's value as text (an echo, a "your token is …"
//! page, a field holding it) puts it into every image of the page: the
//! screenshots a model and a judge see, those in traces and reports. rove
//! knows the values, so before an image leaves it the boxes of the text
//! and the field values that show one are painted over ([`mask_frame`]:
//! one function for any frame the browser made of a page, a screenshot, a
//! trace's shot, a screencast's frame). The boxes are found by
//! `mask_find.js` and painted by `mask_paint.js`, both in rove's isolated
//! world (the browser decodes and encodes the image, so rove needs no codec
//! of its own). Password fields are left alone: they show dots.
//!
//! What is not covered: text in cross-origin frames and closed shadow
//! roots, and text drawn on a canvas or in an image.

use rove_browser::Tab;
use serde::Deserialize;

use crate::Secrets;
use crate::{Clip, CommandError};

const FIND: &str = include_str!("mask_find.js");
const PAINT: &str = include_str!("mask_paint.js");

/// Values shorter than this are not looked for: a two-letter secret would
/// black out every word that holds it.
const MIN_CHARS: usize = 4;

/// Where a page shows a secret, in CSS pixels of page coordinates.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct SecretBoxes {
    boxes: Vec<[f64; 4]>,
    /// The viewport they were measured in (x, y, width, height): the area
    /// of an image of the viewport.
    view: [f64; 4],
}

impl SecretBoxes {
    /// Whether the page shows no secret.
    pub(crate) fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// Both sets of boxes, measured a moment apart (before and after an
    /// image was taken), for a page that moved in between.
    pub(crate) fn and(mut self, other: SecretBoxes) -> SecretBoxes {
        for b in other.boxes {
            if !self.boxes.contains(&b) {
                self.boxes.push(b);
            }
        }
        self.view = other.view;
        self
    }
}

/// An image the browser made of a page, to mask.
pub(crate) struct Frame {
    /// The image, base64 as CDP gives it.
    pub base64: String,
    /// Its type.
    pub mime: &'static str,
    /// Its JPEG quality, when it is one (kept when encoded again).
    pub quality: Option<u8>,
    /// What it shows, in CSS pixels of page coordinates: the viewport when
    /// `None`.
    pub area: Option<Clip>,
}

/// The values to look for: every secret of the session long enough.
fn values(secrets: &Secrets) -> Vec<&str> {
    secrets
        .0
        .iter()
        .map(|s| s.value.as_str())
        .filter(|v| v.chars().count() >= MIN_CHARS)
        .collect()
}

/// Where `tab`'s page shows one of `secrets`; `None` when the session has
/// none to look for (nothing is asked of the page then).
pub(crate) async fn find_secret_boxes(
    tab: &Tab,
    secrets: &Secrets,
) -> Result<Option<SecretBoxes>, CommandError> {
    let values = values(secrets);
    if values.is_empty() {
        return Ok(None);
    }
    let args = serde_json::to_string(&values).unwrap_or_else(|_| "[]".into());
    let found = within(tab.evaluate_in_rove_world(&format!("({FIND})({args})"))).await?;
    serde_json::from_value(found)
        .map(Some)
        .map_err(|e| internal(format!("mask_find.js answered in another shape: {e}")))
}

/// `frame` with the `boxes` of a secret painted black; the number of boxes
/// painted (0: the image is as it was).
pub(crate) async fn paint(
    tab: &Tab,
    frame: &mut Frame,
    boxes: &SecretBoxes,
) -> Result<usize, CommandError> {
    if boxes.is_empty() {
        return Ok(0);
    }
    let area = match &frame.area {
        Some(c) => [c.x, c.y, c.width, c.height],
        None => boxes.view,
    };
    let args = serde_json::json!([
        frame.base64,
        frame.mime,
        frame.quality.unwrap_or(80),
        area,
        boxes.boxes,
    ]);
    let call = format!("(({PAINT}).apply(null, {args}))");
    #[derive(Deserialize)]
    struct Painted {
        painted: usize,
        data: Option<String>,
    }
    let answer = within(tab.evaluate_in_rove_world(&call)).await?;
    let painted: Painted = serde_json::from_value(answer)
        .map_err(|e| internal(format!("mask_paint.js answered in another shape: {e}")))?;
    if let Some(data) = painted.data {
        frame.base64 = data;
    }
    Ok(painted.painted)
}

/// `frame` with every box of `tab`'s page that shows a secret painted
/// black, measured now: the one call for any frame (a screenshot, a
/// trace's shot, a screencast's frame). The number of boxes painted.
/// A page that cannot be measured or painted fails the call: an image is
/// never let out unmasked because masking failed.
pub(crate) async fn mask_frame(
    tab: &Tab,
    secrets: &Secrets,
    frame: &mut Frame,
) -> Result<usize, CommandError> {
    match find_secret_boxes(tab, secrets).await? {
        Some(boxes) => paint(tab, frame, &boxes).await,
        None => Ok(0),
    }
}

async fn within<T>(
    work: impl std::future::Future<Output = Result<T, rove_browser::BrowserError>>,
) -> Result<T, CommandError> {
    match tokio::time::timeout(rove_base::limits::SECRET_MASK, work).await {
        Ok(answer) => answer.map_err(|e| internal(e.to_string())),
        Err(_) => Err(internal(format!(
            "the page did not answer within {} s while rove masked a secret in its image",
            rove_base::limits::SECRET_MASK.as_secs()
        ))),
    }
}

fn internal(message: String) -> CommandError {
    CommandError::Unmasked(message)
}
