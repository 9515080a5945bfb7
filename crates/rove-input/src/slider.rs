//! Setting sliders and spinbuttons with real keys, as a keyboard user
//! would: a range input, or an element of role `slider` or `spinbutton`.
//!
//! Such controls often take a value only when a change *ends*: react-aria's
//! slider (Streamlit's `st.slider`) ends one at every key press and at the
//! pointer's release, so a value set from script moves the thumb and never
//! reaches the app.
//! rove focuses the control (as tabbing would: a click would move it), then
//! holds keys as a user does: Home or End for the extremes, Page keys while
//! far away, arrows for single steps, each repeat a trusted `keydown`, then
//! one `keyup`. It reads the value after every press, so it stops on the
//! value (or as soon as a press passes it) whatever the control's steps are,
//! and reads it again once the page settled. The press that may land on
//! the value waits until the page has answered the presses before it: an
//! app that takes every value its server must run for (Streamlit) then
//! ends holding the last one, not an older one still being worked on. A
//! value the control cannot take is an error naming the nearest ones:
//! before anything is sent for a range input (its limits and steps are
//! known), after the keys for an ARIA control (whose steps only its keys
//! tell). An ARIA slider its keys do not move at all (a widget that
//! listens to the pointer only) is dragged: its thumb along its track to
//! the value's place, read back, corrected.

use std::time::{Duration, Instant};

use rove_browser::Tab;
use rove_cdp::EventStream;
use rove_cdp::protocol::EventType;
use rove_cdp::protocol::input::{DispatchKeyEvent, DispatchKeyEventType};
use rove_cdp::protocol::network::{WebSocketFrameReceived, WebSocketFrameSent};
use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::Element;
use serde::Deserialize;

use crate::InputError;
use crate::channel::InputChannel;
use crate::edit_outcome::EditOutcome;
use crate::keys::parse_chord;
use crate::settle::{Armed, Settled, arm_element, server_answered, settle};

const STEPPED: &str = include_str!("stepped.js");

/// At most this many key presses for one value: a control that needs more
/// (a slider of thousands of fine steps without working Page keys) is left
/// where the keys took it, and the error says what it holds.
const MAX_PRESSES: usize = 300;

/// Page keys are worth trying from this many single steps away.
const PAGE_FROM_STEPS: f64 = 10.0;

#[derive(Debug, Clone, Deserialize)]
struct Control {
    state: String,
    #[serde(default)]
    native: bool,
    #[serde(default)]
    min: Option<f64>,
    #[serde(default)]
    max: Option<f64>,
    #[serde(default)]
    step: Option<f64>,
    #[serde(default)]
    now: Option<f64>,
    #[serde(default)]
    text: String,
    #[serde(default)]
    geometry: Option<Geometry>,
}

/// Where a pointer drags a control (viewport CSS pixels, `[x, y, w, h]`).
#[derive(Debug, Clone, Deserialize)]
struct Geometry {
    vertical: bool,
    thumb: [f64; 4],
    track: [f64; 4],
}

