//! rove's integration tests, one binary (`cargo test -p rove --test it`):
//! each module is one former test file, `support` their shared set-up.

mod cli;
mod daemon_faults;
mod demo_suite;
mod devtools_faces;
mod emulation_faces;
mod help;
mod locator_faces;
mod logs;
mod mcp;
mod mcp_events;
mod mcp_faults;
mod pointer_faces;
mod policy_faces;
mod print_config;
mod real_apps;
mod run;
mod run_caps;
mod run_judge;
mod run_recovery;
mod sessions;
mod shell_values;
mod support;
mod test_browsers;
mod test_judge;
mod test_parallel;
mod test_progress;
mod test_suite;
mod test_traces;
mod trace;
mod trace_commands;
