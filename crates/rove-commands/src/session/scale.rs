//! The device scale the session's emulation chose: screenshots size their
//! pixels by it, `set` chooses it.

use rove_browser::EmulationCall;

use crate::Session;

impl Session {
    /// Image pixels per CSS pixel of the session's tabs: the scale `set`
    /// chose (a viewport's or a device's), else 1 as rove sets it. Read
    /// from the session, not the page, so a hung page cannot stall it.
    pub(crate) fn device_scale(&self) -> f64 {
        self.context()
            .emulation("metrics")
            .and_then(|calls| calls.into_iter().next())
            .and_then(|call| match call {
                EmulationCall::Metrics(metrics) => Some(metrics.device_scale_factor),
                _ => None,
            })
            .unwrap_or(1.0)
    }
}
