//! The opt-in tools of a developer's browser: `console`, `network` (with
//! HAR export), `set` (emulation), `pdf` and `get`.

pub(crate) mod console;
pub(crate) mod emulate;
pub(crate) mod har;
pub(crate) mod inspect;
pub(crate) mod network;
pub(crate) mod pdf;
