//! A session's emulation: the viewport every tab gets, and the settings a
//! command chose (device metrics, media, user agent, timezone, extra
//! headers …) kept as the CDP calls that make them.
//!
//! Chromium keeps emulation per page session, not per browser context, so
//! the context holds the calls and each tab replays them when its watch
//! starts (a tab opened later) or when a setting changes (the tabs open).
//! Each setting is stored under a key, so setting it again replaces it.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::context::Viewport;

/// One CDP call: its method and parameters.
pub type EmulationCall = (String, Value);

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
        let size = self.viewport.map(|v| {
            (
                "Emulation.setDeviceMetricsOverride".to_owned(),
                serde_json::json!({"width": v.width, "height": v.height, "deviceScaleFactor": 1, "mobile": false}),
            )
        });
        size.into_iter().chain(self.calls()).collect()
    }
}
