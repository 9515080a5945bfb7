//! Side-by-side benchmark of `open`: rove over MCP (its answer carries the
//! page's view) against agent-browser's `open` followed by its first
//! `snapshot` (what a model needs before it can act), on MiniWoB++ pages
//! served on 127.0.0.1, in one run, trials of the two interleaved so that
//! a noisy moment costs both. rove's time is also split into awaiting the
//! browser, settling and its own work (its in-process vocabulary, whose
//! answers carry that split), and a click by ref is timed the same way on
//! each page's first button. Then, on the page each tool has open, the
//! warm view: rove's `snapshot` over MCP against agent-browser's
//! `snapshot`, timed and counted in o200k tokens. Last, the first launch
//! of each tool's CLI (see `launch.rs`).
#![allow(clippy::print_stdout, dead_code)]

mod launch;
mod miniwob;
mod peers;
mod report;

use std::path::{Path, PathBuf};
use std::time::Instant;

use rove_localserver::{LocalServer, Routes};
use serde_json::json;

use crate::peers::{AgentBrowser, Child, Mcp, package_version};
use crate::report::median;

/// The median of a copy (the report's sorts in place).
fn med(values: &[f64]) -> f64 {
    median(&mut values.to_vec())
}

/// Trials per page and tool.
const RUNS: usize = 7;

/// Sixteen MiniWoB++ tasks: forms, lists, widgets, a mail client.
const TASKS: [&str; 16] = [
    "click-button",
    "click-checkboxes",
    "click-dialog",
    "click-link",
    "click-tab-2",
    "enter-text",
    "login-user",
    "email-inbox",
    "book-flight",
    "social-media",
    "search-engine",
    "choose-list",
    "use-autocomplete",
    "navigate-tree",
    "text-transform",
    "use-spinner",
];

#[derive(Default)]
struct Row {
    rove: Vec<f64>,
    cdp: Vec<f64>,
    settle: Vec<f64>,
    own: Vec<f64>,
    ab_open: Vec<f64>,
    ab_snapshot: Vec<f64>,
    /// Warm views, the page already open.
    rove_view: Vec<f64>,
    ab_view: Vec<f64>,
    rove_tokens: usize,
    ab_tokens: usize,
}

/// The page of the first-launch measurement.
const LAUNCH_TASK: &str = "click-dialog";

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cache =
        PathBuf::from(std::env::var("ROVE_BENCH_CACHE").unwrap_or_else(|_| "../.cache".into()));
    let rove_binary =
        std::env::var("ROVE_BENCH_ROVE").unwrap_or_else(|_| "../../target/release/rove".into());
    let miniwob = cache.join("miniwob/miniwob/html");
    let routes = crate::miniwob::serve(Routes::new(), &miniwob, &TASKS)?;
    let server = LocalServer::start(routes).await?;
    let node_modules = cache.join("node_modules");
    let version = package_version(&node_modules, "agent-browser");
    // ROVE_BENCH_ONLY_LAUNCH=1 measures the first launch alone, into a file
    // of its own, so the full results are not overwritten by a part.
    let only_launch = std::env::var("ROVE_BENCH_ONLY_LAUNCH").is_ok_and(|v| v == "1");

    let mut text = String::new();
    if !only_launch {
        let rows = side_by_side(&server, &rove_binary, &node_modules).await?;
        text = markdown(&rows, &version);
        text.push('\n');
    }
    // Last, once the warm browsers above are gone, so that they neither
    // compete with the launches nor serve them.
    let url = server.url(&format!("/miniwob/miniwob/{LAUNCH_TASK}.html"));
    let launch = launch::measure(&rove_binary, &node_modules, &url).await?;
    eprintln!("{}", launch.summary());
    text.push_str(&launch.markdown(LAUNCH_TASK, &version));

    println!("{text}");
    let out = if only_launch {
        "../launch-results.md"
    } else {
        "../open-results.md"
    };
    std::fs::write(out, &text)?;
    eprintln!("written to {out}");
    Ok(())
}

