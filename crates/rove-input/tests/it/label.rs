//! A control inside its own label: what covers it there is the label, and a
//! click on the label reaches the control, so it is actionable. A real cover
//! (an overlay outside the label) still is not.

use crate::support;

use rove_errors::{ActionSent, Classify, ErrorCode};
use rove_input::{ClickOptions, InputError, click, set_checked};
use rove_page::PageModel;
use std::time::Duration;
use support::{Page, find_exact};

async fn eval(model: &PageModel, js: &str) -> serde_json::Value {
    model.tab().evaluate(js).await.expect("evaluate")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_radio_hidden_inside_its_label_is_clicked_through_the_label() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("label.html").await;
    let east = find_exact(&mut model, "East", "radio").await;
    click(&mut model, east, &ClickOptions::default())
        .await
        .expect("a click on the label's text reaches the radio");
    assert_eq!(
        eval(&model, "document.getElementById('east').checked").await,
        true
    );
    assert_eq!(
        eval(&model, "document.getElementById('chosen').textContent").await,
        "Region: East",
        "the app's change handler ran"
    );

    let west = find_exact(&mut model, "West", "radio").await;
    let outcome = set_checked(&mut model, west, true)
        .await
        .expect("check West");
    assert!(!outcome.unchanged);
    assert_eq!(
        eval(&model, "window.changes").await,
        serde_json::json!(["East", "West"])
    );

    // A label elsewhere in the tree, drawn over its control (label[for]).
    let north = find_exact(&mut model, "North", "radio").await;
    click(&mut model, north, &ClickOptions::default())
        .await
        .expect("a click on the label for it reaches the radio");
    assert_eq!(
        eval(&model, "document.getElementById('north').checked").await,
        true
    );

    // A checkbox of no size is clicked on the label that draws it.
    let agree = find_exact(&mut model, "I agree", "checkbox").await;
    set_checked(&mut model, agree, true)
        .await
        .expect("check I agree");
    assert_eq!(
        eval(&model, "document.getElementById('agree').checked").await,
        true
    );
    assert_eq!(
        eval(&model, "window.changes.at(-1)").await,
        "agree true",
        "the app's change handler ran"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_overlay_outside_the_label_still_covers_the_control() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("label.html").await;
    let south = find_exact(&mut model, "South", "radio").await;
    let opts = ClickOptions {
        timeout: Duration::from_millis(600),
        ..ClickOptions::default()
    };
    let err = click(&mut model, south, &opts).await.expect_err("covered");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    assert_eq!(err.action_sent(), ActionSent::NotSent);
    match &err {
        InputError::NotActionable { cover, .. } => {
            let cover = cover.as_deref().unwrap_or_default();
            assert!(cover.contains("Cookie banner"), "{err}");
        }
        other => panic!("expected NOT_ACTIONABLE, got {other:?}"),
    }
    assert_eq!(
        eval(&model, "document.getElementById('south').checked").await,
        false
    );
    browser.close().await;
}
