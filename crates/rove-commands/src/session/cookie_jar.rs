//! Setting a cookie in the session's store, for whoever sets one (`cookies
//! set`, a solver plugin's clearance): one place where the domain policy
//! is asked first.

use rove_cdp::protocol::storage;
use serde_json::Value;

use crate::{CommandError, Session};

/// The host a browser cookie (as `cdp_cookie` makes it) belongs to.
pub(crate) fn cookie_host(cookie: &Value) -> Option<String> {
    if let Some(domain) = cookie["domain"].as_str() {
        return Some(domain.to_owned());
    }
    let url = url::Url::parse(cookie["url"].as_str()?).ok()?;
    url.host_str().map(str::to_owned)
}

impl Session {
    /// Puts `cookie` (CDP's `CookieParam`, with a `url` or a `domain`) in
    /// the session's store, unless the domain policy refuses its host.
    pub(crate) async fn put_cookie(&self, cookie: Value) -> Result<(), CommandError> {
        self.put_cookies(vec![cookie]).await
    }

    /// Puts every one of `cookies` in the store in one call, or none: the
    /// domain policy is asked for each first.
    pub(crate) async fn put_cookies(&self, cookies: Vec<Value>) -> Result<(), CommandError> {
        for cookie in &cookies {
            let host = cookie_host(cookie).unwrap_or_default();
            let host = host.trim_start_matches('.');
            if !self.context().domain_policy().allows_cookie_domain(host) {
                return Err(CommandError::Rejected(format!(
                    "the domain policy refuses {}: no cookie is set for a host the session may not visit",
                    rove_base::text::ellipsized(&rove_base::text::clean(host.to_owned()), 300)
                )));
            }
        }
        self.browser_send(&storage::SetCookies {
            cookies,
            browser_context_id: Some(self.context().id().to_owned()),
        })
        .await?;
        Ok(())
    }
}
