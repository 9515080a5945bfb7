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
        profile: global.profile.as_ref().map(|p| {
            std::env::current_dir()
                .map(|cwd| cwd.join(p))
                .unwrap_or_else(|_| p.clone())
        }),
        ..LaunchOptions::default()
    }
}