/// A number as the page writes it: `70`, `0.5`, without float noise.
fn shown(value: f64) -> String {
    // Float noise is rounded away in the digits a person reads; a value too
    // large for that (a range of ±1e308) is shown as it is, never as the
    // `inf` the rounding would overflow to.
    let scaled = value * 1e9;
    if scaled.is_finite() && scaled.abs() < 1e18 {
        format!("{}", scaled.round() / 1e9)
    } else {
        // `2e306`, not its 307 digits.
        format!("{value:e}")
    }
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// The values nearest `wanted` on the grid `min + k × step`, below and above
/// it, within `max`; `None` when `wanted` is on the grid.
fn nearest_on_grid(wanted: f64, min: f64, max: f64, step: f64) -> Option<(f64, f64)> {
    if step <= 0.0 {
        return None;
    }
    let k = (wanted - min) / step;
    if same(k, k.round()) {
        return None;
    }
    let below = min + k.floor() * step;
    let above = (min + k.ceil() * step).min(max);
    Some((below, above))
}

/// The numbers a control takes, in words: `a number from 0 to 10 in
/// steps of 2`.
fn form(c: &Control) -> String {
    let limits = match (c.min, c.max) {
        (Some(min), Some(max)) => format!("a number from {} to {}", shown(min), shown(max)),
        (Some(min), None) => format!("a number from {} on", shown(min)),
        (None, Some(max)) => format!("a number up to {}", shown(max)),
        (None, None) => "a number".to_owned(),
    };
    match c.step {
        Some(step) => format!("{limits} in steps of {}", shown(step)),
        None => limits,
    }
}

/// Sets the slider or spinbutton `element` to the number `text`; see the
/// module's documentation.
pub(crate) async fn set_by_keys(
    tab: &Tab,
    element: &Element,
    text: &str,
) -> Result<EditOutcome, InputError> {
    let target = element.reference.to_string();
    let control = read(element, "read").await?;
    let kind = if control.native {
        "range".to_owned()
    } else {
        "slider or spinbutton".to_owned()
    };
    let format_error = |form: String| InputError::Format {
        target: target.clone(),
        kind: kind.clone(),
        wanted: text.to_owned(),
        form,
    };
    let wanted: f64 = match text.trim().parse::<f64>() {
        Ok(n) if n.is_finite() => n,
        _ => return Err(format_error(form(&control))),
    };
    let below_min = control
        .min
        .is_some_and(|min| wanted < min && !same(wanted, min));
    let above_max = control
        .max
        .is_some_and(|max| wanted > max && !same(wanted, max));
    if below_min || above_max {
        return Err(format_error(form(&control)));
    }
    if let (Some(min), Some(max), Some(step)) = (control.min, control.max, control.step)
        && let Some((below, above)) = nearest_on_grid(wanted, min, max, step)
    {
        return Err(format_error(format!(
            "{} (the nearest are {} and {})",
            form(&control),
            shown(below),
            shown(above)
        )));
    }
    let focused = read(element, "focus").await?;
    let session = InputChannel::of(tab).await?;
    let frames = session.subscribe();
    let armed = arm_element(tab, element, session.subscribe()).await;
    let mut keys = Keys {
        tab,
        session: &session,
        element,
        presses: 0,
        armed,
        settled: Settled::default(),
        frames,
        delay: AnswerDelay::default(),
    };
    let (now, passed) = keys
        .toward(&control, focused.now.unwrap_or(wanted), wanted)
        .await?;
    let settled = keys.answered().await;
    let after = match read(element, "read").await {
        Ok(after) => after,
        Err(e) if e.element_gone() => {
            return Ok(EditOutcome::field_gone(settled));
        }
        Err(e) => return Err(e),
    };
    let holds = after.now.unwrap_or(now);
    if same(holds, wanted) {
        return Ok(EditOutcome::took(after.text, settled));
    }
    if let Some((before, beyond)) = passed {
        let (below, above) = if before < beyond {
            (before, beyond)
        } else {
            (beyond, before)
        };
        return Err(InputError::OffSteps {
            target,
            wanted: text.to_owned(),
            below: shown(below),
            above: shown(above),
            holds: after.text,
        });
    }
    // Keys did not move it: drag its thumb along its track to the value,
    // as a pointer user would, and read it back.
    if let (false, Some(min), Some(max)) = (control.native, control.min, control.max)
        && max > min
    {
        let settled = drag_to(tab, element, wanted, min, max).await?;
        let after = match read(element, "read").await {
            Ok(after) => after,
            Err(e) if e.element_gone() => return Ok(EditOutcome::field_gone(settled)),
            Err(e) => return Err(e),
        };
        if after.now.is_some_and(|now| same(now, wanted)) {
            return Ok(EditOutcome::took(after.text, settled));
        }
        return Err(InputError::KeysIgnored {
            target,
            wanted: text.to_owned(),
            holds: after.text,
        });
    }
    Err(InputError::KeysIgnored {
        target,
        wanted: text.to_owned(),
        holds: after.text,
    })
}

/// How many drags rove makes toward a value: the first by the track's
/// length, the next corrected by where the first landed.
const DRAGS: usize = 3;

/// Drags the control's thumb along its track to where `wanted` lies
/// between `min` and `max`, and again (corrected by where it landed) while
/// it is not there.
async fn drag_to(
    tab: &Tab,
    element: &Element,
    wanted: f64,
    min: f64,
    max: f64,
) -> Result<crate::settle::Settled, InputError> {
    use crate::coords::{PointerStep, pointer};
    use crate::mouse::Button;
    use crate::point::Point;
    let mut settled = crate::settle::Settled::default();
    let mut aim = (wanted - min) / (max - min);
    for _ in 0..DRAGS {
        let now = read(element, "geometry")
            .await
            .map_err(InputError::after_input)?;
        let (Some(geometry), Some(holds)) = (now.geometry, now.now) else {
            break;
        };
        if same(holds, wanted) {
            break;
        }
        let [tx, ty, tw, th] = geometry.thumb;
        let [kx, ky, kw, kh] = geometry.track;
        let at_fraction = |f: f64| {
            let f = f.clamp(0.0, 1.0);
            if geometry.vertical {
                Point {
                    x: kx + kw / 2.0,
                    y: ky + kh - f * kh,
                }
            } else {
                Point {
                    x: kx + f * kw,
                    y: ky + kh / 2.0,
                }
            }
        };
        // From the thumb's centre when it is a thumb; from the value's
        // place when the control is the track itself.
        let start = if geometry.thumb == geometry.track {
            at_fraction((holds - min) / (max - min))
        } else {
            Point {
                x: tx + tw / 2.0,
                y: ty + th / 2.0,
            }
        };
        let end = at_fraction(aim);
        let mut steps = vec![
            PointerStep::Move(start),
            PointerStep::Press {
                at: start,
                button: Button::Left,
                count: 1,
            },
        ];
        for i in 1..=8 {
            let f = f64::from(i) / 8.0;
            steps.push(PointerStep::Move(Point {
                x: start.x + (end.x - start.x) * f,
                y: start.y + (end.y - start.y) * f,
            }));
        }
        steps.push(PointerStep::Release {
            at: end,
            button: Button::Left,
            count: 1,
        });
        settled = pointer(tab, &steps, 0, crate::Modifiers::default())
            .await
            .map_err(InputError::after_input)?
            .settled;
        let landed = read(element, "read")
            .await
            .map_err(InputError::after_input)?;
        match landed.now {
            Some(now) if same(now, wanted) => break,
            // Aim as far again past where it landed as it fell short.
            Some(now) => aim += (wanted - now) / (max - min),
            None => break,
        }
    }
    Ok(settled)
}

/// The arrow that undoes `key`'s press.
fn reverse(key: &str) -> &'static str {
    match key {
        "ArrowUp" => "ArrowDown",
        "ArrowDown" => "ArrowUp",
        "ArrowRight" => "ArrowLeft",
        _ => "ArrowRight",
    }
}

