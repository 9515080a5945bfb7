//! What a context costs: Chromium gives every context rove creates a hidden
//! window, and each window used to preload its omnibox popup (two WebUI
//! pages in a renderer of their own, about 50 MB a context). rove's launch
//! switches turn that off; this checks it stays off on the installed
//! Chromium, against a control browser launched the old way.

use crate::support;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rove_browser::{Browser, LaunchOptions};
use support::{fixture_server, launch};

const LOAD: Duration = Duration::from_secs(10);

/// The feature list rove launched with before it turned the popups off
/// (a later `--disable-features` replaces an earlier one).
const OLD_FEATURES: &str =
    "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication";

/// Chromium's own UI pages in the browser: targets of type `browser_ui`.
async fn browser_ui_targets(browser: &Browser) -> Vec<String> {
    let conn = browser.connection().await.expect("connection");
    let every_kind = rove_cdp::protocol::target::GetTargets {
        filter: Some(vec![Default::default()]),
    };
    let answer = conn
        .browser()
        .send(&every_kind)
        .await
        .expect("Target.getTargets");
    answer
        .target_infos
        .into_iter()
        .filter(|t| t.kind == "browser_ui")
        .map(|t| t.url)
        .collect()
}

/// The command lines of every process below `root`.
fn descendants_cmdlines(root: u32) -> Vec<String> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if let Some(ppid) = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok())
        {
            children.entry(ppid).or_default().push(pid);
        }
    }
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        for &kid in children.get(&pid).into_iter().flatten() {
            if let Ok(raw) = std::fs::read(format!("/proc/{kid}/cmdline")) {
                out.push(String::from_utf8_lossy(&raw).replace('\0', " "));
            }
            todo.push(kid);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_context_preloads_no_browser_ui_renderer() {
    let server = fixture_server().await;
    let control = Browser::launch(LaunchOptions {
        extra_args: vec![OLD_FEATURES.into()],
        ..LaunchOptions::default()
    })
    .await
    .expect("control browser");
    let browser = launch().await;
    let mut tabs = Vec::new();
    for b in [&browser, &control] {
        let context = b.new_context().await.expect("context");
        let tab = context.new_tab().await.expect("tab");
        tab.goto(&server.url("/hello"), LOAD).await.expect("page");
        tabs.push((context, tab));
    }

    // The control shows the popups once its context's window has made
    // them; rove's browser, which did the same first, has had as long.
    let started = Instant::now();
    let mut control_ui = Vec::new();
    while control_ui.is_empty() && started.elapsed() < Duration::from_secs(20) {
        control_ui = browser_ui_targets(&control).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        control_ui
            .iter()
            .any(|u| u.starts_with("chrome://omnibox-popup")),
        "the control browser never showed its omnibox popup, so the check below \
         would prove nothing: {control_ui:?}"
    );

    assert_eq!(browser_ui_targets(&browser).await, Vec::<String>::new());
    let pid = browser.pid().expect("a launched browser has a pid");
    let webui: Vec<String> = descendants_cmdlines(pid)
        .into_iter()
        .filter(|c| c.contains("--top-chrome-webui"))
        .collect();
    assert!(webui.is_empty(), "browser UI renderers: {webui:?}");

    drop(tabs);
    browser.close().await;
    control.close().await;
}
