//! `rove-browser`: launch or connect to Chromium, and give each rove session an
//! isolated browser context with its own tabs and focus.
//!
//! - [`Browser::launch`] finds Chromium ([`find_browser`]), starts it headless
//!   with a fresh temporary profile and guarantees no process or folder of it
//!   outlives rove (see the `process` module's three layers of defence).
//! - [`Browser::connect`] attaches to a browser someone else started, never
//!   kills it, and restores a lost connection with backoff.
//! - [`Browser::new_context`] gives a session its own [`BrowserContext`]; a
//!   [`Tab`] is one page target with a flattened CDP session.
//! - [`TargetRegistry`] follows the browser's targets through events.
//! - [`Browser::events`] is a subscription to what happens in the browser
//!   ([`BrowserEvent`]: navigations, dialogs, downloads, tabs, crashes, the
//!   link lost and restored), also logged under the `events` target.
//!
//! Layering: this crate sits on `rove-cdp` and knows nothing of page models,
//! refs, commands or agents.

// One unsafe block remains, allowed where it stands: the pre-exec hook
// that asks for the parent-death signal (std only offers it as unsafe).
#![deny(unsafe_code)]

mod activity;
mod browser;
mod console;
mod context;
mod counter;
mod discover;
mod emulation;
mod error;
mod events;
mod find;
mod launch;
mod main_frame;
mod network;
mod pending;
mod policy;
mod popups;
mod private;
mod process;
mod profile;
mod profile_lock;
mod registry;
mod ring;
mod rove_world;
mod streams;
mod tab;
mod watch;

pub use activity::{Activity, Awaited, GuardVerdict, Guarded, Mark, Settle, Where};
pub use browser::{Browser, ConnectOptions, ReconnectPolicy};
pub use console::{
    CONSOLE_CAP, CONSOLE_TEXT_MAX, ConsoleEntry, ConsoleLevel, ConsoleLog, ConsoleRead,
};
pub use context::{BrowserContext, TabInfo};
pub use counter::Counter;
pub use discover::resolve_cdp_url;
pub use emulation::{EmulationCall, Viewport};
pub use error::BrowserError;
pub use events::BrowserEvent;
pub use find::{BROWSER_ENV, BrowserSearch, find_browser, search_browser};
pub use launch::LaunchOptions;
pub use main_frame::LoadPhase;
pub use network::{
    NETWORK_CAP, NetEntry, NetLog, NetRead, NetState, RequestRule, RequestRules, RuleAction,
};
pub use pending::Overdue;
pub use policy::{CrashingPage, DomainPolicy, PolicyError, Refusal};
pub use private::{
    PrivateDirError, ensure_runtime_dir, ensure_runtime_subdir, runtime_dir, socket_path_max,
};
pub use process::{end_all_launched, processes_mentioning};
pub use registry::{TargetRecord, TargetRegistry};
pub use rove_world::ROVE_WORLD;
pub use streams::StreamState;
pub use tab::{Loaded, Tab, TabId};
pub use watch::{DialogInfo, FrameSession, TabWatch};