async fn read(element: &Element, mode: &str) -> Result<Control, InputError> {
    let call = CallFunctionOn::on("stepped.js", STEPPED, element.object_id.as_str())
        .value(mode)
        .by_value()
        .awaiting();
    let control: Control = element.session.run_checked_value(&call, None).await?;
    let reason = match control.state.as_str() {
        "ok" => return Ok(control),
        "no_value" => "it has no value to move from (no aria-valuenow)",
        "unfocusable" => "it does not take the focus",
        other => other,
    };
    Err(InputError::NotActionable {
        target: element.reference.to_string(),
        reason: reason.to_owned(),
        cover: None,
    })
}

/// Where holding a key left the control.
struct Held {
    now: f64,
    /// The value moved at all.
    moved: bool,
    /// The last press passed the wanted value: the values before and after.
    passed: Option<(f64, f64)>,
    /// The key moved the value away from the wanted one.
    wrong_way: bool,
}

/// Keys held on the focused control, counted, and the page's answers to
/// them.
struct Keys<'a> {
    tab: &'a Tab,
    session: &'a InputChannel,
    element: &'a Element,
    presses: usize,
    /// Settling, armed before the presses the page has not answered yet.
    armed: Armed,
    /// What the page did in the waits made between presses.
    settled: Settled,
    /// The page's events, read for its WebSocket frames.
    frames: EventStream,
    delay: AnswerDelay,
}

/// How slowly the page's server began to answer the presses: the longest
/// time from a frame the page sent over a WebSocket to the next one it
/// received, in seconds.
#[derive(Debug, Default)]
struct AnswerDelay {
    asked_at: Option<f64>,
    longest: f64,
}

impl AnswerDelay {
    fn note(&mut self, frames: &mut EventStream) {
        loop {
            let event = match frames.try_recv() {
                Some(Ok(event)) => event,
                // The oldest events are gone; the ones kept still tell.
                Some(Err(rove_cdp::EventStreamError::Lagged(_))) => continue,
                Some(Err(rove_cdp::EventStreamError::Closed)) | None => return,
            };
            match event.method.as_str() {
                WebSocketFrameSent::METHOD => {
                    if let (None, Ok(sent)) = (self.asked_at, event.parse::<WebSocketFrameSent>()) {
                        self.asked_at = Some(sent.timestamp);
                    }
                }
                WebSocketFrameReceived::METHOD => {
                    if let (Some(asked), Ok(received)) =
                        (self.asked_at, event.parse::<WebSocketFrameReceived>())
                    {
                        self.asked_at = None;
                        self.longest = self.longest.max(received.timestamp - asked);
                    }
                }
                _ => {}
            }
        }
    }
}

