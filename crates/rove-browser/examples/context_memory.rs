//! What an isolated page costs Chromium: the same page held open N times in
//! three ways, and the steady-state memory of all of Chromium's processes.
//!
//! - `tabs`: N tabs in ONE context of one browser, no isolation between
//!   them: the floor, what the page itself costs;
//! - `contexts`: one context each in one browser (what `rove test` does by
//!   default);
//! - `browsers`: a browser each, with a context in it (`--isolate browser`).
//!
//! Memory is the sum of the proportional set size (`Pss` of
//! `/proc/PID/smaps_rollup`, so pages shared between processes count once)
//! over every process this program started, read a few times after the
//! pages have settled; the median is kept. The processes are also counted
//! by Chromium's `--type=` (renderer, gpu-process, utility, zygote), which
//! shows how Chromium gave out renderer processes.
//!
//! ```text
//! cargo run -p rove-browser --example context_memory -- \
//!     [--counts 1,8,16] [--modes tabs,contexts,browsers] [--url URL] \
//!     [--settle-ms 3000] [-- CHROMIUM_SWITCH…]
//! ```
//!
//! Without `--url` it serves the offline demo shop (crates/rove-demo) on
//! 127.0.0.1 and opens its catalogue (`/products`). Switches after `--` are
//! added to every browser it starts, so a switch can be measured in all
//! three ways at once. Linux only (it reads /proc).

// The report on stdout is what this program is for.
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::error::Error;
use std::time::Duration;

use rove_browser::{Browser, BrowserContext, LaunchOptions, Tab};

type Failure = Box<dyn Error>;

const GOTO_DEADLINE: Duration = Duration::from_secs(60);
const SAMPLES: usize = 5;
const SAMPLE_GAP: Duration = Duration::from_millis(400);

#[derive(Debug)]
struct Config {
    counts: Vec<usize>,
    modes: Vec<String>,
    url: Option<String>,
    settle: Duration,
    switches: Vec<String>,
}

fn parse_args() -> Result<Config, Failure> {
    let mut config = Config {
        counts: vec![1, 8, 16],
        modes: ["tabs", "contexts", "browsers"].map(String::from).to_vec(),
        url: None,
        settle: Duration::from_millis(3000),
        switches: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--counts" => {
                config.counts = value()?
                    .split(',')
                    .map(|n| n.trim().parse::<usize>())
                    .collect::<Result<_, _>>()?;
            }
            "--modes" => config.modes = value()?.split(',').map(String::from).collect(),
            "--url" => config.url = Some(value()?),
            "--settle-ms" => config.settle = Duration::from_millis(value()?.parse()?),
            "--" => {
                config.switches = args.by_ref().collect();
            }
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    if let Some(bad) = config
        .modes
        .iter()
        .find(|m| !["tabs", "contexts", "browsers"].contains(&m.as_str()))
    {
        return Err(format!("unknown mode {bad} (tabs, contexts, browsers)").into());
    }
    if config.counts.contains(&0) {
        return Err("a count must be at least 1".into());
    }
    Ok(config)
}

/// Every process below this one (the browsers and their children).
fn descendants() -> Vec<u32> {
    let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // The command name may hold spaces and parentheses: the parent
            // is the second field after the last ')'.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            if let Some(ppid) = ppid {
                children.entry(ppid).or_default().push(pid);
            }
        }
    }
    let mut out = Vec::new();
    let mut todo = vec![std::process::id()];
    while let Some(pid) = todo.pop() {
        if let Some(kids) = children.get(&pid) {
            out.extend(kids);
            todo.extend(kids);
        }
    }
    out
}

/// A process's (PSS, private) memory in KiB. PSS shares a page among
/// every process mapping it, other users' Chromiums included, so it moves
/// when they start or stop; the private part (USS) does not.
fn memory_kb(pid: u32) -> (u64, u64) {
    let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")) else {
        return (0, 0);
    };
    let field = |key: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    (
        field("Pss:"),
        field("Private_Clean:") + field("Private_Dirty:"),
    )
}

/// Chromium's name for a process: its `--type=`, with the utility's
/// sub-type (network, storage, audio…); `browser` when it has none.
fn kind(pid: u32) -> String {
    let Ok(raw) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return "gone".into();
    };
    // Chromium rewrites its command line into one space-separated string.
    let args: Vec<String> = raw
        .split(|&b| b == 0 || b == b' ')
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let find = |key: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(key))
            .map(String::from)
    };
    match find("--type=") {
        None => "browser".into(),
        Some(t) if t == "utility" => match find("--utility-sub-type=") {
            Some(sub) => format!("utility:{}", sub.rsplit('.').next().unwrap_or(sub.as_str())),
            None => t,
        },
        Some(t) => t,
    }
}

/// One reading of the whole tree: total PSS and USS and, per kind, count
/// and PSS.
#[derive(Debug, Default, Clone)]
struct Reading {
    total_kb: u64,
    private_kb: u64,
    kinds: BTreeMap<String, (usize, u64)>,
}

fn read_tree() -> Reading {
    let mut reading = Reading::default();
    for pid in descendants() {
        let (pss, private) = memory_kb(pid);
        reading.total_kb += pss;
        reading.private_kb += private;
        let slot = reading.kinds.entry(kind(pid)).or_default();
        slot.0 += 1;
        slot.1 += pss;
    }
    reading
}

