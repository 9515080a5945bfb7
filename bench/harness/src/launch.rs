//! First launch, side by side: `rove open URL` with no daemon for its
//! session, so the command starts the daemon, the browser and the page,
//! against `agent-browser --session NAME open URL` with no session running
//! (its daemon and browser likewise). Every trial has session names of its
//! own, so neither tool finds a daemon or a browser left by an earlier
//! trial or kept warm by the rest of the benchmark; each session is closed
//! after its trial, untimed.

use std::path::Path;
use std::time::{Duration, Instant};

use tokio::process::Command;

use crate::peers::AgentBrowser;
use crate::report::median;

/// Trials per tool.
const RUNS: usize = 7;

/// A first launch takes about a second; two minutes means it hangs.
const TIMEOUT: Duration = Duration::from_secs(120);

/// The milliseconds of each trial, per tool.
#[derive(Default)]
pub struct Launch {
    rove: Vec<f64>,
    agent_browser: Vec<f64>,
}

/// Times `RUNS` first launches of each tool on `url`, interleaved.
pub async fn measure(
    rove_binary: &str,
    node_modules: &Path,
    url: &str,
) -> Result<Launch, Box<dyn std::error::Error>> {
    let mut launch = Launch::default();
    for trial in 0..RUNS {
        // The process id keeps names apart from an earlier run's sessions,
        // should one have been left running.
        let session = format!("rove-bench-launch-{}-{trial}", std::process::id());
        // Who goes first alternates: the second launch of a pair finds
        // Chromium's files warmer in the page cache.
        if trial % 2 == 0 {
            launch.rove.push(rove(rove_binary, &session, url).await?);
            launch
                .agent_browser
                .push(agent_browser(node_modules, &session, url).await?);
        } else {
            launch
                .agent_browser
                .push(agent_browser(node_modules, &session, url).await?);
            launch.rove.push(rove(rove_binary, &session, url).await?);
        }
        eprintln!(
            "first launch {}: rove {:.1} ms, agent-browser {:.1} ms",
            trial + 1,
            launch.rove[trial],
            launch.agent_browser[trial]
        );
    }
    Ok(launch)
}

/// `rove open` in a session with no daemon; the milliseconds it took.
async fn rove(binary: &str, session: &str, url: &str) -> std::io::Result<f64> {
    let started = Instant::now();
    rove_command(binary, &["--session", session, "open", url]).await?;
    let took = ms(started);
    // A session left running would hold a browser through the next trials.
    rove_command(binary, &["--session", session, "close"]).await?;
    Ok(took)
}

async fn rove_command(binary: &str, args: &[&str]) -> std::io::Result<()> {
    let out = tokio::time::timeout(
        TIMEOUT,
        Command::new(binary)
            .args(args)
            .stdin(std::process::Stdio::null())
            .output(),
    )
    .await
    .map_err(|_| std::io::Error::other(format!("rove {args:?} timed out")))??;
    if !out.status.success() {
        return Err(std::io::Error::other(format!(
            "rove {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(())
}

/// agent-browser's `open` in a session not running; the milliseconds it
/// took.
async fn agent_browser(node_modules: &Path, session: &str, url: &str) -> std::io::Result<f64> {
    let agent_browser = AgentBrowser::in_session(node_modules, session);
    let started = Instant::now();
    agent_browser.run(&["open", url]).await?;
    let took = ms(started);
    agent_browser.run(&["close"]).await?;
    // The one file a closed session leaves (its last tab) would otherwise
    // pile up, seven a run.
    if let Some(home) = std::env::var_os("HOME") {
        let target = Path::new(&home).join(format!(".agent-browser/{session}.target"));
        let _ = std::fs::remove_file(target);
    }
    Ok(took)
}

fn ms(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1e3
}

impl Launch {
    /// A line for stderr: the medians and their ratio.
    pub fn summary(&self) -> String {
        format!(
            "first launch: rove {:.1} ms, agent-browser {:.1} ms, rove ÷ agent-browser {:.2}×",
            med(&self.rove),
            med(&self.agent_browser),
            self.ratio()
        )
    }

    /// The table appended to the results.
    pub fn markdown(&self, page: &str, agent_browser: &str) -> String {
        format!(
            "First launch, median (min–max) of {RUNS} (ms): `rove open URL` with no daemon for its session (it starts the daemon, the browser and the page, and its answer holds the view) against agent-browser {agent_browser}'s `open URL` with no session running (it starts its daemon and browser). A session of its own per trial, closed after it, untimed.\n\n\
             | page | rove | agent-browser | rove ÷ agent-browser |\n\
             |---|---|---|---|\n\
             | {page} | {} | {} | {:.2}× |\n",
            spread(&self.rove),
            spread(&self.agent_browser),
            self.ratio()
        )
    }

    fn ratio(&self) -> f64 {
        med(&self.rove) / med(&self.agent_browser)
    }
}

/// "median (min–max)".
fn spread(values: &[f64]) -> String {
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(0.0, f64::max);
    format!("{:.1} ({low:.1}–{high:.1})", med(values))
}

/// The median of a copy (the report's sorts in place).
fn med(values: &[f64]) -> f64 {
    median(&mut values.to_vec())
}
