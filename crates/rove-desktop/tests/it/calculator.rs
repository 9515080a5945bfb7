//! gnome-calculator driven through its accessibility tree alone.

use std::time::{Duration, Instant};

use rove_desktop::{Action, AtSpi, Backend, EventWait, Launched, Node};

/// The button named `name` in the tree.
fn button<'a>(nodes: &'a [Node], name: &str) -> &'a Node {
    nodes
        .iter()
        .find(|n| n.role == "button" && n.name == name)
        .unwrap_or_else(|| panic!("no button {name:?} in {nodes:#?}"))
}

#[test]
fn twelve_times_seven_is_read_back_as_84() {
    let _one = crate::one_calculator();
    let mut bus = AtSpi::connect().expect("the desktop is there (scripts/desktop-env.sh)");
    let calculator = Launched::start(&mut bus, "gnome-calculator", &[]).expect("starts");
    let nodes = bus.tree(&calculator.app.id, 5_000).expect("reads the tree");
    for key in ["1", "2", "×", "7", "="] {
        bus.act(&button(&nodes, key).id, &Action::Press)
            .unwrap_or_else(|e| panic!("pressing {key}: {e}"));
    }
    // The calculator updates its display after the press returns (the
    // expression first, then the result): read until it shows the result,
    // within a bound.
    let until = Instant::now() + Duration::from_secs(5);
    let shown = loop {
        let after = bus
            .tree(&calculator.app.id, 5_000)
            .expect("reads the tree again");
        let shown: Vec<String> = after
            .iter()
            .filter(|n| n.role == "textbox")
            .filter_map(|n| n.value.clone())
            .filter(|v| !v.trim().is_empty())
            .collect();
        if shown == ["84"] || Instant::now() > until {
            break shown;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(shown, ["84"], "the display shows the product");
}

#[test]
fn a_press_is_heard_as_the_calculators_events_and_a_key_it_ignores_as_silence() {
    let _one = crate::one_calculator();
    let mut bus = AtSpi::connect().expect("the desktop is there (scripts/desktop-env.sh)");
    let calculator = Launched::start(&mut bus, "gnome-calculator", &[]).expect("starts");
    let nodes = bus.tree(&calculator.app.id, 5_000).expect("reads the tree");
    let wait = EventWait {
        first: Duration::from_secs(2),
        quiet: Duration::from_millis(150),
        within: Duration::from_secs(4),
    };
    // A digit changes the display: the calculator says so on the bus.
    bus.act(&button(&nodes, "7").id, &Action::Press)
        .expect("presses 7");
    let heard = bus.events_from(&calculator.app.id, wait).expect("listens");
    assert!(heard.events > 0, "the press was heard as events");
    // A key the calculator does nothing with: no event within the wait.
    let window = &nodes[0].id;
    bus.press_key(window, &rove_desktop::chord("F24").expect("a key"))
        .expect("sends the key");
    let silent = bus
        .events_from(
            &calculator.app.id,
            EventWait {
                first: Duration::from_millis(500),
                ..wait
            },
        )
        .expect("listens");
    assert_eq!(silent.events, 0, "an ignored key is silence");
    assert!(silent.fell_silent);
}
