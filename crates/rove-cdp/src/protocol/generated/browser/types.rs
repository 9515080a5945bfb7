//! The types of the `Browser` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (devtools-protocol 0.0.1707781 (npm; Chromium
//! 156.0.8078); crates/rove-cdp/protocol/) for the commands, events and types named in
//! crates/rove-cdp/protocol/uses.txt. Do not edit: change the list and run
//! `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Experimental.
pub type BrowserContextID = String;

/// The values of `state` in `DownloadProgress`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
            DownloadProgressState::InProgress => "inProgress",
            DownloadProgressState::Completed => "completed",
            DownloadProgressState::Canceled => "canceled",
            DownloadProgressState::Unrecognized => "",
        }
    }
}

/// Experimental.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
            PermissionType::Ar => "ar",
            PermissionType::AudioCapture => "audioCapture",
            PermissionType::AutomaticFullscreen => "automaticFullscreen",
            PermissionType::BackgroundFetch => "backgroundFetch",
            PermissionType::BackgroundSync => "backgroundSync",
            PermissionType::CameraPanTiltZoom => "cameraPanTiltZoom",
            PermissionType::CapturedSurfaceControl => "capturedSurfaceControl",
            PermissionType::ClipboardReadWrite => "clipboardReadWrite",
            PermissionType::ClipboardSanitizedWrite => "clipboardSanitizedWrite",
            PermissionType::DisplayCapture => "displayCapture",
            PermissionType::DurableStorage => "durableStorage",
            PermissionType::Geolocation => "geolocation",
            PermissionType::HandTracking => "handTracking",
            PermissionType::IdleDetection => "idleDetection",
            PermissionType::KeyboardLock => "keyboardLock",
            PermissionType::LocalFonts => "localFonts",
            PermissionType::LocalNetwork => "localNetwork",
            PermissionType::LocalNetworkAccess => "localNetworkAccess",
            PermissionType::LoopbackNetwork => "loopbackNetwork",
            PermissionType::Midi => "midi",
            PermissionType::MidiSysex => "midiSysex",
            PermissionType::Nfc => "nfc",
            PermissionType::Notifications => "notifications",
            PermissionType::PaymentHandler => "paymentHandler",
            PermissionType::PeriodicBackgroundSync => "periodicBackgroundSync",
            PermissionType::PointerLock => "pointerLock",
            PermissionType::ProtectedMediaIdentifier => "protectedMediaIdentifier",
            PermissionType::Sensors => "sensors",
            PermissionType::SmartCard => "smartCard",
            PermissionType::SpeakerSelection => "speakerSelection",
            PermissionType::StorageAccess => "storageAccess",
            PermissionType::TopLevelStorageAccess => "topLevelStorageAccess",
            PermissionType::VideoCapture => "videoCapture",
            PermissionType::Vr => "vr",
            PermissionType::WakeLockScreen => "wakeLockScreen",
            PermissionType::WakeLockSystem => "wakeLockSystem",
            PermissionType::WebAppInstallation => "webAppInstallation",
            PermissionType::WebPrinting => "webPrinting",
            PermissionType::WindowManagement => "windowManagement",
            PermissionType::Unrecognized => "",
        }
    }
}

/// The values of `behavior` in `SetDownloadBehavior`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
            SetDownloadBehaviorBehavior::Deny => "deny",
            SetDownloadBehaviorBehavior::Allow => "allow",
            SetDownloadBehaviorBehavior::AllowAndName => "allowAndName",
            SetDownloadBehaviorBehavior::Default => "default",
            SetDownloadBehaviorBehavior::Unrecognized => "",
        }
    }
}
