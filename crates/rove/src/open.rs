//! `rove open URL --stay`: open a page in a fresh browser of this process
//! (no daemon), report where it ended up, and keep the browser until
//! interrupted.

use std::time::Instant;

use serde_json::json;

use rove_commands::{Command, Session, SessionConfig};

use crate::acquire::acquire;
use crate::cli::GlobalArgs;
use crate::cli::seconds::Range;
use crate::failure::Failure;
use crate::output::Output;

/// Opens `url`, waiting `seconds` at most for the load; returns the exit
/// status once interrupted (or at once on a failure).
pub async fn open(global: &GlobalArgs, url: &str, seconds: f64, out: Output) -> u8 {
    let timeout = match crate::cli::seconds::seconds("--timeout", seconds, Range::AboveZero, "30") {
        Ok(timeout) => timeout,
        Err(failure) => {
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    let transport = global.transport();
    let browser = match acquire(global, &transport).await {
        Ok(browser) => browser,
        Err(e) => {
            let failure = Failure::from(e);
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    let config = match global.session_config() {
        Ok(config) => SessionConfig {
            navigation_timeout: timeout,
            ..config
        },
        Err(e) => {
            let failure = Failure::from(e);
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    let started = Instant::now();
    let command = Command::Open(rove_commands::OpenArgs {
        url: url.to_owned(),
        new_tab: false,
    });
    let opened = async {
        let mut session = Session::start(&browser, config).await?;
        session.execute(&command).await
    }
    .await;
    let status = match opened {
        Ok(outcome) => {
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            let (url, title, view) = match &outcome.view {
                Some(v) => (v.url.clone(), v.title.clone(), v.text.clone()),
                None => (String::new(), String::new(), String::new()),
            };
            out.line(&format!(
                "{url}\n  title: {title}\n  loaded in {ms:.0} ms\n\n{view}"
            ));
            out.success(json!({
                "url": url,
                "title": title,
                "ms": ms,
                "happened": outcome.happened,
                "view": view,
                "browser_pid": browser.pid(),
                "profile": browser.profile_dir(),
            }));
            out.line("the browser stays open; press Ctrl-C to close it");
            // Ends by a signal: main's select drops this future and the
            // browser handle with it, which ends the browser.
            std::future::pending::<()>().await;
            0
        }
        Err(e) => {
            let failure = Failure::from_command(&e);
            out.failure(&failure, None);
            failure.exit_status()
        }
    };
    browser.close().await;
    status
}
