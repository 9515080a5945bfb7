//! Typing, filling and pressing keys, with real key events.

use std::time::{Duration, Instant};

use crate::channel::InputChannel;
use rove_browser::Tab;
use rove_cdp::protocol::input::{DispatchKeyEvent, DispatchKeyEventType, InsertText};
use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::{Element, PageModel, Ref};
use serde::Deserialize;

use crate::edit_outcome::EditOutcome;
use crate::keys::key_for_char;
use crate::keystrokes::{key_params, named, needs_shift, shift_key, stroke, value_after};
use crate::mouse::{on_element, refuse_while_dialog, scroll_into_view};
use crate::settle::{Settled, Watched, arm, arm_element, settle};
use crate::{InputError, Modifiers};

const EDITABLE: &str = include_str!("editable.js");

/// How to type.
#[derive(Debug, Clone, Default)]
pub struct TypeOptions {
    /// A pause between keys, for pages that react to typing speed.
    pub delay: Option<Duration>,
    /// When typing must stop: what was typed by then stays, and the failure
    /// says how much it was (`TIMEOUT`, `action_sent: sent`).
    pub deadline: Option<Instant>,
}

/// How many key events may be on their way to the page at once. Chromium
/// answers each `Input.dispatchKeyEvent` only after the page has handled
/// it; waiting for each answer before sending the next key made a key cost
/// two round trips (3,000 characters took minutes on a busy page). The
/// events still go out one by one, in order, through the browser's input
/// pipeline, and the page handles each before the next (they are trusted,
/// with keydown, keypress, input and keyup as from a keyboard); only the
/// waiting overlaps. Small, so that a dialog or the deadline stops typing
/// within a few keys.
const KEYS_IN_FLIGHT: usize = 8;

#[derive(Debug, Deserialize)]
struct Prepared {
    state: String,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    detail: Option<String>,
}

/// One input event of a typed text: the character it belongs to, and the
/// event.
struct KeyStep {
    char_index: usize,
    event: KeyInput,
}

/// A key event, or text inserted as an IME would. (Boxed: a key event is
/// the protocol's whole parameter list, most of it unset.)
enum KeyInput {
    Key(Box<DispatchKeyEvent>),
    Insert(InsertText),
}

/// The input events that type `text`, in order.
fn key_steps(text: &str) -> Vec<KeyStep> {
    let mut steps = Vec::new();
    for (i, c) in text.chars().enumerate() {
        let mut push = |event: DispatchKeyEvent| {
            steps.push(KeyStep {
                char_index: i,
                event: KeyInput::Key(Box::new(event)),
            })
        };
        match key_for_char(c) {
            Some(key) => {
                let shifted = needs_shift(c);
                let modifiers = Modifiers {
                    shift: shifted,
                    ..Modifiers::default()
                };
                if shifted {
                    push(key_params(
                        DispatchKeyEventType::RawKeyDown,
                        &shift_key(),
                        modifiers,
                    ));
                }
                let down = if key.text.is_empty() {
                    DispatchKeyEventType::RawKeyDown
                } else {
                    DispatchKeyEventType::KeyDown
                };
                push(key_params(down, &key, modifiers));
                push(key_params(DispatchKeyEventType::KeyUp, &key, modifiers));
                if shifted {
                    push(key_params(
                        DispatchKeyEventType::KeyUp,
                        &shift_key(),
                        Modifiers::default(),
                    ));
                }
            }
            None => steps.push(KeyStep {
                char_index: i,
                event: KeyInput::Insert(InsertText {
                    text: c.to_string(),
                }),
            }),
        }
    }
    steps
}

/// How far typing got.
struct Typed {
    /// Characters whose every event the page has handled.
    chars: usize,
    /// Why it stopped early, if it did.
    stopped: Option<Stop>,
}

enum Stop {
    Deadline,
    Dialog,
}

