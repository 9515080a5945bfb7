//! Checking, unchecking and hovering against real Chromium.

use std::time::Duration;

use rove_browser::{Browser, LaunchOptions};
use rove_errors::{ActionSent, Classify, ErrorCode};
use rove_input::{hover, set_checked};
use rove_localserver::{LocalServer, Response, Routes};
use rove_page::{FindQuery, PageModel, Ref, ViewOptions};

async fn open() -> (Browser, LocalServer, PageModel) {
    let html = std::fs::read_to_string(format!(
        "{}/tests/fixtures/toggle.html",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture");
    let server = LocalServer::start(Routes::new().page("/toggle.html", Response::html(html)))
        .await
        .expect("server");
    let browser = Browser::launch(LaunchOptions::default())
        .await
        .unwrap_or_else(|e| panic!("Chromium: {e}"));
    let tab = browser
        .new_context()
        .await
        .expect("context")
        .new_tab()
        .await
        .expect("tab");
    tab.goto(&server.url("/toggle.html"), Duration::from_secs(10))
        .await
        .expect("load");
    let mut model = PageModel::new(tab);
    model.view(&ViewOptions::default()).await.expect("view");
    (browser, server, model)
}

async fn named(model: &mut PageModel, name: &str, role: &str) -> Ref {
    let found = model
        .find(&FindQuery {
            text: name.into(),
            role: Some(role.into()),
            limit: Some(1),
        })
        .await
        .expect("find");
    *found
        .matches
        .first()
        .unwrap_or_else(|| panic!("no {role} {name:?} in {}", found.text))
}

async fn checked(model: &PageModel, id: &str) -> serde_json::Value {
    model
        .tab()
        .evaluate(&format!("(e => e.checked ?? e.getAttribute('aria-checked') === 'true')(document.getElementById('{id}'))"))
        .await
        .expect("state")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checkboxes_radios_and_aria_checkboxes_reach_the_asked_state() {
    let (browser, _server, mut model) = open().await;
    let alpha = named(&mut model, "Alpha", "checkbox").await;
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

    let beta = named(&mut model, "Beta", "checkbox").await;
    set_checked(&mut model, beta, false).await.expect("uncheck");
    assert_eq!(checked(&model, "b").await, false);

    let two = named(&mut model, "Two", "radio").await;
    set_checked(&mut model, two, true).await.expect("radio");
    assert_eq!(
        (checked(&model, "r1").await, checked(&model, "r2").await),
        (false.into(), true.into())
    );
    let err = set_checked(&mut model, two, false)
        .await
        .expect_err("a radio cannot be unchecked");
    assert_eq!(err.code(), ErrorCode::CommandRejected);

    let custom = named(&mut model, "Custom", "checkbox").await;
    set_checked(&mut model, custom, true)
        .await
        .expect("aria checkbox");
    assert_eq!(checked(&model, "custom").await, true);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_box_that_refuses_the_click_is_reported_and_a_button_is_not_a_box() {
    let (browser, _server, mut model) = open().await;
    let locked = named(&mut model, "Locked", "checkbox").await;
    let err = set_checked(&mut model, locked, true)
        .await
        .expect_err("refused");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    assert_eq!(err.action_sent(), ActionSent::Sent);
    assert!(err.to_string().contains("unchecked"), "{err}");

    let plain = named(&mut model, "Plain", "button").await;
    let err = set_checked(&mut model, plain, true)
        .await
        .expect_err("not checkable");
    assert!(err.to_string().contains("cannot be checked"), "{err}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hovering_opens_a_css_hover_menu() {
    let (browser, _server, mut model) = open().await;
    let before = model.view(&ViewOptions::default()).await.expect("view");
    assert!(!before.text.contains("Sub item"), "{}", before.text);
    let menu = named(&mut model, "Menu", "navigation").await;
    hover(&mut model, menu, Duration::from_secs(2))
        .await
        .expect("hover");
    let after = model.view(&ViewOptions::default()).await.expect("view");
    assert!(after.text.contains("link \"Sub item\""), "{}", after.text);
    browser.close().await;
}
