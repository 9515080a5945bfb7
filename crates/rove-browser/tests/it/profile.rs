//! `LaunchOptions::profile`: a profile of the user's keeps cookies between
//! launches, is refused untouched while another browser holds it, and is
//! never removed.

use std::time::Duration;

use rove_browser::{Browser, BrowserError, LaunchOptions};
use rove_errors::Classify;

async fn launch_on(dir: &std::path::Path) -> Result<Browser, BrowserError> {
    Browser::launch(LaunchOptions {
        profile: Some(dir.to_path_buf()),
        ..LaunchOptions::default()
    })
    .await
}

/// What a launch on `dir` could change of a profile in use: Chromium's
/// singleton lock, socket and cookie (symlinks naming the holder) and the
/// DevTools port file. Only these: the running browser writes the rest of
/// its profile on its own timers (cookies, preferences, logs), so a listing
/// of every file would measure it, not rove.
fn lock_state(dir: &std::path::Path) -> Vec<(String, String)> {
    [
        "SingletonLock",
        "SingletonSocket",
        "SingletonCookie",
        "DevToolsActivePort",
    ]
    .iter()
    .map(|name| {
        let path = dir.join(name);
        let state = match std::fs::read_link(&path) {
            Ok(target) => format!("-> {}", target.display()),
            Err(_) => std::fs::read_to_string(&path)
                .unwrap_or_else(|e| format!("unreadable: {}", e.kind())),
        };
        ((*name).to_owned(), state)
    })
    .collect()
}

#[tokio::test]
async fn a_profile_keeps_cookies_and_one_in_use_is_refused_untouched() {
    let dir = rove_testkit::scratch_dir("user-profile").join("profile");
    let first = launch_on(&dir).await.expect("a browser on the profile");
    let context = first.new_context().await.expect("context");
    let tab = context.new_tab().await.expect("tab");
    tab.goto("data:text/html,<title>x</title>", Duration::from_secs(10))
        .await
        .expect("goto");
    let conn = first.connection().await.expect("connection");
    conn.browser()
        .send(&rove_cdp::protocol::storage::SetCookies {
            browser_context_id: Some(context.id().to_owned()),
            cookies: vec![serde_json::json!({
                "name": "kept", "value": "yes", "domain": "example.test", "path": "/",
                "expires": 4_102_444_800.0_f64
            })],
        })
        .await
        .expect("set a cookie");

    // While the first holds it, a second launch is refused and the folder
    // is left exactly as it was.
    let before = lock_state(&dir);
    assert!(
        before[0].1.starts_with("-> "),
        "the first browser holds the lock: {before:?}"
    );
    let refused = launch_on(&dir).await.expect_err("the profile is in use");
    assert!(
        matches!(refused, BrowserError::ProfileLocked { .. }),
        "{refused:?}"
    );
    assert_eq!(refused.code().as_str(), "LAUNCH_FAILED");
    assert!(refused.to_string().contains("in use"), "{refused}");
    assert_eq!(
        lock_state(&dir),
        before,
        "nothing in the profile was touched"
    );
    // The first browser goes on working.
    assert_eq!(
        tab.evaluate("1 + 2").await.expect("still answers"),
        serde_json::json!(3)
    );

    first.close().await;
    assert!(dir.is_dir(), "the user's profile is never removed");

    // The next launch finds the cookie.
    let second = launch_on(&dir).await.expect("the profile is free again");
    let context = second.new_context().await.expect("context");
    let conn = second.connection().await.expect("connection");
    let cookies = conn
        .browser()
        .send(&rove_cdp::protocol::storage::GetCookies {
            browser_context_id: Some(context.id().to_owned()),
        })
        .await
        .expect("cookies")
        .cookies;
    let names: Vec<&str> = cookies.iter().filter_map(|c| c["name"].as_str()).collect();
    assert!(names.contains(&"kept"), "{cookies:?}");
    second.close().await;
}

#[tokio::test]
async fn a_session_on_a_profile_starts_in_the_browsers_own_blank_tab() {
    let dir = rove_testkit::scratch_dir("profile-first-tab").join("profile");
    let browser = launch_on(&dir).await.expect("a browser on the profile");
    let context = browser.new_context().await.expect("context");
    let first = context.first_tab().await.expect("first tab");
    let tabs = context.tabs();
    assert_eq!(
        tabs.iter().map(|t| t.id).collect::<Vec<_>>(),
        vec![first.id()],
        "no stray about:blank beside the session's tab: {tabs:?}"
    );
    assert!(tabs[0].focused, "{tabs:?}");
    // The tab answers like one rove opened.
    assert_eq!(
        first.evaluate("1 + 2").await.expect("answers"),
        serde_json::json!(3)
    );
    browser.close().await;
}
