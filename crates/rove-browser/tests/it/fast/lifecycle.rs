//! Launching what is not a working Chromium: a missing browser, one that
//! exits at once, one that never opens its DevTools port. Fake browsers
//! (shell scripts), so no Chromium runs.

use crate::support;

use std::time::Duration;

use rove_browser::{Browser, LaunchOptions, processes_mentioning};
use rove_errors::{Classify, ErrorCode};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_that_exits_at_once_is_launch_failed_with_its_stderr() {
    let dir = support::scratch_dir("fake-browser");
    let fake = dir.join("fake-chromium");
    support::write_script(
        &fake,
        "#!/bin/sh\necho 'fake: starting up' >&2\necho 'fatal: no display and no sandbox, giving up' >&2\nexit 3\n",
    );
    let err = Browser::launch(LaunchOptions {
        executable: Some(fake.clone()),
        ..LaunchOptions::default()
    })
    .await
    .expect_err("a browser that exits must not launch");
    assert_eq!(err.code(), ErrorCode::LaunchFailed);
    let message = err.to_string();
    assert!(
        message.contains("fatal: no display and no sandbox"),
        "{message}"
    );
    assert!(message.contains("exit status: 3"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_that_never_opens_its_port_times_out_as_launch_failed() {
    let dir = support::scratch_dir("silent-browser");
    let fake = dir.join("silent-chromium");
    support::write_script(
        &fake,
        "#!/bin/sh\necho 'stuck forever' >&2\nexec sleep 600\n",
    );
    let started = std::time::Instant::now();
    let err = Browser::launch(LaunchOptions {
        executable: Some(fake.clone()),
        launch_timeout: Duration::from_secs(3),
        ..LaunchOptions::default()
    })
    .await
    .expect_err("must time out");
    assert_eq!(err.code(), ErrorCode::LaunchFailed);
    assert!(err.to_string().contains("stuck forever"), "{err}");
    // At its launch timeout, not the 600 s the script would sleep.
    assert!(started.elapsed() < Duration::from_secs(15));
    // The stuck process was killed with its group.
    assert_eq!(processes_mentioning(&fake), Vec::<u32>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_browser_is_no_browser() {
    let err = Browser::launch(LaunchOptions {
        executable: Some("/nonexistent/chromium".into()),
        ..LaunchOptions::default()
    })
    .await
    .expect_err("no such browser");
    assert_eq!(err.code(), ErrorCode::NoBrowser);
    assert!(err.to_string().contains("/nonexistent/chromium"), "{err}");
}
