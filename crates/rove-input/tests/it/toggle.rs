//! Checking, unchecking and hovering against real Chromium.

use crate::support;

use std::time::Duration;

use rove_errors::{ActionSent, Classify, ErrorCode};
use rove_input::{hover, set_checked};
use rove_page::{PageModel, ViewOptions};
use support::{Page, find};

async fn checked(model: &PageModel, id: &str) -> serde_json::Value {
    model
        .tab()
        .evaluate(&format!("(e => e.checked ?? e.getAttribute('aria-checked') === 'true')(document.getElementById('{id}'))"))
        .await
        .expect("state")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checkboxes_radios_and_aria_checkboxes_reach_the_asked_state() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("toggle.html").await;
    let alpha = find(&mut model, "Alpha", Some("checkbox")).await;
    let outcome = set_checked(&mut model, alpha, true).await.expect("check");
    assert!(!outcome.unchanged);
    assert_eq!(checked(&model, "a").await, true);
    let again = set_checked(&mut model, alpha, true)
        .await
        .expect("check again");
    assert!(
        again.unchanged,
        "an already checked box is not clicked again"
    );
    assert_eq!(checked(&model, "a").await, true);

    let beta = find(&mut model, "Beta", Some("checkbox")).await;
    set_checked(&mut model, beta, false).await.expect("uncheck");
    assert_eq!(checked(&model, "b").await, false);

    let two = find(&mut model, "Two", Some("radio")).await;
    set_checked(&mut model, two, true).await.expect("radio");
    assert_eq!(
        (checked(&model, "r1").await, checked(&model, "r2").await),
        (false.into(), true.into())
    );
    let err = set_checked(&mut model, two, false)
        .await
        .expect_err("a radio cannot be unchecked");
    assert_eq!(err.code(), ErrorCode::CommandRejected);

    let custom = find(&mut model, "Custom", Some("checkbox")).await;
    set_checked(&mut model, custom, true)
        .await
        .expect("aria checkbox");
    assert_eq!(checked(&model, "custom").await, true);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_box_that_refuses_the_click_is_reported_and_a_button_is_not_a_box() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("toggle.html").await;
    let locked = find(&mut model, "Locked", Some("checkbox")).await;
    let err = set_checked(&mut model, locked, true)
        .await
        .expect_err("refused");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    assert_eq!(err.action_sent(), ActionSent::Sent);
    assert!(err.to_string().contains("unchecked"), "{err}");

    let plain = find(&mut model, "Plain", Some("button")).await;
    let err = set_checked(&mut model, plain, true)
        .await
        .expect_err("not checkable");
    assert!(err.to_string().contains("cannot be checked"), "{err}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hovering_opens_a_css_hover_menu() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("toggle.html").await;
    let before = model.view(&ViewOptions::default()).await.expect("view");
    assert!(!before.text.contains("Sub item"), "{}", before.text);
    let menu = find(&mut model, "Menu", Some("navigation")).await;
    hover(&mut model, menu, Duration::from_secs(2))
        .await
        .expect("hover");
    let after = model.view(&ViewOptions::default()).await.expect("view");
    assert!(after.text.contains("link \"Sub item\""), "{}", after.text);
    browser.close().await;
}
