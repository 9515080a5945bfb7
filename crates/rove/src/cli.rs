//! The command line, as clap sees it. Nothing below the binary knows clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  rove doctor                      check that rove can launch and drive Chromium
  rove open https://example.org    open a page and print its final URL and title
  rove open URL --stay             keep the browser open until Ctrl-C
  rove --cdp-url http://127.0.0.1:9222 doctor
                                   check a browser someone else started";

/// rove: a browser that AI agents can drive.
#[derive(Debug, Parser)]
#[command(name = "rove", version, about, after_help = EXAMPLES, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub global: GlobalArgs,
}

/// Flags accepted before or after the command name.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Print one JSON object instead of human-readable text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Show the browser window instead of running headless.
    #[arg(long, global = true)]
    pub headed: bool,
    /// Use a browser someone else started (http://host:port or ws://…).
    /// rove never closes a browser it did not start.
    #[arg(long, global = true, env = "ROVE_CDP_URL", value_name = "URL")]
    pub cdp_url: Option<String>,
    /// The browser executable (default: $ROVE_BROWSER, then chromium and
    /// Chrome on PATH and in the usual places).
    #[arg(long, global = true, value_name = "PATH")]
    pub browser: Option<PathBuf>,
    /// More log output on stderr (-v debug, -vv trace). RUST_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check the whole setup: find and launch the browser, load a page served
    /// on 127.0.0.1, run a round trip, close everything, and report each step
    /// with its time.
    #[command(
        after_help = "Examples:\n  rove doctor\n  rove doctor --json\n  ROVE_BROWSER=/opt/chrome/chrome rove doctor"
    )]
    Doctor,
    /// Open a page in a fresh browser and print where it ended up.
    #[command(
        after_help = "Examples:\n  rove open https://example.org\n  rove open http://127.0.0.1:8000 --stay\n  rove open https://example.org --json"
    )]
    Open(OpenArgs),
}

#[derive(Debug, Args)]
pub struct OpenArgs {
    /// The URL to open (a scheme-less address gets https://).
    pub url: String,
    /// Keep the browser open until interrupted (Ctrl-C or SIGTERM).
    #[arg(long)]
    pub stay: bool,
    /// Seconds to wait for the page to load.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    pub timeout: f64,
}
