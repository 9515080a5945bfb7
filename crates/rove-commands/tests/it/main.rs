//! rove-commands's integration tests, one binary (`cargo test -p rove-commands --test it`):
//! each module is one former test file, `support` their shared set-up.

mod catalog;
mod closed_shadow;
mod conformance;
mod devtools;
mod dialogs_files;
mod emulation;
mod hang_faults;
mod hostile;
mod inspect;
mod locators;
mod media;
mod miniwob;
mod mouse_forms;
mod navigation;
mod network;
mod observe;
mod patterns;
mod pdf;
mod pointer;
mod state;
mod support;
mod trace;
mod truth;
