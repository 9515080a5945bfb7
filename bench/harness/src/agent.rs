//! rove's page model as its own process, driven by JSON lines on stdin, so
//! the benchmark measures rove's memory and nothing of the harness's.
//!
//! Commands: {"cmd":"open","url":…}, {"cmd":"view","mode":"full"|"interactive"|"diff","budget":n},
//! {"cmd":"floor"}, {"cmd":"eval","js":…}, {"cmd":"rss"}, {"cmd":"quit"}, and
//! {"cmd":"rove","command":{…}}: one command of rove's vocabulary, run on a
//! session of its own, answered with the text a model would read.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use rove_browser::{Browser, LaunchOptions, Tab};
use rove_cdp::protocol::{dom, dom_debugger, page, runtime};
use rove_page::{Mode, PageModel, ViewOptions};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let browser = match Browser::launch(LaunchOptions::default()).await {
        Ok(b) => b,
        Err(e) => {
            println!("{}", json!({"error": e.to_string()}));
            return;
        }
    };
    let mut model: Option<PageModel> = None;
    let mut session: Option<rove_commands::Session> = None;
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(cmd) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let reply = match cmd["cmd"].as_str().unwrap_or_default() {
            "open" => {
                open(
                    &browser,
                    &mut model,
                    cmd["url"].as_str().unwrap_or("about:blank"),
                )
                .await
            }
            "view" => view(&mut model, &cmd).await,
            "floor" => floor(&model, &cmd).await,
            "eval" => match &model {
                Some(m) => match m.tab().evaluate(cmd["js"].as_str().unwrap_or("0")).await {
                    Ok(v) => json!({"value": v}),
                    Err(e) => json!({"error": e.to_string()}),
                },
                None => json!({"error": "no page"}),
            },
            "rove" => command(&browser, &mut session, &cmd["command"]).await,
            "rss" => json!({"hwm_kb": status_kb("VmHWM"), "rss_kb": status_kb("VmRSS")}),
            "quit" => break,
            other => json!({"error": format!("unknown command {other}")}),
        };
        println!("{reply}");
    }
    browser.close().await;
}

async fn open(browser: &Browser, model: &mut Option<PageModel>, url: &str) -> Value {
    // One fresh tab per page, as a new session would have.
    if let Some(old) = model.take() {
        let _ = old.tab().send(&page::Close {}).await;
    }
    let tab: Tab = match async { browser.new_context().await?.new_tab().await }.await {
        Ok(tab) => tab,
        Err(e) => return json!({"error": e.to_string()}),
    };
    let started = Instant::now();
    if let Err(e) = tab.goto(url, Duration::from_secs(60)).await {
        return json!({"error": e.to_string()});
    }
    let ms = started.elapsed().as_secs_f64() * 1e3;
    *model = Some(PageModel::new(tab));
    json!({"ms": ms})
}

async fn view(model: &mut Option<PageModel>, cmd: &Value) -> Value {
    let Some(model) = model else {
        return json!({"error": "no page"});
    };
    let mode = match cmd["mode"].as_str() {
        Some("interactive") => Mode::Interactive,
        Some("diff") => Mode::Diff,
        _ => Mode::Full,
    };
    let budget = cmd["budget"].as_u64().map(|b| b as usize);
    let started = Instant::now();
    match model
        .view(&ViewOptions {
            mode,
            budget,
            ..ViewOptions::default()
        })
        .await
    {
        Ok(v) => {
            json!({"text": v.text, "ms": started.elapsed().as_secs_f64() * 1e3, "mode": format!("{:?}", v.mode)})
        }
        Err(e) => json!({"error": e.to_string()}),
    }
}

/// The bare CDP calls a warm full view makes for the main frame, issued
/// directly with no processing: the frame tree, the click listeners, and the
/// walk itself (whose JSON answer is read but not parsed), all at once.
async fn floor(model: &Option<PageModel>, cmd: &Value) -> Value {
    let Some(model) = model else {
        return json!({"error": "no page"});
    };
    let result = async {
        let session = model.tab().session().await?;
        let tree = session.send(&page::GetFrameTree {}).await?;
        let frame = tree.frame_tree.frame.id;
        let world = session
            .send(&page::CreateIsolatedWorld {
                frame_id: frame,
                world_name: Some("rove".to_owned()),
                ..Default::default()
            })
            .await?;
        let context = world.execution_context_id;
        // The page's own document object, reached as rove reaches it.
        let ours = session
            .send(&runtime::Evaluate {
                expression: "document".to_owned(),
                context_id: Some(context),
                ..Default::default()
            })
            .await?;
        let described = session
            .send(&dom::DescribeNode::of(
                ours.result.object_id.unwrap_or_default(),
            ))
            .await?;
        let page_doc = session
            .send(&dom::ResolveNode {
                backend_node_id: Some(described.node.backend_node_id),
                ..Default::default()
            })
            .await?;
        let page_doc = page_doc.object.object_id.unwrap_or_default();
        let budget = cmd["budget"]
            .as_u64()
            .unwrap_or(rove_page::DEFAULT_BUDGET as u64);
        let walk = runtime::Evaluate {
            expression: format!(
                "__rove.walk({})",
                json!({"mode": "full", "maxChars": budget * 4 + 2000})
            ),
            context_id: Some(context),
            return_by_value: Some(true),
            ..Default::default()
        };
        // Issued together, as rove issues them on a warm page.
        let started = Instant::now();
        let listeners = dom_debugger::GetEventListeners {
            object_id: page_doc,
            depth: Some(-1),
            pierce: Some(false),
        };
        let (tree, listeners, walked) = tokio::join!(
            session.send(&page::GetFrameTree {}),
            session.send(&listeners),
            session.send_raw(&walk, None),
        );
        tree?;
        listeners?;
        walked?;
        Ok::<_, Box<dyn std::error::Error>>(started.elapsed().as_secs_f64() * 1e3)
    }
    .await;
    match result {
        Ok(ms) => json!({"ms": ms}),
        Err(e) => json!({"error": e.to_string()}),
    }
}

async fn command(
    browser: &Browser,
    session: &mut Option<rove_commands::Session>,
    command: &Value,
) -> Value {
    let command: rove_commands::Command = match serde_json::from_value(command.clone()) {
        Ok(c) => c,
        Err(e) => return json!({"error": e.to_string()}),
    };
    if session.is_none() {
        match rove_commands::Session::start(browser, rove_commands::SessionConfig::default()).await
        {
            Ok(s) => *session = Some(s),
            Err(e) => return json!({"error": e.to_string()}),
        }
    }
    let Some(session) = session else {
        return json!({"error": "no session"});
    };
    let started = Instant::now();
    match session.execute(&command).await {
        Ok(out) => json!({
            "text": out.text(),
            "ms": started.elapsed().as_secs_f64() * 1e3,
            "timing": out.timing,
        }),
        Err(e) => json!({"error": e.to_string()}),
    }
}

fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}
