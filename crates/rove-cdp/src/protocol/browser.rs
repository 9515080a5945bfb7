//! The `Browser` domain.

use serde::Deserialize;

use super::{Empty, unit_command};

unit_command!(
    /// `Browser.getVersion`: product, protocol and user agent.
    GetVersion,
    "Browser.getVersion",
    Version
);

unit_command!(
    /// `Browser.close`: closes the browser gracefully.
    Close,
    "Browser.close",
    Empty
);

/// The answer of [`GetVersion`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Version {
    /// The protocol version, such as `1.3`.
    pub protocol_version: String,
    /// The product, such as `HeadlessChrome/156.0.8078.108`.
    pub product: String,
    /// The user agent string.
    pub user_agent: String,
    /// The V8 version.
    pub js_version: String,
}
