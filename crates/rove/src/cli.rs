//! The command line, as clap sees it. Nothing below the binary knows clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub use crate::cli_agent::{ReplayArgs, RunArgs, TestArgs};
pub use crate::cli_side::PrintConfigArgs;
use crate::redacted::Redacted;

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

/// rove: a browser that AI agents can drive.
#[derive(Debug, Parser)]
#[command(name = "rove", version, about, after_help = EXAMPLES, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(flatten)]
    pub trace: crate::cli_side::CommandTraceArgs,
}

/// Flags accepted before or after the command name. `rove --help` lists
/// them once; each command's help leaves them out (see [`command`]).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Global options (before or after the command)")]
pub struct GlobalArgs {
    /// Print one JSON object instead of human-readable text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Show the browser window instead of running headless.
    #[arg(long, global = true)]
    pub headed: bool,
    /// Use a browser someone else started (http://host:port or ws://…).
    /// rove never closes a browser it did not start. `rove test` takes it
    /// repeated, for a pool of browsers; other commands take one.
    #[arg(
        long,
        global = true,
        env = "ROVE_CDP_URL",
        value_name = "URL",
        action = clap::ArgAction::Append
    )]
    pub cdp_url: Option<String>,
    /// Every `--cdp-url` given, in order (`cdp_url` is the first): filled
    /// in by [`parse`], since clap hands a derived `Option` only one.
    #[arg(skip)]
    pub cdp_urls: Vec<String>,
    /// The browser executable (default: $ROVE_BROWSER, then chromium and
    /// Chrome on PATH and in the usual places).
    #[arg(long, global = true, value_name = "PATH")]
    pub browser: Option<PathBuf>,
    /// More log output on stderr (-v debug, -vv trace). RUST_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// The session: its own daemon, browser context, tabs and refs.
    #[arg(
        long,
        global = true,
        env = "ROVE_SESSION",
        default_value = "default",
        value_name = "NAME"
    )]
    pub session: String,
    /// Seconds a session's daemon waits for a command before it exits
    /// (applies when the daemon starts).
    #[arg(
        long,
        global = true,
        env = "ROVE_IDLE",
        default_value_t = DEFAULT_IDLE,
        value_name = "SECONDS"
    )]
    pub idle: u64,
    /// Only load pages from these hosts (comma-separated: `example.com` and
    /// its subdomains, `*.example.com`, `localhost:8080`, `*` for any) and
    /// these schemes besides http(s) (`file:`). Without it: any http(s)
    /// host; `file:`, `chrome:` and other schemes are refused. Navigations,
    /// redirects, iframes and popups outside are refused. Fixed when a
    /// session starts.
    #[arg(
        long,
        global = true,
        env = "ROVE_ALLOWED_DOMAINS",
        value_delimiter = ',',
        value_name = "DOMAINS"
    )]
    pub allowed_domains: Option<Vec<String>>,
    /// Never load pages from these hosts (same patterns), even when allowed.
    #[arg(
        long,
        global = true,
        env = "ROVE_BLOCKED_DOMAINS",
        value_delimiter = ',',
        value_name = "DOMAINS"
    )]
    pub blocked_domains: Vec<String>,
    /// The size of the session's tabs, WIDTHxHEIGHT in CSS pixels (fixed
    /// when a session starts).
    #[arg(
        long,
        global = true,
        env = "ROVE_VIEWPORT",
        default_value = "1280x720",
        value_name = "WxH"
    )]
    pub viewport: rove_browser::Viewport,
    /// A folder uploads may also come from (repeatable). Always allowed:
    /// rove's own upload folder and, for a command typed in a shell, the
    /// folder it runs in (unless that is / or your home folder).
    #[arg(long = "upload-root", global = true, value_name = "DIR")]
    pub upload_roots: Vec<PathBuf>,
    /// Start the session with these cookies and local storage
    /// (Playwright's storage-state JSON, as `rove state save` writes it).
    /// Applies when a session starts.
    #[arg(long, global = true, env = "ROVE_STORAGE_STATE", value_name = "FILE")]
    pub storage_state: Option<PathBuf>,
    /// Launch the browser on this profile folder (made if missing) and keep
    /// it: cookies and storage stay between runs. Refused while another
    /// browser uses it. Applies when a browser starts.
    #[arg(long, global = true, env = "ROVE_PROFILE", value_name = "DIR")]
    pub profile: Option<PathBuf>,
}

