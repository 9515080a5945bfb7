//! Side-by-side benchmark of one click by ref until the settled result is
//! back: rove against Playwright MCP, chrome-devtools-mcp and agent-browser,
//! on one locally served page, in one run. Three buttons: one that does
//! nothing, one that changes a text at once, one whose change waits for a
//! 100 ms request. Each tool finds the button's ref in its own snapshot,
//! then clicks it; the time is the round trip seen by the caller, and the
//! tokens are those of the answer a model reads.
#![allow(clippy::print_stdout, dead_code)]

mod peers;
mod report;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::json;

use crate::peers::{AgentBrowser, Child, Mcp};
use crate::report::median;

const RUNS: usize = 7;

const PAGE: &str = r#"<!doctype html><title>Clicks</title>
<h1>Clicks</h1>
<p id="out">0</p>
<button>Do nothing</button>
<button onclick="out.textContent = 'count ' + (++window.n || (window.n = 1))">Count</button>
<button onclick="fetch('/slow.json').then((r) => r.json()).then((d) => { out.textContent = d.text + ' ' + (++window.f || (window.f = 1)); })">Fetch</button>
<script>window.n = 0; window.f = 0;</script>"#;

const BUTTONS: [&str; 3] = ["Do nothing", "Count", "Fetch"];

