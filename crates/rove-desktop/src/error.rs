//! [`DesktopError`]: how talking to a desktop application fails.

use rove_errors::{ActionSent, Classify, ErrorCode, Retry};

use crate::dbus::DbusError;

/// A failure reading or acting on a desktop application.
#[derive(Debug, Clone, thiserror::Error)]
pub enum DesktopError {
    /// No display, no session bus, or no accessibility bus.
    #[error("the desktop is unavailable: {what}")]
    Unavailable {
        /// What is missing, in a sentence.
        what: String,
        /// The exact fix.
        fix: String,
    },
    /// The platform must grant rove accessibility access.
    #[error("the platform has not granted rove accessibility access: {0}")]
    PermissionRequired(String),
    /// The application is gone from the bus (it exited or crashed).
    #[error("the application {app} is gone from the accessibility bus")]
    AppGone {
        app: String,
        /// Whether an action had been sent before it went.
        sent: bool,
    },
    /// The element is gone (its window closed, the application rebuilt it).
    #[error("the element is gone from the application")]
    NodeGone,
    /// No application matches.
    #[error("no accessible application is named {0:?} or has that process id")]
    NoApp(String),
    /// The element cannot do it (no such interface, or it refused).
    #[error("the element cannot {0}")]
    NotActionable(String),
    /// The application did not answer within the deadline.
    #[error("the application did not answer within {after:?} ({during})")]
    Timeout {
        after: std::time::Duration,
        during: &'static str,
        sent: bool,
    },
    /// What rove cannot do on a desktop target yet.
    #[error("not supported on a desktop application yet: {0}")]
    Unsupported(String),
    /// A reply rove could not read (of the accessibility bus, or of the X
    /// server for screenshots and the keymap).
    #[error("a reply rove cannot read: {0}")]
    Protocol(String),
}

impl DesktopError {
    /// The error a bus failure is, for a call on `app`; `sent` when the
    /// call was an action.
    pub(crate) fn from_bus(error: DbusError, app: &str, sent: bool, during: &'static str) -> Self {
        match error {
            DbusError::Timeout(after) => DesktopError::Timeout {
                after,
                during,
                sent,
            },
            DbusError::Remote { name, .. }
                if name == "org.freedesktop.DBus.Error.ServiceUnknown"
                    || name == "org.freedesktop.DBus.Error.NoReply"
                    || name == "org.freedesktop.DBus.Error.NameHasNoOwner" =>
            {
                DesktopError::AppGone {
                    app: app.to_owned(),
                    sent,
                }
            }
            DbusError::Remote { name, .. }
                if name == "org.freedesktop.DBus.Error.UnknownObject"
                    || name == "org.freedesktop.DBus.Error.UnknownMethod" =>
            {
                DesktopError::NodeGone
            }
            DbusError::Closed | DbusError::Unreachable { .. } => DesktopError::Unavailable {
                what: "the accessibility bus closed the connection".to_owned(),
                fix: FIX.to_owned(),
            },
            other => DesktopError::Protocol(format!("the accessibility bus: {other}")),
        }
    }

    /// The error an X11 failure is, while `during` (`capturing the window`).
    pub(crate) fn from_x11(error: crate::x11::X11Error, during: &'static str) -> Self {
        use crate::x11::X11Error;
        match error {
            X11Error::NoDisplay
            | X11Error::BadDisplay(_)
            | X11Error::Connect { .. }
            | X11Error::Refused { .. } => DesktopError::Unavailable {
                what: format!("{during} needs the X display, and {error}"),
                fix: X_FIX.to_owned(),
            },
            X11Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => DesktopError::Timeout {
                after: rove_base::limits::DESKTOP_CALL,
                during,
                sent: false,
            },
            X11Error::OffScreen { .. } => DesktopError::NotActionable(format!(
                "be captured: it is not on the screen ({error}); scroll REF brings an element into view"
            )),
            X11Error::TooLarge { .. } | X11Error::Unsupported(_) => {
                DesktopError::Unsupported(format!("{during}: {error}"))
            }
            other => DesktopError::Protocol(format!("the X server, {during}: {other}")),
        }
    }
}

/// The fix for a display rove cannot read: window screenshots and the
/// keymap speak X11 (on Wayland, XWayland's).
const X_FIX: &str = "run where DISPLAY names a running X server (Xorg, Xvfb, or XWayland under a Wayland compositor), with its XAUTHORITY when it asks for a cookie";

/// The fix for a missing accessibility stack on Linux.
pub(crate) const FIX: &str = "run inside a desktop session with the accessibility bus (Debian: apt-get install at-spi2-core xvfb dbus; scripts/desktop-env.sh starts a private one), and leave NO_AT_BRIDGE and GTK_A11Y unset";

impl Classify for DesktopError {
    fn code(&self) -> ErrorCode {
        match self {
            DesktopError::Unavailable { .. } => ErrorCode::DesktopUnavailable,
            DesktopError::PermissionRequired(_) => ErrorCode::DesktopPermissionRequired,
            DesktopError::AppGone { .. } => ErrorCode::NoTab,
            DesktopError::NodeGone => ErrorCode::RefNotFound,
            DesktopError::NoApp(_) | DesktopError::Unsupported(_) => ErrorCode::CommandRejected,
            DesktopError::NotActionable(_) => ErrorCode::NotActionable,
            DesktopError::Timeout { .. } => ErrorCode::Timeout,
            DesktopError::Protocol(_) => ErrorCode::Internal,
        }
    }

    fn action_sent(&self) -> ActionSent {
        match self {
            DesktopError::AppGone { sent: true, .. } | DesktopError::Timeout { sent: true, .. } => {
                ActionSent::PossiblySent
            }
            _ => ActionSent::NotSent,
        }
    }

    fn retry(&self) -> Retry {
        match self {
            DesktopError::Timeout { sent: true, .. } => Retry::Reobserve,
            other => other.code().default_retry(),
        }
    }

    fn hint(&self) -> String {
        match self {
            DesktopError::Unavailable { fix, .. } => fix.clone(),
            DesktopError::PermissionRequired(how) => how.clone(),
            DesktopError::AppGone { .. } => {
                "the application exited: `desktop apps` lists those still running; `desktop open CMD` starts it again".to_owned()
            }
            DesktopError::NodeGone => "take a fresh snapshot and use its refs".to_owned(),
            DesktopError::NoApp(_) => "`desktop apps` lists the accessible applications".to_owned(),
            DesktopError::NotActionable(_) => {
                "take a fresh snapshot; act on a control the view shows".to_owned()
            }
            DesktopError::Timeout { .. } => {
                "the application is busy or hung: take a snapshot to see whether it answers".to_owned()
            }
            DesktopError::Unsupported(_) => {
                "do it another way: click the control that does it, or fill the field".to_owned()
            }
            DesktopError::Protocol(_) => "this is a bug in rove; please report it".to_owned(),
        }
    }
}
