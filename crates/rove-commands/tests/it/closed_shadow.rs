//! Closed shadow roots on plain elements, made by script
//! (`attachShadow({mode: 'closed'})`) or declared in the HTML
//! (`<template shadowrootmode="closed">`): their content is in the view, as
//! the user sees it, with refs that click and fill.

use crate::support;

use serde_json::json;
use support::Fixture;

#[tokio::test]
async fn closed_shadow_roots_on_plain_elements_are_read_and_acted_in() {
    let mut f = Fixture::start().await;
    let out = f.open("/closed-shadow.html").await;
    let view = out.text();
    for line in [
        "h2 \"Imperative inside\"",
        "textbox \"Imperative field\"",
        "button \"Imperative button\"",
        "h2 \"Declared inside\"",
        "textbox \"Declared field\"",
        "button \"Declared button\"",
        "What the shadow tree shows",
    ] {
        assert!(view.contains(line), "{line} missing from\n{view}");
    }
    // Light content the shadow tree has no slot for is not on screen.
    assert!(
        !view.contains("light content the shadow tree hides"),
        "{view}"
    );

    let field = f.find("Imperative field", "textbox").await;
    f.ok(json!({"command": "fill", "ref": field, "text": "from rove"}))
        .await;
    let button = f.find("Imperative button", "button").await;
    let out = f.ok(json!({"command": "click", "ref": button})).await;
    assert!(
        out.text().contains("imperative clicked with from rove"),
        "{}",
        out.text()
    );

    let field = f.find("Declared field", "textbox").await;
    f.ok(json!({"command": "type", "ref": field, "text": "typed"}))
        .await;
    let out = f.ok(json!({"command": "snapshot"})).await;
    assert!(
        out.text()
            .contains("textbox \"Declared field\" [focused]: typed"),
        "{}",
        out.text()
    );
    let button = f.find("Declared button", "button").await;
    let out = f.ok(json!({"command": "click", "ref": button})).await;
    assert!(out.text().contains("Declared pressed"), "{}", out.text());
    f.close().await;
}
