//! A session's emulation: the viewport every tab gets, and the settings a
//! command chose (device metrics, media, user agent, timezone, extra
//! headers …) kept as the CDP calls that make them.
//!
//! Chromium keeps emulation per page session, not per browser context, so
//! the context holds the calls and each tab replays them when its watch
//! starts (a tab opened later) or when a setting changes (the tabs open).
//! Each setting is stored under a key, so setting it again replaces it.

use std::collections::BTreeMap;

use rove_cdp::protocol::{emulation, network};
use rove_cdp::{CdpError, Session};

/// One CDP call that makes part of an emulation.
#[derive(Debug, Clone)]
pub enum EmulationCall {
    /// The viewport's size and scale, and whether it is a phone's.
    Metrics(emulation::SetDeviceMetricsOverride),
    /// Touch events on or off.
    Touch(emulation::SetTouchEmulationEnabled),
    /// The user agent (empty: the browser's).
    UserAgent(emulation::SetUserAgentOverride),
    /// The CSS media type and features (the color scheme).
    Media(emulation::SetEmulatedMedia),
    /// Offline or online.
    Network(network::EmulateNetworkConditions),
    /// Headers every request carries.
    Headers(network::SetExtraHTTPHeaders),
    /// The time zone (empty: the system's).
    Timezone(emulation::SetTimezoneOverride),
    /// The locale (none: the system's).
    Locale(emulation::SetLocaleOverride),
    /// The position the page reads.
    Geolocation(emulation::SetGeolocationOverride),
}

impl EmulationCall {
    /// The viewport `size` at scale 1, as rove sets a session's own.
    pub fn size(size: Viewport) -> Self {
        EmulationCall::Metrics(emulation::SetDeviceMetricsOverride {
            width: i64::from(size.width),
            height: i64::from(size.height),
            device_scale_factor: 1.0,
            mobile: false,
            ..Default::default()
        })
    }

    /// The CDP method it calls.
    pub fn method(&self) -> &'static str {
        use rove_cdp::protocol::Command;
        match self {
            EmulationCall::Metrics(_) => emulation::SetDeviceMetricsOverride::METHOD,
            EmulationCall::Touch(_) => emulation::SetTouchEmulationEnabled::METHOD,
            EmulationCall::UserAgent(_) => emulation::SetUserAgentOverride::METHOD,
            EmulationCall::Media(_) => emulation::SetEmulatedMedia::METHOD,
            EmulationCall::Network(_) => network::EmulateNetworkConditions::METHOD,
            EmulationCall::Headers(_) => network::SetExtraHTTPHeaders::METHOD,
            EmulationCall::Timezone(_) => emulation::SetTimezoneOverride::METHOD,
            EmulationCall::Locale(_) => emulation::SetLocaleOverride::METHOD,
            EmulationCall::Geolocation(_) => emulation::SetGeolocationOverride::METHOD,
        }
    }

    /// Makes it on `session`.
    pub async fn send_to(&self, session: &Session) -> Result<(), CdpError> {
        match self {
            EmulationCall::Metrics(c) => session.send(c).await.map(drop),
            EmulationCall::Touch(c) => session.send(c).await.map(drop),
            EmulationCall::UserAgent(c) => session.send(c).await.map(drop),
            EmulationCall::Media(c) => session.send(c).await.map(drop),
            EmulationCall::Network(c) => session.send(c).await.map(drop),
            EmulationCall::Headers(c) => session.send(c).await.map(drop),
            EmulationCall::Timezone(c) => session.send(c).await.map(drop),
            EmulationCall::Locale(c) => session.send(c).await.map(drop),
            EmulationCall::Geolocation(c) => session.send(c).await.map(drop),
        }
    }
}

/// The emulation of a context's tabs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Emulation {
    /// The size every tab gets first; `None`: the browser's own.
    pub(crate) viewport: Option<Viewport>,
    /// The settings made since, by key, applied after the viewport in the
    /// keys' order.
    pub(crate) settings: BTreeMap<String, Vec<EmulationCall>>,
}

impl Emulation {
    /// Every setting's calls, in the order they are applied.
    pub(crate) fn calls(&self) -> Vec<EmulationCall> {
        self.settings.values().flatten().cloned().collect()
    }

    /// The calls a new page gets: the viewport's size, then every setting
    /// (so a device's metrics win over the size).
    pub(crate) fn first_calls(&self) -> Vec<EmulationCall> {
        let size = self.viewport.map(EmulationCall::size);
        size.into_iter().chain(self.calls()).collect()
    }
}

/// The size of a tab's viewport, in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewport {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl Default for Viewport {
    /// A common desktop size (what Playwright and the other tools give), wide
    /// enough that responsive apps show their desktop controls.
    fn default() -> Self {
        Viewport {
            width: 1280,
            height: 720,
        }
    }
}

impl std::str::FromStr for Viewport {
    type Err = String;
    /// `1280x720`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (w, h) = s
            .split_once(['x', 'X', '*'])
            .ok_or_else(|| format!("{s:?} is not a size like 1280x720"))?;
        let parse = |n: &str| {
            n.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (100..=10_000).contains(n))
                .ok_or_else(|| format!("{s:?}: each side is 100 to 10000 pixels"))
        };
        Ok(Viewport {
            width: parse(w)?,
            height: parse(h)?,
        })
    }
}

/// A context's viewport and emulation settings, shared with its tabs.
pub(crate) type SharedEmulation = std::sync::Arc<std::sync::Mutex<Emulation>>;
