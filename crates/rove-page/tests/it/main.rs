//! rove-page's integration tests, in one binary: `cargo test -p rove-page --test it`.
//! `support` is their shared set-up; each other module holds the tests of
//! one concern. They all drive real Chromium (none would go under `fast`,
//! the modules `scripts/test.sh --fast` runs without a browser).

mod budget;
mod challenges;
mod frameworks;
mod hostile;
mod refs;
mod stability;
mod support;
mod views;
