//! Logging set-up: rove's three named layers and where they go.
//!
//! The layers are tracing targets: `agent` (steps, model calls, decisions,
//! failures), `events` (navigations, dialogs, downloads, crashes,
//! reconnects, tabs) and `cdp` (every CDP message; see
//! `rove_cdp::wire_log`). Their levels come from `-v`/`-vv` and
//! `ROVE_LOG=agent=info,events=debug,cdp=off` (a bare level sets all three;
//! other directives, `rove_browser=debug`, filter crates as `RUST_LOG`
//! does). Where they go:
//! - nothing else set: stderr, with everything else (`RUST_LOG` as ever);
//! - `ROVE_LOG_FILE=path`: the layers (and warnings) appended to one file;
//! - `ROVE_LOG_DIR=dir`: one file per layer that is on: `agent.log`,
//!   `events.log`, `cdp.log`.
//!
//! With a file, stderr keeps what `-v` and `RUST_LOG` ask for.
//! `ROVE_LOG_FORMAT=json` writes JSON lines instead of text. Logs never go
//! to stdout, and every line passes `rove_base::redact::scrub` on its way
//! out, so a registered secret or key cannot reach any file.

pub(crate) mod json;

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tracing::level_filters::LevelFilter;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::{EnvFilter, Targets};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use crate::logging::json::JsonLines;

/// The layers, in the order their files are named.
pub const LAYERS: [&str; 3] = ["agent", "events", "cdp"];

/// The environment variables read here; the daemon is given them with
/// paths made absolute.
pub const ENV_FILE: &str = "ROVE_LOG_FILE";
pub const ENV_DIR: &str = "ROVE_LOG_DIR";

/// What the environment and `-v` ask for.
#[derive(Debug, Clone, PartialEq)]
pub struct LogPlan {
    /// Each layer's level, in [`LAYERS`] order.
    pub levels: [LevelFilter; 3],
    /// Directives of `ROVE_LOG` that name other targets.
    pub other: Vec<String>,
    /// Whether `ROVE_LOG` was given at all.
    pub given: bool,
    pub file: Option<PathBuf>,
    pub dir: Option<PathBuf>,
    pub json: bool,
}

impl LogPlan {
    /// The plan for verbosity `verbose` and variables from `env`.
    pub fn from_env(verbose: u8, env: impl Fn(&str) -> Option<String>) -> LogPlan {
        let path = |name: &str| env(name).filter(|s| !s.is_empty()).map(PathBuf::from);
        let (file, dir) = (path(ENV_FILE), path(ENV_DIR));
        let mut levels = verbosity_levels(verbose);
        if file.is_some() || dir.is_some() {
            // A file asked for is worth reading without -v: the story of
            // a run and of its browser.
            for level in &mut levels[..2] {
                *level = (*level).max(LevelFilter::INFO);
            }
        }
        let spec = env("ROVE_LOG").filter(|s| !s.trim().is_empty());
        let mut other = Vec::new();
        for directive in spec.iter().flat_map(|s| s.split(',')) {
            let directive = directive.trim();
            if directive.is_empty() {
                continue;
            }
            match directive.split_once('=') {
                Some((target, level)) => match (
                    LAYERS.iter().position(|l| *l == target.trim()),
                    level.trim().parse::<LevelFilter>(),
                ) {
                    (Some(i), Ok(level)) => levels[i] = level,
                    _ => other.push(directive.to_owned()),
                },
                None => match directive.parse::<LevelFilter>() {
                    Ok(level) => levels = [level; 3],
                    Err(_) => other.push(directive.to_owned()),
                },
            }
        }
        LogPlan {
            levels,
            other,
            given: spec.is_some(),
            file,
            dir,
            json: env("ROVE_LOG_FORMAT").is_some_and(|f| f.eq_ignore_ascii_case("json")),
        }
    }

    /// The layers' levels as filter directives (`agent=info,…`).
    fn layer_directives(&self) -> String {
        directives(self.levels, &self.other)
    }
}