/// Seconds a session's daemon waits for a command, unless told otherwise.
pub const DEFAULT_IDLE: u64 = rove_base::limits::IDLE.as_secs();

impl GlobalArgs {
    /// Whether a session was named (by `--session` or `ROVE_SESSION`), not
    /// left to the default: `rove mcp` shares a named session with the
    /// shell, and gives each client its own otherwise.
    pub fn session_named(&self) -> bool {
        std::env::var_os("ROVE_SESSION").is_some()
            || std::env::args().any(|a| a == "--session" || a.starts_with("--session="))
    }

    /// The domain policy the flags ask for.
    pub fn policy(&self) -> Result<rove_browser::DomainPolicy, rove_browser::PolicyError> {
        rove_browser::DomainPolicy::from_lists(
            self.allowed_domains.as_deref(),
            &self.blocked_domains,
        )
    }

    /// Whether the policy was given (by a flag or the environment), rather
    /// than left to the session.
    pub fn policy_given(&self) -> bool {
        self.allowed_domains.is_some() || !self.blocked_domains.is_empty()
    }

    /// A session's settings from the flags: its domain policy and upload
    /// roots (made absolute from the folder rove runs in).
    pub fn session_config(
        &self,
    ) -> Result<rove_commands::SessionConfig, rove_browser::PolicyError> {
        let cwd = std::env::current_dir().unwrap_or_default();
        Ok(rove_commands::SessionConfig {
            policy: self.policy()?,
            viewport: Some(self.viewport),
            upload_roots: self.upload_roots.iter().map(|r| cwd.join(r)).collect(),
            storage_state: self.storage_state.as_ref().map(|f| cwd.join(f)),
            ..rove_commands::SessionConfig::default()
        })
    }
}

/// The command line's definition: the global options are accepted after
/// every command name too, but shown only in `rove --help`, so a command's
/// help is about that command.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let top = Cli::command();
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

