//! The command line, as clap sees it. Nothing below the binary knows clap.
//!
//! The binary's own commands (doctor, run, mcp …) are declared here; the
//! session commands are built from the vocabulary's entries
//! (`vocabulary.rs`), so a command of the vocabulary has no clap
//! struct of its own.

pub(crate) mod agent;
pub(crate) mod cdp;
#[cfg(test)]
mod check;
pub(crate) mod global;
pub(crate) mod manual;
pub(crate) mod redacted;
pub(crate) mod seconds;
pub(crate) mod side;
pub(crate) mod vocabulary;

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, FromArgMatches, Parser, Subcommand};

pub use crate::cli::agent::{ReplayArgs, RunArgs, TestArgs};
pub use crate::cli::global::GlobalArgs;
use crate::cli::redacted::Redacted;
pub use crate::cli::side::PrintConfigArgs;
use crate::cli::vocabulary::{ShellName, Spelled};

const EXAMPLES: &str = "\
Examples:
  rove open https://example.org    open a page (a session daemon keeps the browser)
  rove snapshot -i                 what can be acted on, with refs
  rove click e7                    click by ref; prints what changed
  rove click 'role=button[name=\"Save\"]'
                                   or aim by css=…, role=…, text=… (resolved to a ref)
  rove fill e3 'ada@example.org' --submit
  rove find 'Sign in'              refs matching a text, with context
  rove --session work open URL     a second, isolated session
  rove close                       end the session and its browser
  rove doctor                      check that rove can launch and drive Chromium
  rove --cdp-url http://127.0.0.1:9222 doctor
                                   check a browser someone else started";

/// rove: a browser that AI agents can drive. The top of the command line:
/// its name, version and global options; the commands are added by
/// [`defined`], so a start builds only those it needs.
#[derive(Debug, Parser)]
#[command(
    name = "rove",
    version,
    about,
    after_help = EXAMPLES,
    propagate_version = true,
    subcommand_required = true,
    arg_required_else_help = true
)]
struct Definition {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(flatten)]
    trace: crate::cli::side::CommandTraceArgs,
}

/// A parsed command line.
#[derive(Debug)]
pub struct Cli {
    pub command: Invocation,
    pub global: GlobalArgs,
    pub trace: crate::cli::side::CommandTraceArgs,
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Invocation {
    /// A command of the binary's own (boxed: `run` and `test` take many
    /// options).
    Own(Box<Command>),
    /// A command of the vocabulary, as typed; `shell_call::call` reads it.
    Session(Typed),
}

/// A session command as typed: its name and the words and flags after it.
#[derive(Debug)]
pub struct Typed {
    pub name: ShellName,
    pub matches: clap::ArgMatches,
}

impl Cli {
    /// Parses `args` (the program's name first).
    #[cfg(test)]
    pub fn try_parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        Cli::from_matches(&matches_of(&args)?)
    }

    fn from_matches(matches: &clap::ArgMatches) -> Result<Cli, clap::Error> {
        let command = match matches.subcommand() {
            Some((name, sub)) => match crate::cli::vocabulary::named(name) {
                Some(name) => Invocation::Session(Typed {
                    name,
                    matches: sub.clone(),
                }),
                None => Invocation::Own(Box::new(Command::from_arg_matches(matches)?)),
            },
            None => Invocation::Own(Box::new(Command::from_arg_matches(matches)?)),
        };
        let mut global = GlobalArgs::from_arg_matches(matches)?;
        global.session_named = session_named(matches);
        Ok(Cli {
            command,
            global,
            trace: crate::cli::side::CommandTraceArgs::from_arg_matches(matches)?,
        })
    }
}

/// The command line's definition: the global options are accepted after
/// every command name too, but shown only in `rove --help`, so a command's
/// help is about that command.
pub fn command() -> clap::Command {
    defined(true, Spelled::All)
}

