//! Session commands typed at the shell: the words turned into a command of
//! the vocabulary (`call.rs`), the hint for a mistyped one (`hint.rs`),
//! and the command sent to the session's daemon, its answer printed
//! (`remote.rs`).

pub(crate) mod call;
#[cfg(test)]
mod call_tests;
pub(crate) mod hint;
pub(crate) mod remote;
