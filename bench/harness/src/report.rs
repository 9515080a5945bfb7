//! Results and the Markdown table written to bench/results.md.

use serde_json::Value;

#[derive(Debug, Clone, Copy)]
pub enum Tokens {
    Some(usize),
    Failed,
}

#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub tokens: Tokens,
    pub ms: f64,
}

impl Default for Sample {
    fn default() -> Self {
        Sample {
            tokens: Tokens::Failed,
            ms: f64::NAN,
        }
    }
}

#[derive(Debug, Default)]
pub struct PageResult {
    pub name: String,
    pub rove: Sample,
    pub rove_unlimited: usize,
    pub rove_interactive: usize,
    pub rove_floor_ms: f64,
    pub rove_diff: (usize, String),
    pub rove_cut: bool,
    pub playwright: Sample,
    pub devtools: Sample,
    pub agent_browser: Sample,
    pub agent_browser_interactive: usize,
}

impl PageResult {
    pub fn new(name: &str) -> Self {
        PageResult {
            name: name.to_owned(),
            ..PageResult::default()
        }
    }
}

pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn tokens(t: Tokens) -> String {
    match t {
        Tokens::Some(n) => n.to_string(),
        Tokens::Failed => "failed".into(),
    }
}

fn n(t: Tokens) -> Option<f64> {
    match t {
        Tokens::Some(n) => Some(n as f64),
        Tokens::Failed => None,
    }
}

fn ms(v: f64) -> String {
    if v.is_nan() {
        "–".into()
    } else if v < 10.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.1}")
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 && a.is_finite() && b.is_finite() => format!("{:.2}", a / b),
        _ => "–".into(),
    }
}

pub fn markdown(results: &[PageResult], memory: &[(String, u64)], versions: &Value) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "Peers: Playwright MCP {}, chrome-devtools-mcp {}, agent-browser {}. Tokens are o200k; times are medians of warm calls (21 when a call takes under 100 ms, else 5; rove: 41), in ms.\n\n",
        versions["playwright"].as_str().unwrap_or("?"),
        versions["devtools"].as_str().unwrap_or("?"),
        versions["agent_browser"].as_str().unwrap_or("?"),
    ));
    s.push_str("### View size (o200k tokens)\n\n");
    s.push_str("| page | rove full (default budget) | rove full, no budget | Playwright MCP | chrome-devtools-mcp | agent-browser | rove ÷ smallest peer | rove interactive | agent-browser -i | diff after one change |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for r in results {
        let smallest = [
            r.playwright.tokens,
            r.devtools.tokens,
            r.agent_browser.tokens,
        ]
        .into_iter()
        .filter_map(n)
        .fold(f64::INFINITY, f64::min);
        let smallest = smallest.is_finite().then_some(smallest);
        s.push_str(&format!(
            "| {} | {}{} | {} | {} | {} | {} | {} | {} | {} | {} ({}) |\n",
            r.name,
            tokens(r.rove.tokens),
            if r.rove_cut { " (cut)" } else { "" },
            r.rove_unlimited,
            tokens(r.playwright.tokens),
            tokens(r.devtools.tokens),
            tokens(r.agent_browser.tokens),
            ratio(n(r.rove.tokens), smallest),
            r.rove_interactive,
            r.agent_browser_interactive,
            r.rove_diff.0,
            r.rove_diff.1.to_lowercase(),
        ));
    }
    s.push_str("\n### Warm view latency (ms)\n\n");
    s.push_str("| page | rove | floor (bare CDP calls) | rove ÷ floor | Playwright MCP | rove ÷ Playwright | chrome-devtools-mcp | agent-browser |\n|---|---|---|---|---|---|---|---|\n");
    for r in results {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.name,
            ms(r.rove.ms),
            ms(r.rove_floor_ms),
            ratio(Some(r.rove.ms), Some(r.rove_floor_ms)),
            ms(r.playwright.ms),
            ratio(Some(r.rove.ms), Some(r.playwright.ms)),
            ms(r.devtools.ms),
            ms(r.agent_browser.ms),
        ));
    }
    s.push_str("\n### Peak memory of the tool's own process (browser excluded)\n\n| tool | peak RSS |\n|---|---|\n");
    for (tool, kb) in memory {
        s.push_str(&format!("| {tool} | {:.1} MB |\n", *kb as f64 / 1024.0));
    }
    s
}
