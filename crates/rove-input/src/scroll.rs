//! Scrolling with the mouse wheel, as a user does: the page (or the element
//! under the pointer) scrolls the way its own handlers and CSS allow.

use rove_browser::Tab;
use rove_cdp::protocol::input::{DispatchMouseEvent, DispatchMouseEventType};
use rove_cdp::protocol::page::CreateIsolatedWorld;
use rove_cdp::protocol::runtime::{CallFunctionOn, Evaluate};
use rove_page::{Element, PageModel, Ref};
use serde::Deserialize;

use crate::InputError;
use crate::mouse::{on_element, refuse_while_dialog, scroll_into_view};
use crate::point::{Point, click_point};

/// Where a scroller stands.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Default)]
pub struct ScrollPosition {
    /// Pixels scrolled from the left.
    pub x: f64,
    /// Pixels scrolled from the top.
    pub y: f64,
    /// The most it can scroll horizontally.
    pub max_x: f64,
    /// The most it can scroll vertically.
    pub max_y: f64,
    /// Its visible width.
    pub width: f64,
    /// Its visible height.
    pub height: f64,
}

/// What a scroll did.
#[derive(Debug, Clone, PartialEq)]
pub struct ScrollOutcome {
    /// Before the wheel turned.
    pub before: ScrollPosition,
    /// After the scroll came to rest.
    pub after: ScrollPosition,
}

/// The scroller's position: the element's own box when it scrolls, else the
/// page's.
const POSITION: &str = r#"function () {
  const page = document.scrollingElement || document.documentElement;
  let el = this && this.nodeType === 1 ? this : page;
  // An element that cannot scroll hands the wheel to its nearest scrolling ancestor.
  while (el && el !== page && !(el.scrollHeight > el.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(el).overflowY)) && !(el.scrollWidth > el.clientWidth + 1 && /(auto|scroll)/.test(getComputedStyle(el).overflowX))) el = el.parentElement;
  if (!el) el = page;
  const isPage = el === page;
  return {
    x: isPage ? scrollX : el.scrollLeft, y: isPage ? scrollY : el.scrollTop,
    max_x: Math.max(0, el.scrollWidth - (isPage ? innerWidth : el.clientWidth)),
    max_y: Math.max(0, el.scrollHeight - (isPage ? innerHeight : el.clientHeight)),
    width: isPage ? innerWidth : el.clientWidth, height: isPage ? innerHeight : el.clientHeight,
  };
}"#;

/// Turns the wheel over the element `target` names, or over the middle of
/// the viewport, along `step` (a unit vector: `(0.0, 1.0)` is down). It turns
/// `pixels` far, or, without a distance, 80% of the scroller's own visible
/// size along that axis, so the views before and after overlap a little.
pub async fn scroll_by(
    model: &mut PageModel,
    target: Option<Ref>,
    step: (f64, f64),
    pixels: Option<f64>,
) -> Result<ScrollOutcome, InputError> {
    match target {
        Some(target) => {
            on_element(model, target, async |tab: &Tab, element: &Element| {
                scroll_into_view(element).await;
                let point = click_point(tab, &element.session, &element.object_id)
                    .await?
                    .ok_or_else(|| InputError::NotActionable {
                        target: target.to_string(),
                        reason: "it has no box to scroll".into(),
                        cover: None,
                    })?;
                let delta = |before: &ScrollPosition| step_delta(step, pixels, before);
                let scroller = Scroller::Element(&element.object_id);
                wheel(tab, Some(point), delta, (&element.session, scroller)).await
            })
            .await
        }
        None => {
            let tab = model.tab().clone();
            refuse_while_dialog(&tab).await?;
            let session = tab.session().await?;
            // Read in a world of rove's own, so a page that replaced
            // `scrollY`, `innerHeight` or `getComputedStyle` in its own
            // world cannot change what rove reads.
            let world = own_world(&session, tab.target_id()).await?;
            let delta = |before: &ScrollPosition| step_delta(step, pixels, before);
            wheel(&tab, None, delta, (&session, Scroller::Page(world))).await
        }
    }
}

/// How far a scroll of `pixels` along `step` turns the wheel: without a
/// distance, 80% of the scroller's visible size.
fn step_delta(step: (f64, f64), pixels: Option<f64>, before: &ScrollPosition) -> (f64, f64) {
    (
        step.0 * pixels.unwrap_or(before.width * 0.8),
        step.1 * pixels.unwrap_or(before.height * 0.8),
    )
}

/// Turns the wheel at `point` (a point of the viewport, checked to lie in
/// it: outside, nothing is sent) by `dx`, `dy` CSS pixels, and waits for
/// the scroll to come to rest. The positions are the page's own scroll.
pub async fn wheel_at(
    tab: &Tab,
    point: Point,
    dx: f64,
    dy: f64,
) -> Result<ScrollOutcome, InputError> {
    refuse_while_dialog(tab).await?;
    crate::coords::check_inside(tab, &[point]).await?;
    let session = tab.session().await?;
    let world = own_world(&session, tab.target_id()).await?;
    wheel(
        tab,
        Some(point),
        |_| (dx, dy),
        (&session, Scroller::Page(world)),
    )
    .await
}

