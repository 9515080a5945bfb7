//! The command line of the commands that stand beside the browser ones:
//! `print-config` and `trace`. Split from `cli.rs`
//! to keep each file short; `cli.rs` re-exports what it names.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::print_config::Harness;

#[derive(Debug, Args)]
pub struct PrintConfigArgs {
    /// The agent host.
    #[arg(long, value_enum)]
    pub harness: Harness,
    /// Register `rove mcp --http` (a server already running) by its URL and
    /// bearer token, instead of a command the host starts.
    #[arg(long)]
    pub http: bool,
    /// The server's port (with --http).
    #[arg(long, default_value_t = 7333, value_name = "PORT")]
    pub port: u16,
    /// The server's whole URL, instead of http://127.0.0.1:PORT/mcp (with
    /// --http).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The bearer token the server requires (with --http; default: a new
    /// one, and the command that starts the server with it).
    #[arg(long, env = "ROVE_MCP_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    #[command(flatten)]
    pub caps: crate::cli_tools::CapsArg,
}

/// `rove trace …`.
#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// Write a trace as one HTML page that opens offline: a timeline, each
    /// step expandable with its actions, results, errors and screenshot.
    #[command(
        after_help = "Examples:\n  rove run TASK --model openai:gpt-5-mini --trace run.trace\n  rove trace show run.trace -o run.html"
    )]
    Show(TraceShowArgs),
}

#[derive(Debug, Args)]
pub struct TraceShowArgs {
    /// The trace (rove run --trace FILE).
    pub file: PathBuf,
    /// Where to write the page (default: the trace's name with .html).
    #[arg(short = 'o', long = "out", value_name = "OUT.html")]
    pub out: Option<PathBuf>,
}
