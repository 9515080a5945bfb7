//! The types of the `Emulation` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// The values of `type` in `ScreenOrientation`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum ScreenOrientationType {
    /// `portraitPrimary`.
    #[serde(rename = "portraitPrimary")]
    PortraitPrimary,
    /// `portraitSecondary`.
    #[serde(rename = "portraitSecondary")]
    PortraitSecondary,
    /// `landscapePrimary`.
    #[serde(rename = "landscapePrimary")]
    LandscapePrimary,
    /// `landscapeSecondary`.
    #[serde(rename = "landscapeSecondary")]
    LandscapeSecondary,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl ScreenOrientationType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PortraitPrimary => "portraitPrimary",
            Self::PortraitSecondary => "portraitSecondary",
            Self::LandscapePrimary => "landscapePrimary",
            Self::LandscapeSecondary => "landscapeSecondary",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `scrollbarType` in `SetDeviceMetricsOverride`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum SetDeviceMetricsOverrideScrollbarType {
    /// `overlay`.
    #[serde(rename = "overlay")]
    Overlay,
    /// `default`.
    #[serde(rename = "default")]
    Default,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl SetDeviceMetricsOverrideScrollbarType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Overlay => "overlay",
            Self::Default => "default",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `textLayoutMode` in `SetDeviceMetricsOverride`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum SetDeviceMetricsOverrideTextLayoutMode {
    /// `mobile`.
    #[serde(rename = "mobile")]
    Mobile,
    /// `default`.
    #[serde(rename = "default")]
    Default,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl SetDeviceMetricsOverrideTextLayoutMode {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Mobile => "mobile",
            Self::Default => "default",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `viewportMeta` in `SetDeviceMetricsOverride`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum SetDeviceMetricsOverrideViewportMeta {
    /// `enable`.
    #[serde(rename = "enable")]
    Enable,
    /// `default`.
    #[serde(rename = "default")]
    Default,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl SetDeviceMetricsOverrideViewportMeta {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Enable => "enable",
            Self::Default => "default",
            Self::Unrecognized => "",
        }
    }
}

/// MediaFeature
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MediaFeature {
    /// name
    pub name: String,
    /// value
    pub value: String,
}

/// Screen orientation.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScreenOrientation {
    /// Orientation type.
    #[serde(rename = "type")]
    pub kind: super::ScreenOrientationType,
    /// Orientation angle.
    pub angle: i64,
}
