//! Clicking an element by ref, as a user would.

use std::time::{Duration, Instant};

use rove_base::limits;
use rove_browser::{GuardVerdict, Guarded, Tab};
use rove_cdp::protocol::dom::ScrollIntoViewIfNeeded;
use rove_cdp::protocol::input::{DispatchMouseEvent, DispatchMouseEventType, MouseButton};
use rove_cdp::protocol::runtime::{CallFunctionOn, ReleaseObject};
use rove_page::{Element, PageModel, Ref};
use serde::Deserialize;

use crate::point::{Point, click_point};
use crate::settle::{Settled, arm_element, settle};
use crate::{InputError, Modifiers};

const ACTIONABLE: &str = include_str!("actionable.js");

/// Which mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Button {
    /// The primary button.
    #[default]
    Left,
    /// The secondary button (context menu).
    Right,
    /// The middle button (often "open in a new tab").
    Middle,
}

impl Button {
    pub(crate) fn cdp(self) -> (MouseButton, u32) {
        match self {
            Button::Left => (MouseButton::Left, 1),
            Button::Right => (MouseButton::Right, 2),
            Button::Middle => (MouseButton::Middle, 4),
        }
    }
}

/// How to click.
#[derive(Debug, Clone)]
pub struct ClickOptions {
    /// Which button.
    pub button: Button,
    /// 1 for a click, 2 for a double click.
    pub count: u8,
    /// Keys held during the click.
    pub modifiers: Modifiers,
    /// How long to wait for the element to become actionable.
    pub timeout: Duration,
}

impl Default for ClickOptions {
    fn default() -> Self {
        ClickOptions {
            button: Button::Left,
            count: 1,
            modifiers: Modifiers::default(),
            timeout: limits::ACTION,
        }
    }
}

/// What a click did.
#[derive(Debug, Clone)]
pub struct ClickOutcome {
    /// Where the pointer went, in the tab's viewport; `None` when the
    /// element had no box for it (a canvas's fallback content) and was
    /// activated the way assistive technology activates it.
    pub point: Option<Point>,
    /// What the page did afterwards.
    pub settled: Settled,
}

#[derive(Debug, Deserialize)]
struct Check {
    state: String,
    #[serde(default)]
    detail: Option<String>,
    /// The control has no size and is clicked on its label.
    #[serde(default)]
    label: bool,
    /// The click guard is armed.
    #[serde(default)]
    guarded: bool,
}

/// Clicks the element `target` names: waits (up to the timeout) until it is
/// attached, visible, enabled, still, and receives the pointer at its click
/// point, then sends real mouse events through the browser's input pipeline
/// (`isTrusted` is true in the page) and waits for the page to settle.
pub async fn click(
    model: &mut PageModel,
    target: Ref,
    opts: &ClickOptions,
) -> Result<ClickOutcome, InputError> {
    on_element(model, target, async |tab: &Tab, element: &Element| {
        click_element(tab, element, opts).await
    })
    .await
}

