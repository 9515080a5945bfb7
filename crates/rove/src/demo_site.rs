//! `rove demo-site [--port P]`: serves the offline demo shop (crate
//! rove-demo) until interrupted, printing its URL first so a script can
//! read it (`ROVE_DEMO_URL=$(…)` when backgrounded, or the JSON's `url`).

use rove_errors::ErrorCode;
use serde_json::json;

use crate::cli::DemoSiteArgs;
use crate::failure::Failure;
use crate::output::Output;

pub async fn serve(args: &DemoSiteArgs, out: Output) -> u8 {
    let site = match rove_demo::DemoSite::start(args.port).await {
        Ok(site) => site,
        Err(e) => {
            let failure = Failure::new(
                ErrorCode::CommandRejected,
                format!(
                    "could not serve the demo site on 127.0.0.1:{}: {e}",
                    args.port
                ),
                "choose another --port, or leave it out for a free one",
            );
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    out.line(&site.url());
    out.success(json!({"url": site.url()}));
    out.note(&format!(
        "the demo shop is serving; its accounts ({} …) take the password {}; Ctrl-C ends it",
        rove_demo::SEEDED[..3].join(", "),
        rove_demo::SEED_PASSWORD
    ));
    // Serves until the signal ends the command (main's select).
    std::future::pending::<()>().await;
    0
}
