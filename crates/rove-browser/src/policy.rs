//! Which URLs a session's documents may load from: the domain policy.
//!
//! A policy has three parts: the hosts documents may come from (any, or an
//! allow-list of patterns), hosts that are always refused (a block-list), and
//! the schemes beyond the web's own. Only `http`, `https`, `ws` and `wss` on
//! an allowed host pass, plus documents that fetch nothing from anywhere
//! (`about:blank`, `about:srcdoc`, `data:`, `blob:`, the browser's own error
//! page). `file:`, `chrome:`, `devtools:`, `view-source:` and every other
//! scheme are refused unless the policy names them (`file:` in the
//! allow-list): a page or a model must not be able to read the disk or the
//! browser's internals into a view.
//!
//! URLs are parsed as the browser parses them (the WHATWG URL standard, the
//! `url` crate), so every spelling of a host (`2130706433`, `0x7f.1`,
//! `user@host`, upper case, a trailing dot) is judged by the host it really
//! names. The policy is enforced in the browser for every document request
//! (navigations, redirects, iframes, popups: `Fetch` interception by each
//! tab's watch and by the popup guard) and checked by the command layer
//! before `open` and `tab new`.

use std::sync::{Arc, Mutex};

use url::{Host, Url};

/// The schemes of the web: judged by their host.
const WEB_SCHEMES: [&str; 4] = ["http", "https", "ws", "wss"];

/// A host pattern: `example.com` (it and its subdomains), `*.example.com`
/// (only subdomains), `*` (any host), optionally with a port
/// (`localhost:8080`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct HostPattern {
    host: String,
    subdomains_only: bool,
    port: Option<u16>,
}

impl HostPattern {
    fn parse(entry: &str) -> Result<HostPattern, PolicyError> {
        let bad = |why: &str| PolicyError {
            entry: entry.to_owned(),
            reason: why.to_owned(),
        };
        if entry == "*" {
            return Ok(HostPattern {
                host: "*".into(),
                subdomains_only: false,
                port: None,
            });
        }
        let (subdomains_only, rest) = match entry.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, entry),
        };
        if rest.contains(['/', '?', '#', '@', '*']) {
            return Err(bad(
                "a domain pattern is a host (example.com, *.example.com, localhost:8080), not a URL",
            ));
        }
        // Parse the host as a URL's would be, so a pattern and a URL spell
        // the same host the same way (`LOCALHOST.`, `0x7f.1`).
        let parsed = Url::parse(&format!("http://{rest}/"))
            .map_err(|e| bad(&format!("not a host name ({e})")))?;
        let host = match parsed.host() {
            Some(Host::Domain(d)) => d.trim_end_matches('.').to_owned(),
            Some(Host::Ipv4(ip)) => ip.to_string(),
            Some(Host::Ipv6(ip)) => format!("[{ip}]"),
            None => return Err(bad("no host")),
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        Ok(HostPattern {
            host,
            subdomains_only,
            port: parsed.port(),
        })
    }

    fn matches(&self, host: &str, port: Option<u16>) -> bool {
        if self.port.is_some() && self.port != port {
            return false;
        }
        self.matches_host(host)
    }

    /// Whether the host part matches, whatever the port.
    fn matches_host(&self, host: &str) -> bool {
        if self.host == "*" {
            return true;
        }
        let below = host.len() > self.host.len()
            && host.ends_with(&self.host)
            && host.as_bytes()[host.len() - self.host.len() - 1] == b'.';
        below || (!self.subdomains_only && host == self.host)
    }

    fn shown(&self) -> String {
        let mut s = String::new();
        if self.subdomains_only {
            s.push_str("*.");
        }
        s.push_str(&self.host);
        if let Some(port) = self.port {
            s.push_str(&format!(":{port}"));
        }
        s
    }
}

/// An entry of `--allowed-domains` or `--blocked-domains` that means
/// nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{entry:?} is not a domain pattern: {reason}")]
pub struct PolicyError {
    /// The entry as given.
    pub entry: String,
    /// What is wrong with it.
    pub reason: String,
}

impl rove_errors::Classify for PolicyError {
    fn code(&self) -> rove_errors::ErrorCode {
        rove_errors::ErrorCode::CommandRejected
    }

