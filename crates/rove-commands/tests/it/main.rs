//! rove-commands's integration tests, in one binary: `cargo test -p rove-commands --test it`.
//! `support` is their shared set-up; each other module holds the tests of
//! one concern. Those that launch no browser are under `fast`
//! (`scripts/test.sh --fast` runs them without Chromium); the rest drive
//! real Chromium.

mod canvas_and_code;
mod closed_shadow;
mod conformance;
mod data_wire;
mod desktop;
mod devtools;
mod dialogs_files;
mod emulation;
mod fast;
mod hang_faults;
mod hostile;
mod huge;
mod inspect;
mod locators;
mod long_diffs;
mod long_finds;
mod media;
mod miniwob;
mod mouse_forms;
mod navigation;
mod network;
mod observe;
mod patterns;
mod pdf;
mod pending;
mod pointer;
mod reactive;
mod slider_reruns;
mod solve;
mod state;
mod streams;
mod support;
mod trace;
mod trace_screencast;
mod truth;