async fn click_element(
    tab: &Tab,
    element: &Element,
    opts: &ClickOptions,
) -> Result<ClickOutcome, InputError> {
    // Actionable now (attached, visible, enabled, hit) without waiting a
    // frame for stillness: the guard judges the press where it lands, and
    // without a guard, moving the pointer there waits for a frame anyway and
    // the check after the move compares the two. The mark settling measures
    // from is taken in the same round trip.
    let main = crate::channel::InputChannel::of(tab).await?;
    let ask = Ask {
        scroll: true,
        still: true,
        fallback: plain_click(opts),
        guard: opts.count.clamp(1, 3),
    };
    let (first, mut armed) = tokio::join!(
        wait_actionable_still(tab, element, opts.timeout, ask),
        arm_element(tab, element, main.subscribe()),
    );
    let first = match first {
        Ok(first) => first,
        Err(e) => {
            // A check may have armed the guard before the click failed
            // (a box too small for a click point): disarmed, so that no
            // later input meets it.
            let _ = crate::guard::verdict(tab, &main, element).await;
            return Err(e);
        }
    };
    let (first, guarded) = match first {
        Reached::At { point, guarded } => (point, guarded),
        Reached::Fallback => {
            let settled = activate_fallback(tab, element, &mut armed).await?;
            return Ok(ClickOutcome {
                point: None,
                settled,
            });
        }
    };
    let modifiers = i64::from(opts.modifiers.bits());
    let moved = |p: Point| DispatchMouseEvent {
        modifiers: Some(modifiers),
        ..DispatchMouseEvent::moved(p.x, p.y)
    };
    if guarded {
        let mut gesture = vec![moved(first)];
        gesture.extend(presses(opts, first));
        if let Err(e) = crate::guard::send_at_once(&main, &gesture).await {
            // Disarmed, so that no later input of rove's meets it.
            let _ = crate::guard::verdict(tab, &main, element).await;
            return Err(e);
        }
        // A dialog that opened meanwhile (the click's, or hovering's) is
        // reported by the settle; the guard cannot be asked under it, and
        // stays armed for a press still waiting behind it.
        match crate::guard::verdict(tab, &main, element).await {
            Some(Guarded {
                verdict: GuardVerdict::Blocked,
                ..
            }) => {
                // Hovering drew something over the target, and the press
                // was stopped before the page saw it: the slow way, which
                // waits for the target to be reachable and names the cover
                // when it is not.
            }
            Some(Guarded {
                verdict: GuardVerdict::Unseen | GuardVerdict::Expired,
                taken,
                host,
            }) if !(host && crate::guard::closed_frame(&main, element).await) => {
                // The press went to another document (a frame drawn over
                // the target when the pointer came), or came so late that
                // nothing judged it: not a click on the target.
                tracing::debug!(target: "rove_input", ?taken, "the click's press did not reach its target");
                return Err(InputError::PageChanged {
                    target: element.reference.to_string(),
                    sent: true,
                });
            }
            _ => {
                let settled = settle(tab, &mut armed).await;
                return Ok(ClickOutcome {
                    point: Some(first),
                    settled,
                });
            }
        }
    } else {
        main.send(&moved(first)).await?;
    }
    let mut point = wait_actionable_point(tab, element, opts.timeout, false, true).await?;
    if point != first {
        // It moved (an animation), or hovering changed it (an icon that
        // swaps its image on hover): wait until it holds still under the
        // pointer, and follow it there.
        point = wait_actionable(tab, element, opts.timeout, false).await?;
        main.send(&moved(point)).await?;
    }
    // From the first press on, a failure may leave the click half done.
    for event in presses(opts, point) {
        main.send(&event)
            .await
            .map_err(|e| InputError::browser(e, true))?;
    }
    let settled = settle(tab, &mut armed).await;
    Ok(ClickOutcome {
        point: Some(point),
        settled,
    })
}

/// The presses and releases of a click at `point` (two of each for a
/// double click).
fn presses(opts: &ClickOptions, point: Point) -> Vec<DispatchMouseEvent> {
    let modifiers = i64::from(opts.modifiers.bits());
    let (button, buttons) = opts.button.cdp();
    let mouse = |kind: DispatchMouseEventType, count: u8| DispatchMouseEvent {
        modifiers: Some(modifiers),
        button: Some(button),
        buttons: Some(if kind == DispatchMouseEventType::MousePressed {
            i64::from(buttons)
        } else {
            0
        }),
        click_count: Some(i64::from(count)),
        ..DispatchMouseEvent::at(kind, point.x, point.y)
    };
    (1..=opts.count.clamp(1, 3))
        .flat_map(|count| {
            [
                mouse(DispatchMouseEventType::MousePressed, count),
                mouse(DispatchMouseEventType::MouseReleased, count),
            ]
        })
        .collect()
}

/// One press of the left button, no keys held.
fn plain_click(opts: &ClickOptions) -> bool {
    opts.button == Button::Left && opts.count == 1 && opts.modifiers == Modifiers::default()
}

/// Activates a canvas's focusable fallback content (a canvas data grid's
/// cell) as a screen reader does through the accessibility tree: the cell
/// has no box, so no pointer can reach it, and Chromium's own default
/// action for it is a simulated click. Mouse down, focus, mouse up and click
/// go to the element itself, in a real click's order (the grid selects the
/// cell on focus and acts on the click).
async fn activate_fallback(
    tab: &Tab,
    element: &Element,
    armed: &mut crate::settle::Armed,
) -> Result<Settled, InputError> {
    enter_canvas(element).await?;
    let activate = CallFunctionOn::on(
        "the fallback content's activation",
        ACTIVATE_FALLBACK,
        element.object_id.as_str(),
    );
    element
        .session
        .run_checked(&activate, Some(limits::ACTION))
        .await
        .map_err(|e| InputError::browser(e, true))?;
    Ok(settle(tab, armed).await)
}