    fn action_sent(&self) -> rove_errors::ActionSent {
        rove_errors::ActionSent::NotSent
    }

    fn hint(&self) -> String {
        "give hosts like example.com, *.example.com, localhost:8080 or *, and schemes like file: (comma-separated)".into()
    }
}

/// Why a URL is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Its scheme is not allowed (`file`, `chrome` …).
    Scheme(String),
    /// Its host is not on the allow-list.
    NotAllowed(String),
    /// Its host is on the block-list.
    Blocked(String),
    /// It is not a URL the browser could load.
    Unparsable,
    /// A page of Chromium's own that crashes or hangs headless Chromium:
    /// refused even where `chrome:` is allowed.
    Crashes(CrashingPage),
}

/// A `chrome://` page that takes down a part of headless Chromium.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrashingPage {
    /// The page, as `settings` for `chrome://settings`.
    pub page: &'static str,
    /// What it does, as "ends the whole headless browser (SIGSEGV)".
    pub does: &'static str,
}

/// Pages of Chromium 156 that end the whole headless browser (measured:
/// each killed it with SIGSEGV, and every tab of every session with it).
/// Their subpages (`chrome://settings/passwords`) do the same.
const KILL_THE_BROWSER: &[&str] = &[
    "settings",
    "history",
    "help",
    "password-manager",
    "extensions",
    "apps",
];

/// Chromium's debugging pages, there to crash or hang a part of the
/// browser: the renderer (crash, kill, checkcrash, memory-exhaust: the tab
/// dies; hang, shorthang: the tab stops answering), the GPU process or
/// the browser itself. Some do nothing headless today; none has a use.
const DEBUG_CRASHERS: &[&str] = &[
    "crash",
    "kill",
    "checkcrash",
    "memory-exhaust",
    "badcastcrash",
    "crashdump",
    "hang",
    "shorthang",
    "gpucrash",
    "gpuhang",
    "gpuclean",
    "inducebrowsercrashforrealz",
    "inducebrowserdcheckforrealz",
    "memory-pressure-critical",
    "memory-pressure-moderate",
    "quit",
    "restart",
];

/// The page a `chrome:` URL opens, as Chromium reads it: `chrome` is a
/// standard scheme there (not for the URL standard, which leaves
/// `chrome:settings` without a host), so `chrome:settings`,
/// `chrome:/settings`, `chrome:\\settings` and `chrome://%73ettings` all
/// open `chrome://settings`: the host is what follows the scheme past any
/// slashes, percent-decoded, without case.
fn chrome_page(url: &Url) -> String {
    let after_scheme = match url.host_str() {
        Some(host) => host.to_owned(),
        None => url.path().to_owned(),
    };
    let host = after_scheme
        .trim_start_matches(['/', '\\'])
        .split(['/', '\\', '?', '#'])
        .next()
        .unwrap_or_default();
    let decoded: Vec<u8> = percent_decoded(host.as_bytes());
    String::from_utf8_lossy(&decoded).to_ascii_lowercase()
}

/// `bytes` with each `%XX` decoded (a malformed one kept as written).
fn percent_decoded(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    out
}

/// The crashing page `url` (parsed, of the scheme `chrome`) is, if any,
/// judged on the page Chromium would open ([`chrome_page`]).
fn crashing_page(url: &Url) -> Option<CrashingPage> {
    let host = chrome_page(url);
    // Decoding may reveal another escape (`%2573`): judged once more, as
    // the browser's own parse of what it was handed may decode again.
    let host = match host.contains('%') {
        true => String::from_utf8_lossy(&percent_decoded(host.as_bytes())).to_ascii_lowercase(),
        false => host,
    };
    if let Some(page) = KILL_THE_BROWSER.iter().find(|p| **p == host) {
        return Some(CrashingPage {
            page,
            does: "ends the whole headless browser (SIGSEGV), every tab with it",
        });
    }
    DEBUG_CRASHERS
        .iter()
        .find(|p| **p == host)
        .map(|page| CrashingPage {
            page,
            does: "is a debugging page that crashes or hangs a part of the browser",
        })
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Scheme(s) => write!(
                f,
                "{s}: URLs are not allowed (only http and https, unless the session allows {s}:)"
            ),
            Refusal::NotAllowed(h) => write!(f, "{h} is outside the allowed domains"),
            Refusal::Blocked(h) => write!(f, "{h} is a blocked domain"),
            Refusal::Unparsable => f.write_str("it is not a URL a browser can load"),
            Refusal::Crashes(c) => write!(
                f,
                "chrome://{} {}; rove refuses it even where chrome: is allowed",
                c.page, c.does
            ),
        }
    }
}

