//! rove-eval's integration tests, in one binary: `cargo test -p rove-eval --test it`.
//! Each module holds the tests of one concern. They all drive real
//! Chromium (none would go under `fast`, the modules `scripts/test.sh
//! --fast` runs without a browser).

mod verify;
