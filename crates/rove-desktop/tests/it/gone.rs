//! An application that exits under rove: typed errors, nothing hangs.

use std::time::{Duration, Instant};

use rove_desktop::{Action, AtSpi, Backend, DesktopError, Launched};
use rove_errors::{Classify, ErrorCode};

#[test]
fn acting_on_an_application_that_exited_is_a_typed_error_at_once() {
    let _one = crate::one_calculator();
    let mut bus = AtSpi::connect().expect("the desktop is there (scripts/desktop-env.sh)");
    let calculator = Launched::start(&mut bus, "gnome-calculator", &[]).expect("starts");
    let nodes = bus.tree(&calculator.app.id, 5_000).expect("reads the tree");
    let seven = nodes
        .iter()
        .find(|n| n.role == "button" && n.name == "7")
        .expect("a 7 button")
        .id
        .clone();
    let app = calculator.app.id.clone();
    drop(calculator);
    let started = Instant::now();
    let pressed = bus.act(&seven, &Action::Press);
    let tree = bus.tree(&app, 5_000);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "nothing waits for a deadline"
    );
    let pressed = pressed.expect_err("the application is gone");
    assert_eq!(pressed.code(), ErrorCode::NoTab, "{pressed}");
    assert!(
        matches!(pressed, DesktopError::AppGone { .. }),
        "{pressed:?}"
    );
    let tree = tree.expect_err("its tree is gone too");
    assert_eq!(tree.code(), ErrorCode::NoTab, "{tree}");
    // The bus itself is fine: the next call answers.
    bus.apps().expect("the bus still answers");
}
