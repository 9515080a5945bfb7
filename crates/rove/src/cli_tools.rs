//! The command line of the opt-in tools (console, network, cookies,
//! storage, state): their clap arguments and how they become commands of
//! the vocabulary. The shell has every command whatever `--caps` says.

use clap::Args;
use rove_commands as rc;

#[derive(Debug, Args)]
pub struct ConsoleArgs {
    /// Every message kept, not only those since the last call.
    #[arg(long)]
    pub all: bool,
    /// Only this level and worse: debug, info, warning, error.
    #[arg(long, value_parser = ["debug", "info", "warning", "error"])]
    pub level: Option<String>,
}

/// `rove console`.
pub fn console(a: &ConsoleArgs) -> rc::Command {
    let level = a.level.as_deref().map(|l| match l {
        "debug" => rc::LevelArg::Debug,
        "warning" => rc::LevelArg::Warning,
        "error" => rc::LevelArg::Error,
        _ => rc::LevelArg::Info,
    });
    rc::Command::Console(rc::ConsoleArgs { all: a.all, level })
}
