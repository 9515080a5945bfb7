//! The arguments of the opt-in tools (capability groups other than `core`:
//! see `caps.rs`). Same rules as `args.rs`: field names are the argument
//! names everywhere, doc comments are what a model reads.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A console level, as `console` filters by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LevelArg {
    /// Everything.
    Debug,
    /// log and info.
    Info,
    /// Warnings and errors.
    Warning,
    /// Errors only.
    Error,
}

impl LevelArg {
    /// The least severe rank kept (see `rove_browser::ConsoleLevel::rank`).
    pub fn rank(self) -> u8 {
        match self {
            LevelArg::Debug => 0,
            LevelArg::Info => 1,
            LevelArg::Warning => 2,
            LevelArg::Error => 3,
        }
    }
}

/// `console`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConsoleArgs {
    /// Every message kept, not only those since the last call.
    #[serde(default)]
    pub all: bool,
    /// Only this level and worse.
    #[serde(default)]
    pub level: Option<LevelArg>,
}