/// Parses the process's arguments (exiting with clap's usage error or help).
pub fn parse() -> Cli {
    use clap::FromArgMatches;
    let matches = command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    cli.global.cdp_urls = crate::cli_cdp::cdp_urls(&matches, std::env::args_os().skip(1));
    // The first given is the one browser of every command but rove test.
    cli.global.cdp_url = cli.global.cdp_urls.first().cloned();
    cli
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
    /// Open a page in the session (starting its daemon and browser when
    /// needed) and print its view.
    #[command(
        after_help = "Examples:\n  rove open https://example.org\n  rove open localhost:8000 --new-tab\n  rove open https://example.org --json\n  rove open URL --stay     no daemon: this process keeps the browser until Ctrl-C"
    )]
    Open(OpenArgs),
    /// The page as the agent reads it: roles, names, values and refs.
    #[command(
        after_help = "Examples:\n  rove snapshot\n  rove snapshot -i\n  rove snapshot --diff\n  rove snapshot --scope e12\n  rove snapshot --after e240"
    )]
    Snapshot(SnapshotArgs),
    /// Refs of the elements whose name, value or text contains TEXT.
    #[command(after_help = "Examples:\n  rove find 'Sign in'\n  rove find Next --role link")]
    Find(FindArgs),
    /// Click an element (or, with --at, a point of the viewport).
    #[command(
        after_help = "Examples:\n  rove click e7\n  rove click @e7 --button right\n  rove click e7 --modifiers Control,Shift\n  rove click --at 120 45   CSS pixels of the viewport (as rove mouse click 120 45)"
    )]
    Click(ClickArgs),
    /// Double-click an element.
    #[command(after_help = "Examples:\n  rove dblclick e7")]
    Dblclick(RefArg),
    /// Move the pointer over an element.
    #[command(after_help = "Examples:\n  rove hover e4")]
    Hover(RefArg),
    /// Type text at the end of a field, one real key press per character
    /// (with --focused, into whatever has the focus).
    #[command(
        after_help = "Examples:\n  rove type e3 hello\n  rove type e3 'slow typist' --delay 50\n  rove type --focused 'rename notebook'   into the field a widget focused itself"
    )]
    Type(TypeArgs),
    /// Replace a field's value.
    #[command(
        after_help = "Examples:\n  rove fill e3 ada@example.org\n  rove fill e5 secret --submit"
    )]
    Fill(FillArgs),
    /// Press a key chord on the focused element (or on REF).
    #[command(
        after_help = "Examples:\n  rove press Enter\n  rove press Control+A --ref e3\n  rove press Shift+Tab"
    )]
    Press(PressArgs),
    /// Choose options of a select, listbox or combobox.
    #[command(
        after_help = "Examples:\n  rove select e9 Peru\n  rove select e9 red green   (a multiple select)"
    )]
    Select(SelectArgs),
    /// Check a checkbox, switch or radio.
    #[command(after_help = "Examples:\n  rove check e4")]
    Check(RefArg),
    /// Uncheck a checkbox or switch.
    #[command(after_help = "Examples:\n  rove uncheck e4")]
    Uncheck(RefArg),
    /// Scroll the page or an element, or bring an element into view.
    #[command(
        after_help = "Examples:\n  rove scroll down\n  rove scroll up 300\n  rove scroll e12          bring e12 into view\n  rove scroll e12 down     scroll inside e12"
    )]
    Scroll(ScrollArgs),
    /// Drag one element onto another.
    #[command(after_help = "Examples:\n  rove drag e4 e9")]
    Drag(DragArgs),
    /// Pointer input at coordinates of the viewport: move, press and hold,
    /// release, click, turn the wheel.
    #[command(after_help = crate::cli_pointer::MOUSE_EXAMPLES)]
    Mouse(crate::cli_pointer::MouseArgs),
    /// Fill several fields in one call, in order, stopping at the first
    /// that fails.
    #[command(after_help = crate::cli_pointer::FILL_FORM_EXAMPLES)]
    FillForm(crate::cli_pointer::FillFormArgs),
    /// Give files to a file input, or to the chooser an element opens.
    #[command(after_help = "Examples:\n  rove upload e6 ./photo.jpg\n  rove upload e6 a.pdf b.pdf")]
    Upload(UploadArgs),
    /// Answer the JavaScript dialog that blocks the page.
    #[command(
        after_help = "Examples:\n  rove dialog accept\n  rove dialog dismiss\n  rove dialog accept 'my answer'   (a prompt)"
    )]
    Dialog(DialogArgs),
    /// List, open, switch to or close tabs.
    #[command(
        after_help = "Examples:\n  rove tab\n  rove tab new https://example.org\n  rove tab switch t2\n  rove tab close t2"
    )]
    Tab(TabArgs),
    /// Save a screenshot (PNG, or JPEG with --jpeg).
    #[command(
        after_help = "Examples:\n  rove screenshot\n  rove screenshot page.png --full\n  rove screenshot --ref e5 card.png"
    )]
    Screenshot(ScreenshotArgs),
    /// The page (or an element) as markdown.
    #[command(after_help = "Examples:\n  rove read\n  rove read --ref e20")]
    Read(ReadArgs),
    /// Wait for text, a URL, a load state, or a time.
    #[command(
        after_help = "Examples:\n  rove wait --text 'Saved'\n  rove wait --gone 'Loading'\n  rove wait --url '*/done'\n  rove wait --load networkidle\n  rove wait 500"
    )]
    Wait(WaitArgs),
    /// Run JavaScript in the page and print the result as JSON.
    #[command(
        after_help = "Examples:\n  rove eval 'document.title'\n  rove eval '() => location.href'\n  rove eval '(el) => el.value' --ref e3"
    )]
    Eval(EvalArgs),
    /// What the page logged: console messages and uncaught errors with
    /// their stacks, since the last call (or all kept).
    #[command(after_help = crate::cli_tools::CONSOLE_EXAMPLES)]
    Console(crate::cli_tools::ConsoleArgs),
    /// What the page requested (since the last call, or all kept), one
    /// request's headers and bodies, block and mock rules, a HAR file.
    #[command(after_help = crate::cli_tools::NETWORK_EXAMPLES)]
    Network(crate::cli_tools::NetworkArgs),
    /// The session's cookies: list them (by URL or domain), set one, clear
    /// them.
    #[command(after_help = crate::cli_tools::COOKIES_EXAMPLES)]
    Cookies(crate::cli_tools::CookiesArgs),
    /// The page's localStorage or sessionStorage: list it, set a key, clear
    /// it (or one key).
    #[command(after_help = crate::cli_tools::STORAGE_EXAMPLES)]
    Storage(crate::cli_tools::StorageArgs),
    /// Save the session's cookies and local storage to a file, or load them
    /// (Playwright's storage-state JSON), to reuse a login.
    #[command(after_help = crate::cli_tools::STATE_EXAMPLES)]
    State(crate::cli_tools::StateArgs),
    /// Emulate a viewport, a device, a colour scheme or print media, a
    /// position, no network, extra headers, a user agent, a time zone or a
    /// locale, on every tab of the session.
    #[command(after_help = crate::cli_tools::SET_EXAMPLES)]
    Set(crate::cli_tools::SetArgs),
    /// Print the page to a PDF file (headless only).
    #[command(after_help = crate::cli_tools::PDF_EXAMPLES)]
    Pdf(crate::cli_tools::PdfArgs),
    /// One fact about an element: its text, value, an attribute or its
    /// box, or whether it is visible, enabled or checked.
    #[command(after_help = crate::cli_tools::GET_EXAMPLES)]
    Get(crate::cli_tools::GetArgs),
    /// Whether an element is visible, enabled or checked (as `rove get`).
    #[command(after_help = "Examples:\n  rove is visible e7\n  rove is checked e3")]
    Is(crate::cli_tools::IsArgs),
    /// Go back in the tab's history.
    #[command(after_help = "Examples:\n  rove back\n  rove back --json")]
    Back,
    /// Go forward in the tab's history.
    #[command(after_help = "Examples:\n  rove forward")]
    Forward,
    /// Reload the page.
    #[command(after_help = "Examples:\n  rove reload")]
    Reload,
    /// End the session: its daemon, browser, tabs and cookies.
    #[command(after_help = "Examples:\n  rove close\n  rove --session work close")]
    Close,
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
        after_help = "Examples:\n  rove print-config --harness cursor > .cursor/mcp.json\n  rove --session work --headed print-config --harness codex >> ~/.codex/config.toml\n  rove print-config --harness claude-code      (stderr also gives the claude mcp add form)\n  rove print-config --harness vscode --http --port 7333 --token TOKEN\n  rove print-config --harness cursor --caps all"
    )]
    PrintConfig(PrintConfigArgs),
    /// Traces: start and stop the session's, or read one as a page.
    #[command(subcommand)]
    Trace(crate::cli_side::TraceCommand),
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
    /// Run a session daemon in the foreground (started for you by the other
    /// commands).
    #[command(name = "__daemon", hide = true)]
    Daemon,
}