/// `open` and the warm view on every page, trials of the two tools
/// interleaved; the rows of the tables. The processes it starts are killed
/// as it returns (rove's browsers die with rove), agent-browser's closed.
async fn side_by_side(
    server: &LocalServer,
    rove_binary: &str,
    node_modules: &Path,
) -> Result<Vec<(&'static str, Row)>, Box<dyn std::error::Error>> {
    let bpe = tiktoken_rs::o200k_base()?;
    let mut rove = Mcp::start("rove", rove_binary, &["mcp"]).await?;
    let agent_path = std::env::current_exe()?.with_file_name("rove-view-agent");
    let mut split = Child::spawn(&agent_path, &[]).await?;
    let agent_browser = AgentBrowser::new(node_modules);
    // Every tool's browser is up before the first trial: launch is its own
    // measure.
    rove.tool("open", json!({"url": "about:blank"})).await?;
    split
        .call(json!({"cmd": "rove", "command": {"command": "open", "url": "about:blank"}}))
        .await?;
    agent_browser.run(&["open", "about:blank"]).await?;

    let mut rows = Vec::new();
    for task in TASKS {
        let url = server.url(&format!("/miniwob/miniwob/{task}.html"));
        let mut row = Row::default();
        for _ in 0..RUNS {
            let started = Instant::now();
            rove.tool("open", json!({"url": url})).await?;
            row.rove.push(ms(started));

            let started = Instant::now();
            agent_browser.run(&["open", &url]).await?;
            row.ab_open.push(ms(started));
            let started = Instant::now();
            agent_browser.run(&["snapshot"]).await?;
            row.ab_snapshot.push(ms(started));

            let answer = split
                .call(json!({"cmd": "rove", "command": {"command": "open", "url": url}}))
                .await?;
            let timing = &answer["timing"];
            let field = |name: &str| timing[name].as_f64().unwrap_or(f64::NAN);
            row.cdp.push(field("cdp_ms"));
            row.settle.push(field("settle_ms"));
            row.own.push(field("rove_ms"));
        }
        for _ in 0..RUNS {
            let started = Instant::now();
            let view = rove.tool("snapshot", json!({})).await?;
            row.rove_view.push(ms(started));
            row.rove_tokens = bpe.encode_with_special_tokens(&view).len();
            let started = Instant::now();
            let view = agent_browser.run(&["snapshot"]).await?;
            row.ab_view.push(ms(started));
            row.ab_tokens = bpe.encode_with_special_tokens(&view).len();
        }
        eprintln!(
            "{task}: rove {:.1} ms, agent-browser {:.1} + {:.1} ms",
            med(&row.rove),
            med(&row.ab_open),
            med(&row.ab_snapshot)
        );
        rows.push((task, row));
    }
    let _ = split.call(json!({"cmd": "quit"})).await;
    agent_browser.close().await;
    Ok(rows)
}

fn ms(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1e3
}

fn markdown(rows: &[(&str, Row)], agent_browser: &str) -> String {
    let mut out = format!(
        "`open` of a MiniWoB++ page until a model can act, median of {RUNS} (ms): rove over MCP (its answer holds the view) against agent-browser {agent_browser} (`open`, then `snapshot`). rove's split is of its in-process vocabulary (awaiting the browser / settling / its own work).\n\n\
         | page | agent-browser open | + snapshot | = total | rove | rove ÷ agent-browser | rove: cdp / settle / own |\n\
         |---|---|---|---|---|---|---|\n"
    );
    let mut ratios = Vec::new();
    for (task, row) in rows {
        let ab_total: Vec<f64> = row
            .ab_open
            .iter()
            .zip(&row.ab_snapshot)
            .map(|(a, b)| a + b)
            .collect();
        let ratio = med(&row.rove) / med(&ab_total);
        ratios.push(ratio);
        out.push_str(&format!(
            "| {task} | {:.1} | {:.1} | {:.1} | {:.1} | {ratio:.2}× | {:.1} / {:.1} / {:.1} |\n",
            med(&row.ab_open),
            med(&row.ab_snapshot),
            med(&ab_total),
            med(&row.rove),
            med(&row.cdp),
            med(&row.settle),
            med(&row.own),
        ));
    }
    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratios.iter().copied().fold(0.0, f64::max);
    out.push_str(&format!(
        "\nrove ÷ agent-browser over the {} pages: {low:.2}–{high:.2}×\n",
        rows.len()
    ));
    out.push_str(&format!(
        "\nThe warm view on the page just opened, median of {RUNS} (ms), and its o200k tokens: rove's `snapshot` over MCP against agent-browser's `snapshot`.\n\n\
         | page | rove tokens | agent-browser tokens | ÷ | rove ms | agent-browser ms | ÷ |\n\
         |---|---|---|---|---|---|---|\n"
    ));
    let (mut tokens, mut times) = (Vec::new(), Vec::new());
    for (task, row) in rows {
        let token_ratio = row.rove_tokens as f64 / row.ab_tokens.max(1) as f64;
        let time_ratio = med(&row.rove_view) / med(&row.ab_view);
        tokens.push(token_ratio);
        times.push(time_ratio);
        out.push_str(&format!(
            "| {task} | {} | {} | {token_ratio:.2} | {:.1} | {:.1} | {time_ratio:.2} |\n",
            row.rove_tokens,
            row.ab_tokens,
            med(&row.rove_view),
            med(&row.ab_view),
        ));
    }
    let range = |v: &[f64]| {
        (
            v.iter().copied().fold(f64::INFINITY, f64::min),
            v.iter().copied().fold(0.0, f64::max),
        )
    };
    let ((tl, th), (ml, mh)) = (range(&tokens), range(&times));
    out.push_str(&format!(
        "\nrove ÷ agent-browser: tokens {tl:.2}–{th:.2}, time {ml:.2}–{mh:.2}\n"
    ));
    out
}