/// Sends `steps` with up to [`KEYS_IN_FLIGHT`] on their way at once (one at
/// a time with a delay), until all are handled, the deadline passes or a
/// dialog opens.
async fn send_keys(
    session: &InputChannel,
    steps: Vec<KeyStep>,
    opts: &TypeOptions,
) -> Result<Typed, InputError> {
    use futures_util::StreamExt;
    let window = if opts.delay.is_some() {
        1
    } else {
        KEYS_IN_FLIGHT
    };
    let total_steps = steps.len();
    let mut in_flight = futures_util::stream::FuturesOrdered::new();
    let mut steps = steps.into_iter().peekable();
    let mut handled = 0usize;
    let mut chars = 0usize;
    let mut stopped = None;
    let mut last_issued = None;
    loop {
        // The deadline stops typing between characters, never between a
        // key's down and up.
        let starts_char = steps
            .peek()
            .is_some_and(|n| Some(n.char_index) != last_issued);
        if stopped.is_none() {
            if session.dialog_open() {
                stopped = Some(Stop::Dialog);
            } else if starts_char && opts.deadline.is_some_and(|d| Instant::now() >= d) {
                stopped = Some(Stop::Deadline);
            }
        }
        let room = in_flight.len() < window;
        let next = if stopped.is_none() && room {
            steps.next()
        } else {
            None
        };
        if let Some(step) = next {
            last_issued = Some(step.char_index);
            let last_of_char = steps.peek().is_none_or(|n| n.char_index != step.char_index);
            in_flight.push_back(async move {
                let answer = match &step.event {
                    KeyInput::Key(key) => session.send(key.as_ref()).await,
                    KeyInput::Insert(text) => session.send(text).await,
                };
                (step.char_index, last_of_char, answer)
            });
            continue;
        }
        let Some((index, last_of_char, answer)) = in_flight.next().await else {
            break;
        };
        // Earlier keys reached the page; the failed one may have too.
        answer.map_err(|e| InputError::browser(e, handled > 0))?;
        handled += 1;
        if last_of_char {
            chars = index + 1;
            if let Some(delay) = opts.delay {
                tokio::time::sleep(delay).await;
            }
        }
    }
    if handled == total_steps {
        stopped = None;
    }
    Ok(Typed { chars, stopped })
}

/// Types `text` at the end of the field `target` names, one real key press
/// per character (keydown, keypress, input, keyup, all trusted); characters no
/// US keyboard has are inserted as text. The field must end with the text,
/// or the edit is reported as ignored. Typing stops at the options'
/// deadline, saying how much was typed.
pub async fn type_text(
    model: &mut PageModel,
    target: Ref,
    text: &str,
    opts: &TypeOptions,
) -> Result<EditOutcome, InputError> {
    on_element(model, target, async |tab: &Tab, element: &Element| {
        let prepared = prepare(element, "append").await?;
        let editor = matches!(prepared, Editable::Editor);
        let before = match prepared {
            Editable::Text(before) => before,
            Editable::Picker(kind) => {
                return Err(InputError::NotActionable {
                    target: target.to_string(),
                    reason: format!(
                        "it is a {kind} input, which takes its value whole: fill {target} with the value instead"
                    ),
                    cover: None,
                });
            }
            // Typing goes on at the editor's own caret, as keys do.
            Editable::Editor => {
                crate::editor::focus(element).await?;
                String::new()
            }
            Editable::Choice => {
                return Err(InputError::NotActionable {
                    target: target.to_string(),
                    reason: format!(
                        "it is a read-only combobox, which takes no text: select an option in {target} instead"
                    ),
                    cover: None,
                });
            }
            Editable::Stepped => {
                return Err(InputError::NotActionable {
                    target: target.to_string(),
                    reason: format!(
                        "it is a slider or spinbutton, which takes a number: fill {target} with the value instead"
                    ),
                    cover: None,
                });
            }
        };
        let session = crate::channel::InputChannel::of(tab).await?;
        let mut armed = arm_element(tab, element, session.subscribe()).await;
        let total = text.chars().count();
        let typed = send_keys(&session, key_steps(text), opts).await?;
        match typed.stopped {
            Some(Stop::Deadline) => {
                return Err(InputError::TypingTimedOut {
                    target: target.to_string(),
                    typed: typed.chars,
                    total,
                });
            }
            // The page is blocked; the command reports the dialog.
            Some(Stop::Dialog) => {
                return Ok(EditOutcome::took(String::new(), Settled::default()));
            }
            None => {}
        }
        let settled = settle(tab, &mut armed).await;
        if session.dialog_open() {
            return Ok(EditOutcome::took(String::new(), settled));
        }
        if editor {
            // An editor takes the keys at its own caret, anywhere in its
            // text, and empties its hidden input as it does: what counts is
            // the text it shows (spacing aside: it may indent a new line).
            let Some(shown) = crate::editor::shown(element)
                .await
                .map_err(InputError::after_input)?
            else {
                return Ok(EditOutcome::field_gone(settled));
            };
            let squash = |t: &str| t.split_whitespace().collect::<String>();
            if !squash(&shown).contains(&squash(text)) {
                return Err(ignored(target, text, &shown));
            }
            return Ok(EditOutcome::took(shown, settled));
        }
        let Some(value) = value_after(element).await? else {
            return Ok(EditOutcome::field_gone(settled));
        };
        let expected = format!("{before}{text}");
        if !value.ends_with(text) && value != expected {
            return Err(ignored(target, text, &value));
        }
        Ok(EditOutcome::took(value, settled))
    })
    .await
}

