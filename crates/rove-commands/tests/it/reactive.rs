//! Truth on reactive apps (issue 35), reduced to minimal pages: what a
//! screen reader's announcer says is a note on the command that caused it,
//! not a line of the view.

use crate::support;

use rove_commands::SessionConfig;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, fixture_routes};

/// Gradio's and AG Grid's announcers: live regions drawn nowhere (one
/// clipped pixel), beside a status the page shows, and a close button named
/// by screen-reader-only text.
const ANNOUNCER: &str = "<title>Announcer</title>\
    <style>.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap}</style>\
    <div id=sr class=sr-only role=status aria-live=polite>Loading</div>\
    <div id=grid class=sr-only aria-live=assertive>No Rows To Show</div>\
    <div role=status id=shown>Ready</div>\
    <button onclick=\"sr.textContent = 'Saved 3 rows'; shown.textContent = 'Done'\">Save</button>\
    <button><span class=sr-only>Close panel</span>x</button>";

async fn fixture() -> Fixture {
    let routes = fixture_routes().page("/announcer.html", Response::html(ANNOUNCER));
    Fixture::with(routes, SessionConfig::default()).await
}

#[tokio::test]
async fn a_hidden_live_region_is_a_note_on_the_action_not_a_line_of_the_view() {
    let mut f = fixture().await;
    let view = f.open("/announcer.html").await.view.expect("view").text;
    assert!(
        !view.contains("Loading") && !view.contains("No Rows To Show"),
        "announcers are not page content:\n{view}"
    );
    assert!(
        view.contains("Ready"),
        "a status the page shows stays:\n{view}"
    );
    assert!(
        view.contains("button \"Close panel x\"") || view.contains("button \"Close panel\""),
        "screen-reader-only names of controls stay:\n{view}"
    );
    let save = f.find("Save", "button").await;
    let out = f.ok(json!({"command": "click", "ref": save})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l == "the page announced \"Saved 3 rows\""),
        "the announcement is a note on the click:\n{}",
        out.text()
    );
    let diff = out.view.expect("a diff").text;
    assert!(!diff.contains("Saved 3 rows"), "{diff}");
    assert!(diff.contains("Done"), "{diff}");
    // Once: the same words again are not news.
    let out = f.ok(json!({"command": "click", "ref": save})).await;
    assert!(
        !out.text().contains("announced"),
        "an announcement is reported once:\n{}",
        out.text()
    );
    let view = f
        .ok(json!({"command": "snapshot"}))
        .await
        .view
        .expect("view")
        .text;
    assert!(!view.contains("Saved 3 rows"), "{view}");
    f.close().await;
}
