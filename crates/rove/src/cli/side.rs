//! The command line of the commands that stand beside the browser ones:
//! `print-config` and `trace`, and `--caps` of `mcp`, `run` and
//! `print-config`. Split from `mod.rs` to keep each file short; `mod.rs`
//! re-exports what it names.

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// `--caps` of `rove mcp`, `rove run` and `rove print-config`.
#[derive(Debug, Clone, Copy, Args)]
pub struct CapsArg {
    /// Capability groups offered besides the core tools, comma-separated:
    /// devtools (console), network, state (cookies, storage), emulation
    /// (set), pdf, inspect (get), vision (mouse), forms (fill-form), or all.
    #[arg(long, value_name = "GROUPS")]
    pub caps: Option<rove_commands::Caps>,
}

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
    pub caps: CapsArg,
    /// Have the host run rove through uv, from a wheel or a package spec
    /// (`uvx --from SPEC rove mcp …`) instead of this binary's path: a
    /// wheel file (`dist/rove-0.1.0-….whl`), a folder, or `rove` once it is
    /// on an index.
    #[arg(long, value_name = "SPEC", conflicts_with = "http")]
    pub uvx: Option<String>,
}

/// `rove trace …`.
#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// Write a trace as one HTML page that opens offline: a timeline, each
    /// step (of rove run) or command (of rove --trace, trace start, mcp
    /// --trace) expandable with its arguments, results, errors, time split
    /// and screenshots.
    #[command(
        after_help = "Examples:\n  rove run TASK --model openai:gpt-5-mini --trace run.trace\n  rove trace show run.trace -o run.html\n  rove --trace click.trace click e7\n  rove trace show click.trace"
    )]
    Show(TraceShowArgs),
    /// Make an animated GIF of a trace: a frame per step of rove run (the
    /// page after it, the task and the step's goal written on it, the final
    /// answer last), or the screencast of a trace of commands (else each
    /// command's screenshot). An existing FILE is replaced.
    #[command(
        after_help = "Examples:\n  rove trace export run.trace --gif run.gif\n  rove trace export work.trace --gif work.gif"
    )]
    Export(TraceExportArgs),
    /// Record every command of the session in FILE (one JSON line each:
    /// arguments, answer or error, the time split, console messages and
    /// requests, screenshots with --screenshots) until `rove trace stop`
    /// or the session ends. An existing FILE is replaced.
    #[command(
        after_help = "Examples:\n  rove trace start work.trace\n  rove --session shop trace start shop.trace --screenshots\n  rove trace start work.trace --screencast\n  rove trace stop\n  rove trace show work.trace"
    )]
    Start(TraceStartArgs),
    /// Stop the session's trace and close its file.
    Stop,
}

#[derive(Debug, Args)]
pub struct TraceStartArgs {
    /// The trace file (created owner-only; an existing one is replaced).
    pub file: PathBuf,
    /// A small screenshot before and after each acting command (within a
    /// budget of 5 MiB per trace; later ones are named as left out).
    #[arg(long)]
    pub screenshots: bool,
    /// The page's screencast: a frame whenever the focused tab repaints,
    /// at most 5 a second, scaled to 1024 px, secrets painted out; at most
    /// 3,000 frames or 64 MiB per trace, then frames are dropped with a
    /// note.
    #[arg(long)]
    pub screencast: bool,
}

/// `rove --trace FILE <command>`: a trace of one session command.
#[derive(Debug, Clone, Args)]
pub struct CommandTraceArgs {
    /// Record the command in a trace file (given before the command name;
    /// `rove trace show FILE` reads it). An existing FILE is replaced.
    #[arg(long = "trace", value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// With --trace: a screenshot before and after an acting command.
    #[arg(long = "trace-screenshots", requires = "trace")]
    pub trace_screenshots: bool,
}

#[derive(Debug, Args)]
pub struct TraceExportArgs {
    /// The trace (rove run --trace, rove trace start, a rove test attempt's).
    pub file: PathBuf,
    /// Write an animated GIF here.
    #[arg(long, value_name = "OUT.gif", required_unless_present = "webm")]
    pub gif: Option<PathBuf>,
    /// WebM: refused, with the reason (no well-kept encoder without a
    /// system codec); use --gif.
    #[arg(long, value_name = "OUT.webm", conflicts_with = "gif")]
    pub webm: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct TraceShowArgs {
    /// The trace (rove run --trace, rove --trace, rove trace start).
    pub file: PathBuf,
    /// Where to write the page (default: the trace's name with .html).
    #[arg(short = 'o', long = "out", value_name = "OUT.html")]
    pub out: Option<PathBuf>,
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
    /// Google Antigravity, the IDE and the `agy` CLI
    /// (`~/.gemini/config/mcp_config.json`).
    #[value(alias = "antigravity")]
    Agy,
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
            Harness::Agy => "agy",
            Harness::Generic => "generic",
        }
    }
}
