//! rove's tests that launch no browser: `scripts/test.sh --fast` runs
//! every module under here (the filter `fast::`) with Chromium hidden, so
//! a test here that reaches for a browser fails. A test that needs one
//! belongs beside this module, not in it.

mod cli;
mod daemon_faults;
mod demo_suite;
mod deploy;
mod help;
mod hostile;
mod hostile_farm;
mod hostile_files;
mod mcp;
mod mcp_faults;
mod print_config;
mod run_judge;
mod test_suite;