#[derive(Debug, Args)]
pub struct OpenArgs {
    /// The URL to open (a scheme-less address gets https://).
    pub url: String,
    /// Open it in a new tab.
    #[arg(long)]
    pub new_tab: bool,
    /// No daemon: open in a browser of this process and keep it until
    /// interrupted (Ctrl-C or SIGTERM).
    #[arg(long)]
    pub stay: bool,
    /// Seconds to wait for the page to load (with --stay).
    #[arg(long, default_value_t = rove_base::limits::NAVIGATION.as_secs_f64(), value_name = "SECONDS")]
    pub timeout: f64,
}

#[derive(Debug, Args)]
pub struct RefArg {
    /// The element: a ref (e7, @e7) or a locator (css=…, role=…[name=…], text=…).
    #[arg(value_name = "REF")]
    pub target: String,
}

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// Only what can be acted on, under its headings.
    #[arg(short, long, conflicts_with_all = ["diff", "scope"])]
    pub interactive: bool,
    /// What changed since the last view.
    #[arg(short, long, conflicts_with = "scope")]
    pub diff: bool,
    /// Only the subtree under this ref.
    #[arg(long, value_name = "REF")]
    pub scope: Option<String>,
    /// Token budget (0: no limit).
    #[arg(long, value_name = "TOKENS")]
    pub budget: Option<usize>,
    /// The next part of a cut view, after this ref.
    #[arg(long, value_name = "REF")]
    pub after: Option<String>,
    /// Show link targets.
    #[arg(long)]
    pub urls: bool,
}

#[derive(Debug, Args)]
pub struct FindArgs {
    /// Text in the name, value or content.
    pub text: String,
    /// Only this role (button, link, textbox …).
    #[arg(long)]
    pub role: Option<String>,
    /// At most this many results.
    #[arg(long)]
    pub limit: Option<usize>,
}

#[derive(Debug, Args)]
pub struct ClickArgs {
    /// The element: a ref (e7, @e7) or a locator (css=…, role=…[name=…], text=…).
    #[arg(value_name = "REF", required_unless_present = "at")]
    pub target: Option<String>,
    /// A point of the viewport instead of a ref: CSS pixels, as in a
    /// screenshot at scale 1.
    #[arg(
        long,
        num_args = 2,
        value_names = ["X", "Y"],
        allow_hyphen_values = true,
        conflicts_with = "target"
    )]
    pub at: Option<Vec<f64>>,
    /// left, right or middle.
    #[arg(long, default_value = "left")]
    pub button: String,
    /// A double click (as `rove dblclick`).
    #[arg(long)]
    pub double: bool,
    /// Keys held: Alt, Control, Meta, Shift (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub modifiers: Vec<String>,
}

