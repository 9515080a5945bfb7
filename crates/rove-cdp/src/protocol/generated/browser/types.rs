//! The types of the `Browser` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Experimental.
pub type BrowserContextID = String;

/// The values of `state` in `DownloadProgress`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum DownloadProgressState {
    /// `inProgress`.
    #[serde(rename = "inProgress")]
    InProgress,
    /// `completed`.
    #[serde(rename = "completed")]
    Completed,
    /// `canceled`.
    #[serde(rename = "canceled")]
    Canceled,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl DownloadProgressState {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InProgress => "inProgress",
            Self::Completed => "completed",
            Self::Canceled => "canceled",
            Self::Unrecognized => "",
        }
    }
}

/// Experimental.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum PermissionType {
    /// `ar`.
    #[serde(rename = "ar")]
    Ar,
    /// `audioCapture`.
    #[serde(rename = "audioCapture")]
    AudioCapture,
    /// `automaticFullscreen`.
    #[serde(rename = "automaticFullscreen")]
    AutomaticFullscreen,
    /// `backgroundFetch`.
    #[serde(rename = "backgroundFetch")]
    BackgroundFetch,
    /// `backgroundSync`.
    #[serde(rename = "backgroundSync")]
    BackgroundSync,
    /// `cameraPanTiltZoom`.
    #[serde(rename = "cameraPanTiltZoom")]
    CameraPanTiltZoom,
    /// `capturedSurfaceControl`.
    #[serde(rename = "capturedSurfaceControl")]
    CapturedSurfaceControl,
    /// `clipboardReadWrite`.
    #[serde(rename = "clipboardReadWrite")]
    ClipboardReadWrite,
    /// `clipboardSanitizedWrite`.
    #[serde(rename = "clipboardSanitizedWrite")]
    ClipboardSanitizedWrite,
    /// `displayCapture`.
    #[serde(rename = "displayCapture")]
    DisplayCapture,
    /// `durableStorage`.
    #[serde(rename = "durableStorage")]
    DurableStorage,
    /// `geolocation`.
    #[serde(rename = "geolocation")]
    Geolocation,
    /// `handTracking`.
    #[serde(rename = "handTracking")]
    HandTracking,
    /// `idleDetection`.
    #[serde(rename = "idleDetection")]
    IdleDetection,
    /// `keyboardLock`.
    #[serde(rename = "keyboardLock")]
    KeyboardLock,
    /// `localFonts`.
    #[serde(rename = "localFonts")]
    LocalFonts,
    /// `localNetwork`.
    #[serde(rename = "localNetwork")]
    LocalNetwork,
    /// `localNetworkAccess`.
    #[serde(rename = "localNetworkAccess")]
    LocalNetworkAccess,
    /// `loopbackNetwork`.
    #[serde(rename = "loopbackNetwork")]
    LoopbackNetwork,
    /// `midi`.
    #[serde(rename = "midi")]
    Midi,
    /// `midiSysex`.
    #[serde(rename = "midiSysex")]
    MidiSysex,
    /// `nfc`.
    #[serde(rename = "nfc")]
    Nfc,
    /// `notifications`.
    #[serde(rename = "notifications")]
    Notifications,
    /// `paymentHandler`.
    #[serde(rename = "paymentHandler")]
    PaymentHandler,
    /// `periodicBackgroundSync`.
    #[serde(rename = "periodicBackgroundSync")]
    PeriodicBackgroundSync,
    /// `pointerLock`.
    #[serde(rename = "pointerLock")]
    PointerLock,
    /// `protectedMediaIdentifier`.
    #[serde(rename = "protectedMediaIdentifier")]
    ProtectedMediaIdentifier,
    /// `sensors`.
    #[serde(rename = "sensors")]
    Sensors,
    /// `smartCard`.
    #[serde(rename = "smartCard")]
    SmartCard,
    /// `speakerSelection`.
    #[serde(rename = "speakerSelection")]
    SpeakerSelection,
    /// `storageAccess`.
    #[serde(rename = "storageAccess")]
    StorageAccess,
    /// `topLevelStorageAccess`.
    #[serde(rename = "topLevelStorageAccess")]
    TopLevelStorageAccess,
    /// `videoCapture`.
    #[serde(rename = "videoCapture")]
    VideoCapture,
    /// `vr`.
    #[serde(rename = "vr")]
    Vr,
    /// `wakeLockScreen`.
    #[serde(rename = "wakeLockScreen")]
    WakeLockScreen,
    /// `wakeLockSystem`.
    #[serde(rename = "wakeLockSystem")]
    WakeLockSystem,
    /// `webAppInstallation`.
    #[serde(rename = "webAppInstallation")]
    WebAppInstallation,
    /// `webPrinting`.
    #[serde(rename = "webPrinting")]
    WebPrinting,
    /// `windowManagement`.
    #[serde(rename = "windowManagement")]
    WindowManagement,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl PermissionType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ar => "ar",
            Self::AudioCapture => "audioCapture",
            Self::AutomaticFullscreen => "automaticFullscreen",
            Self::BackgroundFetch => "backgroundFetch",
            Self::BackgroundSync => "backgroundSync",
            Self::CameraPanTiltZoom => "cameraPanTiltZoom",
            Self::CapturedSurfaceControl => "capturedSurfaceControl",
            Self::ClipboardReadWrite => "clipboardReadWrite",
            Self::ClipboardSanitizedWrite => "clipboardSanitizedWrite",
            Self::DisplayCapture => "displayCapture",
            Self::DurableStorage => "durableStorage",
            Self::Geolocation => "geolocation",
            Self::HandTracking => "handTracking",
            Self::IdleDetection => "idleDetection",
            Self::KeyboardLock => "keyboardLock",
            Self::LocalFonts => "localFonts",
            Self::LocalNetwork => "localNetwork",
            Self::LocalNetworkAccess => "localNetworkAccess",
            Self::LoopbackNetwork => "loopbackNetwork",
            Self::Midi => "midi",
            Self::MidiSysex => "midiSysex",
            Self::Nfc => "nfc",
            Self::Notifications => "notifications",
            Self::PaymentHandler => "paymentHandler",
            Self::PeriodicBackgroundSync => "periodicBackgroundSync",
            Self::PointerLock => "pointerLock",
            Self::ProtectedMediaIdentifier => "protectedMediaIdentifier",
            Self::Sensors => "sensors",
            Self::SmartCard => "smartCard",
            Self::SpeakerSelection => "speakerSelection",
            Self::StorageAccess => "storageAccess",
            Self::TopLevelStorageAccess => "topLevelStorageAccess",
            Self::VideoCapture => "videoCapture",
            Self::Vr => "vr",
            Self::WakeLockScreen => "wakeLockScreen",
            Self::WakeLockSystem => "wakeLockSystem",
            Self::WebAppInstallation => "webAppInstallation",
            Self::WebPrinting => "webPrinting",
            Self::WindowManagement => "windowManagement",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `behavior` in `SetDownloadBehavior`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum SetDownloadBehaviorBehavior {
    /// `deny`.
    #[serde(rename = "deny")]
    Deny,
    /// `allow`.
    #[serde(rename = "allow")]
    Allow,
    /// `allowAndName`.
    #[serde(rename = "allowAndName")]
    AllowAndName,
    /// `default`.
    #[serde(rename = "default")]
    Default,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl SetDownloadBehaviorBehavior {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Deny => "deny",
            Self::Allow => "allow",
            Self::AllowAndName => "allowAndName",
            Self::Default => "default",
            Self::Unrecognized => "",
        }
    }
}
