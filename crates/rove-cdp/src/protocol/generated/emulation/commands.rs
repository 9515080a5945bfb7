//! The commands of the `Emulation` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Emulation.clearDeviceMetricsOverride`: Clears the overridden device metrics.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClearDeviceMetricsOverride {}

impl crate::protocol::Command for ClearDeviceMetricsOverride {
    const METHOD: &'static str = "Emulation.clearDeviceMetricsOverride";
    type Response = crate::protocol::Empty;
}

/// `Emulation.setDeviceMetricsOverride`: Overrides the values of device screen dimensions
/// (window.screen.width, window.screen.height, window.innerWidth, window.innerHeight, and
/// "device-width"/"device-height"-related CSS media query results).
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDeviceMetricsOverride {
    /// Overriding width value in pixels (minimum 0, maximum 10000000). 0 disables the override.
    pub width: i64,
    /// Overriding height value in pixels (minimum 0, maximum 10000000). 0 disables the
    /// override.
    pub height: i64,
    /// Overriding device scale factor value. 0 disables the override.
    pub device_scale_factor: f64,
    /// Whether to emulate mobile device. This includes viewport meta tag, overlay scrollbars,
    /// text autosizing and more.
    pub mobile: bool,
    /// Scale to apply to resulting view image.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<f64>,
    /// Overriding screen width value in pixels (minimum 0, maximum 10000000).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screen_width: Option<i64>,
    /// Overriding screen height value in pixels (minimum 0, maximum 10000000).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screen_height: Option<i64>,
    /// Overriding view X position on screen in pixels (minimum 0, maximum 10000000).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_x: Option<i64>,
    /// Overriding view Y position on screen in pixels (minimum 0, maximum 10000000).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_y: Option<i64>,
    /// Do not set visible view size, rely upon explicit setVisibleSize call.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dont_set_visible_size: Option<bool>,
    /// Screen orientation override.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screen_orientation: Option<super::ScreenOrientation>,
    /// If set, the visible area of the page will be overridden to this viewport. This viewport
    /// change is not observed by the page, e.g. viewport-relative elements do not change
    /// positions.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub viewport: Option<crate::protocol::page::Viewport>,
    /// If set, the display feature of a multi-segment screen. If not set, multi-segment support
    /// is turned-off. Deprecated, use Emulation.setDisplayFeaturesOverride.
    ///
    /// Deprecated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_feature: Option<serde_json::Value>,
    /// If set, the posture of a foldable device. If not set the posture is set to continuous.
    /// Deprecated, use Emulation.setDevicePostureOverride.
    ///
    /// Deprecated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_posture: Option<serde_json::Value>,
    /// Scrollbar type. Default: `default`.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scrollbar_type: Option<super::SetDeviceMetricsOverrideScrollbarType>,
    /// If set to true, enables screen orientation lock emulation, which intercepts
    /// screen.orientation.lock() calls from the page and reports orientation changes via
    /// screenOrientationLockChanged events. This is useful for emulating mobile device
    /// orientation lock behavior in responsive design mode.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screen_orientation_lock_emulation: Option<bool>,
    /// Viewport meta tag behavior. Default: `default`. Note: if `mobile` is `true`, the
    /// viewport meta tag is always enabled.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub viewport_meta: Option<super::SetDeviceMetricsOverrideViewportMeta>,
    /// Text layout mode. Default: `default`. Note: if `mobile` is `true`, mobile text layout
    /// mode (text autosizing) is always enabled.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_layout_mode: Option<super::SetDeviceMetricsOverrideTextLayoutMode>,
}

impl crate::protocol::Command for SetDeviceMetricsOverride {
    const METHOD: &'static str = "Emulation.setDeviceMetricsOverride";
    type Response = crate::protocol::Empty;
}

/// `Emulation.setEmulatedMedia`: Emulates the given media type or media feature for CSS media
/// queries.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetEmulatedMedia {
    /// Media type to emulate. Empty string disables the override.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media: Option<String>,
    /// Media features to emulate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub features: Option<Vec<super::MediaFeature>>,
}

impl crate::protocol::Command for SetEmulatedMedia {
    const METHOD: &'static str = "Emulation.setEmulatedMedia";
    type Response = crate::protocol::Empty;
}

/// `Emulation.setGeolocationOverride`: Overrides the Geolocation Position or Error. Omitting
/// latitude, longitude or accuracy emulates position unavailable.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetGeolocationOverride {
    /// Mock latitude
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latitude: Option<f64>,
    /// Mock longitude
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longitude: Option<f64>,
    /// Mock accuracy
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
    /// Mock altitude
    #[serde(skip_serializing_if = "Option::is_none")]
    pub altitude: Option<f64>,
    /// Mock altitudeAccuracy
    #[serde(skip_serializing_if = "Option::is_none")]
    pub altitude_accuracy: Option<f64>,
    /// Mock heading
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heading: Option<f64>,
    /// Mock speed
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
}

impl crate::protocol::Command for SetGeolocationOverride {
    const METHOD: &'static str = "Emulation.setGeolocationOverride";
    type Response = crate::protocol::Empty;
}

/// `Emulation.setLocaleOverride`: Overrides default host system locale with the specified one.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetLocaleOverride {
    /// ICU style C locale (e.g. "en_US"). If not specified or empty, disables the override and
    /// restores default host system locale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

impl crate::protocol::Command for SetLocaleOverride {
    const METHOD: &'static str = "Emulation.setLocaleOverride";
    type Response = crate::protocol::Empty;
}

/// `Emulation.setTimezoneOverride`: Overrides default host system timezone with the specified
/// one.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetTimezoneOverride {
    /// The timezone identifier. List of supported timezones:
    /// https://source.chromium.org/chromium/chromium/deps/icu.git/+/faee8bc70570192d82d2978a71e2a615788597d1:source/data/misc/metaZones.txt
    /// If empty, disables the override and restores default host system timezone.
    pub timezone_id: String,
}

impl crate::protocol::Command for SetTimezoneOverride {
    const METHOD: &'static str = "Emulation.setTimezoneOverride";
    type Response = crate::protocol::Empty;
}

/// `Emulation.setTouchEmulationEnabled`: Enables touch on platforms which do not support them.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetTouchEmulationEnabled {
    /// Whether the touch event emulation should be enabled.
    pub enabled: bool,
    /// Maximum touch points supported. Defaults to one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_touch_points: Option<i64>,
}

impl crate::protocol::Command for SetTouchEmulationEnabled {
    const METHOD: &'static str = "Emulation.setTouchEmulationEnabled";
    type Response = crate::protocol::Empty;
}

/// `Emulation.setUserAgentOverride`: Allows overriding user agent with the given string.
/// `userAgentMetadata` must be set for Client Hint headers to be sent.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetUserAgentOverride {
    /// User agent to use.
    pub user_agent: String,
    /// Browser language to emulate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accept_language: Option<String>,
    /// The platform navigator.platform should return.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// To be sent in Sec-CH-UA-* headers and returned in navigator.userAgentData
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_agent_metadata: Option<serde_json::Value>,
}

impl crate::protocol::Command for SetUserAgentOverride {
    const METHOD: &'static str = "Emulation.setUserAgentOverride";
    type Response = crate::protocol::Empty;
}
