//! Prints rove's view of a page: `cargo run -p rove-page --example view -- URL [full|interactive|diff] [budget]`.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use rove_browser::{Browser, LaunchOptions};
use rove_page::{Mode, PageModel, ViewOptions};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .ok_or("usage: view URL [full|interactive] [budget]")?;
    let mode = match args.next().as_deref() {
        Some("interactive") => Mode::Interactive,
        _ => Mode::Full,
    };
    let budget = args.next().map(|b| b.parse()).transpose()?;
    let browser = Browser::launch(LaunchOptions::default()).await?;
    let tab = browser.new_context().await?.new_tab().await?;
    tab.goto(&url, Duration::from_secs(30)).await?;
    let mut model = PageModel::new(tab);
    for round in 0..6 {
        let started = Instant::now();
        let view = model
            .view(&ViewOptions {
                mode,
                budget,
                ..ViewOptions::default()
            })
            .await?;
        let took = started.elapsed();
        if round == 0 {
            println!("{}", view.text);
        }
        println!(
            "-- round {round}: {:?}, ~{} tokens, {} bytes",
            took,
            view.tokens,
            view.text.len()
        );
    }
    browser.close().await;
    Ok(())
}