/// The command line's definition, with the binary's `own` commands or not,
/// and the session commands `spelled`.
fn defined(own: bool, spelled: Spelled) -> clap::Command {
    use clap::{CommandFactory, Subcommand};
    let top = Definition::command();
    let top = match (own, top.get_about().cloned()) {
        // The enum's doc comment would become rove's summary.
        (true, Some(about)) => Command::augment_subcommands(top).about(about),
        (true, None) => Command::augment_subcommands(top),
        (false, _) => top,
    };
    let session = crate::cli::vocabulary::subcommands(spelled);
    // doctor first, then the session commands, then the rest of rove's.
    let order: Vec<String> = std::iter::once("doctor".to_owned())
        .chain(session.iter().map(|c| c.get_name().to_owned()))
        .chain(top.get_subcommands().map(|c| c.get_name().to_owned()))
        .collect();
    let top = top.subcommands(session).mut_subcommands(|sub| {
        let at = order.iter().position(|n| n == sub.get_name());
        sub.display_order(at.unwrap_or(order.len()))
    });
    let globals: Vec<clap::Arg> = top
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    top.mut_subcommands(|sub| {
        let note = match sub.get_name() {
            // They never touch a named session: saying --session applies
            // would contradict "a fresh session".
            "run" | "replay" | "test" => "It starts a browser of its own (or, with --cdp-url, a new context in that browser) and a fresh session that ends with it: --session and --idle do not apply. The other global options (--json, --headed, --browser, the domain and viewport options …) can follow the command too: see rove --help.",
            _ => "Global options (--session, --json, --headed, --idle …) can follow the command too: see rove --help.",
        };
        let after = match sub.get_after_help() {
            Some(text) => format!("{text}\n\n{note}"),
            None => note.to_owned(),
        };
        // A command that has the argument already would not get the global
        // one; a hidden copy keeps the same id, so its value still reaches
        // the global flags.
        globals
            .iter()
            .fold(sub, |sub, arg| sub.arg(arg.clone().hide(true)))
            .after_help(after)
    })
}

/// What clap reads in `args` (the program's name first). Building every
/// command's arguments took most of a start, so a first pass with the
/// global options only learns which command was typed, and a session
/// command is then read by a definition that holds it alone, one of the
/// binary's own by one without the session commands. Anything else (help,
/// an error in either pass) is read by the full definition, so its
/// messages and suggestions are the same as ever.
fn matches_of(args: &[OsString]) -> Result<clap::ArgMatches, clap::Error> {
    use clap::error::ErrorKind;
    let first = defined(false, Spelled::None)
        .allow_external_subcommands(true)
        .try_get_matches_from(args);
    let typed = match &first {
        Ok(matches) => matches.subcommand_name(),
        Err(e) if e.kind() == ErrorKind::DisplayVersion => return first,
        Err(_) => None,
    };
    // A session command alone, or the binary's own commands without the
    // session ones (`rove call`, how the Python package calls rove, is one
    // of them: its start is every call's).
    let lean = typed.map(|typed| match crate::cli::vocabulary::named(typed) {
        Some(_) => defined(false, Spelled::Only(typed)),
        None => defined(true, Spelled::None),
    });
    if let Some(Ok(matches)) = lean.map(|lean| lean.try_get_matches_from(args)) {
        return Ok(matches);
    }
    command().try_get_matches_from(args)
}

/// Parses the process's arguments (exiting with clap's usage error or help).
pub fn parse() -> Cli {
    let args: Vec<OsString> = std::env::args_os().collect();
    let matches = matches_of(&args).unwrap_or_else(|e| e.exit());
    let mut cli = Cli::from_matches(&matches).unwrap_or_else(|e| e.exit());
    cli.global.cdp_urls = crate::cli::cdp::cdp_urls(&matches, std::env::args_os().skip(1));
    cli.global.cdp_headers = crate::cli::cdp::cdp_headers(&matches);
    // The first given is the one browser of every command but rove test.
    cli.global.cdp_url = cli.global.cdp_urls.first().cloned();
    cli
}

/// Whether the session was named (by `--session`, before or after the
/// command name, or `ROVE_SESSION`) rather than left to the default.
pub fn session_named(matches: &clap::ArgMatches) -> bool {
    use clap::parser::ValueSource;
    let named = |m: &clap::ArgMatches| {
        matches!(
            m.value_source("session"),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        )
    };
    named(matches) || matches.subcommand().is_some_and(|(_, sub)| named(sub))
}

