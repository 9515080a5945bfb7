//! Native selects: by label or value, single and multiple, with the page's
//! change handlers called and the selection read back.

use crate::support;

use rove_errors::{Classify, ErrorCode};
use rove_input::select_options;
use rove_page::ViewOptions;
use support::{Page, find};

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| (*v).to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_are_chosen_by_label_or_value_and_the_page_hears_it() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("select.html").await;
    let plan = find(&mut model, "Plan", Some("combobox")).await;
    let outcome = select_options(&mut model, plan, &strings(&["Pro"]))
        .await
        .expect("by label");
    assert_eq!(outcome.selected, vec!["Pro"]);
    select_options(&mut model, plan, &strings(&["free"]))
        .await
        .expect("by value");
    let langs = find(&mut model, "Languages", Some("listbox")).await;
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
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("select.html").await;
    let plan = find(&mut model, "Plan", Some("combobox")).await;
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
    let button = find(&mut model, "Not a select", Some("button")).await;
    let err = select_options(&mut model, button, &strings(&["x"]))
        .await
        .expect_err("not a select");
    assert_eq!(err.code(), ErrorCode::CommandRejected);
    assert!(
        err.to_string()
            .contains("not a select, listbox or combobox"),
        "{err}"
    );
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_labels_are_chosen_by_the_text_the_view_shows() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("select.html").await;
    let view = model.view(&ViewOptions::default()).await.expect("view");
    // The view cuts long labels; what it shows picks the option.
    let line = view
        .text
        .lines()
        .find(|l| l.contains("combobox \"Kernel\""))
        .expect("the select's line")
        .to_owned();
    let shown = line
        .split("(options \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the first option as shown")
        .to_owned();
    assert!(shown.ends_with('…'), "{line}");
    let kernel = find(&mut model, "Kernel", Some("combobox")).await;
    let outcome = select_options(&mut model, kernel, &[shown])
        .await
        .expect("by the shown text");
    assert!(outcome.selected[0].starts_with("Python 3 (ipykernel)"));
    // A unique prefix works; one that begins several options says which.
    let outcome = select_options(&mut model, kernel, &strings(&["rust"]))
        .await
        .expect("by a unique prefix");
    assert_eq!(outcome.selected, vec!["Rust (evcxr)"]);
    let err = select_options(&mut model, kernel, &strings(&["R"]))
        .await
        .expect_err("ambiguous");
    assert!(err.to_string().contains("begins several"), "{err}");
    // No match: the closest labels are named.
    let err = select_options(&mut model, kernel, &strings(&["Rust (evxcr)"]))
        .await
        .expect_err("a typo");
    assert!(
        err.to_string().contains("the closest: \"Rust (evcxr)\""),
        "{err}"
    );
    browser.close().await;
}