impl Keys<'_> {
    /// Holds `name` down (one `keydown`, then repeats) from the value
    /// `from` toward `wanted`, reading the value after each press, until it
    /// is reached or passed, stops moving, or (with `no_pass`) the next press
    /// would pass it; then releases the key. `stride` is how far a press is
    /// known to move the value before any was made (a range input's step).
    ///
    /// An app may take a value at every press, and a server may still be
    /// working on earlier ones when the last arrives: Streamlit runs its
    /// script again for each, the runs side by side, and an older run can
    /// apply its value after the newer one did (the server then holds 68
    /// while the slider shows 70). So a press that may land on the value,
    /// or pass it, waits until the page has answered every earlier press:
    /// the value rove reports is then the last one the app was sent, alone.
    async fn hold(
        &mut self,
        name: &str,
        from: f64,
        wanted: f64,
        no_pass: bool,
        stride: Option<f64>,
    ) -> Result<Held, InputError> {
        let key = parse_chord(name)?.key;
        let event = |kind: DispatchKeyEventType, repeat: bool| DispatchKeyEvent {
            kind,
            key: Some(key.key.clone()),
            code: Some(key.code.clone()),
            windows_virtual_key_code: Some(i64::from(key.key_code)),
            native_virtual_key_code: Some(i64::from(key.key_code)),
            auto_repeat: repeat.then_some(true),
            ..Default::default()
        };
        let direction = (wanted - from).signum();
        let mut held = Held {
            now: from,
            moved: false,
            passed: None,
            wrong_way: false,
        };
        let mut repeat = false;
        let mut stride = stride;
        loop {
            if self.presses >= MAX_PRESSES || self.session.dialog_open() {
                break;
            }
            let lands = stride.is_none_or(|stride| {
                let next = held.now + stride;
                same(next, wanted) || (next - wanted).signum() == direction
            });
            if lands && self.presses > 0 {
                self.settled = self.answered().await;
                self.quiet_for_as_long_as_answers_took().await;
                self.armed = arm_element(self.tab, self.element, self.session.subscribe()).await;
                if self.settled.navigated || self.session.dialog_open() {
                    break;
                }
                // The answers may have moved the control (a server that
                // puts back a value of its own): the press goes from there.
                let control = read(self.element, "read")
                    .await
                    .map_err(InputError::after_input)?;
                held.now = control.now.unwrap_or(held.now);
                if same(held.now, wanted) {
                    break;
                }
            }
            let sent_before = self.presses > 0;
            self.session
                .send(&event(DispatchKeyEventType::RawKeyDown, repeat))
                .await
                .map_err(|e| InputError::browser(e, sent_before))?;
            self.presses += 1;
            repeat = true;
            let before = held.now;
            let now = self.value_moved_from(before).await?;
            self.delay.note(&mut self.frames);
            if same(now, before) {
                break;
            }
            held.moved = true;
            held.now = now;
            // Reached, or the key moves the other way (a right-to-left
            // slider): holding it longer would only take the value away.
            if (now - before).signum() != direction {
                held.wrong_way = true;
                break;
            }
            if same(now, wanted) || direction == 0.0 {
                break;
            }
            if (now - wanted).signum() == direction {
                held.passed = Some((before, now));
                break;
            }
            let moved_by = now - before;
            stride = Some(moved_by);
            if no_pass && ((now + moved_by) - wanted).signum() == direction {
                break;
            }
        }
        if repeat {
            self.session
                .send(&event(DispatchKeyEventType::KeyUp, false))
                .await
                .map_err(|e| InputError::browser(e, true))?;
        }
        Ok(held)
    }

    /// Moves the control from the value `from` to `wanted` with its keys:
    /// the extreme's key, Page keys while far, then arrows (passing the
    /// value puts it back by one press). Where it ended, and the values
    /// before and after a press that passed `wanted`.
    async fn toward(
        &mut self,
        control: &Control,
        from: f64,
        wanted: f64,
    ) -> Result<(f64, Option<(f64, f64)>), InputError> {
        let mut now = from;
        let mut passed: Option<(f64, f64)> = None;
        if !same(now, wanted) {
            // The extremes, with the key made for them.
            let extreme = if control.min.is_some_and(|min| same(wanted, min)) {
                Some("Home")
            } else if control.max.is_some_and(|max| same(wanted, max)) {
                Some("End")
            } else {
                None
            };
            if let Some(key) = extreme {
                now = self.hold(key, now, wanted, false, None).await?.now;
            }
        }
        // Far away: Page keys, stopping before a press would pass the value.
        let single = control.step.unwrap_or(1.0).max(f64::MIN_POSITIVE);
        // Limits of ±1e308 span more than a float holds: the largest one then.
        let span = match (control.min, control.max) {
            (Some(min), Some(max)) => Some((max - min).abs())
                .filter(|s| s.is_finite())
                .unwrap_or(f64::MAX),
            _ => 0.0,
        };
        let far = |now: f64| {
            let distance = (wanted - now).abs();
            if control.step.is_some() {
                distance / single > PAGE_FROM_STEPS
            } else {
                span > 0.0 && distance > span / PAGE_FROM_STEPS
            }
        };
        if !same(now, wanted) && far(now) {
            let key = if wanted > now { "PageUp" } else { "PageDown" };
            now = self.hold(key, now, wanted, true, None).await?.now;
        }
        // Single steps, up or down; a control that ignores the vertical arrows
        // (a horizontal one that reads only Left and Right) gets those.
        if !same(now, wanted) {
            let up = wanted > now;
            let (first, second) = if up {
                ("ArrowUp", "ArrowRight")
            } else {
                ("ArrowDown", "ArrowLeft")
            };
            // A range input's arrows move it by its step: the press that lands
            // on the value is known before it is sent. Other controls tell
            // their steps only by moving.
            let arrow_stride = control
                .native
                .then_some(control.step)
                .flatten()
                .map(|step| if up { step } else { -step });
            let mut used = first;
            let mut held = self.hold(first, now, wanted, false, arrow_stride).await?;
            if !held.moved || held.wrong_way {
                used = second;
                held = self
                    .hold(second, held.now, wanted, false, arrow_stride)
                    .await?;
            }
            now = held.now;
            passed = held.passed;
            // A press that passed the value leaves the control beyond it (a
            // range of ±1e308 moves in strides of 2e306): one press back puts
            // it on the nearest value on the side it came from.
            if let Some((before, _)) = passed {
                now = self
                    .hold(reverse(used), now, before, false, None)
                    .await?
                    .now;
            }
        }
        Ok((now, passed))
    }

    /// After the page settled: waits until its sockets have been silent for
    /// half again as long as its server took to begin answering a press
    /// (capped at the longest quiet settling allows), with every frame
    /// answered and no sign of work. A server slowed by load can leave the
    /// usual quiet in the middle of working through the presses queued
    /// with it; a silence as long as its own delays is better evidence.
    async fn quiet_for_as_long_as_answers_took(&mut self) {
        self.delay.note(&mut self.frames);
        let Ok(watch) = self.tab.watch().await else {
            return;
        };
        let floor = crate::settle::limits().stream_quiet;
        let learned = Duration::try_from_secs_f64(self.delay.longest * 1.5).unwrap_or(floor);
        let quiet = floor.max(learned.min(rove_base::limits::SETTLE_STREAM_QUIET_MAX));
        let deadline = Instant::now() + crate::settle::limits().stream_cap;
        server_answered(self.tab, &watch, None, deadline, quiet).await;
    }

    /// Waits until the page has answered the presses since settling was
    /// last armed; what it did, with what the waits between presses saw.
    async fn answered(&mut self) -> Settled {
        let settled = settle(self.tab, &mut self.armed).await;
        std::mem::take(&mut self.settled).then(settled)
    }

    /// The control's value after a press; when it has not moved yet, read
    /// again after a frame (a page that renders the value a frame later).
    async fn value_moved_from(&self, before: f64) -> Result<f64, InputError> {
        let control = read(self.element, "read")
            .await
            .map_err(InputError::after_input)?;
        let now = control.now.unwrap_or(before);
        if !same(now, before) {
            return Ok(now);
        }
        let control = read(self.element, "read_after_frame")
            .await
            .map_err(InputError::after_input)?;
        Ok(control.now.unwrap_or(before))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_values_on_a_grid() {
        assert_eq!(nearest_on_grid(72.0, 0.0, 100.0, 5.0), Some((70.0, 75.0)));
        assert_eq!(nearest_on_grid(70.0, 0.0, 100.0, 5.0), None);
        assert_eq!(nearest_on_grid(0.3, 0.0, 1.0, 0.1), None, "float noise");
        assert_eq!(nearest_on_grid(97.0, 0.0, 98.0, 7.0), Some((91.0, 98.0)));
        assert_eq!(shown(0.1 + 0.2), "0.3");
        assert_eq!(shown(70.0), "70");
        // Values too large to round are shown as they are, never `inf`.
        assert_eq!(shown(2e306), "2e306");
        assert_eq!(shown(-1e308), "-1e308");
    }
}