#[derive(Debug, Default, Clone)]
struct Cell {
    ms: f64,
    tokens: usize,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cache =
        PathBuf::from(std::env::var("ROVE_BENCH_CACHE").unwrap_or_else(|_| "../.cache".into()));
    let routes = Routes::new()
        .page("/click.html", Response::html(PAGE))
        .page(
            "/slow.json",
            Response::with_type(200, "application/json", br#"{"text": "fetched"}"#.to_vec())
                .delayed(Duration::from_millis(100)),
        );
    let server = LocalServer::start(routes).await?;
    let url = server.url("/click.html");
    let bpe = tiktoken_rs::o200k_base()?;
    let count = |text: &str| bpe.encode_with_special_tokens(text).len();
    let node_modules = cache.join("node_modules");
    let mut rows: Vec<(&str, Vec<Cell>)> = Vec::new();

    // rove, through its command vocabulary, in its own process.
    let agent_path = std::env::current_exe()?.with_file_name("rove-view-agent");
    let mut rove = Child::spawn(&agent_path, &[]).await?;
    rove.call(json!({"cmd": "rove", "command": {"command": "open", "url": url}}))
        .await?;
    let mut cells = Vec::new();
    for name in BUTTONS {
        let found = rove
            .call(json!({"cmd": "rove", "command": {"command": "find", "text": name, "role": "button"}}))
            .await?;
        let text = found["text"].as_str().unwrap_or_default();
        let r = ref_before(text, &format!("button \"{name}\""))
            .ok_or_else(|| format!("rove: no {name} in {text}"))?;
        let click = json!({"cmd": "rove", "command": {"command": "click", "ref": r}});
        cells.push(
            measure(
                async || {
                    let answer = rove.call(click.clone()).await?;
                    Ok(answer["text"].as_str().unwrap_or_default().to_owned())
                },
                &count,
            )
            .await,
        );
    }
    rows.push(("rove", cells));
    let _ = rove.call(json!({"cmd": "quit"})).await;

    // Playwright MCP: refs from browser_snapshot, clicks by browser_click.
    let mut playwright = Mcp::playwright(&node_modules).await?;
    playwright
        .tool("browser_navigate", json!({"url": url}))
        .await?;
    let snapshot = playwright.tool("browser_snapshot", json!({})).await?;
    let mut cells = Vec::new();
    for name in BUTTONS {
        let r = ref_after(&snapshot, &format!("button \"{name}\""), "[ref=", ']')
            .ok_or_else(|| format!("Playwright MCP: no {name} in {snapshot}"))?;
        let args = json!({"element": format!("{name} button"), "target": r});
        cells.push(
            measure(
                async || playwright.tool("browser_click", args.clone()).await,
                &count,
            )
            .await,
        );
    }
    rows.push(("Playwright MCP", cells));

    // chrome-devtools-mcp: uids from take_snapshot, clicks by click.
    let mut devtools = Mcp::devtools(&node_modules).await?;
    let page_id = devtools.devtools_page(&url).await?;
    let snapshot = devtools
        .tool("take_snapshot", json!({"pageId": page_id}))
        .await?;
    let mut cells = Vec::new();
    for name in BUTTONS {
        let uid = uid_before(&snapshot, &format!("button \"{name}\""))
            .ok_or_else(|| format!("chrome-devtools-mcp: no {name} in {snapshot}"))?;
        let args = json!({"uid": uid, "pageId": page_id});
        cells.push(measure(async || devtools.tool("click", args.clone()).await, &count).await);
    }
    rows.push(("chrome-devtools-mcp", cells));

    // agent-browser: refs from snapshot, clicks by `click @eN`.
    let agent_browser = AgentBrowser::new(&node_modules);
    agent_browser.run(&["open", &url]).await?;
    let snapshot = agent_browser.run(&["snapshot"]).await?;
    let mut cells = Vec::new();
    for name in BUTTONS {
        let r = ref_after(&snapshot, &format!("button \"{name}\""), "[ref=", ']')
            .ok_or_else(|| format!("agent-browser: no {name} in {snapshot}"))?;
        let at = format!("@{r}");
        cells.push(measure(async || agent_browser.run(&["click", &at]).await, &count).await);
    }
    rows.push(("agent-browser", cells));

    let mut table = markdown(&rows);
    table.push_str(
        &faces(
            &url,
            &node_modules,
            &mut playwright,
            &mut devtools,
            &agent_browser,
            &count,
        )
        .await?,
    );
    agent_browser.close().await;
    println!("{table}");
    std::fs::write("../click-results.md", &table)?;
    eprintln!("written to ../click-results.md");
    Ok(())
}

/// The faces: the tokens of each MCP server's `tools/list`, and the CLI's
/// own time per command with a warm daemon, against agent-browser's.
async fn faces(
    url: &str,
    node_modules: &std::path::Path,
    playwright: &mut Mcp,
    devtools: &mut Mcp,
    agent_browser: &AgentBrowser,
    count: &impl Fn(&str) -> usize,
) -> Result<String, Box<dyn std::error::Error>> {
    let _ = node_modules;
    let rove_bin = std::env::var("ROVE_BIN").unwrap_or_else(|_| "../../target/release/rove".into());
    let mut rove_mcp = Mcp::start("rove", &rove_bin, &["mcp"]).await?;
    let mut out = String::from("\n| MCP server | tools/list tokens |\n|---|---:|\n");
    for (name, server) in [
        ("rove", &mut rove_mcp),
        ("Playwright MCP", playwright),
        ("chrome-devtools-mcp", devtools),
    ] {
        let tools = server.tools_list().await?;
        out.push_str(&format!("| {name} | {} |\n", count(&tools)));
    }

    // CLI: a warm daemon (or agent-browser's), then timed invocations.
    let session = ["--session", "rove-bench"];
    let rove = |args: &[&str]| {
        let mut command = tokio::process::Command::new(&rove_bin);
        command
            .args(session)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        command
    };
    rove(&["open", url]).output().await?;
    let mut rows = Vec::new();
    for (label, args) in [
        ("eval 1", vec!["eval", "1"]),
        ("snapshot -i", vec!["snapshot", "-i"]),
    ] {
        let mut wall = Vec::new();
        let mut own = Vec::new();
        for _ in 0..RUNS {
            let mut json_args = vec!["--json"];
            json_args.extend(args.iter().copied());
            let started = Instant::now();
            let output = rove(&json_args).output().await?;
            let ms = started.elapsed().as_secs_f64() * 1e3;
            let answer: serde_json::Value =
                serde_json::from_slice(&output.stdout).unwrap_or_default();
            wall.push(ms);
            own.push(ms - answer["ms"].as_f64().unwrap_or(f64::NAN));
        }
        let mut ab = Vec::new();
        agent_browser.run(&["open", url]).await?;
        for _ in 0..RUNS {
            let started = Instant::now();
            agent_browser.run(&args).await?;
            ab.push(started.elapsed().as_secs_f64() * 1e3);
        }
        rows.push(format!(
            "| `{label}` | {:.1} | {:.1} | {:.1} |\n",
            median(&mut wall),
            median(&mut own),
            median(&mut ab)
        ));
    }
    rove(&["close"]).output().await?;
    out.push_str("\n| CLI command, warm | rove: ms | rove's CLI overhead: ms | agent-browser: ms |\n|---|---:|---:|---:|\n");
    for row in rows {
        out.push_str(&row);
    }
    Ok(out)
}

/// Clicks `RUNS` times after one warm-up: the median round trip and the
/// tokens of the last answer.
async fn measure(
    mut click: impl AsyncFnMut() -> std::io::Result<String>,
    count: &impl Fn(&str) -> usize,
) -> Cell {
    if let Err(e) = click().await {
        eprintln!("{e}");
        return Cell {
            ms: f64::NAN,
            tokens: 0,
        };
    }
    let mut times = Vec::new();
    let mut text = String::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        match click().await {
            Ok(t) => text = t,
            Err(e) => {
                eprintln!("{e}");
                return Cell {
                    ms: f64::NAN,
                    tokens: 0,
                };
            }
        }
        times.push(started.elapsed().as_secs_f64() * 1e3);
    }
    eprintln!(
        "{:.1} ms, last answer:\n{text}\n",
        median(&mut times.clone())
    );
    Cell {
        ms: median(&mut times),
        tokens: count(&text),
    }
}

