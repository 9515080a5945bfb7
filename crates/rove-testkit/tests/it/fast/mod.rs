//! rove-testkit's tests that launch no browser: `scripts/test.sh --fast` runs
//! every module under here (the filter `fast::`) with Chromium hidden, so
//! a test here that reaches for a browser fails. A test that needs one
//! belongs beside this module, not in it.

mod architecture;
mod import_graph;
mod test_layout;
