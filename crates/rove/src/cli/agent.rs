//! The arguments of the commands where a model drives: `rove run`, `rove
//! test` (both with the judge's flags) and `rove replay`, apart from the
//! rest of the command line, which knows no model.

use std::path::PathBuf;

use clap::Args;

use crate::cli::redacted::Redacted;

#[derive(Debug, Args)]
pub struct RunArgs {
    /// What to do, in words.
    pub task: String,
    /// The model, as provider:model (openai, openai-responses, anthropic,
    /// gemini, vertex, azure, bedrock, mistral, ollama, openrouter,
    /// deepseek, groq).
    #[arg(long, env = "ROVE_MODEL")]
    pub model: String,
    /// Used once, for the rest of the run, when the model fails with 401,
    /// 402, 429 or 5xx, cannot be reached, or takes more than its half of
    /// the step's model time.
    #[arg(long, value_name = "MODEL")]
    pub fallback_model: Option<String>,
    /// The fallback's base URL (default: its provider's environment
    /// variable, then its public API; never --base-url).
    #[arg(long, value_name = "URL", requires = "fallback_model")]
    pub fallback_base_url: Option<String>,
    /// The fallback's API key (default: its provider's environment
    /// variable; never --api-key).
    #[arg(long, hide_env_values = true, requires = "fallback_model")]
    pub fallback_api_key: Option<Redacted>,
    /// Open this page first.
    #[arg(long, value_name = "URL")]
    pub start_url: Option<String>,
    /// The most steps.
    #[arg(long, default_value_t = 30)]
    pub max_steps: u32,
    /// Failed steps in a row that end the run (a model error, a step past
    /// its deadline, every action failing); then the model is asked once
    /// for a final answer.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_failures: u32,
    /// Seconds a person gets to solve a challenge in the browser's window
    /// (`--headed`, no solver plugin) before the run ends on it.
    #[arg(long, default_value_t = rove_base::limits::CAPTCHA_WAIT.as_secs_f64(), value_name = "SECONDS")]
    pub captcha_wait: f64,
    /// Seconds one step may take: the model's answer (retries and the
    /// fallback included, within three quarters of it) and its actions.
    #[arg(long, default_value_t = rove_base::limits::STEP.as_secs_f64(), value_name = "SECONDS")]
    pub step_timeout: f64,
    /// The most tool calls run from one answer (the rest are answered "not
    /// run").
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_actions_per_step: u32,
    /// Write the run (steps, actions, results, usage, timings) here as JSON.
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// The model's API key (default: the provider's environment variable).
    #[arg(long, hide_env_values = true)]
    pub api_key: Option<Redacted>,
    /// The model's base URL (default: its provider's environment variable,
    /// then its public API). The fallback's is --fallback-base-url.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// A price table overriding the built-in one (JSON, per million tokens).
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,
    /// A secret the model may type without seeing it: NAME=value, or
    /// NAME@domain=value to allow it only there. The model writes
    /// <secret>NAME</secret>.
    #[arg(long = "secret", value_name = "NAME[@DOMAIN]=VALUE")]
    pub secrets: Vec<String>,
    /// Secrets from a file, one NAME[@DOMAIN]=VALUE per line.
    #[arg(long, value_name = "FILE")]
    pub secrets_file: Option<PathBuf>,
    /// Show the model a screenshot each step: auto (hosted models, but
    /// those known to read text only; not Ollama), on or off.
    #[arg(long, default_value = "auto", value_parser = ["auto", "on", "off"])]
    pub vision: String,
    /// The system prompt from this file, in place of rove's (which is
    /// chosen by the model's name: a short one for small models, one for
    /// reasoning models).
    #[arg(long, value_name = "FILE")]
    pub system_prompt_file: Option<PathBuf>,
    /// Text added at the end of the system prompt (rove's or the file's).
    #[arg(long, value_name = "TEXT")]
    pub extend_system_prompt: Option<String>,
    #[command(flatten)]
    pub judge: JudgeArgs,
    /// The right outcome, for the judge (as a task file's ground_truth):
    /// it outranks the agent's report and everything else the judge sees.
    #[arg(long, value_name = "TEXT", requires = "judge_model")]
    pub ground_truth: Option<String>,
    #[command(flatten)]
    pub caps: crate::cli::side::CapsArg,
    /// Write a trace here: one JSON line per step with what the model was
    /// shown, its actions, the console messages and requests of the step,
    /// screenshots inside (`rove trace show FILE` makes it a page to read).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub trace_screenshots: TraceScreenshots,
    /// Write an animated GIF of the run here: a frame per step (the page
    /// after its actions) with the task and the step's goal and actions
    /// written on it, the final answer on the last frame. An existing FILE
    /// is replaced. The text needs a font on the system (DejaVu Sans or
    /// Liberation Sans, or ROVE_FONT=FILE.ttf).
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Run a step at a time as orders on stdin say, one JSON answer a line
    /// on stdout (implies --json): {"do":"step"}, {"do":"tell","text":…},
    /// {"do":"set_task","text":…}, {"do":"view"}, {"do":"finish"}. The
    /// Python package's rove.Agent speaks it (docs/agent.md).
    #[arg(long)]
    pub steer: bool,
}

