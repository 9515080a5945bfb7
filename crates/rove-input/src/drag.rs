//! Dragging one element onto another with real pointer events.
//!
//! The pointer goes down on the source, moves to the target in steps and goes
//! up there, so pages that use pointer events and pointer capture see a real
//! drag. HTML5 drag and drop needs the browser's drag loop, which a headless
//! browser has no window for: rove asks Chromium to hand the drag over
//! (`Input.setInterceptDrags`) and finishes it with `Input.dispatchDragEvent`
//! (dragenter, dragover, drop) at the target, which is what the browser's own
//! loop would send.

use std::time::Duration;

use rove_browser::Tab;
use rove_cdp::protocol::EventType;
use rove_cdp::protocol::input::{
    DispatchDragEvent, DispatchDragEventType, DispatchMouseEvent, DispatchMouseEventType, DragData,
    DragIntercepted, MouseButton, SetInterceptDrags,
};
use rove_page::{PageModel, Ref};

use crate::mouse::actionable_point_of;
use crate::point::Point;
use crate::settle::{Settled, Watched, arm, settle};
use crate::{InputError, mouse::refuse_while_dialog};

/// Moves between the two points take this many steps.
const STEPS: u32 = 8;

/// What a drag did.
#[derive(Debug, Clone)]
pub struct DragOutcome {
    /// Whether the page started an HTML5 drag (and got a drop).
    pub html5: bool,
    /// What the page did afterwards.
    pub settled: Settled,
}

/// Drags the element `from` names onto the element `to` names.
pub async fn drag(
    model: &mut PageModel,
    from: Ref,
    to: Ref,
    timeout: Duration,
) -> Result<DragOutcome, InputError> {
    let tab = model.tab().clone();
    refuse_while_dialog(&tab).await?;
    let start = actionable_point_of(model, from, timeout, true).await?;
    // The target is only hit-tested, never scrolled: scrolling would move
    // the source away from under the pointer.
    let (end, end_element) = wait_target_point(model, to, timeout).await?;
    let session = crate::channel::InputChannel::of(&tab).await?;
    session.send(&SetInterceptDrags { enabled: true }).await?;
    let watched = Watched::Object {
        session: end_element.0.clone(),
        object_id: end_element.1.clone(),
    };
    let mut armed = arm(&tab, watched, session.subscribe()).await;
    let result = drive(&tab, &session, start, end, armed.events()).await;
    let _ = session.send(&SetInterceptDrags { enabled: false }).await;
    let html5 = result?;
    let settled = settle(&tab, &mut armed).await;
    crate::mouse::release_object(&end_element.0, &end_element.1).await;
    Ok(DragOutcome { html5, settled })
}

async fn wait_target_point(
    model: &mut PageModel,
    to: Ref,
    timeout: Duration,
) -> Result<(Point, (rove_cdp::Session, String)), InputError> {
    let point = actionable_point_of(model, to, timeout, false).await?;
    let element = model.element(to).await?;
    Ok((point, (element.session, element.object_id)))
}

async fn drive(
    tab: &Tab,
    session: &crate::channel::InputChannel,
    start: Point,
    end: Point,
    events: &mut rove_cdp::EventStream,
) -> Result<bool, InputError> {
    let _ = tab;
    // While the button is down every move says so, as a real mouse's do;
    // Chromium starts a drag only from such moves.
    let mouse = |kind: DispatchMouseEventType, p: Point, buttons: u32| {
        let button = if kind == DispatchMouseEventType::MouseMoved && buttons == 0 {
            MouseButton::None
        } else {
            MouseButton::Left
        };
        DispatchMouseEvent {
            button: Some(button),
            buttons: Some(i64::from(buttons)),
            click_count: Some(1),
            ..DispatchMouseEvent::at(kind, p.x, p.y)
        }
    };
    session
        .send(&mouse(DispatchMouseEventType::MouseMoved, start, 0))
        .await?;
    session
        .send(&mouse(DispatchMouseEventType::MousePressed, start, 1))
        .await
        .map_err(|e| InputError::browser(e, true))?;
    let mut drag_data: Option<DragData> = None;
    let mut entered = false;
    for step in 1..=STEPS {
        let t = f64::from(step) / f64::from(STEPS);
        let p = Point {
            x: start.x + (end.x - start.x) * t,
            y: start.y + (end.y - start.y) * t,
        };
        if let Some(data) = &drag_data {
            let kind = if entered {
                DispatchDragEventType::DragOver
            } else {
                DispatchDragEventType::DragEnter
            };
            entered = true;
            drag_event(session, kind, p, data).await?;
            continue;
        }
        session
            .send(&mouse(DispatchMouseEventType::MouseMoved, p, 1))
            .await
            .map_err(|e| InputError::browser(e, true))?;
        // Chromium starts a drag asynchronously after the first moves; give
        // it a moment to say so before the pointer goes on.
        if step <= 2 && drag_data.is_none() {
            drag_data = intercepted(events, rove_base::limits::DRAG_START).await;
        }
    }
    match drag_data {
        Some(data) => {
            drag_event(session, DispatchDragEventType::DragOver, end, &data).await?;
            drag_event(session, DispatchDragEventType::Drop, end, &data).await?;
            // The source hears the end of its drag through the mouse going up.
            session
                .send(&mouse(DispatchMouseEventType::MouseReleased, end, 0))
                .await
                .map_err(|e| InputError::browser(e, true))?;
            Ok(true)
        }
        None => {
            session
                .send(&mouse(DispatchMouseEventType::MouseReleased, end, 0))
                .await
                .map_err(|e| InputError::browser(e, true))?;
            Ok(false)
        }
    }
}

/// The drag Chromium handed over, if it starts within `wait`.
async fn intercepted(events: &mut rove_cdp::EventStream, wait: Duration) -> Option<DragData> {
    let search = async {
        loop {
            match events.recv().await {
                Ok(event) if event.method == DragIntercepted::METHOD => {
                    let intercepted: DragIntercepted = event.parse().unwrap_or_default();
                    return Some(intercepted.data);
                }
                Ok(_) | Err(rove_cdp::EventStreamError::Lagged(_)) => {}
                Err(rove_cdp::EventStreamError::Closed) => return None,
            }
        }
    };
    tokio::time::timeout(wait, search).await.ok().flatten()
}

async fn drag_event(
    session: &crate::channel::InputChannel,
    kind: DispatchDragEventType,
    p: Point,
    data: &DragData,
) -> Result<(), InputError> {
    let event = DispatchDragEvent {
        kind,
        x: p.x,
        y: p.y,
        data: data.clone(),
        modifiers: None,
    };
    session
        .send(&event)
        .await
        .map_err(|e| InputError::browser(e, true))?;
    Ok(())
}
