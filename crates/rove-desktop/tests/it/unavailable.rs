//! No desktop to reach, or a bus that goes away under a connection:
//! DESKTOP_UNAVAILABLE, saying what is missing and the fix, at once.

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

/// A D-Bus daemon of the test's own, standing for an accessibility bus:
/// its process and its address.
fn private_bus(name: &str) -> (std::process::Child, String) {
    use std::io::BufRead;
    let socket = std::env::temp_dir().join(format!("rove-bus-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&socket);
    let mut daemon = std::process::Command::new("dbus-daemon")
        .args(["--session", "--nofork", "--print-address=1"])
        .arg(format!("--address=unix:path={}", socket.display()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("dbus-daemon starts (apt-get install dbus)");
    let mut address = String::new();
    std::io::BufReader::new(daemon.stdout.take().expect("stdout"))
        .read_line(&mut address)
        .expect("the daemon prints its address");
    (daemon, address.trim().to_owned())
}

#[test]
fn a_bus_that_goes_away_is_desktop_unavailable_at_once_on_every_call() {
    use rove_desktop::Backend;
    let (mut daemon, address) = private_bus("gone");
    let env = DesktopEnv {
        display: Some(":99".to_owned()),
        accessibility_bus: Some(address),
        ..DesktopEnv::default()
    };
    let mut bus = AtSpi::connect_in(&env).expect("the bus answers while it runs");
    daemon.kill().expect("kill");
    daemon.wait().expect("reaped");
    for _ in 0..3 {
        let started = Instant::now();
        let error = bus.apps().expect_err("no bus any more");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "said at once, not at the call's deadline: {:?}",
            started.elapsed()
        );
        assert_eq!(error.code(), ErrorCode::DesktopUnavailable, "{error}");
        assert!(
            error
                .to_string()
                .contains("the accessibility bus closed the connection"),
            "{error}"
        );
    }
}
