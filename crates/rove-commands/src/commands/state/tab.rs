//! Restores saved `localStorage` origin by origin in a blank tab of the
//! session's own (see `state_file.rs`): the tab's requests are intercepted
//! and every document is answered by rove with an empty page, so the
//! origin's storage is reachable while no server sees a visit. The tab is
//! closed whatever happens, before anything else of the session runs.

use std::time::Duration;

use rove_browser::BrowserContext;
use rove_cdp::protocol::network::{ErrorReason, ResourceType};
use rove_cdp::protocol::{fetch, page, runtime, target};
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
    let create = target::CreateTarget {
        url: "about:blank".to_owned(),
        browser_context_id: Some(context.id().to_owned()),
        background: Some(true),
        ..target::CreateTarget::default()
    };
    let created = tokio::time::timeout(rove_base::limits::STATE_CALL, browser.send(&create))
        .await
        .map_err(|_| CommandError::Rejected("the browser did not open a tab in time".into()))??;
    let Some(target) = Some(created.target_id).filter(|t| !t.is_empty()) else {
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
    let close = target::CloseTarget {
        target_id: target.clone(),
    };
    let closed = browser.send(&close);
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
        .send(&target::AttachToTarget::flat(target))
        .await?;
    if attached.session_id.as_str().is_empty() {
        return Err(CommandError::Rejected(
            "the storage tab gave no session".into(),
        ));
    }
    let session = conn.session(attached.session_id);
    let mut paused = session.subscribe();
    session
        .send(&fetch::Enable {
            patterns: Some(vec![fetch::RequestPattern {
                url_pattern: Some("*".to_owned()),
                request_stage: Some(fetch::RequestStage::Request),
                ..fetch::RequestPattern::default()
            }]),
            ..fetch::Enable::default()
        })
        .await?;
    session.send(&runtime::RunIfWaitingForDebugger {}).await?;
    // Every request of this tab is answered here: documents with an empty
    // page, anything else refused.
    let answering = session.clone();
    let answers = tokio::spawn(async move {
        while let Ok(event) = paused.recv().await {
            let Some(Ok(request)) = event.as_event::<fetch::RequestPaused>() else {
                continue;
            };
            if request.request_id.is_empty() {
                continue;
            }
            let answer = if request.resource_type == ResourceType::Document {
                let page = fetch::FulfillRequest {
                    request_id: request.request_id,
                    response_code: 200,
                    response_headers: Some(vec![fetch::HeaderEntry {
                        name: "Content-Type".to_owned(),
                        value: "text/html".to_owned(),
                    }]),
                    body: Some(String::new()),
                    ..fetch::FulfillRequest::default()
                };
                answering.send(&page).await
            } else {
                let refuse = fetch::FailRequest {
                    request_id: request.request_id,
                    error_reason: ErrorReason::BlockedByClient,
                };
                answering.send(&refuse).await
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
            .send(&page::Navigate {
                url: format!("{at}/"),
                ..page::Navigate::default()
            })
            .await?;
        if !arrived(&session, at).await {
            continue;
        }
        let script = format!(
            "(() => {{ for (const {{name, value}} of {}) localStorage.setItem(String(name), String(value)); return true; }})()",
            Value::Array(items)
        );
        let set = session.send(&by_value(script)).await?;
        if set.result.value == Some(json!(true)) {
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
        let here = session.send(&by_value("location.origin".to_owned())).await;
        if here.is_ok_and(|h| h.result.value == Some(json!(origin))) {
            return true;
        }
        tokio::time::sleep(rove_base::limits::STATE_ORIGIN_POLL).await;
    }
    false
}

/// `expression`, its value returned as JSON.
fn by_value(expression: String) -> runtime::Evaluate {
    runtime::Evaluate {
        expression,
        return_by_value: Some(true),
        ..runtime::Evaluate::default()
    }
}
