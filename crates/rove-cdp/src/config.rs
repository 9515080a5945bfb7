//! Transport settings, and the one environment variable that tunes them.
//!
//! `ROVE_CDP_TIMEOUT_S` sets the default deadline of every CDP call. A value that
//! is not a finite positive number of seconds is a user mistake, not a reason to
//! hang forever or to fail: rove warns once and keeps the default.

use std::time::Duration;

use rove_base::limits::{CDP_CALL, CDP_CALL_MAX};

/// The environment variable that overrides the default deadline of one CDP
/// call ([`CDP_CALL`]).
pub const TIMEOUT_ENV: &str = "ROVE_CDP_TIMEOUT_S";

/// How a connection behaves. Build it with [`TransportConfig::from_env`] or
/// [`TransportConfig::default`] and adjust fields as needed.
#[derive(Debug, Clone)]
pub struct TransportConfig {
    /// The deadline of a call that does not name its own.
    pub call_timeout: Duration,
    /// How many events each session buffers per subscriber before a slow
    /// subscriber is told it lagged. The reader never waits for subscribers.
    pub event_buffer: usize,
    /// The largest message taken from the browser
    /// ([`rove_base::limits::CDP_MESSAGE_BYTES`]); a larger one is read
    /// past, and the call it answered fails with [`crate::CdpError::TooLarge`].
    pub max_message_bytes: usize,
    /// The deadline of the WebSocket handshake.
    pub connect_timeout: Duration,
    /// The headers and TLS roots every request to the endpoint takes
    /// (`--cdp-header`, `--cdp-ca`).
    pub access: crate::Access,
}

impl Default for TransportConfig {
    fn default() -> Self {
        TransportConfig {
            call_timeout: CDP_CALL,
            event_buffer: 1024,
            max_message_bytes: rove_base::limits::CDP_MESSAGE_BYTES,
            connect_timeout: rove_base::limits::CDP_HANDSHAKE,
            access: crate::Access::default(),
        }
    }
}

impl TransportConfig {
    /// The defaults, with the call deadline taken from `ROVE_CDP_TIMEOUT_S` when
    /// it holds a usable value. A bad value logs one warning and is ignored.
    pub fn from_env() -> Self {
        let raw = std::env::var(TIMEOUT_ENV).ok();
        let setting = parse_timeout(raw.as_deref());
        if let Some(warning) = &setting.warning {
            // Warn once per process, however many connections read the setting.
            static WARNED: std::sync::atomic::AtomicBool =
                std::sync::atomic::AtomicBool::new(false);
            if !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
                tracing::warn!(target: "rove_cdp::config", "{warning}");
            }
        }
        TransportConfig {
            call_timeout: setting.value,
            ..TransportConfig::default()
        }
    }
}

/// The outcome of reading a timeout setting: the value to use, and the warning
/// to show when the input was rejected.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeoutSetting {
    /// The deadline to use.
    pub value: Duration,
    /// Why the input was ignored, if it was.
    pub warning: Option<String>,
}

/// Reads a timeout in seconds. `None` or an empty string means "not set". Any
/// value that is not a finite number above zero (and at most a day) falls back to
/// [`CDP_CALL`] with a warning naming the value.
pub fn parse_timeout(raw: Option<&str>) -> TimeoutSetting {
    let fallback = |why: &str, raw: &str| TimeoutSetting {
        value: CDP_CALL,
        warning: Some(format!(
            "{TIMEOUT_ENV}={raw:?} ignored ({why}); using the default of {} s",
            CDP_CALL.as_secs()
        )),
    };
    let Some(raw) = raw.map(str::trim).filter(|s| !s.is_empty()) else {
        return TimeoutSetting {
            value: CDP_CALL,
            warning: None,
        };
    };
    let seconds: f64 = match raw.parse() {
        Ok(v) => v,
        Err(_) => return fallback("not a number", raw),
    };
    if !seconds.is_finite() {
        return fallback("not finite", raw);
    }
    if seconds <= 0.0 {
        return fallback("must be above zero", raw);
    }
    match Duration::try_from_secs_f64(seconds) {
        Ok(d) if d.is_zero() => fallback("rounds to zero", raw),
        Ok(d) if d <= CDP_CALL_MAX => TimeoutSetting {
            value: d,
            warning: None,
        },
        _ => fallback("must be at most one day", raw),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_fall_back_with_a_warning() {
        for bad in [
            "abc", "nan", "NaN", "inf", "-inf", "0", "-5", "0.0", "1e300", "1e-12", "5s",
        ] {
            let s = parse_timeout(Some(bad));
            assert_eq!(s.value, CDP_CALL, "value for {bad:?}");
            let warning = s
                .warning
                .unwrap_or_else(|| panic!("no warning for {bad:?}"));
            assert!(warning.contains(TIMEOUT_ENV), "{warning}");
            assert!(warning.contains(&format!("{bad:?}")), "{warning}");
        }
    }

    #[test]
    fn good_values_are_used_without_warning() {
        for (raw, want) in [
            ("1", Duration::from_secs(1)),
            (" 2.5 ", Duration::from_millis(2500)),
            ("90", Duration::from_secs(90)),
        ] {
            let s = parse_timeout(Some(raw));
            assert_eq!(s.value, want);
            assert_eq!(s.warning, None);
        }
    }

    #[test]
    fn unset_means_default_without_warning() {
        for raw in [None, Some(""), Some("  ")] {
            let s = parse_timeout(raw);
            assert_eq!(s.value, CDP_CALL);
            assert_eq!(s.warning, None);
        }
    }
}
