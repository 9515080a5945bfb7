//! rove-agent's integration tests, one binary (`cargo test -p rove-agent --test it`):
//! each module is one former test file, `support` their shared set-up.

mod agent_loop;
mod hostile;
mod judge;
mod recovery;
mod seen;
mod support;
mod tool_schemas;