/// Replaces the value of the field `target` names with `text`, as a user's
/// select-all and paste would (trusted `beforeinput` and `input`), then
/// gives the page the `change` event a committed edit fires, without
/// leaving the field: leaving would close widgets that close when they lose
/// the focus (a command palette, a combobox's popup). The field must hold
/// the text afterwards, or the edit is reported as ignored. In an editable
/// combobox with a list, the option the text names is chosen (combobox.rs).
/// An input whose
/// value a native picker sets (a date, a colour) is given the value whole
/// instead, in the ISO form it holds (see value.rs); a slider or
/// spinbutton is moved to the number with keys (see slider.rs).
pub async fn fill(
    model: &mut PageModel,
    target: Ref,
    text: &str,
) -> Result<EditOutcome, InputError> {
    match replace_text(model, target, text).await? {
        Replaced::Edited(edit) => crate::combobox::after_fill(model, target, text, edit).await,
        Replaced::Choose => {
            // A read-only combobox takes no text: the option the text names
            // is chosen from its list, as `select` does.
            let (name, settled) =
                crate::combobox::open_and_choose(model, target, text, "combobox", true).await?;
            let mut edit = EditOutcome::took(name.clone(), settled);
            edit.list = crate::ListChoice::Chose(name);
            Ok(edit)
        }
    }
}

/// What [`replace_text`] did.
enum Replaced {
    Edited(EditOutcome),
    /// Nothing yet: the field is a read-only combobox to choose in.
    Choose,
}

/// [`fill`]'s edit itself, before a combobox's list is looked at.
async fn replace_text(
    model: &mut PageModel,
    target: Ref,
    text: &str,
) -> Result<Replaced, InputError> {
    on_element(model, target, async |tab: &Tab, element: &Element| {
        let edited = match prepare(element, "replace").await? {
            Editable::Picker(kind) => crate::value::set_value(tab, element, &kind, text).await,
            Editable::Stepped => crate::slider::set_by_keys(tab, element, text).await,
            Editable::Editor => crate::editor::replace(tab, element, text).await,
            Editable::Choice => return Ok(Replaced::Choose),
            Editable::Text(_) => {
                return type_replacing(tab, element, target, text)
                    .await
                    .map(Replaced::Edited);
            }
        };
        edited.map(Replaced::Edited)
    })
    .await
}

/// Replaces a text field's content with `text` through real input.
async fn type_replacing(
    tab: &Tab,
    element: &Element,
    target: Ref,
    text: &str,
) -> Result<EditOutcome, InputError> {
    {
        let session = crate::channel::InputChannel::of(tab).await?;
        let mut armed = arm_element(tab, element, session.subscribe()).await;
        if text.is_empty() {
            stroke(&session, &named("Delete"), Modifiers::default())
                .await
                .map_err(|e| InputError::browser(e, false))?;
        } else {
            session
                .send(&InsertText {
                    text: text.to_owned(),
                })
                .await
                .map_err(|e| InputError::browser(e, false))?;
        }
        // The edit is committed where it stands: `change`, as leaving the
        // field would fire it, with the focus kept.
        let commit = CallFunctionOn::on(
            "fill's change event",
            "function() { if (this.isConnected && (this.tagName === 'INPUT' || this.tagName === 'TEXTAREA')) this.dispatchEvent(new Event('change', {bubbles: true})); }",
            element.object_id.as_str(),
        );
        let committed = element.session.run_checked(&commit, None).await;
        if let Err(e) = committed {
            let error = InputError::browser(e, true);
            if !error.element_gone() {
                return Err(error);
            }
        }
        let settled = settle(tab, &mut armed).await;
        let Some(value) = value_after(element).await? else {
            return Ok(EditOutcome::field_gone(settled));
        };
        if value.trim_end_matches('\n') != text {
            return Err(ignored(target, text, &value));
        }
        Ok(EditOutcome::took(value, settled))
    }
}

