//! The click guard's side in Rust: a click's events sent together, and
//! what the guard saw of them.
//!
//! A click whose target's document had rove's activity script from its
//! start sends its move, presses and releases without waiting between
//! them; the actionability check armed the script's guard, which judges
//! the press where it lands and stops the gesture before the page's
//! listeners when something else took it (`activity.js`). Asked afterwards
//! with [`verdict`].

use rove_base::limits;
use rove_browser::{Activity, Guarded, Tab, Where};
use rove_cdp::protocol::input::DispatchMouseEvent;
use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::Element;

use crate::InputError;
use crate::channel::InputChannel;

/// Sends a gesture's events without waiting between them: written
/// in order, they reach the page in order, and the press behind the move
/// makes the renderer deliver the move at once instead of with the next
/// frame. Any failure may leave the gesture half done.
pub(crate) async fn send_at_once(
    main: &InputChannel,
    events: &[DispatchMouseEvent],
) -> Result<(), InputError> {
    let sent = futures_util::future::join_all(events.iter().map(|e| main.send(e))).await;
    for result in sent {
        result.map_err(|e| InputError::browser(e, true))?;
    }
    Ok(())
}

/// What the guard the actionability check armed saw of the press; `None`
/// when it cannot be asked (the click replaced the document, or opened a
/// dialog: what it did is then the settle's to tell).
pub(crate) async fn verdict(tab: &Tab, main: &InputChannel, element: &Element) -> Option<Guarded> {
    let at = Where::Object {
        session: &element.session,
        object_id: &element.object_id,
    };
    let activity = Activity::of(tab, at);
    match main.unless_dialog(activity.guard_verdict()).await? {
        Ok(verdict) => verdict,
        Err(e) => {
            tracing::debug!(target: "rove_input", error = %e, "could not ask the click guard");
            None
        }
    }
}

/// Whether the element is, or holds, a frame or a plugin's embed: a press
/// on it goes to that document, not the element's. Said yes when the page
/// cannot be asked (what happened is then the settle's to tell).
pub(crate) async fn holds_frame(main: &InputChannel, element: &Element) -> bool {
    let call = CallFunctionOn::on(
        "the frame check",
        "function() { const F = 'iframe, frame, embed, object'; return this.matches(F) || !!this.querySelector(F); }",
        element.object_id.as_str(),
    )
    .by_value();
    let asked = element
        .session
        .run_checked_value::<_, bool>(&call, Some(limits::ACTION));
    main.unless_dialog(asked)
        .await
        .is_none_or(|held| held.unwrap_or(true))
}
