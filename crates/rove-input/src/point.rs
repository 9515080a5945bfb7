//! Where on the page to send the pointer.
//!
//! The click point is the centre of the element's first content quad (for a
//! wrapped link, its first line) in the coordinates of the tab's viewport.
//! `DOM.getContentQuads` already answers in those coordinates for frames in
//! the page's process; an out-of-process iframe answers relative to itself,
//! so the offsets of its owner `<iframe>` elements are added, level by level.

use rove_browser::Tab;
use rove_cdp::Session;
use rove_cdp::protocol::dom::{GetBoxModel, GetContentQuads, GetFrameOwner};

use crate::InputError;

/// A point in the tab's viewport, in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// From the left edge.
    pub x: f64,
    /// From the top edge.
    pub y: f64,
}

/// The centre of the first content quad of `object_id`, in the tab's
/// viewport, or `None` when the element has no box.
pub(crate) async fn click_point(
    tab: &Tab,
    session: &Session,
    object_id: &str,
) -> Result<Option<Point>, InputError> {
    let quads = session
        .send(&GetContentQuads {
            object_id: Some(object_id.to_owned()),
            ..Default::default()
        })
        .await?;
    let Some(first) = quads.quads.iter().find(|quad| area(quad) > 0.5) else {
        return Ok(None);
    };
    let xs: Vec<f64> = (0..4).filter_map(|i| first.get(i * 2).copied()).collect();
    let ys: Vec<f64> = (0..4)
        .filter_map(|i| first.get(i * 2 + 1).copied())
        .collect();
    if xs.len() < 4 || ys.len() < 4 {
        return Ok(None);
    }
    let mut point = Point {
        x: xs.iter().sum::<f64>() / 4.0,
        y: ys.iter().sum::<f64>() / 4.0,
    };
    let offset = frame_offset(tab, session).await?;
    point.x += offset.x;
    point.y += offset.y;
    Ok(Some(point))
}

fn area(quad: &[f64]) -> f64 {
    let p = quad;
    if p.len() < 8 {
        return 0.0;
    }
    // Shoelace formula over the four corners.
    let mut twice = 0.0;
    for i in 0..4 {
        let j = (i + 1) % 4;
        twice += p[i * 2] * p[j * 2 + 1] - p[j * 2] * p[i * 2 + 1];
    }
    (twice / 2.0).abs()
}

/// Where the viewport of `session` sits in the tab's viewport: zero for the
/// tab's own session, the owner iframe's content box for an out-of-process
/// frame (plus that iframe's own offset, for nested ones).
async fn frame_offset(tab: &Tab, session: &Session) -> Result<Point, InputError> {
    let main = tab.session().await?;
    let mut offset = Point { x: 0.0, y: 0.0 };
    let mut current = session.clone();
    // Each level moves one process up; a page cannot nest deeper than this.
    for _ in 0..16 {
        if current.id() == main.id() {
            return Ok(offset);
        }
        let watch = tab.watch().await?;
        let Some(frame) = watch
            .frame_sessions()
            .into_iter()
            .find(|f| f.session.id() == current.id())
        else {
            return Ok(offset);
        };
        let mut candidates = vec![main.clone()];
        candidates.extend(
            watch
                .frame_sessions()
                .into_iter()
                .map(|f| f.session)
                .filter(|s| s.id() != current.id()),
        );
        let mut found = None;
        for candidate in candidates {
            let Ok(owner) = candidate
                .send(&GetFrameOwner {
                    frame_id: frame.frame_id.clone(),
                })
                .await
            else {
                continue;
            };
            let Some(backend) = Some(owner.backend_node_id).filter(|b| *b != 0) else {
                continue;
            };
            let model = candidate
                .send(&GetBoxModel {
                    backend_node_id: Some(backend),
                    ..Default::default()
                })
                .await?;
            let content = &model.model.content;
            if let (Some(x), Some(y)) = (content.first().copied(), content.get(1).copied()) {
                found = Some((candidate, Point { x, y }));
                break;
            }
        }
        let Some((parent, at)) = found else {
            return Ok(offset);
        };
        offset.x += at.x;
        offset.y += at.y;
        current = parent;
    }
    Ok(offset)
}
