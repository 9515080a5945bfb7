//! rove's integration tests, in one binary: `cargo test -p rove --test it`.
//! `support` is their shared set-up; each other module holds the tests of
//! one concern. Those that launch no browser are under `fast`
//! (`scripts/test.sh --fast` runs them without Chromium); the rest drive
//! real Chromium.

mod approximate_roles;
mod cli;
mod daemon_faults;
mod demo_suite;
mod desktop;
mod devtools_faces;
mod emulation_faces;
mod farm_mode;
mod farm_real;
mod farm_urls;
mod fast;
mod hostile_artefacts;
mod hostile_keys;
mod hostile_outputs;
mod locator_faces;
mod logs;
mod mcp;
mod mcp_events;
mod mcp_faults;
mod pointer_faces;
mod policy_faces;
mod real_apps;
mod run;
mod run_caps;
mod run_gif;
mod run_judge;
mod run_model_errors;
mod run_recovery;
mod secret_echo;
mod sessions;
mod shell_values;
mod support;
mod test_browsers;
mod test_challenges;
mod test_judge;
mod test_parallel;
mod test_progress;
mod test_suite;
mod test_traces;
mod test_video;
mod trace;
mod trace_commands;