/// The hosts and schemes a session's documents may load from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainPolicy {
    /// `None`: any host.
    allowed: Option<Vec<HostPattern>>,
    blocked: Vec<HostPattern>,
    /// Schemes allowed beyond the web's own (`file`, `chrome` …).
    schemes: Vec<String>,
}

impl Default for DomainPolicy {
    /// Any web host; no `file:`, `chrome:` or other scheme.
    fn default() -> Self {
        DomainPolicy {
            allowed: None,
            blocked: Vec::new(),
            schemes: Vec::new(),
        }
    }
}

impl DomainPolicy {
    /// A policy from the two lists as a user gives them. `allowed`: `None`
    /// for any host; otherwise host patterns (`example.com` and its
    /// subdomains, `*.example.com`, `localhost:8080`, `*` for any host) and
    /// schemes to allow besides the web's (`file:`, `chrome:`). `blocked`:
    /// host patterns refused even when allowed. Empty entries are ignored.
    pub fn from_lists<A, B>(allowed: Option<A>, blocked: B) -> Result<DomainPolicy, PolicyError>
    where
        A: IntoIterator,
        A::Item: AsRef<str>,
        B: IntoIterator,
        B::Item: AsRef<str>,
    {
        let mut policy = DomainPolicy::default();
        if let Some(entries) = allowed {
            let mut hosts = Vec::new();
            for entry in entries {
                let entry = entry.as_ref().trim().to_ascii_lowercase();
                if entry.is_empty() {
                    continue;
                }
                match scheme_entry(&entry) {
                    Some(scheme) => policy.schemes.push(scheme),
                    None => hosts.push(HostPattern::parse(&entry)?),
                }
            }
            policy.allowed = Some(hosts);
        }
        for entry in blocked {
            let entry = entry.as_ref().trim().to_ascii_lowercase();
            if entry.is_empty() {
                continue;
            }
            if scheme_entry(&entry).is_some() {
                return Err(PolicyError {
                    entry,
                    reason:
                        "schemes other than http(s) are refused unless allowed; block hosts here"
                            .into(),
                });
            }
            policy.blocked.push(HostPattern::parse(&entry)?);
        }
        Ok(policy)
    }

    /// The allow-list as it would be written (`*` when any host passes),
    /// for messages.
    pub fn allowed(&self) -> Vec<String> {
        let mut shown: Vec<String> = match &self.allowed {
            None => vec!["*".into()],
            Some(hosts) => hosts.iter().map(HostPattern::shown).collect(),
        };
        shown.extend(self.schemes.iter().map(|s| format!("{s}:")));
        shown
    }

    /// The block-list, for messages.
    pub fn blocked(&self) -> Vec<String> {
        self.blocked.iter().map(HostPattern::shown).collect()
    }

    /// Whether the browser must pause document requests to judge them:
    /// when hosts are limited. Schemes need no interception: Chromium
    /// itself refuses a page's navigation, redirect, popup or iframe to
    /// `file:` or `chrome:` (tried from `about:blank`, `data:` and `http:`
    /// pages), so only the caller's own `open` and `tab new` can reach them,
    /// and the command layer checks those.
    pub fn needs_interception(&self) -> bool {
        self.allowed.is_some() || !self.blocked.is_empty()
    }

    fn allows_scheme(&self, scheme: &str) -> bool {
        self.schemes.iter().any(|s| s == scheme)
    }

