//! rove-browser's integration tests, one binary (`cargo test -p rove-browser --test it`):
//! each module is one former test file, `support` their shared set-up.

mod context_cost;
mod contexts;
mod events;
mod lifecycle;
mod profile;
mod remote;
mod support;
