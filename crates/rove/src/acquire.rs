//! Getting a browser for a command: launch one, or connect to `--cdp-url`.

use rove_browser::{Browser, BrowserError, ConnectOptions, LaunchOptions};
use rove_cdp::TransportConfig;

use crate::cli::GlobalArgs;

/// Launches a browser, or connects when `--cdp-url` is given.
pub async fn acquire(
    global: &GlobalArgs,
    transport: &TransportConfig,
) -> Result<Browser, BrowserError> {
    match &global.cdp_url {
        Some(url) => {
            Browser::connect(ConnectOptions {
                transport: transport.clone(),
                ..ConnectOptions::new(url.clone())
            })
            .await
        }
        None => Browser::launch(launch_options(global, transport)).await,
    }
}

pub fn launch_options(global: &GlobalArgs, transport: &TransportConfig) -> LaunchOptions {
    LaunchOptions {
        executable: global.browser.clone(),
        headed: global.headed,
        transport: transport.clone(),
        ..LaunchOptions::default()
    }
}

/// Adds a scheme to a bare address: `http://` for loopback, else `https://`.
pub fn normalize_url(raw: &str) -> String {
    let raw = raw.trim();
    let has_scheme = raw.split_once(':').is_some_and(|(scheme, rest)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            && (rest.starts_with("//")
                || ["about", "data", "file", "chrome", "javascript", "blob"].contains(&scheme))
    });
    if has_scheme {
        return raw.to_owned();
    }
    let host = raw.split(['/', ':']).next().unwrap_or_default();
    if host == "localhost" || host == "127.0.0.1" || host == "[::1]" {
        format!("http://{raw}")
    } else {
        format!("https://{raw}")
    }
}

#[cfg(test)]
mod tests {
    use super::normalize_url;

    #[test]
    fn bare_addresses_get_a_scheme() {
        assert_eq!(normalize_url("example.org"), "https://example.org");
        assert_eq!(
            normalize_url("example.org/a?b=c"),
            "https://example.org/a?b=c"
        );
        assert_eq!(normalize_url("localhost:8000/x"), "http://localhost:8000/x");
        assert_eq!(normalize_url("127.0.0.1:9"), "http://127.0.0.1:9");
        assert_eq!(normalize_url("http://a.b"), "http://a.b");
        assert_eq!(normalize_url("about:blank"), "about:blank");
        assert_eq!(normalize_url("data:text/html,hi"), "data:text/html,hi");
        assert_eq!(normalize_url("file:///tmp/x.html"), "file:///tmp/x.html");
    }
}