    /// Whether cookies of `domain` (`example.com`, `.example.com`) may be
    /// set: cookies know no port, so the host must be allowed on some port
    /// and blocked on none of them.
    pub fn allows_cookie_domain(&self, domain: &str) -> bool {
        let bare = domain.trim().trim_start_matches('.');
        let Ok(parsed) = Url::parse(&format!("http://{bare}/")) else {
            return false;
        };
        let host = match parsed.host() {
            Some(Host::Domain(d)) => d.trim_end_matches('.').to_owned(),
            Some(Host::Ipv4(ip)) => ip.to_string(),
            Some(Host::Ipv6(ip)) => format!("[{ip}]"),
            None => return false,
        };
        if self
            .blocked
            .iter()
            .any(|p| p.port.is_none() && p.matches_host(&host))
        {
            return false;
        }
        match &self.allowed {
            Some(hosts) => hosts.iter().any(|p| p.matches_host(&host)),
            None => true,
        }
    }

    /// Whether a document may load from `url`.
    pub fn allows(&self, url: &str) -> bool {
        self.check(url).is_ok()
    }

    /// Whether a document may load from `url`, and if not, why.
    pub fn check(&self, url: &str) -> Result<(), Refusal> {
        let parsed = Url::parse(url.trim()).map_err(|_| Refusal::Unparsable)?;
        let scheme = parsed.scheme().to_owned();
        if WEB_SCHEMES.contains(&scheme.as_str()) {
            let host = match parsed.host() {
                Some(Host::Domain(d)) => d.trim_end_matches('.').to_owned(),
                Some(Host::Ipv4(ip)) => ip.to_string(),
                Some(Host::Ipv6(ip)) => format!("[{ip}]"),
                None => return Err(Refusal::Unparsable),
            };
            let port = parsed.port_or_known_default();
            if self.blocked.iter().any(|p| p.matches(&host, port)) {
                return Err(Refusal::Blocked(host));
            }
            return match &self.allowed {
                Some(hosts) if !hosts.iter().any(|p| p.matches(&host, port)) => {
                    Err(Refusal::NotAllowed(host))
                }
                _ => Ok(()),
            };
        }
        if self.allows_scheme(&scheme) {
            // `view-source:` shows another URL, which must pass too.
            return match scheme.as_str() {
                "view-source" => self.check(parsed.path()),
                "chrome" => crashing_page(&parsed).map_or(Ok(()), |c| Err(Refusal::Crashes(c))),
                _ => Ok(()),
            };
        }
        match scheme.as_str() {
            // Documents that fetch nothing: the page made them itself.
            "about" if matches!(parsed.path(), "blank" | "srcdoc") => Ok(()),
            "data" | "blob" => Ok(()),
            // The browser's own error page (a refused or failed load).
            "chrome-error" => Ok(()),
            _ => Err(Refusal::Scheme(scheme)),
        }
    }
}

/// `file:` or `file://` as an allow-list entry: the scheme, if the entry is
/// one.
fn scheme_entry(entry: &str) -> Option<String> {
    let scheme = entry
        .strip_suffix("://")
        .or_else(|| entry.strip_suffix(':'))?;
    let valid = !scheme.is_empty()
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    valid.then(|| scheme.to_owned())
}

/// A session's policy, shared by its context, its tabs and the popup guard.
pub(crate) type SharedPolicy = Arc<Mutex<DomainPolicy>>;

