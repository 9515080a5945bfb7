//! The command line of the commands that stand beside the browser ones:
//! `print-config` (and the hosts it knows) and `trace`. Split from `cli.rs`
//! to keep each file short; `cli.rs` re-exports what it names.

use std::path::PathBuf;

use clap::{Args, Subcommand};

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
}

/// Agent hosts `print-config` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Harness {
    /// Claude Code (`.mcp.json`, or `claude mcp add`).
    ClaudeCode,
    /// Claude Desktop (`claude_desktop_config.json`).
    ClaudeDesktop,
    /// OpenAI Codex (`~/.codex/config.toml`).
    Codex,
    /// Cursor (`.cursor/mcp.json`).
    Cursor,
    /// VS Code (`.vscode/mcp.json`).
    #[value(alias = "vs-code")]
    Vscode,
    /// Windsurf (`~/.codeium/windsurf/mcp_config.json`).
    Windsurf,
    /// Gemini CLI (`~/.gemini/settings.json`).
    #[value(alias = "gemini-cli")]
    Gemini,
    /// opencode (`opencode.json`).
    Opencode,
    /// Any host that takes an `mcpServers` block.
    Generic,
}

impl Harness {
    /// The name as the flag takes it.
    pub fn name(self) -> &'static str {
        match self {
            Harness::ClaudeCode => "claude-code",
            Harness::ClaudeDesktop => "claude-desktop",
            Harness::Codex => "codex",
            Harness::Cursor => "cursor",
            Harness::Vscode => "vscode",
            Harness::Windsurf => "windsurf",
            Harness::Gemini => "gemini",
            Harness::Opencode => "opencode",
            Harness::Generic => "generic",
        }
    }
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
