//! Launching, using and closing real Chromium, and leaving nothing behind.
//! Launching what is not a working Chromium: `crate::fast::lifecycle`.

use crate::support;

use std::time::Duration;

use rove_browser::processes_mentioning;
use support::{fixture_server, launch};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_launch_use_close_cycles_leave_nothing_behind() {
    let server = fixture_server().await;
    for round in 0..20 {
        let browser = launch().await;
        let profile = browser
            .profile_dir()
            .expect("launched browsers have a profile");
        let pid = browser.pid().expect("launched browsers have a pid");
        assert!(profile.is_dir());
        assert!(
            !processes_mentioning(&profile).is_empty(),
            "round {round}: no browser processes found while running"
        );

        let context = browser.new_context().await.expect("context");
        let tab = context.new_tab().await.expect("tab");
        let loaded = tab
            .goto(&server.url("/hello"), Duration::from_secs(10))
            .await
            .expect("goto");
        assert_eq!(loaded.title, "Hello from rove");
        let sum = tab.evaluate("1 + 1").await.expect("evaluate");
        assert_eq!(sum, serde_json::json!(2));

        browser.close().await;
        assert_eq!(
            processes_mentioning(&profile),
            Vec::<u32>::new(),
            "round {round}: processes left behind"
        );
        assert!(
            !profile.exists(),
            "round {round}: profile {} left behind",
            profile.display()
        );
        assert!(
            !support::pid_alive(pid),
            "round {round}: browser pid {pid} still alive"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_last_handle_kills_the_browser() {
    let browser = launch().await;
    let profile = browser.profile_dir().expect("profile");
    let pid = browser.pid().expect("pid");
    drop(browser);
    assert!(
        !support::pid_alive(pid),
        "browser survived the drop of its handle"
    );
    assert_eq!(processes_mentioning(&profile), Vec::<u32>::new());
    assert!(!profile.exists());
}
