//! How long the accessibility tree's own queries take on a big page, beside
//! rove's view and find (the "measure the alternatives" of the page model):
//! `Accessibility.getFullAXTree`, `Accessibility.queryAXTree` (by name, by
//! role), `Accessibility.getPartialAXTree` on one element with its
//! relatives, `DOMSnapshot.captureSnapshot`, and rove's view and `find`.
//! Medians of 5 warm calls. `rove-bench-ax [URL]` (default: the Python docs'
//! stdtypes.html, served on 127.0.0.1).
#![allow(clippy::print_stdout)]
// The alternatives measured are methods rove never sends, so they have no
// typed definition: they go by name, which only a benchmark may do.
#![allow(clippy::disallowed_methods)]

use std::time::{Duration, Instant};

use rove_browser::{Browser, LaunchOptions};
use rove_localserver::{LocalServer, Routes};
use rove_page::{FindQuery, PageModel, ViewOptions};
use serde_json::json;

const RUNS: usize = 5;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pydoc =
        std::env::var("ROVE_BENCH_PYDOC").unwrap_or_else(|_| "/usr/share/doc/python3/html".into());
    let server = LocalServer::start(Routes::new().folder("/pydoc", &pydoc)).await?;
    let url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| server.url("/pydoc/library/stdtypes.html"));
    let browser = Browser::launch(LaunchOptions::default()).await?;
    let tab = browser.new_context().await?.new_tab().await?;
    tab.goto(&url, Duration::from_secs(60)).await?;
    let mut model = PageModel::new(tab.clone());
    model.view(&ViewOptions::default()).await?;
    let session = tab.session().await?;
    session
        .send(&rove_cdp::protocol::accessibility::Enable {})
        .await?;
    let document = session
        .send(&rove_cdp::protocol::runtime::Evaluate {
            expression: "document".to_owned(),
            ..Default::default()
        })
        .await?;
    let root = session
        .send(&rove_cdp::protocol::dom::DescribeNode::of(
            document.result.object_id.unwrap_or_default(),
        ))
        .await?
        .node
        .backend_node_id;
    let heading = session
        .send(&rove_cdp::protocol::runtime::Evaluate {
            expression: "document.querySelectorAll('h2')[5] || document.body".to_owned(),
            ..Default::default()
        })
        .await?;
    let described = session
        .send(&rove_cdp::protocol::dom::DescribeNode::of(
            heading.result.object_id.unwrap_or_default(),
        ))
        .await?;
    let node = described.node.backend_node_id;

    let mut rows: Vec<(String, f64, String)> = Vec::new();
    let calls: Vec<(&str, &str, serde_json::Value)> = vec![
        (
            "Accessibility.getFullAXTree",
            "Accessibility.getFullAXTree",
            json!({}),
        ),
        (
            "Accessibility.queryAXTree, by name",
            "Accessibility.queryAXTree",
            json!({"backendNodeId": root, "accessibleName": "str.split"}),
        ),
        (
            "Accessibility.queryAXTree, by role (every link)",
            "Accessibility.queryAXTree",
            json!({"backendNodeId": root, "role": "link"}),
        ),
        (
            "Accessibility.getPartialAXTree, one element and its relatives",
            "Accessibility.getPartialAXTree",
            json!({"backendNodeId": node, "fetchRelatives": true}),
        ),
        (
            "DOMSnapshot.captureSnapshot",
            "DOMSnapshot.captureSnapshot",
            json!({"computedStyles": ["display", "visibility", "opacity", "cursor"], "includeDOMRects": true}),
        ),
    ];
    for (label, method, params) in calls {
        let mut times = Vec::new();
        let mut size = 0;
        for _ in 0..=RUNS {
            let started = Instant::now();
            let answer = session
                .call_untyped_raw(method, &params, Some(Duration::from_secs(120)))
                .await?;
            times.push(started.elapsed().as_secs_f64() * 1e3);
            size = answer.get().len();
        }
        times.remove(0);
        rows.push((
            label.to_owned(),
            median(&mut times),
            format!("{} KB", size / 1024),
        ));
    }
    let mut times = Vec::new();
    for _ in 0..=RUNS {
        let started = Instant::now();
        model.view(&ViewOptions::default()).await?;
        times.push(started.elapsed().as_secs_f64() * 1e3);
    }
    times.remove(0);
    rows.push((
        "rove full view (default budget)".into(),
        median(&mut times),
        String::new(),
    ));
    let mut times = Vec::new();
    for _ in 0..=RUNS {
        let started = Instant::now();
        model
            .find(&FindQuery {
                text: "str.split".into(),
                role: None,
                limit: Some(20),
            })
            .await?;
        times.push(started.elapsed().as_secs_f64() * 1e3);
    }
    times.remove(0);
    rows.push((
        "rove find \"str.split\" (every frame)".into(),
        median(&mut times),
        String::new(),
    ));
    println!(
        "| call on {} | ms | answer |\n|---|---:|---:|",
        url.rsplit('/').next().unwrap_or(&url)
    );
    for (label, ms, size) in rows {
        println!("| {label} | {ms:.1} | {size} |");
    }
    browser.close().await;
    Ok(())
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(|a, b| a.total_cmp(b));
    times[times.len() / 2]
}
