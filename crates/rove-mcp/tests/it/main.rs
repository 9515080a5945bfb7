//! rove-mcp's integration tests, one binary (`cargo test -p rove-mcp --test it`):
//! each module is one former test file, `support` their shared set-up.

mod tools;
