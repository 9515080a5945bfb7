//! Each command's work, by group: `page` (navigation, views, reading,
//! waiting, screenshots, scripts, tabs and dialogs), `input` (actions on
//! elements and at coordinates), `devtools` (console, network, emulation,
//! PDF, element facts), `state` (cookies, storage, storage-state files)
//! and `desktop` (a native application as the target).
//! Each is an `impl Session` block that reaches the session only through
//! its methods; the dispatch is `session/dispatch.rs`.

pub(crate) mod desktop;
pub(crate) mod devtools;
pub(crate) mod input;
pub(crate) mod page;
pub(crate) mod state;
