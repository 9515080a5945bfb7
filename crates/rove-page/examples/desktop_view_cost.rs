//! What a desktop application's view costs against its raw accessibility
//! tree, and how long a warm view takes (docs/benchmarks.md, "Desktop
//! applications"). Run inside a desktop:
//! `scripts/desktop-env.sh cargo run --release -p rove-page --example desktop_view_cost`.

// A measuring tool for a person at a terminal: it prints.
#![allow(clippy::print_stderr)]

use std::time::{Duration, Instant};

use rove_desktop::{AtSpi, Backend, Launched};
use rove_page::{NativeElement, NativeModel, NativeStates, ViewOptions};

type Failed = Box<dyn std::error::Error>;

fn elements(bus: &mut AtSpi, app: &rove_desktop::NodeId) -> Result<Vec<NativeElement>, Failed> {
    Ok(bus
        .tree(app, 10_000)?
        .into_iter()
        .map(|n| NativeElement {
            key: n.id.key(),
            depth: n.depth,
            role: n.role.to_owned(),
            name: n.name,
            value: n.value,
            states: NativeStates {
                disabled: n.states.disabled,
                checked: n.states.checked,
                focused: n.states.focused,
                ..NativeStates::default()
            },
        })
        .collect())
}

fn main() -> Result<(), Failed> {
    // No desktop: run it inside scripts/desktop-env.sh.
    let mut bus = AtSpi::connect()?;
    for program in ["gnome-calculator", "gtk3-widget-factory"] {
        let app = Launched::start(&mut bus, program, &[])?;
        // Let it finish drawing its first window.
        std::thread::sleep(Duration::from_secs(1));
        let raw = bus.dump(&app.app.id, 10_000)?;
        let mut model = NativeModel::new(Default::default(), program);
        let unlimited = ViewOptions {
            budget: Some(0),
            ..ViewOptions::default()
        };
        let first = model.view(
            "desktop",
            program,
            "app:x",
            elements(&mut bus, &app.app.id)?,
            &unlimited,
        );
        let mut times = Vec::new();
        for _ in 0..20 {
            let started = Instant::now();
            let found = elements(&mut bus, &app.app.id)?;
            let view = model.view("desktop", program, "app:x", found, &ViewOptions::default());
            times.push(started.elapsed());
            std::hint::black_box(view);
        }
        times.sort();
        eprintln!(
            "{program}: raw tree {} chars ({} lines); view {} chars ({} lines, {} tokens); ratio {:.2}; warm snapshot median {:?}, max {:?}",
            raw.chars().count(),
            raw.lines().count(),
            first.text.chars().count(),
            first.text.lines().count(),
            first.tokens,
            first.text.chars().count() as f64 / raw.chars().count() as f64,
            times[times.len() / 2],
            times[times.len() - 1],
        );
        drop(app);
    }
    Ok(())
}
