//! rove-browser's integration tests, in one binary: `cargo test -p rove-browser --test it`.
//! `support` is their shared set-up; each other module holds the tests of
//! one concern. Those that launch no browser are under `fast`
//! (`scripts/test.sh --fast` runs them without Chromium); the rest drive
//! real Chromium.

mod activity;
mod context_cost;
mod contexts;
mod events;
mod fast;
mod lifecycle;
mod profile;
mod remote;
mod support;
