//! `rove open URL`: open a page in a fresh browser and report where it ended
//! up. With `--stay`, keep the browser until interrupted.

use std::time::{Duration, Instant};

use rove_cdp::TransportConfig;
use rove_errors::ErrorCode;
use serde_json::json;

use crate::acquire::{acquire, normalize_url};
use crate::cli::{GlobalArgs, OpenArgs};
use crate::failure::Failure;
use crate::output::Output;

pub async fn open(global: &GlobalArgs, args: &OpenArgs, out: Output) -> u8 {
    let timeout = match Duration::try_from_secs_f64(args.timeout) {
        Ok(t) if !t.is_zero() => t,
        _ => {
            let failure = Failure::new(
                ErrorCode::CommandRejected,
                format!(
                    "--timeout {} is not a positive number of seconds",
                    args.timeout
                ),
                "pass a timeout like --timeout 30",
            );
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    let transport = TransportConfig::from_env();
    let browser = match acquire(global, &transport).await {
        Ok(browser) => browser,
        Err(e) => {
            let failure = Failure::from(e);
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    let url = normalize_url(&args.url);
    let started = Instant::now();
    let opened = async {
        let context = browser.new_context().await?;
        let tab = context.new_tab().await?;
        tab.goto(&url, timeout).await
    }
    .await;
    let status = match opened {
        Ok(loaded) => {
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            out.line(&format!(
                "{}\n  title: {}\n  loaded in {ms:.0} ms",
                loaded.url, loaded.title
            ));
            out.success(json!({
                "url": loaded.url,
                "title": loaded.title,
                "ms": ms,
                "browser_pid": browser.pid(),
                "profile": browser.profile_dir(),
            }));
            if args.stay {
                out.line("the browser stays open; press Ctrl-C to close it");
                // Ends by a signal: main's select drops this future and the
                // browser handle with it, which ends the browser.
                std::future::pending::<()>().await;
            }
            0
        }
        Err(e) => {
            let failure = Failure::from(e);
            out.failure(&failure, None);
            failure.exit_status()
        }
    };
    browser.close().await;
    status
}
