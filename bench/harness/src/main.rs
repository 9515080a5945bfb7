//! Side-by-side benchmark of the page view: rove against Playwright MCP,
//! chrome-devtools-mcp and agent-browser, on the same locally served pages,
//! in one run. See ../README.md for how to run it and what it measures.
#![allow(clippy::print_stdout)]

mod miniwob;
mod peers;
mod report;

use std::path::PathBuf;
use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};

use crate::peers::{AgentBrowser, Child, Mcp};
use crate::report::{PageResult, Sample, Tokens, median};

/// rove's runs are cheap, so more of them steady the medians.
const ROVE_RUNS: usize = 41;

fn big_table() -> String {
    let mut html = String::from(
        "<!doctype html><title>Big table</title><h1>Inventory</h1><table><thead><tr><th>Item</th><th>Stock</th><th>Action</th></tr></thead><tbody>",
    );
    for i in 1..=10_000 {
        html.push_str(&format!(
            "<tr><td>Item {i}</td><td>{}</td><td><button>Edit {i}</button></td></tr>",
            i * 7 % 100
        ));
    }
    html.push_str("</tbody></table>");
    html
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cache =
        PathBuf::from(std::env::var("ROVE_BENCH_CACHE").unwrap_or_else(|_| "../.cache".into()));
    let miniwob = cache.join("miniwob/miniwob/html");
    let pydoc = PathBuf::from(
        std::env::var("ROVE_BENCH_PYDOC").unwrap_or_else(|_| "/usr/share/doc/python3/html".into()),
    );
    let routes = crate::miniwob::serve(
        Routes::new()
            .folder("/pydoc", &pydoc)
            .page("/big-table.html", Response::html(big_table())),
        &miniwob,
        &MINIWOB,
    )?;
    let server = LocalServer::start(routes).await?;

    let mut pages: Vec<(String, String)> = MINIWOB
        .iter()
        .map(|t| {
            (
                t.to_string(),
                server.url(&format!("/miniwob/miniwob/{t}.html")),
            )
        })
        .collect();
    for doc in [
        "library/stdtypes.html",
        "library/functions.html",
        "genindex-all.html",
    ] {
        pages.push((
            doc.rsplit('/').next().unwrap_or(doc).to_owned(),
            server.url(&format!("/pydoc/{doc}")),
        ));
    }
    pages.push(("10,000-row table".into(), server.url("/big-table.html")));
    if let Ok(only) = std::env::var("ROVE_BENCH_ONLY") {
        pages.retain(|(name, _)| only.split(',').any(|o| name.contains(o)));
    }

    let bpe = tiktoken_rs::o200k_base()?;
    let count = |text: &str| bpe.encode_with_special_tokens(text).len();
    let agent_path = std::env::current_exe()?.with_file_name("rove-view-agent");
    let mut rove = Child::spawn(&agent_path, &[]).await?;
    let node_modules = cache.join("node_modules");
    let mut playwright = Mcp::playwright(&node_modules).await?;
    let mut devtools = Mcp::devtools(&node_modules).await?;
    let agent_browser = AgentBrowser::new(&node_modules);

    let mut results = Vec::new();
    for (name, url) in &pages {
        eprintln!("== {name}");
        let mut page = PageResult::new(name);

        // rove
        rove.call(json!({"cmd": "open", "url": url})).await?;
        let _cold = rove.call(json!({"cmd": "view", "mode": "full"})).await?;
        // Views and floors alternate, so drift on a busy machine hits both.
        let mut times = Vec::new();
        let mut floors = Vec::new();
        let mut text = String::new();
        for _ in 0..ROVE_RUNS {
            let v = rove.call(json!({"cmd": "view", "mode": "full"})).await?;
            times.push(v["ms"].as_f64().unwrap_or(f64::NAN));
            text = v["text"].as_str().unwrap_or_default().to_owned();
            floors.push(
                rove.call(json!({"cmd": "floor"})).await?["ms"]
                    .as_f64()
                    .unwrap_or(f64::NAN),
            );
        }
        let interactive = rove
            .call(json!({"cmd": "view", "mode": "interactive"}))
            .await?;
        let unlimited = rove
            .call(json!({"cmd": "view", "mode": "full", "budget": 0}))
            .await?;
        let full_unlimited = unlimited["text"].as_str().unwrap_or_default();
        rove.call(json!({"cmd": "eval", "js": ONE_CHANGE})).await?;
        let diff = rove
            .call(json!({"cmd": "view", "mode": "diff", "budget": 0}))
            .await?;
        page.rove = Sample {
            tokens: Tokens::Some(count(&text)),
            ms: median(&mut times),
        };
        page.rove_unlimited = count(full_unlimited);
        page.rove_interactive = count(interactive["text"].as_str().unwrap_or_default());
        page.rove_floor_ms = median(&mut floors);
        page.rove_diff = (
            count(diff["text"].as_str().unwrap_or_default()),
            diff["mode"].as_str().unwrap_or("?").to_owned(),
        );
        page.rove_cut = text.contains("… cut at the");

        page.playwright = playwright
            .measure(
                "browser_navigate",
                json!({"url": url}),
                "browser_snapshot",
                json!({}),
                &count,
            )
            .await;
        page.devtools = devtools.measure_devtools(url, &count).await;
        let (full, inter) = agent_browser.measure(url, &count).await;
        page.agent_browser = full;
        page.agent_browser_interactive = inter;
        eprintln!("{page:?}");
        results.push(page);
    }

    let rove_hwm = rove.call(json!({"cmd": "rss"})).await?["hwm_kb"]
        .as_u64()
        .unwrap_or(0);
    let memory = vec![
        ("rove".to_owned(), rove_hwm),
        ("Playwright MCP".to_owned(), playwright.peak_kb()),
        ("chrome-devtools-mcp".to_owned(), devtools.peak_kb()),
        ("agent-browser".to_owned(), agent_browser.peak_kb()),
    ];
    let versions: Value = json!({
        "playwright": peers::package_version(&node_modules, "@playwright/mcp"),
        "devtools": peers::package_version(&node_modules, "chrome-devtools-mcp"),
        "agent_browser": peers::package_version(&node_modules, "agent-browser"),
    });
    let table = report::markdown(&results, &memory, &versions);
    println!("{table}");
    let out = PathBuf::from("../results.md");
    std::fs::write(&out, &table)?;
    eprintln!("written to {}", out.display());
    let _ = rove.call(json!({"cmd": "quit"})).await;
    agent_browser.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(())
}

const MINIWOB: [&str; 6] = [
    "click-button",
    "login-user",
    "email-inbox",
    "book-flight",
    "social-media",
    "click-checkboxes",
];

/// One visible element's text changes, as after a typical action.
const ONE_CHANGE: &str = "(() => { const el = Array.from(document.querySelectorAll('button,a,h1,h2,h3,label,span,p,td,li')).find((e) => e.checkVisibility() && e.children.length === 0 && e.textContent.trim()); if (el) el.textContent = el.textContent + ' (changed)'; return !!el; })()";
