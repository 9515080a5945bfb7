//! One home for each concern every layer of rove shares, at the bottom of
//! the stack (it imports nothing of rove, so any crate may use it):
//!
//! - [`text`]: page text made safe to show on one line (the one list of
//!   invisible and breaking characters), cutting text to a length, and
//!   HTML and XML escaping.
//! - [`redact`]: the one process-wide registry of what no log may show,
//!   the one placeholder, a secret's disguises, credentials in URLs.
//! - [`private`]: folders only this user can enter (0700, a planted link or
//!   another user's folder refused) and files only they can read (0600).
//! - [`url_pattern`]: the one URL pattern (a substring, or a glob of the
//!   whole URL) of `wait`'s `url` and the network rules.
//! - [`time`]: UTC dates from the calendar alone (a HAR file's times,
//!   AWS SigV4's date).
//! - [`limits`]: every deadline and interval of rove, as the timeout
//!   ladder, with a test that each outer deadline is wider than the ones
//!   inside it.

#![forbid(unsafe_code)]

pub mod child;
pub mod limits;
pub mod private;
pub mod redact;
pub mod text;
pub mod time;
pub mod url_pattern;
pub mod user_file;