/// The binary's own commands; the session commands come from the
/// vocabulary.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check the whole setup: find and launch the browser, load a page served
    /// on 127.0.0.1, run a round trip, close everything, and report each step
    /// with its time.
    #[command(
        after_help = "Examples:\n  rove doctor\n  rove doctor --json\n  ROVE_BROWSER=/opt/chrome/chrome rove doctor"
    )]
    Doctor,
    /// Run a task with a model driving a fresh session: a line per step,
    /// the answer and totals at the end. A model error or a step past its
    /// deadline is one failed step (shown as `failure k/N` on stderr); the
    /// run ends after --max-failures in a row, or at once when the browser
    /// is gone. The history (--history) is written however the run ends,
    /// Ctrl-C included. With --judge-model a second model judges the run;
    /// its verdict is shown beside the agent's report. Exits 0 only on a
    /// reported success (the agent's).
    #[command(
        after_help = "Examples:\n  OPENAI_API_KEY=… rove run 'Find the price of the cheapest plan' --model openai:gpt-5-mini --start-url https://example.com/pricing\n  rove run 'Log in and read the first message' --model ollama:qwen3:8b --start-url localhost:8000 --history run.json\n  rove run TASK --model anthropic:claude-sonnet-4-5 --fallback-model openai:gpt-5-mini\n  rove run TASK --model openai:qwen3 --base-url http://gpu1:8000/v1 --fallback-model openai:qwen3 --fallback-base-url http://gpu2:8000/v1\n  rove run TASK --model openai:gpt-5-mini --max-steps 50 --max-failures 3 --step-timeout 90\n  rove run TASK --model openai:gpt-5-mini --judge-model anthropic:claude-sonnet-4-5 --history run.json"
    )]
    Run(RunArgs),
    /// Repeat a recorded run (rove run --history) without a model, finding
    /// each target again by role and name when refs differ.
    #[command(
        after_help = "Examples:\n  rove replay run.json\n  rove replay run.json --start-url http://127.0.0.1:8000/login --secret PASSWORD=…"
    )]
    Replay(ReplayArgs),
    /// Run YAML task suites with a model: each attempt in a browser context
    /// of its own, several at once; checks on real side effects afterwards;
    /// pass rates with 95 % intervals; with --judge-model a second model
    /// must also say pass. Exits 0 only when every task meets its
    /// threshold and the suite --min-pass-rate.
    #[command(
        after_help = "Examples:\n  rove test tasks/ --model openai:gpt-5-mini -j 4 --out results\n  rove test smoke.yaml --model anthropic:claude-sonnet-4-5 --repeat 5 --junit junit.xml\n  rove test tasks/ --model openai:gpt-5-mini --judge-model anthropic:claude-sonnet-4-5 --out results\n  rove test tasks/ --model openai:gpt-5-mini --out results --traces all --trace-screenshots\n  rove test tasks/ --model openai:gpt-5-mini --shard 2/4 --tags smoke --min-pass-rate 0.9\n  rove test tasks/ --model openai:gpt-5-mini -j 32 --cdp-url http://chrome-1:9222 --cdp-url http://chrome-2:9222\n  rove test --compare before/results.json after/results.json\nTask files: docs/eval.md"
    )]
    Test(TestArgs),
    /// Serve MCP: the commands as tools, one session per client. Over
    /// stdio, or with --http over streamable HTTP on 127.0.0.1 with a bearer
    /// token.
    #[command(
        after_help = "Examples:\n  rove mcp\n  claude mcp add rove -- /usr/local/bin/rove mcp\n  rove mcp --caps network,state         also the network, cookie and storage tools\n  rove mcp --http --port 7333           prints the URL and a new token\n  ROVE_MCP_TOKEN=secret rove mcp --http"
    )]
    Mcp(McpArgs),
    /// Print the file content that registers rove's MCP server with an agent
    /// host (stdout: the file, ready to redirect; stderr: where it goes).
    /// The global options given are carried into the command the host runs.
    #[command(
        after_help = "Examples:\n  rove print-config --harness cursor > .cursor/mcp.json\n  rove --session work --headed print-config --harness codex >> ~/.codex/config.toml\n  rove print-config --harness claude-code      (stderr also gives the claude mcp add form)\n  rove print-config --harness vscode --http --port 7333 --token TOKEN\n  rove print-config --harness cursor --caps all\n  rove print-config --harness agy --uvx dist/rove-0.1.0-py3-none-manylinux_2_34_x86_64.whl"
    )]
    PrintConfig(PrintConfigArgs),
    /// Traces: start and stop the session's, or read one as a page.
    #[command(subcommand)]
    Trace(crate::cli::side::TraceCommand),
    /// Print a SKILL.md that teaches an agent to use rove from the shell:
    /// observe, act by ref, read errors, sessions, exit statuses.
    #[command(
        after_help = "Examples:\n  rove skill > ~/.claude/skills/rove/SKILL.md\n  rove skill | less"
    )]
    Skill,
    /// Serve the offline demo shop on 127.0.0.1 (accounts, catalogue, cart,
    /// checkout, orders, downloads, a popup, dialogs; its state in memory)
    /// for trying `rove test` on examples/demo-tasks. Prints its URL, then
    /// runs until interrupted.
    #[command(
        after_help = "Examples:\n  rove demo-site\n  rove demo-site --port 8480 &\n  ROVE_DEMO_URL=http://127.0.0.1:8480 ROVE_DEMO_PASSWORD=demo-pass rove test examples/demo-tasks --model openai:gpt-5-mini -j 4 --out results"
    )]
    DemoSite(DemoSiteArgs),
    /// Print the completion script of a shell for every command and option
    /// of rove (bash, zsh, fish, elvish, powershell).
    #[command(
        after_help = "Examples:\n  rove completions bash > ~/.local/share/bash-completion/completions/rove\n  rove completions zsh > ~/.zfunc/_rove        (with fpath+=~/.zfunc before compinit)\n  rove completions fish > ~/.config/fish/completions/rove.fish"
    )]
    Completions(CompletionsArgs),
    /// Print rove's manual page (roff), or one command's (rove-open(1)).
    #[command(
        after_help = "Examples:\n  rove man | man -l -\n  rove man open | man -l -\n  rove man > ~/.local/share/man/man1/rove.1"
    )]
    Man(ManArgs),
    /// One session command as a tool call: the tool's name and its
    /// arguments as one JSON object, as MCP sends them (how the Python
    /// package calls rove: nothing is spelled twice).
    #[command(name = "call", hide = true)]
    Call(CallArgs),
    /// Run a session daemon in the foreground (started for you by the other
    /// commands).
    #[command(name = "__daemon", hide = true)]
    Daemon(DaemonArgs),
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A command whose own page to print (default: rove(1), which lists
    /// them all).
    pub command: Option<String>,
}

