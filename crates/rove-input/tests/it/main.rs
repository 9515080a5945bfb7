//! rove-input's integration tests, one binary (`cargo test -p rove-input --test it`):
//! each module is one former test file, `support` their shared set-up.

mod broken_builtins;
mod click;
mod keyboard;
mod select;
mod support;
mod toggle;