/// `--trace-screenshots[=MIB]` and `--trace-screencast`, shared by `rove
/// run` and `rove test`.
#[derive(Debug, Args)]
pub struct TraceScreenshots {
    /// In a trace, also a screenshot after each step's actions (the one
    /// the model saw, with --vision, is the before); at most MIB of
    /// screenshots inlined per trace (default 20; later ones are named as
    /// left out).
    #[arg(
        long = "trace-screenshots",
        value_name = "MIB",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "20"
    )]
    pub mib: Option<f64>,
    /// In a trace, also the page's screencast: a frame whenever the page
    /// repaints, at most 5 a second, scaled to 1024 px, secrets painted
    /// out; at most 3,000 frames or 64 MiB per trace, then frames are
    /// dropped with a note.
    #[arg(long = "trace-screencast")]
    pub screencast: bool,
}

impl TraceScreenshots {
    /// Whether screenshots after actions are asked for, and the budget of
    /// screenshot bytes per trace; a budget that is not a positive number
    /// is refused with the message to show.
    pub fn resolve(&self) -> Result<(bool, usize), String> {
        match self.mib {
            None => Ok((false, rove_agent::SCREENSHOT_BUDGET)),
            Some(mib) if mib.is_finite() && mib > 0.0 && mib <= 4096.0 => {
                Ok((true, (mib * 1024.0 * 1024.0) as usize))
            }
            Some(mib) => Err(format!(
                "--trace-screenshots={mib} is not a number of MiB above 0 (at most 4096)"
            )),
        }
    }
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// Task files (YAML), or folders of them.
    #[arg(required_unless_present = "compare", value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The model, as provider:model (as for rove run).
    #[arg(long, env = "ROVE_MODEL", required_unless_present = "compare")]
    pub model: Option<String>,
    /// Instead of running: which tasks got better or worse between two
    /// results.json files (exit 1 when one got clearly worse).
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"], conflicts_with = "paths")]
    pub compare: Option<Vec<PathBuf>>,
    /// The model's API key (default: the provider's environment variable).
    #[arg(long, hide_env_values = true)]
    pub api_key: Option<Redacted>,
    /// The provider's base URL (default: the provider's environment
    /// variable, then its public API).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Attempts at once.
    #[arg(short = 'j', long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Attempts per task, over each task's own repeat.
    #[arg(long, value_name = "K")]
    pub repeat: Option<u32>,
    /// Run only the I-th of N slices of the attempts (for CI matrices).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Only tasks with one of these tags (comma-separated).
    #[arg(long, value_name = "T", value_delimiter = ',')]
    pub tags: Vec<String>,
    /// Write results.json and each attempt's history here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write JUnit XML here.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// The same as --cdp-url (kept as an alias): a browser someone else
    /// started, one of a pool; repeat it, and each attempt gets a context
    /// in the least busy.
    #[arg(long, value_name = "URL")]
    pub pool: Vec<String>,
    /// What each attempt gets of its own: a browser context in a shared
    /// browser, or a browser process. With --cdp-url, `browser` is farm
    /// mode: each attempt opens its own connection, which on a farm such
    /// as browserless is a fresh browser, and closes it when it ends.
    #[arg(long, default_value = "context", value_parser = ["context", "browser"])]
    pub isolate: String,
    /// Farm mode: connections open at once per distinct --cdp-url (default:
    /// how many times that URL was given).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=rove_base::limits::FARM_SLOTS_MAX as i64))]
    pub slots: Option<u32>,
    /// Farm mode: seconds an attempt waits for a browser while the farm
    /// holds its connection in a queue or answers 429 (no browser free);
    /// past it that attempt alone is an error (TIMEOUT). Default 120.
    #[arg(long, value_name = "SECS")]
    pub connect_wait: Option<f64>,
    /// The suite's pass rate (0 to 1) must reach this.
    #[arg(long, default_value_t = 0.0, value_name = "X")]
    pub min_pass_rate: f64,
    /// A price table overriding the built-in one (JSON, per million tokens).
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,
    /// Show the model a screenshot each step: auto (hosted models, but
    /// those known to read text only; not Ollama), on or off.
    #[arg(long, default_value = "auto", value_parser = ["auto", "on", "off"])]
    pub vision: String,
    #[command(flatten)]
    pub judge: JudgeArgs,
    /// Which attempts leave a trace under --out's traces/ (a JSON-lines
    /// file as rove run --trace writes, and its page as rove trace show
    /// makes it): failed (every attempt that ran and did not pass), all,
    /// or off. Default: failed, when there is an --out.
    #[arg(long, value_parser = ["failed", "all", "off"], value_name = "WHICH")]
    pub traces: Option<String>,
    #[command(flatten)]
    pub trace_screenshots: TraceScreenshots,
    /// An animated GIF of attempts beside their traces (a frame per step,
    /// the task and the step's goal written on it), linked from
    /// report.html and attached in JUnit: on-failure (every attempt that
    /// ran and did not pass), always, or off. Needs --out; takes the
    /// screenshot after each step's actions.
    #[arg(long, default_value = "off", value_parser = ["on-failure", "always", "off"], value_name = "WHEN")]
    pub video: String,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The history file.
    pub file: PathBuf,
    /// Start here instead of the recorded start URL.
    #[arg(long, value_name = "URL")]
    pub start_url: Option<String>,
    /// Secrets the recorded actions used: NAME[@DOMAIN]=VALUE.
    #[arg(long = "secret", value_name = "NAME[@DOMAIN]=VALUE")]
    pub secrets: Vec<String>,
}

/// The judge's flags, shared by `rove run` and `rove test`.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// A second model (provider:model) that judges each run from its
    /// steps, final answer, final URL and last screenshots, and a task's
    /// ground_truth first when it has one. Its verdict (pass, fail or
    /// unjudged when it cannot say) is kept beside the agent's own report,
    /// never in its place; best a different model from --model.
    #[arg(long, value_name = "MODEL")]
    pub judge_model: Option<String>,
    /// The judge's base URL (default: its provider's environment variable,
    /// then its public API; never --base-url).
    #[arg(long, value_name = "URL", requires = "judge_model")]
    pub judge_base_url: Option<String>,
    /// The judge's API key (default: its provider's environment variable,
    /// or --api-key when the judge shares the model's provider).
    #[arg(long, hide_env_values = true, requires = "judge_model")]
    pub judge_api_key: Option<Redacted>,
    /// The most screenshots the judge sees: the last ones the agent's
    /// model saw and the final page (0 for none).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub judge_screenshots: usize,
    /// Seconds the judge's call may take, retries included; past it the
    /// run is unjudged.
    #[arg(long, value_name = "SECONDS", default_value_t = rove_base::limits::JUDGE.as_secs_f64())]
    pub judge_timeout: f64,
}