/// Gives the focus to the canvas whose fallback content `element` is, when
/// the focus is not inside it already: as tabbing into it would, before
/// anything inside is focused. A canvas grid decides what a focus coming
/// from outside means (glide's grid, Streamlit's data editor, selects its
/// first cell, and moves the focus there a moment later); a focus that
/// moves within it selects the cell focused. In a call of its own, so the
/// page's answer to the canvas's focus has run before the cell's.
pub(crate) async fn enter_canvas(element: &Element) -> Result<(), InputError> {
    let enter = CallFunctionOn::on(
        "the focus entering the canvas",
        ENTER_CANVAS,
        element.object_id.as_str(),
    );
    element
        .session
        .run_checked(&enter, Some(limits::ACTION))
        .await
        .map_err(|e| InputError::browser(e, true))?;
    Ok(())
}

const ENTER_CANVAS: &str = "function() { \
    const canvas = this.parentElement && this.parentElement.closest('canvas'); \
    if (canvas && !canvas.contains(document.activeElement)) canvas.focus({preventScroll: true}); }";

/// A click without a pointer: the mouse events a simulated click sends,
/// and the focus a press moves.
const ACTIVATE_FALLBACK: &str = "function() { \
    const mouse = (type) => this.dispatchEvent(new MouseEvent(type, {bubbles: true, cancelable: true, composed: true, view: window, button: 0, buttons: type === 'mousedown' ? 1 : 0, detail: 1})); \
    if (mouse('mousedown')) this.focus({preventScroll: true}); \
    mouse('mouseup'); \
    this.click(); }";

/// Moves the pointer over the element `target` names (after the same
/// actionability checks as a click), so hover menus and tooltips open.
pub async fn hover(
    model: &mut PageModel,
    target: Ref,
    timeout: Duration,
) -> Result<ClickOutcome, InputError> {
    on_element(model, target, async |tab: &Tab, element: &Element| {
        let point = wait_actionable(tab, element, timeout, true).await?;
        let main = crate::channel::InputChannel::of(tab).await?;
        let mut armed = arm_element(tab, element, main.subscribe()).await;
        main.send(&DispatchMouseEvent::moved(point.x, point.y))
            .await
            .map_err(|e| InputError::browser(e, true))?;
        let settled = settle(tab, &mut armed).await;
        Ok(ClickOutcome {
            point: Some(point),
            settled,
        })
    })
    .await
}

/// What the actionability check found.
enum Reached {
    /// Actionable: the point to send the pointer to.
    At {
        /// Where.
        point: Point,
        /// Whether the click guard is armed for it (rove-browser's
        /// `click_guard.js`).
        guarded: bool,
    },
    /// A canvas's focusable fallback content, which no pointer reaches (only
    /// when the caller asked to be told: a plain click activates it).
    Fallback,
}

/// Polls the actionability check until it passes or `timeout` runs out; the
/// last reason is the error.
async fn wait_actionable(
    tab: &Tab,
    element: &Element,
    timeout: Duration,
    scroll: bool,
) -> Result<Point, InputError> {
    wait_actionable_point(tab, element, timeout, scroll, false).await
}

/// [`wait_actionable`]; with `still`, the element was found still a moment
/// ago and only its box and the hit test are checked again.
async fn wait_actionable_point(
    tab: &Tab,
    element: &Element,
    timeout: Duration,
    scroll: bool,
    still: bool,
) -> Result<Point, InputError> {
    let ask = Ask {
        scroll,
        still,
        ..Ask::default()
    };
    match wait_actionable_still(tab, element, timeout, ask).await? {
        Reached::At { point, .. } => Ok(point),
        Reached::Fallback => Err(InputError::NotActionable {
            target: element.reference.to_string(),
            reason: "it is a canvas's fallback content, with no box for the pointer".into(),
            cover: None,
        }),
    }
}

/// What one actionability check asks besides the check itself.
#[derive(Debug, Clone, Copy, Default)]
struct Ask {
    /// Scroll the element into view first.
    scroll: bool,
    /// The element was found still a moment ago: only its box and the hit
    /// test are checked again.
    still: bool,
    /// A canvas's focusable fallback content is [`Reached::Fallback`]
    /// instead of an error.
    fallback: bool,
    /// Arm the click guard for a click of this many presses when the
    /// element is actionable (0: no guard).
    guard: u8,
}

