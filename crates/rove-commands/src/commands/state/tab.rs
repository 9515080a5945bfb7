//! Restores saved `localStorage` origin by origin in a blank tab of the
//! session's own (see `state_file.rs`): the tab's requests are intercepted
//! and every document is answered by rove with an empty page, so the
//! origin's storage is reachable while no server sees a visit. The tab is
//! closed whatever happens, before anything else of the session runs.

use std::time::Duration;

use rove_browser::BrowserContext;
use serde_json::{Value, json};

use crate::CommandError;

/// Sets each origin's saved items, within `budget`; the number of origins
/// restored.
pub(crate) async fn restore_local_storage(
    context: &BrowserContext,
    origins: &[&Value],
    budget: Duration,
) -> Result<usize, CommandError> {
    let conn = context.browser().connection().await?;
    let browser = conn.browser();
    let created = tokio::time::timeout(
        rove_base::limits::STATE_CALL,
        browser.call(
            "Target.createTarget",
            json!({"url": "about:blank", "browserContextId": context.id(), "background": true}),
        ),
    )
    .await
    .map_err(|_| CommandError::Rejected("the browser did not open a tab in time".into()))??;
    let Some(target) = created["targetId"].as_str().map(str::to_owned) else {
        return Err(CommandError::Rejected(
            "the browser opened no tab for the local storage".into(),
        ));
    };
    context.hide_target(&target);
    let restored = tokio::time::timeout(
        (rove_base::limits::STATE_CALL
            + rove_base::limits::STATE_ORIGIN
                .saturating_mul(origins.len().min(u32::MAX as usize) as u32))
        .min(budget),
        fill(&conn, &target, origins),
    )
    .await
    .unwrap_or_else(|_| {
        Err(CommandError::Rejected(
            "restoring the local storage took too long".into(),
        ))
    });
    let closed = browser.call("Target.closeTarget", json!({"targetId": target}));
    if let Err(e) = tokio::time::timeout(rove_base::limits::STATE_CALL, closed).await {
        tracing::debug!(error = %e, "the storage tab did not close in time");
    }
    restored
}

async fn fill(
    conn: &rove_cdp::Connection,
    target: &str,
    origins: &[&Value],
) -> Result<usize, CommandError> {
    let attached = conn
        .browser()
        .call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        )
        .await?;
    let Some(id) = attached["sessionId"].as_str() else {
        return Err(CommandError::Rejected(
            "the storage tab gave no session".into(),
        ));
    };
    let session = conn.session(rove_cdp::SessionId::new(id.to_owned()));
    let mut paused = session.subscribe();
    session
        .call(
            "Fetch.enable",
            json!({"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}),
        )
        .await?;
    session
        .call("Runtime.runIfWaitingForDebugger", json!({}))
        .await?;
    // Every request of this tab is answered here: documents with an empty
    // page, anything else refused.
    let answering = session.clone();
    let answers = tokio::spawn(async move {
        while let Ok(event) = paused.recv().await {
            if event.method != "Fetch.requestPaused" {
                continue;
            }
            let params: Value = event.parse().unwrap_or_default();
            let Some(request) = params["requestId"].as_str() else {
                continue;
            };
            let answer = if params["resourceType"] == "Document" {
                answering
                    .call(
                        "Fetch.fulfillRequest",
                        json!({"requestId": request, "responseCode": 200,
                            "responseHeaders": [{"name": "Content-Type", "value": "text/html"}],
                            "body": ""}),
                    )
                    .await
            } else {
                answering
                    .call(
                        "Fetch.failRequest",
                        json!({"requestId": request, "errorReason": "BlockedByClient"}),
                    )
                    .await
            };
            if let Err(e) = answer {
                tracing::debug!(error = %e, "the storage tab's request went unanswered");
            }
        }
    });
    let mut restored = 0;
    for origin in origins {
        let Some(at) = origin["origin"].as_str() else {
            continue;
        };
        let items = origin["localStorage"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        session
            .call("Page.navigate", json!({"url": format!("{at}/")}))
            .await?;
        if !arrived(&session, at).await {
            continue;
        }
        let script = format!(
            "(() => {{ for (const {{name, value}} of {}) localStorage.setItem(String(name), String(value)); return true; }})()",
            Value::Array(items)
        );
        let set = session
            .call(
                "Runtime.evaluate",
                json!({"expression": script, "returnByValue": true}),
            )
            .await?;
        if set["result"]["value"] == json!(true) {
            restored += 1;
        }
    }
    answers.abort();
    Ok(restored)
}

/// Waits until the tab's document is at `origin`; whether it got there.
async fn arrived(session: &rove_cdp::Session, origin: &str) -> bool {
    let started = tokio::time::Instant::now();
    while started.elapsed() < rove_base::limits::STATE_ORIGIN {
        let here = session
            .call(
                "Runtime.evaluate",
                json!({"expression": "location.origin", "returnByValue": true}),
            )
            .await;
        if here.is_ok_and(|h| h["result"]["value"] == json!(origin)) {
            return true;
        }
        tokio::time::sleep(rove_base::limits::STATE_ORIGIN_POLL).await;
    }
    false
}