/// The layers' levels on stderr for `-v`: none without it (the commands'
/// own output already tells a person what happened), the story with `-v`,
/// every detail and the CDP messages with `-vv`.
fn verbosity_levels(verbose: u8) -> [LevelFilter; 3] {
    match verbose {
        0 => [LevelFilter::OFF; 3],
        1 => [LevelFilter::DEBUG, LevelFilter::DEBUG, LevelFilter::OFF],
        _ => [LevelFilter::TRACE, LevelFilter::TRACE, LevelFilter::DEBUG],
    }
}

fn directives(levels: [LevelFilter; 3], other: &[String]) -> String {
    LAYERS
        .iter()
        .zip(levels)
        .map(|(name, level)| format!("{name}={level}"))
        .chain(other.iter().cloned())
        .collect::<Vec<_>>()
        .join(",")
}

/// The crate-level defaults `-v` has always meant.
fn crate_defaults(verbose: u8) -> &'static str {
    match verbose {
        0 => "warn",
        1 => "warn,rove=debug,rove_browser=debug,rove_cdp=debug",
        _ => "warn,rove=trace,rove_browser=trace,rove_cdp=trace",
    }
}

type Boxed = Box<dyn Layer<tracing_subscriber::Registry> + Send + Sync>;

/// Sets up logging for this process. A log file that cannot be opened is
/// said on stderr and left out; logging to stderr goes on.
pub fn init(verbose: u8) {
    let plan = LogPlan::from_env(verbose, |name| std::env::var(name).ok());
    let rust_log = std::env::var("RUST_LOG").ok().filter(|s| !s.is_empty());
    let to_files = plan.file.is_some() || plan.dir.is_some();
    // stderr: RUST_LOG, or -v's defaults; the layers as ROVE_LOG says
    // unless they go to files (then as -v says).
    let mut stderr_spec = rust_log
        .clone()
        .unwrap_or_else(|| crate_defaults(verbose).to_owned());
    if to_files && rust_log.is_none() {
        stderr_spec = format!(
            "{stderr_spec},{}",
            directives(verbosity_levels(verbose), &[])
        );
    } else if !to_files && (plan.given || rust_log.is_none()) {
        stderr_spec = format!("{stderr_spec},{}", plan.layer_directives());
    }
    let mut layers: Vec<Boxed> = vec![output(
        Scrubbed::stderr(),
        plan.json,
        io::stderr().is_terminal(),
        EnvFilter::new(stderr_spec),
    )];
    let mut problems = Vec::new();
    if let Some(path) = &plan.file {
        match Scrubbed::file(path) {
            Ok(writer) => {
                let spec = format!("warn,{}", plan.layer_directives());
                layers.push(output(writer, plan.json, false, EnvFilter::new(spec)));
            }
            Err(e) => problems.push(format!("{}: {e}", path.display())),
        }
    }
    if let Some(dir) = &plan.dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            problems.push(format!("{}: {e}", dir.display()));
        }
        for (name, level) in LAYERS.iter().zip(plan.levels) {
            if level == LevelFilter::OFF {
                continue;
            }
            let path = dir.join(format!("{name}.log"));
            match Scrubbed::file(&path) {
                Ok(writer) => {
                    let only = Targets::new().with_target(*name, level);
                    layers.push(output(writer, plan.json, false, only));
                }
                Err(e) => problems.push(format!("{}: {e}", path.display())),
            }
        }
    }
    // Another subscriber already set (a test harness) is not an error.
    let _ = tracing_subscriber::registry().with(layers).try_init();
    for problem in problems {
        tracing::warn!("cannot write the log file {problem}; logging to stderr only");
    }
}

