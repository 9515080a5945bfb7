//! No desktop to reach: DESKTOP_UNAVAILABLE, saying what is missing and
//! the fix, at once.

use std::time::{Duration, Instant};

use rove_desktop::{AtSpi, DesktopEnv};
use rove_errors::{Classify, ErrorCode};

fn unavailable(env: &DesktopEnv) -> (String, String) {
    let started = Instant::now();
    let error = AtSpi::connect_in(env).expect_err("no desktop there");
    assert!(started.elapsed() < Duration::from_secs(2), "said at once");
    assert_eq!(error.code(), ErrorCode::DesktopUnavailable, "{error}");
    (error.to_string(), error.hint())
}

#[test]
fn no_display_no_bus_and_a_dead_bus_are_desktop_unavailable_with_the_fix() {
    let (said, hint) = unavailable(&DesktopEnv::default());
    assert!(said.contains("no display"), "{said}");
    assert!(hint.contains("apt-get install at-spi2-core"), "{hint}");
    assert!(hint.contains("scripts/desktop-env.sh"), "{hint}");
    let display = DesktopEnv {
        display: Some(":99".to_owned()),
        ..DesktopEnv::default()
    };
    let (said, _) = unavailable(&display);
    assert!(said.contains("no D-Bus session bus"), "{said}");
    let dead = DesktopEnv {
        session_bus: Some("unix:path=/nonexistent/rove-test-bus".to_owned()),
        ..display.clone()
    };
    let (said, _) = unavailable(&dead);
    assert!(said.contains("session bus does not answer"), "{said}");
    let dead_a11y = DesktopEnv {
        accessibility_bus: Some("unix:abstract=/rove-test-no-such-bus".to_owned()),
        ..display
    };
    let (said, _) = unavailable(&dead_a11y);
    assert!(said.contains("accessibility bus does not answer"), "{said}");
}