#[derive(Debug, Args)]
pub struct CallArgs {
    /// The tool: a session command's name (`open`, `click`, `eval` …).
    pub tool: String,
    /// Its arguments as one JSON object (default: none).
    pub arguments: Option<String>,
}

#[derive(Debug, Args)]
pub struct DaemonArgs {
    /// Read the global options as one JSON value on stdin (how a command
    /// that starts the daemon hands them over) instead of from the flags.
    #[arg(long)]
    pub options_on_stdin: bool,
}

#[derive(Debug, Args)]
pub struct DemoSiteArgs {
    /// The port on 127.0.0.1 (default: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
}

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve streamable HTTP on 127.0.0.1 instead of stdio.
    #[arg(long)]
    pub http: bool,
    #[command(flatten)]
    pub caps: crate::cli::side::CapsArg,

    /// The port for --http (0: any free port).
    #[arg(long, default_value_t = 7333, requires = "http")]
    pub port: u16,
    /// The bearer token clients must send (default: a new random one,
    /// printed at start).
    #[arg(
        long,
        env = "ROVE_MCP_TOKEN",
        hide_env_values = true,
        requires = "http"
    )]
    pub token: Option<Redacted>,
    /// Record every tool call in a trace file (an existing one is
    /// replaced; `rove trace show FILE` reads it).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// With --trace: a screenshot before and after an acting tool call.
    #[arg(long, requires = "trace")]
    pub trace_screenshots: bool,
}