/// One formatted output: text or JSON lines, through `writer`, under
/// `filter`.
fn output<W, F>(writer: W, json: bool, ansi: bool, filter: F) -> Boxed
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
    F: tracing_subscriber::layer::Filter<tracing_subscriber::Registry> + Send + Sync + 'static,
{
    let text = tracing_subscriber::fmt::layer().with_writer(writer);
    if json {
        text.event_format(JsonLines).with_filter(filter).boxed()
    } else {
        // Colours only for a terminal: a daemon's stderr is its log file.
        text.with_ansi(ansi).with_filter(filter).boxed()
    }
}

/// Where formatted lines go: stderr or an append-only file. Each line is
/// scrubbed of registered secrets on its way.
#[derive(Clone)]
struct Scrubbed {
    file: Option<Arc<Mutex<File>>>,
}

impl Scrubbed {
    fn stderr() -> Scrubbed {
        Scrubbed { file: None }
    }

    /// A log file `ROVE_LOG_FILE` or `ROVE_LOG_DIR` names: a FIFO or a
    /// device is refused at once (opening a FIFO without a reader waited
    /// for ever, before anything was printed), and the problem said.
    fn file(path: &Path) -> io::Result<Scrubbed> {
        let file =
            rove_base::user_file::open_to_append(path, rove_base::user_file::Access::Private)
                .map_err(rove_base::user_file::UserFileError::into_io)?;
        Ok(Scrubbed {
            file: Some(Arc::new(Mutex::new(file))),
        })
    }
}

impl<'w> MakeWriter<'w> for Scrubbed {
    type Writer = ScrubbedLine;

    fn make_writer(&'w self) -> ScrubbedLine {
        ScrubbedLine {
            file: self.file.clone(),
        }
    }
}

/// One event's text on its way out.
struct ScrubbedLine {
    file: Option<Arc<Mutex<File>>>,
}

impl Write for ScrubbedLine {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // The formatter hands over a whole event at once.
        let text = String::from_utf8_lossy(buf);
        let clean = rove_base::redact::scrub(&text);
        match &self.file {
            Some(file) => file
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .write_all(clean.as_bytes())?,
            None => io::stderr().lock().write_all(clean.as_bytes())?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match &self.file {
            Some(file) => file.lock().unwrap_or_else(|p| p.into_inner()).flush(),
            None => io::stderr().flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(verbose: u8, vars: &[(&str, &str)]) -> LogPlan {
        LogPlan::from_env(verbose, |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn rove_log_sets_each_layer_and_passes_other_targets_on() {
        let p = plan(
            0,
            &[(
                "ROVE_LOG",
                "agent=info,events=debug,cdp=off,rove_browser=trace",
            )],
        );
        assert_eq!(
            p.levels,
            [LevelFilter::INFO, LevelFilter::DEBUG, LevelFilter::OFF]
        );
        assert_eq!(p.other, vec!["rove_browser=trace".to_owned()]);
        assert!(p.given);
        assert_eq!(
            p.layer_directives(),
            "agent=info,events=debug,cdp=off,rove_browser=trace"
        );
        let all = plan(0, &[("ROVE_LOG", "trace")]);
        assert_eq!(all.levels, [LevelFilter::TRACE; 3]);
    }

    #[test]
    fn verbosity_sets_the_defaults_and_the_cdp_layer_stays_off_below_vv() {
        assert_eq!(plan(0, &[]).levels, [LevelFilter::OFF; 3]);
        assert_eq!(
            plan(1, &[]).levels,
            [LevelFilter::DEBUG, LevelFilter::DEBUG, LevelFilter::OFF]
        );
        assert_eq!(plan(2, &[]).levels[2], LevelFilter::DEBUG);
        let files = plan(
            0,
            &[("ROVE_LOG_DIR", "/tmp/l"), ("ROVE_LOG_FORMAT", "JSON")],
        );
        assert_eq!(files.dir, Some(PathBuf::from("/tmp/l")));
        assert!(files.json && files.file.is_none() && !files.given);
        // A file without ROVE_LOG gets the story; the wire only on request.
        assert_eq!(
            files.levels,
            [LevelFilter::INFO, LevelFilter::INFO, LevelFilter::OFF]
        );
    }
}
