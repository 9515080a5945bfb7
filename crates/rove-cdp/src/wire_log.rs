//! The `cdp` log layer: every message rove sends to the browser and every
//! one it receives, as tracing events with the target `cdp`.
//!
//! At `debug` a line says which way the message went, its session, method,
//! id, size in bytes and, for an answer, how long it took. At `trace` the
//! payload comes too, cut to [`PAYLOAD_MAX`] bytes and passed through
//! [`rove_base::redact::scrub`]; the parameters of the `Input` methods that carry
//! typed text are never shown at all (a secret typed a key at a time would
//! slip past any search for the whole value).
//!
//! When the layer is off nothing here is formatted or copied: each entry
//! point asks `tracing::enabled!` first, so the cost is one check per
//! message.

use std::time::Instant;

use rove_base::text::byte_prefix;
use tracing::Level;

use crate::SessionId;
use crate::protocol::{Command, input};

/// The tracing target of this layer.
pub const TARGET: &str = "cdp";

/// The most bytes of a payload a `trace` line shows.
pub const PAYLOAD_MAX: usize = 2_048;

/// How much of a long payload is scrubbed before it is cut: enough past the
/// cut that a secret across it is still found whole.
const SCRUB_WINDOW: usize = 4 * PAYLOAD_MAX;

/// Methods whose parameters are typed text.
const TYPED: &[&str] = &[
    <input::InsertText as Command>::METHOD,
    <input::DispatchKeyEvent as Command>::METHOD,
    // Not sent by rove today; listed so that it never shows if it is.
    "Input.imeSetComposition",
];

/// Whether the layer is on at all (a message's time is only taken then).
pub(crate) fn on() -> bool {
    tracing::enabled!(target: "cdp", Level::DEBUG)
}

fn with_payloads() -> bool {
    tracing::enabled!(target: "cdp", Level::TRACE)
}

fn session_name(session: Option<&SessionId>) -> &str {
    session.map(SessionId::as_str).unwrap_or("browser")
}

/// A request on its way to the browser.
pub(crate) fn sent(id: u64, session: Option<&SessionId>, method: &str, text: &str) {
    if !on() {
        return;
    }
    let session = session_name(session);
    if with_payloads() {
        let payload = if TYPED.contains(&method) {
            "(typed text, not logged)".to_owned()
        } else {
            preview(text)
        };
        tracing::trace!(target: "cdp", dir = "send", id, session, method, bytes = text.len(), payload = %payload, "sent");
    } else {
        tracing::debug!(target: "cdp", dir = "send", id, session, method, bytes = text.len(), "sent");
    }
}

/// An answer to request `id`, `sent_at` when it went out.
pub(crate) fn answered(
    id: u64,
    session: Option<&SessionId>,
    method: &str,
    sent_at: Option<Instant>,
    failed: bool,
    text: &str,
) {
    if !on() {
        return;
    }
    let session = session_name(session);
    let ms = sent_at
        .map(|t| t.elapsed().as_secs_f64() * 1e3)
        .unwrap_or(0.0);
    let ms = (ms * 1000.0).round() / 1000.0;
    if with_payloads() {
        let payload = preview(text);
        tracing::trace!(target: "cdp", dir = "recv", id, session, method, bytes = text.len(), ms, failed, payload = %payload, "answer");
    } else {
        tracing::debug!(target: "cdp", dir = "recv", id, session, method, bytes = text.len(), ms, failed, "answer");
    }
}

/// An event from the browser.
pub(crate) fn event(session: Option<&str>, method: &str, text: &str) {
    if !on() {
        return;
    }
    let session = session.unwrap_or("browser");
    if with_payloads() {
        let payload = preview(text);
        tracing::trace!(target: "cdp", dir = "event", session, method, bytes = text.len(), payload = %payload, "event");
    } else {
        tracing::debug!(target: "cdp", dir = "event", session, method, bytes = text.len(), "event");
    }
}

/// The start of a payload, scrubbed, at most [`PAYLOAD_MAX`] bytes, with
/// the size left out when it was cut.
fn preview(text: &str) -> String {
    let window = byte_prefix(text, SCRUB_WINDOW);
    let scrubbed = rove_base::redact::scrub(window);
    let shown = byte_prefix(&scrubbed, PAYLOAD_MAX);
    if shown.len() < text.len() && shown.len() < scrubbed.len() {
        format!(
            "{shown}… ({} bytes more)",
            text.len().saturating_sub(shown.len())
        )
    } else {
        shown.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_are_cut_on_a_character_boundary_and_say_how_much_is_left() {
        let long = "é".repeat(PAYLOAD_MAX);
        let shown = preview(&long);
        assert!(
            shown.ends_with(&format!("({} bytes more)", PAYLOAD_MAX)),
            "{}",
            &shown[shown.len() - 40..]
        );
        assert_eq!(preview("{\"id\":1}"), "{\"id\":1}");
    }
}
