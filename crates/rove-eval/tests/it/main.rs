//! rove-eval's integration tests, one binary (`cargo test -p rove-eval --test it`):
//! each module is one former test file, `support` their shared set-up.

mod verify;
