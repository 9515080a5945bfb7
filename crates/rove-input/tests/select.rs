//! Native selects: by label or value, single and multiple, with the page's
//! change handlers called and the selection read back.

use std::time::Duration;

use rove_browser::{Browser, LaunchOptions};
use rove_errors::{Classify, ErrorCode};
use rove_input::select_options;
use rove_localserver::{LocalServer, Response, Routes};
use rove_page::{FindQuery, PageModel, Ref, ViewOptions};

async fn open() -> (Browser, LocalServer, PageModel) {
    let html = std::fs::read_to_string(format!(
        "{}/tests/fixtures/select.html",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture");
    let server = LocalServer::start(Routes::new().page("/select.html", Response::html(html)))
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
    tab.goto(&server.url("/select.html"), Duration::from_secs(10))
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

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| (*v).to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_are_chosen_by_label_or_value_and_the_page_hears_it() {
    let (browser, _server, mut model) = open().await;
    let plan = named(&mut model, "Plan", "combobox").await;
    let outcome = select_options(&mut model, plan, &strings(&["Pro"]))
        .await
        .expect("by label");
    assert_eq!(outcome.selected, vec!["Pro"]);
    select_options(&mut model, plan, &strings(&["free"]))
        .await
        .expect("by value");
    let langs = named(&mut model, "Languages", "listbox").await;
    let outcome = select_options(&mut model, langs, &strings(&["English", "German"]))
        .await
        .expect("multiple");
    assert_eq!(outcome.selected, vec!["English", "German"]);
    let changes = model
        .tab()
        .evaluate("window.changes")
        .await
        .expect("changes");
    assert_eq!(
        changes,
        serde_json::json!([
            ["plan", ["pro"]],
            ["plan", ["free"]],
            ["langs", ["English", "German"]]
        ])
    );
    let view = model.view(&ViewOptions::default()).await.expect("view");
    assert!(
        view.text.contains("combobox \"Plan\": Free"),
        "{}",
        view.text
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn impossible_selections_say_why() {
    let (browser, _server, mut model) = open().await;
    let plan = named(&mut model, "Plan", "combobox").await;
    let err = select_options(&mut model, plan, &strings(&["Enterprise"]))
        .await
        .expect_err("missing");
    assert_eq!(err.code(), ErrorCode::CommandRejected);
    assert!(
        err.to_string().contains("\"Free\", \"Pro\", \"Team\""),
        "{err}"
    );
    let err = select_options(&mut model, plan, &strings(&["Team"]))
        .await
        .expect_err("disabled option");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    let err = select_options(&mut model, plan, &strings(&["Free", "Pro"]))
        .await
        .expect_err("single");
    assert_eq!(err.code(), ErrorCode::CommandRejected);
    let button = named(&mut model, "Not a select", "button").await;
    let err = select_options(&mut model, button, &strings(&["x"]))
        .await
        .expect_err("not a select");
    assert!(err.to_string().contains("not a native select"), "{err}");
    assert_eq!(
        model
            .tab()
            .evaluate("window.changes.length")
            .await
            .expect("changes"),
        0
    );
    browser.close().await;
}