#[derive(Debug, Args)]
pub struct TypeArgs {
    /// The field (a ref or a locator) and the text, or (with --focused) only the text.
    #[arg(value_name = "REF TEXT", num_args = 1..=2, required = true)]
    pub words: Vec<String>,
    /// Type into whatever has the focus instead of a field named by ref.
    #[arg(long)]
    pub focused: bool,
    /// Milliseconds between keys.
    #[arg(long, value_name = "MS")]
    pub delay: Option<u64>,
    /// Press Enter afterwards.
    #[arg(long)]
    pub submit: bool,
}

#[derive(Debug, Args)]
pub struct FillArgs {
    /// The field.
    #[arg(value_name = "REF")]
    pub target: String,
    /// The text.
    pub text: String,
    /// Press Enter afterwards.
    #[arg(long)]
    pub submit: bool,
}

#[derive(Debug, Args)]
pub struct PressArgs {
    /// The chord: Enter, Control+A, Shift+Tab …
    pub keys: String,
    /// Focus this element first (by clicking it).
    #[arg(long, value_name = "REF")]
    pub r#ref: Option<String>,
}

#[derive(Debug, Args)]
pub struct SelectArgs {
    /// The select, listbox or combobox.
    #[arg(value_name = "REF")]
    pub target: String,
    /// Option labels or values.
    #[arg(required = true)]
    pub values: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ScrollArgs {
    /// Any of: a ref or a locator, a direction (up, down, left, right), a
    /// distance in pixels.
    #[arg(required = true, num_args = 1..=3)]
    pub words: Vec<String>,
}

#[derive(Debug, Args)]
pub struct DragArgs {
    /// The element to pick up.
    pub from: String,
    /// The element to drop it on.
    pub to: String,
}

#[derive(Debug, Args)]
pub struct UploadArgs {
    /// A file input, or the element that opens a file chooser.
    #[arg(value_name = "REF")]
    pub target: String,
    /// The files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct DialogArgs {
    /// accept or dismiss.
    pub answer: String,
    /// The answer to a prompt.
    pub text: Option<String>,
}

#[derive(Debug, Args)]
pub struct TabArgs {
    /// list, new, switch or close.
    #[arg(default_value = "list")]
    pub action: String,
    /// The tab (t2) for switch and close; the URL for new.
    pub target: Option<String>,
}

#[derive(Debug, Args)]
pub struct ScreenshotArgs {
    /// Where to save it (default: a new file in the temp folder).
    pub path: Option<PathBuf>,
    /// The whole page, not just the viewport.
    #[arg(long)]
    pub full: bool,
    /// Only this element.
    #[arg(long, value_name = "REF")]
    pub r#ref: Option<String>,
    /// Only this rectangle of the page, in CSS pixels.
    #[arg(
        long,
        value_name = "X,Y,WIDTH,HEIGHT",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    pub clip: Option<Vec<f64>>,
    /// JPEG instead of PNG.
    #[arg(long)]
    pub jpeg: bool,
    /// JPEG quality, 0-100.
    #[arg(long)]
    pub quality: Option<u8>,
    /// The most bytes the image may take.
    #[arg(long)]
    pub max_bytes: Option<usize>,
}

#[derive(Debug, Args)]
pub struct ReadArgs {
    /// Only this element.
    #[arg(long, value_name = "REF")]
    pub r#ref: Option<String>,
    /// At most this many tokens (0: no limit).
    #[arg(long)]
    pub budget: Option<usize>,
}

#[derive(Debug, Args)]
pub struct WaitArgs {
    /// Milliseconds: alone, how long to wait; with a condition, the most.
    pub ms: Option<u64>,
    /// Until this text appears.
    #[arg(long)]
    pub text: Option<String>,
    /// Until this text is gone.
    #[arg(long)]
    pub gone: Option<String>,
    /// Until the URL contains this (or matches it as a * glob).
    #[arg(long)]
    pub url: Option<String>,
    /// Until the page reaches domcontentloaded, load or networkidle.
    #[arg(long)]
    pub load: Option<String>,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// An expression, or a function, which is called.
    pub js: String,
    /// Call the function with this element.
    #[arg(long, value_name = "REF")]
    pub r#ref: Option<String>,
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
    pub caps: crate::cli_tools::CapsArg,

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
