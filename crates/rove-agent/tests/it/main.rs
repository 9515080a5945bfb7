//! rove-agent's integration tests, in one binary: `cargo test -p rove-agent --test it`.
//! `support` is their shared set-up; each other module holds the tests of
//! one concern. Those that launch no browser are under `fast`
//! (`scripts/test.sh --fast` runs them without Chromium); the rest drive
//! real Chromium.

mod agent_loop;
mod challenges;
mod fast;
mod hostile;
mod model_side;
mod recovery;
mod replay;
mod seen;
mod stepping;
mod support;
mod tool_cost;