/// Turns the wheel at `point` (the middle of the scroller read first when
/// `None`) by `delta` of the position before, and waits for the scroll to
/// come to rest.
async fn wheel(
    tab: &Tab,
    point: Option<Point>,
    delta: impl FnOnce(&ScrollPosition) -> (f64, f64),
    (session, scroller): (&rove_cdp::Session, Scroller<'_>),
) -> Result<ScrollOutcome, InputError> {
    let read = async || position(session, scroller).await;
    let before = read().await?;
    let point = point.unwrap_or(Point {
        x: before.width / 2.0,
        y: before.height / 2.0,
    });
    let delta = delta(&before);
    let main = crate::channel::InputChannel::of(tab).await?;
    let wheel = DispatchMouseEvent {
        delta_x: Some(delta.0),
        delta_y: Some(delta.1),
        ..DispatchMouseEvent::at(DispatchMouseEventType::MouseWheel, point.x, point.y)
    };
    main.send(&wheel)
        .await
        .map_err(|e| InputError::browser(e, true))?;
    // Smooth scrolling moves over several frames: wait until two readings
    // agree after it moved. A scroller that has not moved after ~100 ms is
    // given two of the page's frames more before it is called still: the
    // wheel's scroll reaches the page a frame or more after the event's
    // answer, and on a busy machine that is later than any fixed wait.
    let mut after = read().await?;
    let mut still = 0;
    let mut framed = false;
    for _ in 0..24 {
        tokio::time::sleep(rove_base::limits::SCROLL_POLL).await;
        let next = read().await?;
        if next == after {
            still += 1;
            if next != before {
                break;
            }
            if still >= 3 {
                if framed {
                    break;
                }
                framed = true;
                still = 0;
                frames(session, scroller).await;
            }
        } else {
            still = 0;
        }
        after = next;
    }
    Ok(ScrollOutcome { before, after })
}

/// Two of the page's frames, for the wheel's scroll to land: capped, so a
/// hidden tab (no frames) or a page that broke `requestAnimationFrame` in
/// rove's world costs at most the cap. Best effort: a failure reads as
/// "the frames passed", and the scroll is read again either way.
async fn frames(session: &rove_cdp::Session, at: Scroller<'_>) {
    let script = "two frames";
    let _best_effort = match at {
        Scroller::Element(object_id) => {
            let call = CallFunctionOn::on(script, TWO_FRAMES, object_id)
                .by_value()
                .awaiting();
            session.run_checked(&call, None).await.map(drop)
        }
        Scroller::Page(context) => {
            let call = Evaluate {
                context_id: Some(context),
                ..Evaluate::value(format!("({TWO_FRAMES}).call(null)"))
            }
            .named(script);
            session.run_checked(&call, None).await.map(drop)
        }
    };
}

/// Resolves after two animation frames, or after 250 ms without them.
const TWO_FRAMES: &str = "function () { return new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))); setTimeout(() => resolve(false), 250); }); }";

/// Where a scroll position is read: an element's scroller, or the page's
/// in rove's own world (an execution context id).
#[derive(Debug, Clone, Copy)]
enum Scroller<'a> {
    Element(&'a str),
    Page(i64),
}

/// An isolated world in the tab's main frame, for reading the page.
async fn own_world(session: &rove_cdp::Session, frame: &str) -> Result<i64, InputError> {
    let created = session
        .send(&CreateIsolatedWorld {
            frame_id: frame.to_owned(),
            world_name: Some("rove-scroll".to_owned()),
            grant_univeral_access: None,
            ..Default::default()
        })
        .await?;
    Ok(created.execution_context_id)
}

async fn position(
    session: &rove_cdp::Session,
    at: Scroller<'_>,
) -> Result<ScrollPosition, InputError> {
    let script = "the scroll position";
    let answer = match at {
        Scroller::Element(object_id) => {
            let call = CallFunctionOn::on(script, POSITION, object_id).by_value();
            session.run_checked(&call, None).await?
        }
        Scroller::Page(context) => {
            let call = Evaluate {
                return_by_value: Some(true),
                context_id: Some(context),
                ..Evaluate::value(format!("({POSITION}).call(null)"))
            }
            .named(script);
            session.run_checked(&call, None).await?
        }
    };
    Ok(answer.decode(script)?)
}

/// Brings the element `target` names into view, as the browser does for a
/// user who tabs to it.
pub async fn scroll_into_view_of(model: &mut PageModel, target: Ref) -> Result<(), InputError> {
    on_element(model, target, async |_tab: &Tab, element: &Element| {
        scroll_into_view(element).await;
        Ok(())
    })
    .await
}
