//! rove-llm's integration tests, one binary (`cargo test -p rove-llm --test it`):
//! each module is one former test file, `support` their shared set-up.

mod providers;
