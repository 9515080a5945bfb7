//! URLs as a reader may see them: a password in one, query values whose
//! names say they are secrets ([`rove_base::redact::hide_url_credentials`])
//! and the session's secrets hidden, cleaned as page text and shortened.
//! The network log, HAR export, cookies, storage and permissions all show
//! URLs, so the one way to show them lives with the session.

use rove_base::redact::hide_url_credentials;
use rove_base::text::{clean, ellipsized};

use crate::Session;

/// The most characters of a URL shown (a page may request megabytes of
/// URL).
const URL_SHOWN_MAX: usize = 300;

impl Session {
    /// A URL as a reader may see it (see the module).
    pub(crate) fn shown_url(&self, url: &str) -> String {
        let redacted = self.config().secrets.redact(&hide_url_credentials(url));
        ellipsized(&clean(redacted), URL_SHOWN_MAX)
    }
}

/// `scheme://host:port` of a URL (what storage belongs to).
pub(crate) fn origin_of(url: &str) -> String {
    url::Url::parse(url)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_default()
}
