//! How fast rove finds and recovers a hung or crashed tab, what the probe
//! before each command costs a click, and the waits the fault work
//! shortened (typing, a download link, `wait`). Every figure is a round trip
//! through `Session::execute`, the way every face runs a command, beside
//! its floor measured in the same run. `rove-bench-faults`.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use rove_browser::{Browser, LaunchOptions};
use rove_commands::{Command, HealthLimits, Session, SessionConfig};
use rove_localserver::{LocalServer, Response, Routes};
use serde_json::{Value, json};

const PAGE: &str = r#"<!doctype html><title>Faults</title>
<h1>Faults</h1>
<p id="out">0</p>
<button>Do nothing</button>
<button onmousedown="while (true) {}">Spin forever</button>
<a href="/file.txt">Get the report</a>
<label>Notes <textarea id="notes"></textarea></label>"#;

const CLICKS: usize = 41;
const ROUNDS: usize = 3;

async fn run(session: &mut Session, command: Value) -> (Duration, Result<String, String>) {
    let command: Command = serde_json::from_value(command).expect("a command");
    let started = Instant::now();
    let result = session.execute(&command).await;
    let took = started.elapsed();
    (
        took,
        result
            .map(|o| o.text())
            .map_err(|e| format!("{:?}", e.report())),
    )
}

