//! Commands and tokens per task on two real applications (Django's admin,
//! JupyterLab), rove beside agent-browser, from the transcripts each side
//! wrote: rove's end-to-end tests (crates/rove/tests/it/real_apps) and
//! bench/apps_agent_browser.py, one JSON line per command with its task and
//! everything it printed. Tokens are o200k of what the tool printed (stdout
//! and stderr), the part an agent reads.
//!
//! `rove-bench-apps ROVE_DIR AGENT_BROWSER_DIR` prints the table and writes
//! it to bench/apps-results.md.
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::path::Path;

/// Per task: commands and tokens, summed over one test's transcript.
#[derive(Default, Clone, Copy)]
struct Tally {
    commands: usize,
    tokens: usize,
}

/// The tasks of every transcript in `dir`, in the order they first appear,
/// each with its tally. A task that two tests share (logging in) is the
/// mean of the two.
fn tally(
    dir: &Path,
    count: &impl Fn(&str) -> usize,
) -> Result<Vec<(String, Tally)>, Box<dyn std::error::Error>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort_by_key(|p| order(p));
    let mut tasks: Vec<String> = Vec::new();
    let mut seen: BTreeMap<String, Vec<Tally>> = BTreeMap::new();
    for file in files {
        let mut this: BTreeMap<String, Tally> = BTreeMap::new();
        for line in std::fs::read_to_string(&file)?.lines() {
            let entry: serde_json::Value = serde_json::from_str(line)?;
            let task = entry["task"].as_str().unwrap_or_default().to_owned();
            if !tasks.contains(&task) {
                tasks.push(task.clone());
            }
            let printed = format!(
                "{}{}",
                entry["stdout"].as_str().unwrap_or_default(),
                entry["stderr"].as_str().unwrap_or_default()
            );
            let t = this.entry(task).or_default();
            t.commands += 1;
            t.tokens += count(&printed);
        }
        for (task, t) in this {
            seen.entry(task).or_default().push(t);
        }
    }
    Ok(tasks
        .into_iter()
        .map(|task| {
            let runs = &seen[&task];
            let n = runs.len().max(1);
            let mean = Tally {
                commands: runs.iter().map(|t| t.commands).sum::<usize>().div_ceil(n),
                tokens: runs.iter().map(|t| t.tokens).sum::<usize>().div_ceil(n),
            };
            (task, mean)
        })
        .collect())
}

/// Transcripts in the order the tasks build on each other.
fn order(path: &Path) -> usize {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    ["django_group", "django_user", "jupyter"]
        .iter()
        .position(|n| *n == name)
        .unwrap_or(usize::MAX)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(rove_dir), Some(peer_dir)) = (args.get(1), args.get(2)) else {
        return Err("usage: rove-bench-apps ROVE_TRANSCRIPTS AGENT_BROWSER_TRANSCRIPTS".into());
    };
    let bpe = tiktoken_rs::o200k_base()?;
    let count = |s: &str| bpe.encode_with_special_tokens(s).len();
    let rove = tally(Path::new(rove_dir), &count)?;
    let peer: BTreeMap<String, Tally> = tally(Path::new(peer_dir), &count)?.into_iter().collect();

    let mut out = String::from(
        "| task | rove: commands | rove: tokens | agent-browser: commands | agent-browser: tokens | rove ÷ agent-browser, tokens |\n|---|---:|---:|---:|---:|---:|\n",
    );
    let mut totals: BTreeMap<&str, (Tally, Tally)> = BTreeMap::new();
    for (task, r) in &rove {
        let p = peer.get(task).copied().unwrap_or_default();
        let app = task.split(':').next().unwrap_or_default();
        let total = totals.entry(app).or_default();
        total.0.commands += r.commands;
        total.0.tokens += r.tokens;
        total.1.commands += p.commands;
        total.1.tokens += p.tokens;
        out.push_str(&row(task, *r, p));
    }
    for (app, (r, p)) in &totals {
        out.push_str(&row(&format!("**{app}, all tasks**"), *r, *p));
    }
    print!("{out}");
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../apps-results.md");
    std::fs::write(results, &out)?;
    Ok(())
}

fn row(task: &str, r: Tally, p: Tally) -> String {
    let ratio = if p.tokens == 0 {
        "–".to_owned()
    } else {
        format!("{:.2}", r.tokens as f64 / p.tokens as f64)
    };
    format!(
        "| {task} | {} | {} | {} | {} | {ratio} |\n",
        r.commands, r.tokens, p.commands, p.tokens
    )
}
