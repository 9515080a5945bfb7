//! A request the page keeps waiting on past the bound is told once, in the
//! answer of the command during which it hung, and typed in `--json`.

use std::time::Duration;

use rove_commands::SessionConfig;
use rove_localserver::{Response, Routes};
use serde_json::json;

use crate::support::Fixture;

const PAGE: &str = "<!doctype html><title>Search</title><h1>Search</h1><p id=out>searching…</p>\
    <script>fetch('/api/search?q=lamp').then((r) => r.text()).then((t) => { document.getElementById('out').textContent = t; });</script>";

#[tokio::test]
async fn a_request_pending_past_the_bound_is_told_once() {
    let routes = Routes::new().page("/search", Response::html(PAGE)).page(
        "/api/search",
        Response::text("3 lamps").delayed(Duration::from_secs(30)),
    );
    let config = SessionConfig {
        request_pending: Duration::from_secs(1),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes, config).await;
    let opened = f.open("/search").await;
    assert!(
        !opened.text().contains("pending"),
        "not yet past the bound: {}",
        opened.text()
    );
    let waited = f.ok(json!({"command": "wait", "ms": 1500})).await;
    let told: Vec<String> = waited
        .happened_lines()
        .into_iter()
        .filter(|l| l.starts_with("note: "))
        .collect();
    assert_eq!(told.len(), 1, "{}", waited.text());
    assert!(
        told[0].starts_with("note: GET /api/search?q=lamp pending ") && told[0].ends_with(" s"),
        "{}",
        told[0]
    );
    let typed = waited.to_json();
    assert_eq!(typed["pending"][0]["method"], "GET");
    assert_eq!(typed["pending"][0]["url"], f.url("/api/search?q=lamp"));
    assert!(
        typed["pending"][0]["seconds"].as_u64() >= Some(1),
        "{typed}"
    );
    // Once: the next answer does not repeat it.
    let again = f.ok(json!({"command": "wait", "ms": 300})).await;
    assert!(!again.text().contains("pending"), "{}", again.text());
    f.close().await;
}
