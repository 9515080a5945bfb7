//! The applications' events: what tells a settle that an application has
//! answered an action (its `children-changed`, `state-changed`,
//! `text-changed`, `property-change` and window signals) and that it has
//! fallen silent since.
//!
//! Applications send events only for kinds some client registered with
//! the registry (`Registry.RegisterEvent`), and the bus delivers them only
//! to connections that asked (`AddMatch`): rove does both when it connects.
//! Only the sender of each signal is read; the tree is read again for what
//! changed.

use std::time::{Duration, Instant};

use crate::dbus::{Arg, Call};
use crate::{DesktopError, Heard};

use super::{AtSpi, REGISTRY};

/// The event interfaces rove listens to, and the kinds it registers.
const EVENTS: [(&str, &str); 2] = [
    ("org.a11y.atspi.Event.Object", "object:"),
    ("org.a11y.atspi.Event.Window", "window:"),
];

impl AtSpi {
    /// Asks for the applications' object and window events. Best effort:
    /// without them a settle reads the tree on a clock, as it did before.
    pub(super) fn subscribe(&mut self) {
        let mut calls = Vec::new();
        for (interface, kind) in EVENTS {
            calls.push(
                Call::new(
                    "org.freedesktop.DBus",
                    "/org/freedesktop/DBus",
                    "org.freedesktop.DBus",
                    "AddMatch",
                )
                .arg(Arg::Str(format!("type='signal',interface='{interface}'"))),
            );
            calls.push(
                Call::new(
                    REGISTRY,
                    "/org/a11y/atspi/registry",
                    "org.a11y.atspi.Registry",
                    "RegisterEvent",
                )
                .arg(Arg::Str(kind.to_owned())),
            );
        }
        let until = Instant::now() + rove_base::limits::DESKTOP_CALL;
        match self.batch(&calls, until) {
            Ok(replies) => {
                if let Some(Err(error)) = replies.into_iter().find(Result::is_err) {
                    tracing::debug!(%error, "an event subscription was refused");
                }
            }
            Err(error) => tracing::debug!(%error, "no event subscription"),
        }
    }

    /// Drops the events read so far: what comes after is the answer to
    /// what is sent next.
    pub(super) fn forget_events(&mut self) {
        let soon = Instant::now() + rove_base::limits::DESKTOP_EVENTS_PEEK;
        while let Ok(Some(_)) = self.bus.next_signal(soon) {}
    }

    /// The events from `sender` read so far (while replies were awaited,
    /// or waiting in the socket), without waiting for more.
    pub(super) fn events_read(&mut self, sender: &str) -> u32 {
        let soon = Instant::now() + rove_base::limits::DESKTOP_EVENTS_PEEK;
        let mut seen = 0u32;
        while let Ok(Some(from)) = self.bus.next_signal(soon) {
            if from == sender {
                seen = seen.saturating_add(1);
            }
        }
        seen
    }

    /// Waits for the application on `sender` to send an event, at most
    /// `first`, then until it has sent none for `quiet`, all within
    /// `within`.
    pub(super) fn events_until_quiet(
        &mut self,
        sender: &str,
        first: Duration,
        quiet: Duration,
        within: Duration,
    ) -> Result<Heard, DesktopError> {
        let started = Instant::now();
        let end = started + within;
        let mut heard = Heard {
            events: 0,
            fell_silent: false,
        };
        let mut until = started + first;
        loop {
            let now = Instant::now();
            if now >= until {
                heard.fell_silent = true;
                return Ok(heard);
            }
            if now >= end {
                return Ok(heard);
            }
            match self.bus.next_signal(until.min(end)) {
                Ok(Some(from)) if from == sender => {
                    heard.events = heard.events.saturating_add(1);
                    until = Instant::now() + quiet;
                }
                Ok(Some(_)) | Ok(None) => {}
                Err(e) => {
                    return Err(DesktopError::from_bus(
                        e,
                        sender,
                        false,
                        "waiting for events",
                    ));
                }
            }
        }
    }
}