/// The `eN` at the start of the line that holds `marker` (rove's format).
fn ref_before(text: &str, marker: &str) -> Option<String> {
    let line = text.lines().find(|l| l.contains(marker))?;
    line.split_whitespace()
        .find(|w| w.starts_with('e') && w[1..].chars().all(|c| c.is_ascii_digit()))
        .map(str::to_owned)
}

/// chrome-devtools-mcp's `uid=1_3 button "Name"`.
fn uid_before(text: &str, marker: &str) -> Option<String> {
    let line = text.lines().find(|l| l.contains(marker))?;
    line.split_whitespace()
        .find_map(|w| w.strip_prefix("uid="))
        .map(str::to_owned)
}

/// The text between `open` and `close` on the line that holds `marker`.
fn ref_after(text: &str, marker: &str, open: &str, close: char) -> Option<String> {
    let line = text.lines().find(|l| l.contains(marker))?;
    let start = line.find(open)? + open.len();
    let rest = &line[start..];
    Some(rest[..rest.find(close)?].to_owned())
}

fn markdown(rows: &[(&str, Vec<Cell>)]) -> String {
    let mut out = String::from(
        "| tool | no-op click: ms | tokens | text change: ms | tokens | after a 100 ms request: ms | tokens |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (tool, cells) in rows {
        out.push_str(&format!("| {tool} |"));
        for cell in cells {
            out.push_str(&format!(" {:.1} | {} |", cell.ms, cell.tokens));
        }
        out.push('\n');
    }
    let rove_ms: Vec<f64> = rows[0].1.iter().map(|c| c.ms).collect();
    if let Some((_, pw)) = rows.iter().find(|(t, _)| *t == "Playwright MCP") {
        let ratios: Vec<String> = rove_ms
            .iter()
            .zip(pw)
            .map(|(r, p)| format!("{:.2}", r / p.ms))
            .collect();
        out.push_str(&format!(
            "\nrove / Playwright MCP click time: {} (no-op, text change, after a request)\n",
            ratios.join(", ")
        ));
    }
    out
}
