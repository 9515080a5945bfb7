//! Browser events over MCP with the real binary and real Chromium: the
//! server declares the logging capability, a client that sent
//! `logging/setLevel` receives its page's navigation and dialog as
//! `notifications/message`, and a client that did not receives none.

use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::json;

use crate::support::mcp_client::McpClient;

/// Opens `url` and clicks its Save button (which opens an alert).
async fn open_and_click(client: &mut McpClient, url: &str) {
    let opened = client.call("open", json!({"url": url})).await;
    let view = opened["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let save = view
        .lines()
        .find(|l| l.contains("button \"Save\""))
        .and_then(|l| l.split_whitespace().find(|w| w.starts_with('e')))
        .unwrap_or_else(|| panic!("no Save button in {view}"))
        .to_owned();
    let clicked = client.call("click", json!({"ref": save})).await;
    assert_ne!(clicked["isError"], true, "{clicked}");
}

#[tokio::test]
async fn only_a_client_that_set_a_level_receives_browser_events() {
    let pages = LocalServer::start(Routes::new().page(
        "/form",
        Response::html("<title>Form</title><button onclick=\"alert('Saved')\">Save</button>"),
    ))
    .await
    .expect("pages");
    let url = pages.url("/form");

    let mut listening = McpClient::start_bare(&[]).await;
    assert!(
        listening.capabilities.get("logging").is_some(),
        "{}",
        listening.capabilities
    );
    let set = listening
        .request("logging/setLevel", json!({"level": "debug"}))
        .await;
    assert!(set.get("error").is_none(), "{set}");
    open_and_click(&mut listening, &url).await;
    // The events travel beside the answers: read on until both came.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !(listening.saw("navigated") && listening.saw("dialog"))
        && tokio::time::Instant::now() < deadline
    {
        let _ = tokio::time::timeout(Duration::from_secs(1), listening.read()).await;
    }
    let events = listening.events();
    let navigated = events
        .iter()
        .find(|e| e["event"] == "navigated" && e["url"] == url.as_str())
        .unwrap_or_else(|| panic!("no navigation to {url} in {events:?}"));
    assert!(navigated["target_id"].is_string(), "{navigated}");
    let dialog = events
        .iter()
        .find(|e| e["event"] == "dialog")
        .unwrap_or_else(|| panic!("no dialog in {events:?}"));
    assert_eq!(dialog["kind"], "alert");
    assert_eq!(dialog["message"], "Saved");
    let note = listening
        .notes
        .iter()
        .find(|n| n["params"]["data"]["event"] == "dialog")
        .expect("the dialog's notification");
    assert_eq!(note["params"]["logger"], "rove.events");
    assert_eq!(note["params"]["level"], "info");

    // The same actions on a client that never asked: by the time the
    // listening client had its events, these have had as long, and a
    // round trip after them brings nothing either. Absence is the point,
    // so the wait is bounded (half a second), not on an event.
    let mut quiet = McpClient::start_bare(&[]).await;
    open_and_click(&mut quiet, &url).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    quiet.request("tools/list", json!({})).await;
    assert!(quiet.events().is_empty(), "{:?}", quiet.events());

    // A level above an event's holds it back: warnings only, and a
    // navigation is routine.
    let mut strict = McpClient::start_bare(&[]).await;
    let set = strict
        .request("logging/setLevel", json!({"level": "warning"}))
        .await;
    assert!(set.get("error").is_none(), "{set}");
    open_and_click(&mut strict, &url).await;
    // Absence again, bounded as above.
    tokio::time::sleep(Duration::from_millis(500)).await;
    strict.request("tools/list", json!({})).await;
    assert!(strict.events().is_empty(), "{:?}", strict.events());
}