/// Polls the actionability check (with what `ask` adds) until it passes or
/// `timeout` runs out. The scroll, the check and the element's box are
/// asked in one round trip (the page answers them in order; the box is
/// used only when the check passed).
async fn wait_actionable_still(
    tab: &Tab,
    element: &Element,
    timeout: Duration,
    ask: Ask,
) -> Result<Reached, InputError> {
    let Ask {
        scroll,
        still,
        fallback,
        guard,
    } = ask;
    let started = Instant::now();
    let mut delay = limits::ACTIONABLE_POLL.first;
    loop {
        let remaining = timeout
            .saturating_sub(started.elapsed())
            .max(limits::CHECK_MIN);
        let call = CallFunctionOn::on("actionable.js", ACTIONABLE, element.object_id.as_str())
            .value(still)
            .value(guard)
            .by_value()
            .awaiting();
        let checking = element
            .session
            .run_checked_value::<_, Check>(&call, Some(remaining));
        let locating = click_point(tab, &element.session, &element.object_id);
        let (checked, located) = if scroll {
            let ((), checked, located) =
                tokio::join!(scroll_into_view(element), checking, locating);
            (checked, located)
        } else {
            tokio::join!(checking, locating)
        };
        // A script that threw or answered in another shape is rove's bug
        // (or a page that broke a builtin), reported as such: never read as
        // an element that went away.
        let check: Check = match checked {
            Ok(check) => check,
            // A page too busy to answer within the action's time is not ready.
            Err(rove_cdp::CdpError::Timeout { .. }) => Check {
                state: "busy".into(),
                detail: None,
                label: false,
                guarded: false,
            },
            Err(e) => return Err(e.into()),
        };
        if fallback && check.state == "fallback" && check.detail.as_deref() == Some("focusable") {
            return Ok(Reached::Fallback);
        }
        let failure = match check.state.as_str() {
            "ok" => match if check.label {
                point_of(tab, element, true).await?
            } else {
                located?
            } {
                Some(point) => {
                    return Ok(Reached::At {
                        point,
                        guarded: check.guarded,
                    });
                }
                None => (
                    "hidden".to_owned(),
                    Some("it has no box to click".to_owned()),
                    None,
                ),
            },
            "covered" => {
                let cover = check
                    .detail
                    .clone()
                    .unwrap_or_else(|| "another element".into());
                (
                    format!("{cover} would receive the click"),
                    None,
                    Some(cover),
                )
            }
            "disabled" => match check.detail.as_deref().filter(|d| !d.is_empty()) {
                Some(by) => ("it is disabled".to_owned(), Some(format!("by {by}")), None),
                None => ("it is disabled".to_owned(), None, None),
            },
            "moving" => (
                "it is still moving (an animation or a scroll)".to_owned(),
                None,
                None,
            ),
            "busy" => ("the page did not answer in time".to_owned(), None, None),
            "hidden" => ("it is hidden".to_owned(), check.detail.clone(), None),
            "fallback" if check.detail.as_deref() == Some("focusable") => (
                "it is a canvas's fallback content, drawn as the canvas's pixels with no box for the pointer; \
                 a plain click activates it (as a screen reader does), or press a key with its ref to focus it \
                 and act through the keyboard (Enter, arrows, typing)"
                    .to_owned(),
                None,
                None,
            ),
            "fallback" => (
                "it is a canvas's fallback content, drawn as the canvas's pixels with no box to click, \
                 and it takes no focus: neither the pointer nor the keyboard can reach it"
                    .to_owned(),
                None,
                None,
            ),
            other => (other.to_owned(), None, None),
        };
        // A disabled control is known at once: waiting out the whole
        // timeout for it to be enabled would only make the answer late (a
        // page that enables it a moment after the last input still gets a
        // short grace).
        let given_up = check.state == "disabled" && started.elapsed() >= limits::DISABLED_GRACE;
        // Nor does fallback content ever get a box to wait for.
        let never = check.state == "detached" || check.state == "fallback";
        if started.elapsed() + delay > timeout || never || given_up {
            let (reason, detail, cover) = failure;
            let reason = match detail {
                Some(d) => format!("{reason} ({d})"),
                None => reason,
            };
            return Err(InputError::NotActionable {
                target: element.reference.to_string(),
                reason,
                cover,
            });
        }
        tokio::time::sleep(delay).await;
        delay = limits::ACTIONABLE_POLL.next(delay);
    }
}

