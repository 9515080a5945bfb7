//! rove-page's integration tests, one binary (`cargo test -p rove-page --test it`):
//! each module is one former test file, `support` their shared set-up.

mod budget;
mod hostile;
mod refs;
mod stability;
mod support;
mod views;
