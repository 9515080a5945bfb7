//! rove-cdp's integration tests, one binary (`cargo test -p rove-cdp --test it`):
//! each module is one former test file, `support` their shared set-up.

mod chromium;
mod support;
mod transport;
