//! What a command is: the one list of commands (`command.rs`), their
//! argument types, the capability groups that offer them to a model, and
//! the tool catalog derived from them. Plain data and schemas: nothing here
//! runs a command or knows a session.

mod args;
mod args_pointer;
mod args_tools;
pub(crate) mod caps;
pub(crate) mod catalog;
mod command;
pub(crate) mod entry;
mod schema;

pub use args::*;
pub use args_pointer::*;
pub use args_tools::*;
pub use caps::{Capability, Caps, UnknownCapability};
pub use catalog::{Annotations, ToolDescription, tool, tools, tools_within};
pub use command::Command;
