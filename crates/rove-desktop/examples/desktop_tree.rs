//! Prints the applications on the accessibility bus and one's tree
//! (`cargo run -p rove-desktop --example desktop_tree -- NAME`), for
//! looking at what a toolkit exposes.

// A tool for a person at a terminal: it prints.
#![allow(clippy::print_stderr)]

use rove_desktop::{AtSpi, Backend};

fn main() -> Result<(), rove_desktop::DesktopError> {
    let wanted = std::env::args().nth(1).unwrap_or_default();
    let mut bus = AtSpi::connect()?;
    for app in bus.apps()? {
        eprintln!("{} pid={:?} windows={:?}", app.name, app.pid, app.windows);
        if app.name == wanted {
            let started = std::time::Instant::now();
            let nodes = bus.tree(&app.id, 5_000)?;
            let took = started.elapsed();
            for node in &nodes {
                eprintln!(
                    "{}{} {:?} {:?} [{}] {:?}",
                    "  ".repeat(usize::from(node.depth)),
                    node.role,
                    node.name,
                    node.value,
                    node.platform_role,
                    node.states
                );
            }
            eprintln!("{} nodes in {took:?}", nodes.len());
        }
    }
    Ok(())
}
