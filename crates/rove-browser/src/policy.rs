//! Which URLs a session's documents may load: a domain allow-list, enforced
//! in the browser on every document request (navigations, redirects,
//! iframes) through `Fetch` interception by each tab's watch.

use std::sync::{Arc, Mutex};

/// The hosts a session may load documents from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainPolicy {
    allowed: Vec<String>,
}

impl DomainPolicy {
    /// `example.com` allows it and its subdomains; `*.example.com` only the
    /// subdomains. Empty entries are ignored.
    pub fn new(allowed: impl IntoIterator<Item = impl Into<String>>) -> DomainPolicy {
        DomainPolicy {
            allowed: allowed
                .into_iter()
                .map(|d| d.into().trim().to_ascii_lowercase())
                .filter(|d| !d.is_empty())
                .collect(),
        }
    }

    /// The patterns, as given.
    pub fn allowed(&self) -> &[String] {
        &self.allowed
    }

    /// Whether a document may load from `url`. Pages that are not fetched
    /// from a network (`about:`, `data:`, `blob:`, the browser's own error
    /// pages) are allowed.
    pub fn allows(&self, url: &str) -> bool {
        let Some((scheme, rest)) = url.split_once(':') else {
            return false;
        };
        if !matches!(
            scheme.to_ascii_lowercase().as_str(),
            "http" | "https" | "ws" | "wss" | "ftp"
        ) {
            return true;
        }
        let authority = rest
            .trim_start_matches('/')
            .split(['/', '?', '#'])
            .next()
            .unwrap_or_default();
        let host_port = authority
            .rsplit_once('@')
            .map(|(_, h)| h)
            .unwrap_or(authority);
        let host = if host_port.starts_with('[') {
            host_port
                .split(']')
                .next()
                .unwrap_or_default()
                .trim_start_matches('[')
        } else {
            host_port.split(':').next().unwrap_or_default()
        }
        .to_ascii_lowercase();
        self.allowed
            .iter()
            .any(|pattern| match pattern.strip_prefix("*.") {
                Some(parent) => host.ends_with(&format!(".{parent}")),
                None => host == *pattern || host.ends_with(&format!(".{pattern}")),
            })
    }
}

/// A session's policy, shared by its context and its tabs. `None`: no
/// limits.
pub(crate) type SharedPolicy = Arc<Mutex<Option<DomainPolicy>>>;

#[cfg(test)]
mod tests {
    use super::DomainPolicy;

    #[test]
    fn hosts_match_their_patterns_only() {
        let policy = DomainPolicy::new(["example.com", "*.test.org", "127.0.0.1"]);
        for ok in [
            "https://example.com/",
            "http://a.b.example.com:8080/x",
            "https://x.test.org",
            "http://127.0.0.1:9/p",
            "about:blank",
            "data:text/html,hi",
        ] {
            assert!(policy.allows(ok), "{ok}");
        }
        for no in [
            "https://evil.com/example.com",
            "https://notexample.com",
            "https://test.org",
            "http://user@evil.com",
            "https://example.com.evil.net/",
        ] {
            assert!(!policy.allows(no), "{no}");
        }
    }
}
