//! rove-testkit's integration tests, one binary (`cargo test -p rove-testkit --test it`):
//! each module is one former test file, `support` their shared set-up.

mod architecture;
mod page_scripts;
