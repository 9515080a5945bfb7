//! rove-input's integration tests, in one binary: `cargo test -p rove-input --test it`.
//! `support` is their shared set-up; each other module holds the tests of
//! one concern. They all drive real Chromium (none would go under `fast`,
//! the modules `scripts/test.sh --fast` runs without a browser).

mod broken_builtins;
mod click;
mod editor;
mod guard_attack;
mod keyboard;
mod label;
mod quasar;
mod select;
mod slider;
mod support;
mod toggle;