/// The policy as it stands.
pub(crate) fn current(policy: &SharedPolicy) -> DomainPolicy {
    policy.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

/// Document requests pause at this stage for the policy to judge them.
pub(crate) fn interception_patterns() -> rove_cdp::protocol::fetch::Enable {
    use rove_cdp::protocol::fetch::{Enable, RequestPattern, RequestStage};
    use rove_cdp::protocol::network::ResourceType;
    Enable {
        patterns: Some(vec![RequestPattern {
            url_pattern: Some("*".to_owned()),
            resource_type: Some(ResourceType::Document),
            request_stage: Some(RequestStage::Request),
        }]),
        ..Enable::default()
    }
}

/// How a refused document request fails.
#[derive(Debug, Clone, Copy)]
pub(crate) enum FailAs {
    /// `Aborted`: the frame stays on the page it showed (a blocked link
    /// leaves the agent where it was, refs intact).
    Aborted,
    /// `BlockedByClient`: the frame shows the browser's error page at the
    /// refused URL (a popup then says where it tried to go, and is closed).
    BlockedByClient,
}

/// Answers a `Fetch.requestPaused` event of `session`: on through, or failed
/// (`fail_as`) when `policy` refuses its URL. Returns the URL when it was
/// refused. The answer is sent from a task of its own, so the caller (an
/// event loop) never waits on the browser.
pub(crate) fn answer_paused(
    session: rove_cdp::Session,
    event: &rove_cdp::Event,
    policy: &DomainPolicy,
    fail_as: FailAs,
) -> Option<String> {
    use rove_cdp::protocol::fetch::{ContinueRequest, FailRequest, RequestPaused};
    use rove_cdp::protocol::network::ErrorReason;
    let paused: RequestPaused = event.parse().ok()?;
    let request_id = paused.request_id;
    if request_id.is_empty() {
        return None;
    }
    let url = paused.request.url;
    let allowed = policy.allows(&url);
    tokio::spawn(async move {
        let answer = if allowed {
            let go_on = ContinueRequest {
                request_id,
                ..ContinueRequest::default()
            };
            session.send(&go_on).await.map(drop)
        } else {
            let fail = FailRequest {
                request_id,
                error_reason: match fail_as {
                    FailAs::Aborted => ErrorReason::Aborted,
                    FailAs::BlockedByClient => ErrorReason::BlockedByClient,
                },
            };
            session.send(&fail).await.map(drop)
        };
        if let Err(e) = answer {
            tracing::debug!(target: "rove_browser", error = %e, "could not answer a paused request");
        }
    });
    (!allowed).then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(allowed: &[&str], blocked: &[&str]) -> DomainPolicy {
        DomainPolicy::from_lists(Some(allowed), blocked).expect("valid")
    }

    #[test]
    fn hosts_match_their_patterns_only() {
        let policy = policy(&["example.com", "*.test.org", "127.0.0.1"], &[]);
        for ok in [
            "https://example.com/",
            "http://a.b.example.com:8080/x",
            "https://x.test.org",
            "http://127.0.0.1:9/p",
            "HTTP://EXAMPLE.COM./",
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
            "http://example.com@evil.com/",
            "https://example.com.evil.net/",
            "https://evil.com\\@example.com/",
        ] {
            assert!(!policy.allows(no), "{no}");
        }
    }

    #[test]
    fn every_spelling_of_an_address_is_judged_by_the_host_it_names() {
        let only_localhost = policy(&["localhost"], &[]);
        for spelling in [
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://0177.0.0.1/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::1]/",
            "http://localhost.evil.com/",
        ] {
            assert!(!only_localhost.allows(spelling), "{spelling}");
        }
        let loopback = policy(&["127.0.0.1"], &[]);
        assert!(loopback.allows("http://2130706433/x"));
        assert!(loopback.allows("http://0x7f.1/x"));
    }

    #[test]
    fn other_schemes_are_refused_unless_named() {
        let web = policy(&["localhost"], &[]);
        for no in [
            "file:///etc/passwd",
            "FILE:///etc/passwd",
            "chrome://version",
            "chrome://settings",
            "devtools://devtools/bundled/inspector.html",
            "view-source:http://localhost/",
            "javascript:alert(1)",
            "chrome-extension://abc/x.html",
            "ftp://localhost/",
            "filesystem:http://localhost/temporary/x",
            "about:settings",
            "not a url",
        ] {
            assert!(!web.allows(no), "{no}");
        }
        assert_eq!(
            web.check("file:///etc/passwd"),
            Err(Refusal::Scheme("file".into()))
        );
        let with_files = policy(&["localhost", "file:"], &[]);
        assert!(with_files.allows("file:///tmp/page.html"));
        assert!(!with_files.allows("chrome://version"));
        let default = DomainPolicy::default();
        assert!(default.allows("https://anything.example/"));
        assert!(!default.allows("file:///etc/passwd"));
        assert!(!default.needs_interception());
        let any_with_files = policy(&["*", "file://"], &[]);
        assert!(any_with_files.allows("file:///x") && any_with_files.allows("https://a.b/"));
        assert!(any_with_files.needs_interception());
    }

    #[test]
    fn chrome_pages_that_crash_headless_chromium_are_refused_even_when_chrome_is_allowed() {
        let chrome = policy(&["*", "chrome:"], &[]);
        for fine in [
            "chrome://version",
            "chrome://gpu/",
            "chrome://downloads",
            "chrome://flags",
        ] {
            assert!(chrome.allows(fine), "{fine}");
        }
        for crashes in [
            "chrome://settings",
            "CHROME://SETTINGS/",
            "chrome://settings/passwords",
            "chrome://history",
            "chrome://help",
            "chrome://password-manager/passwords",
            "chrome://extensions",
            "chrome://apps",
            "chrome://crash",
            "chrome://kill",
            "chrome://hang",
            "chrome://shorthang",
            "chrome://memory-exhaust",
            "chrome://checkcrash",
            "chrome://gpucrash",
            "chrome://inducebrowsercrashforrealz",
            "chrome://quit",
            "chrome://restart",
        ] {
            assert!(
                matches!(chrome.check(crashes), Err(Refusal::Crashes(_))),
                "{crashes}"
            );
        }
        let said = chrome
            .check("chrome://settings")
            .expect_err("refused")
            .to_string();
        assert!(
            said.starts_with("chrome://settings ends the whole headless browser"),
            "{said}"
        );
        // Every spelling Chromium reads as the same page (issue 37, item
        // 10): it opens chrome://settings for each of them.
        for spelt in [
            "chrome:settings",
            "chrome:/settings",
            "CHROME:settings",
            "chrome:%73ettings",
            "chrome://%73ettings",
            "chrome:%2573ettings",
            "chrome:history",
            "chrome:password-manager",
            "chrome:\\\\settings",
            "chrome:///settings/passwords",
            " chrome:SETTINGS?x#y",
        ] {
            assert!(
                matches!(chrome.check(spelt), Err(Refusal::Crashes(_))),
                "{spelt}"
            );
        }
        assert!(chrome.allows("chrome:version"));
        // Through view-source too.
        let both = policy(&["*", "chrome:", "view-source:"], &[]);
        assert!(!both.allows("view-source:chrome:settings"));
        assert!(!both.allows("view-source:chrome://settings"));
        assert!(both.allows("view-source:chrome://version"));
    }

    #[test]
    fn view_source_needs_its_scheme_and_its_target() {
        let p = policy(&["localhost", "view-source:"], &[]);
        assert!(p.allows("view-source:http://localhost/x"));
        assert!(!p.allows("view-source:http://evil.com/x"));
        assert!(!p.allows("view-source:file:///etc/passwd"));
    }

    #[test]
    fn blocked_hosts_win_and_ports_count() {
        let p = DomainPolicy::from_lists(None::<Vec<String>>, ["ads.example.com", "localhost:9"])
            .expect("valid");
        assert!(p.allows("https://example.com/"));
        assert!(!p.allows("https://x.ads.example.com/"));
        assert_eq!(
            p.check("http://localhost:9/"),
            Err(Refusal::Blocked("localhost".into()))
        );
        assert!(p.allows("http://localhost:8/"));
        let ported = policy(&["localhost:8080"], &[]);
        assert!(ported.allows("http://localhost:8080/"));
        assert!(!ported.allows("http://localhost:8081/"));
        assert!(!ported.allows("http://localhost/"));
    }

    #[test]
    fn cookie_domains_are_judged_by_their_host_on_any_port() {
        let p = policy(&["localhost:8080", "*.shop.test"], &["ads.shop.test"]);
        assert!(p.allows_cookie_domain("localhost"));
        assert!(p.allows_cookie_domain(".a.shop.test"));
        assert!(!p.allows_cookie_domain("shop.test"));
        assert!(!p.allows_cookie_domain(".ads.shop.test"));
        assert!(!p.allows_cookie_domain("evil.test"));
        assert!(!p.allows_cookie_domain("a b"));
    }

    #[test]
    fn nonsense_entries_are_refused() {
        for bad in [
            "https://example.com/path",
            "a b",
            "user@host",
            "ex*ample.com",
        ] {
            assert!(
                DomainPolicy::from_lists(Some([bad]), [""; 0]).is_err(),
                "{bad}"
            );
        }
        assert!(DomainPolicy::from_lists(None::<[&str; 0]>, ["file:"]).is_err());
    }
}