/// Types `text` into whatever has the focus, key by key (as
/// [`type_text`], without a ref: for a field a widget focused itself, such
/// as a command palette's input). Nothing is checked about the element;
/// what the page did is in the settled outcome and the view after it.
pub async fn type_focused(
    tab: &Tab,
    text: &str,
    opts: &TypeOptions,
) -> Result<Settled, InputError> {
    refuse_while_dialog(tab).await?;
    let session = crate::channel::InputChannel::of(tab).await?;
    let mut armed = arm(tab, Watched::MainFrame, session.subscribe()).await;
    let total = text.chars().count();
    let typed = send_keys(&session, key_steps(text), opts).await?;
    if let Some(Stop::Deadline) = typed.stopped {
        return Err(InputError::TypingTimedOut {
            target: "the focused element".into(),
            typed: typed.chars,
            total,
        });
    }
    if session.dialog_open() {
        return Ok(Settled::default());
    }
    Ok(settle(tab, &mut armed).await)
}

/// Gives the element `target` names the keyboard focus, as tabbing to it
/// would (no click: nothing under the pointer reacts).
pub async fn focus(model: &mut PageModel, target: Ref) -> Result<(), InputError> {
    on_element(model, target, async |_tab: &Tab, element: &Element| {
        element
            .session
            .send(&rove_cdp::protocol::dom::Focus {
                object_id: Some(element.object_id.clone()),
                ..Default::default()
            })
            .await?;
        Ok(())
    })
    .await
}

/// Gives `target` the focus before keys are pressed on it: by clicking it,
/// as a user would, except on a slider, where a click moves the value (a
/// range input jumps to the point clicked, an ARIA slider's track usually
/// does too), and on a canvas's fallback content (a canvas data grid's
/// cells), which has no box to click; these get the focus as tabbing to
/// them would (into the canvas first: [`crate::mouse::enter_canvas`]).
pub async fn focus_for_keys(
    model: &mut PageModel,
    target: Ref,
    opts: &crate::ClickOptions,
) -> Result<(), InputError> {
    let reached = on_element(model, target, async |_tab: &Tab, element: &Element| {
        let call = CallFunctionOn::on(
            "whether it takes the focus without a click",
            "function() { \
               if (this.matches('input[type=range]') || (this.computedRole || this.getAttribute('role')) === 'slider') return 'slider'; \
               if (!this.checkVisibility() && !!this.parentElement && !!this.parentElement.closest('canvas')) return 'fallback'; \
               return 'click'; }",
            element.object_id.as_str(),
        )
        .by_value();
        let reached: String = element.session.run_checked_value(&call, None).await?;
        if reached == "fallback" {
            crate::mouse::enter_canvas(element).await?;
        }
        Ok(reached)
    })
    .await?;
    match reached.as_str() {
        "slider" | "fallback" => focus(model, target).await,
        _ => crate::mouse::click(model, target, opts).await.map(|_| ()),
    }
}

/// A field ready for the keyboard, or an input a native picker sets.
enum Editable {
    /// Focused, with the caret placed; what it held.
    Text(String),
    /// An input of this type, whose value is set whole (value.rs).
    Picker(String),
    /// A slider or spinbutton, moved with keys (slider.rs).
    Stepped,
    /// A code or rich-text editor, replaced whole (editor.rs).
    Editor,
    /// A read-only combobox: an option is chosen (select.rs).
    Choice,
}

async fn prepare(element: &Element, mode: &str) -> Result<Editable, InputError> {
    scroll_into_view(element).await;
    let call = CallFunctionOn::on("editable.js", EDITABLE, element.object_id.as_str())
        .value(mode)
        .by_value();
    let prepared: Prepared = element.session.run_checked_value(&call, None).await?;
    let reason = match prepared.state.as_str() {
        "ok" => return Ok(Editable::Text(prepared.value.unwrap_or_default())),
        "picker" => return Ok(Editable::Picker(prepared.detail.unwrap_or_default())),
        "stepped" => return Ok(Editable::Stepped),
        "editor" => return Ok(Editable::Editor),
        "choice" => return Ok(Editable::Choice),
        "hidden" => "it is hidden".to_owned(),
        "disabled" => "it is disabled".to_owned(),
        "readonly" => "it is read-only".to_owned(),
        "not_editable" => format!(
            "it is not editable ({})",
            prepared.detail.unwrap_or_default()
        ),
        "unfocusable" => "it does not take the focus".to_owned(),
        other => other.to_owned(),
    };
    Err(InputError::NotActionable {
        target: element.reference.to_string(),
        reason,
        cover: None,
    })
}

fn ignored(target: Ref, text: &str, value: &str) -> InputError {
    InputError::Ignored {
        target: target.to_string(),
        wanted: text.to_owned(),
        holds: value.to_owned(),
    }
}
