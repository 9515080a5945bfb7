//! `rove-testkit`: what the integration tests of several rove crates need
//! alike, written once. Only ever a dev-dependency: no library crate of rove
//! depends on it, and it may depend on any of them.
//!
//! - [`launch`]: the system Chromium, launched by rove; a test fails (never
//!   skips) when it is missing. [`External`]: one started by the test, as a
//!   user would, and [`Proxy`], a TCP hop in front of it that can be cut.
//! - [`Farm`]: a stand-in for a farm's front door; [`Browserless`]: the real
//!   open-source farm; [`TlsFront`]: TLS with the test CA before either.
//! - [`fixture_routes`], [`scratch_dir`]: fixture pages from a folder, and a
//!   fresh folder per test; [`challenge_routes`]: captcha widgets offline.
//! - [`pid_alive`], [`gone_within`], [`kill`], [`lock_is_held`],
//!   [`take_lock`]: watching and ending processes, and a session's `flock`.
//! - [`find`], [`find_exact`], [`events`]: refs found the way an agent finds
//!   them, and what a fixture recorded.
#![forbid(unsafe_code)]

mod browser;
mod browserless;
mod challenges;
mod farm;
mod files;
mod page;
mod process;
mod proxy;

pub use browser::{External, launch};
pub use browserless::{Browserless, BrowserlessLimits, farm_install_dir};
pub use challenges::{CLEARANCE, challenge_routes};
pub use farm::{Farm, FarmLimits, Seen, TlsFront, test_ca_file};
pub use files::{fixture_routes, scratch_dir};
pub use page::{events, find, find_exact};
pub use process::{gone_within, kill, lock_is_held, pid_alive, take_lock};
pub use proxy::Proxy;