/// The median of a few readings, once the pages have settled.
async fn steady_reading(settle: Duration) -> Reading {
    tokio::time::sleep(settle).await;
    let mut readings = Vec::new();
    for _ in 0..SAMPLES {
        readings.push(read_tree());
        tokio::time::sleep(SAMPLE_GAP).await;
    }
    readings.sort_by_key(|r| r.total_kb);
    readings
        .get(readings.len() / 2)
        .cloned()
        .unwrap_or_default()
}

fn launch_options(config: &Config) -> LaunchOptions {
    LaunchOptions {
        extra_args: config.switches.clone(),
        ..LaunchOptions::default()
    }
}

async fn open(context: &BrowserContext, url: &str) -> Result<Tab, Failure> {
    let tab = context.new_tab().await?;
    tab.goto(url, GOTO_DEADLINE).await?;
    Ok(tab)
}

/// Opens `n` pages the `mode` way, reads the memory, closes everything.
async fn measure(config: &Config, mode: &str, n: usize, url: &str) -> Result<Reading, Failure> {
    let mut browsers = Vec::new();
    let mut contexts = Vec::new();
    let mut tabs = Vec::new();
    let opened: Result<(), Failure> = async {
        match mode {
            "tabs" => {
                let browser = Browser::launch(launch_options(config)).await?;
                browsers.push(browser.clone());
                let context = browser.new_context().await?;
                contexts.push(context.clone());
                for _ in 0..n {
                    tabs.push(open(&context, url).await?);
                }
            }
            "contexts" => {
                let browser = Browser::launch(launch_options(config)).await?;
                browsers.push(browser.clone());
                for _ in 0..n {
                    let context = browser.new_context().await?;
                    contexts.push(context.clone());
                    tabs.push(open(&context, url).await?);
                }
            }
            _ => {
                for _ in 0..n {
                    let browser = Browser::launch(launch_options(config)).await?;
                    browsers.push(browser.clone());
                    let context = browser.new_context().await?;
                    contexts.push(context.clone());
                    tabs.push(open(&context, url).await?);
                }
            }
        }
        Ok(())
    }
    .await;
    let reading = match opened {
        Ok(()) => Ok(steady_reading(config.settle).await),
        Err(e) => Err(e),
    };
    drop(tabs);
    for browser in &browsers {
        browser.close().await;
    }
    // The next configuration starts from nothing: wait (bounded) until
    // every process of this one has gone.
    for _ in 0..100 {
        if descendants().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    reading
}

fn mb(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

fn describe(reading: &Reading) -> String {
    reading
        .kinds
        .iter()
        .map(|(kind, (count, kb))| format!("{kind} {count}× {:.0} MB", mb(*kb)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Failure> {
    let config = parse_args()?;
    let _site;
    let url = match &config.url {
        Some(url) => url.clone(),
        None => {
            let site = rove_demo::DemoSite::start(0).await?;
            let url = format!("{}/products", site.url());
            _site = site;
            url
        }
    };
    println!("page {url}; extra switches: {:?}", config.switches);
    let mut totals: BTreeMap<(String, usize), (u64, u64)> = BTreeMap::new();
    for mode in &config.modes {
        for &n in &config.counts {
            let reading = measure(&config, mode, n, &url).await?;
            println!(
                "{mode:>8} N={n:>2}: PSS {:>5.0} MB, USS {:>5.0} MB  ({})",
                mb(reading.total_kb),
                mb(reading.private_kb),
                describe(&reading)
            );
            totals.insert((mode.clone(), n), (reading.total_kb, reading.private_kb));
        }
    }
    summarize(&config.counts, &totals);
    Ok(())
}

/// Per extra page, from the smallest count to each larger one, by PSS and
/// by USS: the floor (tabs), a context, a browser, and what isolation adds.
fn summarize(counts: &[usize], totals: &BTreeMap<(String, usize), (u64, u64)>) {
    let Some(&low) = counts.iter().min() else {
        return;
    };
    for &high in counts.iter().filter(|&&n| n > low) {
        for (name, pick) in [("PSS", 0), ("USS", 1)] {
            let per_page = |mode: &str| -> Option<f64> {
                let value = |n| {
                    totals
                        .get(&(mode.to_string(), n))
                        .map(|t: &(u64, u64)| if pick == 0 { t.0 } else { t.1 })
                };
                Some((mb(value(high)?) - mb(value(low)?)) / (high - low) as f64)
            };
            let (floor, context, browser) =
                (per_page("tabs"), per_page("contexts"), per_page("browsers"));
            let show = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.1} MB"));
            print!(
                "{name} per extra page, N {low} to {high}: floor {}, context {}, browser {}",
                show(floor),
                show(context),
                show(browser)
            );
            if let (Some(f), Some(c), Some(b)) = (floor, context, browser) {
                print!(
                    "; context/browser {:.2}; isolation overhead: context {:.1} MB, browser {:.1} MB ({:.2})",
                    c / b,
                    c - f,
                    b - f,
                    (c - f) / (b - f)
                );
            }
            println!();
        }
    }
}
