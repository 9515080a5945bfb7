//! The click guard's side in Rust: a click's events sent together, and
//! what the guard saw of them.
//!
//! A click whose target's document had rove's activity script from its
//! start sends its move, presses and releases without waiting between
//! them; the actionability check armed the script's guard
//! (rove-browser's `click_guard.js`), which judges the press where it
//! lands and stops the gesture before the page's listeners when something
//! else took it. Asked afterwards with [`verdict`].

use rove_browser::{Activity, Guarded, Tab, Where};
use rove_cdp::protocol::dom::{DescribeNode, Node, ShadowRootType};
use rove_cdp::protocol::input::DispatchMouseEvent;
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

/// Whether the element holds a frame (or a plugin's embed) in a closed
/// shadow tree: a press at its point goes into that frame's document, and
/// the element's own document sees only the element there. No when the
/// page cannot be asked (the click is then not called done).
pub(crate) async fn closed_frame(main: &InputChannel, element: &Element) -> bool {
    let describe = DescribeNode {
        object_id: Some(element.object_id.clone()),
        depth: Some(-1),
        pierce: Some(true),
        ..DescribeNode::default()
    };
    match main.unless_dialog(element.session.send(&describe)).await {
        Some(Ok(found)) => frame_in_closed_tree(&found.node, false),
        _ => false,
    }
}

fn frame_in_closed_tree(node: &Node, closed: bool) -> bool {
    // The elements `intoAt` in actionable.js counts as frames.
    if closed
        && matches!(
            node.local_name.as_str(),
            "iframe" | "frame" | "embed" | "object"
        )
    {
        return true;
    }
    let in_children = node
        .children
        .iter()
        .flatten()
        .any(|child| frame_in_closed_tree(child, closed));
    in_children
        || node.shadow_roots.iter().flatten().any(|root| {
            let closed = closed || matches!(root.shadow_root_type, Some(ShadowRootType::Closed));
            frame_in_closed_tree(root, closed)
        })
}