/// Where to click `element`: its click point, or, for a control of no
/// size that its label draws, the label's.
async fn point_of(
    tab: &Tab,
    element: &Element,
    on_label: bool,
) -> Result<Option<Point>, InputError> {
    if !on_label {
        return click_point(tab, &element.session, &element.object_id).await;
    }
    let call = CallFunctionOn::on(
        "the control's label",
        "function() { return Array.from(this.labels || []).find((l) => Array.from(l.getClientRects()).some((r) => r.width > 0 && r.height > 0)) || null; }",
        element.object_id.as_str(),
    );
    let label = element.session.run_checked(&call, None).await?;
    let Some(object_id) = label.object_id else {
        return Ok(None);
    };
    let point = click_point(tab, &element.session, &object_id).await;
    release_object(&element.session, &object_id).await;
    point
}

/// The point to send the pointer to on the element `target` names, once it
/// is actionable; `scroll` brings it into view first.
pub(crate) async fn actionable_point_of(
    model: &mut PageModel,
    target: Ref,
    timeout: Duration,
    scroll: bool,
) -> Result<Point, InputError> {
    on_element(model, target, async |tab: &Tab, element: &Element| {
        wait_actionable(tab, element, timeout, scroll).await
    })
    .await
}

/// Input cannot reach a page a JavaScript dialog blocks.
pub(crate) async fn refuse_while_dialog(tab: &Tab) -> Result<(), InputError> {
    if let Some(dialog) = tab.watch().await?.dialog() {
        return Err(InputError::Page(rove_page::PageError::DialogOpen {
            kind: dialog.kind,
            message: dialog.message,
        }));
    }
    Ok(())
}

/// Resolves `target`, refuses while a dialog blocks the page, runs `act` on
/// the element, and lets the page forget rove's handle on it afterwards.
pub(crate) async fn on_element<T>(
    model: &mut PageModel,
    target: Ref,
    act: impl AsyncFnOnce(&Tab, &Element) -> Result<T, InputError>,
) -> Result<T, InputError> {
    let tab = model.tab().clone();
    refuse_while_dialog(&tab).await?;
    let element = match model.element(target).await {
        // The document went away while the ref was being resolved (a
        // navigation racing the command): resolve it again, which answers
        // from the page as it is now (`REF_NOT_FOUND` with a fresh view,
        // or the element).
        Err(rove_page::PageError::Browser(e)) if crate::error::document_gone(&e) => {
            model.element(target).await?
        }
        other => other?,
    };
    let result = act(&tab, &element).await;
    release(&element).await;
    match result {
        // The element's document went away under the action (a navigation
        // or a re-render between the lookup and the input): the ref is
        // resolved again, so the answer is `REF_NOT_FOUND` with a fresh view,
        // or, when the element is still there, that the page changed.
        Err(e) if e.element_gone() => Err(match model.element(target).await {
            Err(gone) => InputError::Page(gone),
            Ok(again) => {
                release(&again).await;
                InputError::PageChanged {
                    target: target.to_string(),
                    sent: e.was_sent(),
                }
            }
        }),
        other => other,
    }
}

/// Scrolls every scrollable ancestor, across frames, as the browser itself
/// would for a user. An element without a box stays where it is; the checks
/// that follow say why.
pub(crate) async fn scroll_into_view(element: &Element) {
    let _ = element
        .session
        .send(&ScrollIntoViewIfNeeded {
            object_id: Some(element.object_id.clone()),
            ..Default::default()
        })
        .await;
}

/// Lets the page forget rove's handle on the element.
pub(crate) async fn release(element: &Element) {
    release_object(&element.session, &element.object_id).await;
}

/// Lets the page forget one of rove's object handles. In the background: a
/// page a dialog blocks answers only once the dialog is closed.
pub(crate) async fn release_object(session: &rove_cdp::Session, object_id: &str) {
    let session = session.clone();
    let release = ReleaseObject {
        object_id: object_id.to_owned(),
    };
    tokio::spawn(async move {
        let _ = session.send(&release).await;
    });
}