async fn find(session: &mut Session, text: &str, role: &str) -> String {
    let (_, out) = run(
        session,
        json!({"command": "find", "text": text, "role": role}),
    )
    .await;
    let out = out.expect("find");
    out.split_whitespace()
        .find(|w| w.starts_with('e') && w[1..].chars().all(|c| c.is_ascii_digit()))
        .expect("a ref")
        .to_owned()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn config(limits: HealthLimits) -> SessionConfig {
    SessionConfig {
        health: limits,
        ..SessionConfig::default()
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let routes = Routes::new()
        .page("/faults.html", Response::html(PAGE))
        .page(
            "/file.txt",
            Response::text("numbers\n")
                .header("Content-Disposition", "attachment; filename=\"r.txt\""),
        );
    let server = LocalServer::start(routes).await?;
    let url = server.url("/faults.html");
    let browser = Browser::launch(LaunchOptions::default()).await?;
    let open = json!({"command": "open", "url": url});
    // The probe before commands only: no background probe in the way.
    let before_only = HealthLimits {
        interval: None,
        ..HealthLimits::default()
    };

    println!("## Hung and crashed tabs (default limits: probe 5 s, then 2 s)\n");
    println!(
        "| case | answer | of which the probe's deadlines | the rest | floor: a snapshot on a healthy page |"
    );
    println!("|---|---:|---:|---:|---:|");
    let mut s = Session::start(&browser, config(before_only)).await?;
    for _ in 0..ROUNDS {
        run(&mut s, open.clone()).await.1?;
        let (floor, _) = run(&mut s, json!({"command": "snapshot"})).await;
        // A script that never yields, started after the eval returned.
        run(
            &mut s,
            json!({"command": "eval", "js": "setTimeout(() => { while (true) {} }, 20)"}),
        )
        .await
        .1?;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (took, out) = run(&mut s, json!({"command": "snapshot"})).await;
        assert!(out?.contains("rove stopped its script"));
        println!(
            "| script stopped (terminate works) | {:.0} ms | 5000 ms | {:.0} ms | {:.1} ms |",
            ms(took),
            ms(took) - 5000.0,
            ms(floor)
        );
    }
    for _ in 0..ROUNDS {
        run(&mut s, open.clone()).await.1?;
        let (floor, _) = run(&mut s, json!({"command": "snapshot"})).await;
        let tab = s.context().focused().ok_or("no tab")?;
        tab.send(&rove_cdp::protocol::page::Navigate {
            url: "chrome://hang".to_owned(),
            ..Default::default()
        })
        .await?;
        let (took, out) = run(&mut s, json!({"command": "snapshot"})).await;
        assert!(out.is_err_and(|e| e.contains("in its place")));
        println!(
            "| tab replaced (renderer stuck outside JavaScript) | {:.0} ms | 7000 ms | {:.0} ms | {:.1} ms |",
            ms(took),
            ms(took) - 7000.0,
            ms(floor)
        );
    }
    for _ in 0..ROUNDS {
        run(&mut s, open.clone()).await.1?;
        let (floor, _) = run(&mut s, json!({"command": "snapshot"})).await;
        let tab = s.context().focused().ok_or("no tab")?;
        let _ = tab.send(&rove_cdp::protocol::page::Crash {}).await;
        let (took, out) = run(&mut s, json!({"command": "snapshot"})).await;
        assert!(out.is_err_and(|e| e.contains("crashed")));
        println!(
            "| crashed tab replaced | {:.0} ms | 0 ms | {:.0} ms | {:.1} ms |",
            ms(took),
            ms(took),
            ms(floor)
        );
    }
    drop(s);

    // Found while a command runs: the background probe (every 5 s, 5 s).
    let mut s = Session::start(&browser, config(HealthLimits::default())).await?;
    println!("\n| a click whose handler never returns | answer |\n|---|---:|");
    for _ in 0..ROUNDS {
        run(&mut s, open.clone()).await.1?;
        let spin = find(&mut s, "Spin forever", "button").await;
        let (took, out) = run(&mut s, json!({"command": "click", "ref": spin})).await;
        assert!(out.is_err_and(|e| e.contains("rove stopped its script")));
        println!(
            "| found by the background probe, script stopped | {:.0} ms |",
            ms(took)
        );
    }
    drop(s);

    // The probe's cost on a click: two sessions, clicks alternated.
    let mut with = Session::start(&browser, config(before_only)).await?;
    let mut without = Session::start(
        &browser,
        config(HealthLimits {
            probe_before_commands: false,
            interval: None,
            ..HealthLimits::default()
        }),
    )
    .await?;
    run(&mut with, open.clone()).await.1?;
    run(&mut without, open.clone()).await.1?;
    let a = find(&mut with, "Do nothing", "button").await;
    let b = find(&mut without, "Do nothing", "button").await;
    let (mut t_with, mut t_without) = (Vec::new(), Vec::new());
    for _ in 0..CLICKS {
        t_with.push(ms(run(&mut with, json!({"command": "click", "ref": a}))
            .await
            .0));
        t_without.push(ms(run(&mut without, json!({"command": "click", "ref": b}))
            .await
            .0));
    }
    let (m_with, m_without) = (median(t_with), median(t_without));
    println!(
        "\n| no-op click, median of {CLICKS} | with the probe | without | ratio |\n|---|---:|---:|---:|\n| | {m_with:.2} ms | {m_without:.2} ms | {:.3} |",
        m_with / m_without
    );

    // Typing 3,000 characters: one key event at a time (delay 0) against
    // eight in flight.
    let notes = find(&mut without, "Notes", "textbox").await;
    let text = "a".repeat(3_000);
    println!(
        "\n| type 3,000 characters | one event at a time | 8 in flight | ratio |\n|---|---:|---:|---:|"
    );
    for _ in 0..ROUNDS {
        run(
            &mut without,
            json!({"command": "fill", "ref": notes, "text": ""}),
        )
        .await
        .1?;
        let (seq, _) = run(
            &mut without,
            json!({"command": "type", "ref": notes, "text": text, "delay_ms": 0}),
        )
        .await;
        run(
            &mut without,
            json!({"command": "fill", "ref": notes, "text": ""}),
        )
        .await
        .1?;
        let (pipe, out) = run(
            &mut without,
            json!({"command": "type", "ref": notes, "text": text}),
        )
        .await;
        out?;
        println!(
            "| | {:.0} ms | {:.0} ms | {:.2} |",
            ms(seq),
            ms(pipe),
            ms(pipe) / ms(seq)
        );
    }

    // A download link, and a wait that gives up.
    let link = find(&mut without, "Get the report", "link").await;
    let (took, out) = run(&mut without, json!({"command": "click", "ref": link})).await;
    out?;
    println!("\nclick on a download link: {:.0} ms", ms(took));
    let (took, _) = run(
        &mut without,
        json!({"command": "wait", "text": "never", "ms": 1000}),
    )
    .await;
    println!("wait --text never 1000: answered after {:.0} ms", ms(took));
    browser.close().await;
    Ok(())
}
