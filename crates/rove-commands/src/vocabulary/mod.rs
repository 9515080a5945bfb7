//! What a command is: the one list of commands (`command.rs`), each entry's
//! properties (`entry.rs`) and shell spelling (`shell.rs`, the
//! `spelling_*.rs` files), their argument types, the capability groups that
//! offer them to a model, the tool catalog derived from them, and
//! docs/commands.md's reference written from them (`docs.rs`). Plain data
//! and schemas: nothing here runs a command or knows a session.

mod args;
mod args_pointer;
mod args_tools;
pub(crate) mod caps;
pub(crate) mod catalog;
mod command;
pub mod docs;
pub(crate) mod entry;
mod schema;
pub mod shell;
mod spelling_input;
mod spelling_page_tools;
mod spelling_pages;
mod spelling_tools;

pub use args::*;
pub use args_pointer::*;
pub use args_tools::*;
pub use caps::{Capability, Caps, UnknownCapability};
pub use catalog::{
    Annotations, ToolDescription, entries, entry, parameters, tool, tools, tools_within,
};
pub use command::Command;
pub use entry::{Deadline, Effect, Entry, When, WorksOn};
