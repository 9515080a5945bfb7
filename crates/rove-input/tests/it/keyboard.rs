//! Typing, filling and pressing keys against real Chromium: real key events
//! the page can filter, values read back, ignored edits reported.

use crate::support;

use rove_errors::{ActionSent, Classify, ErrorCode};
use rove_input::{InputError, TypeOptions, fill, press, type_text};
use rove_page::PageModel;
use serde_json::Value;
use support::events;
use support::{Page, find};

async fn value_of(model: &PageModel, id: &str) -> Value {
    model
        .tab()
        .evaluate(&format!(
            "document.getElementById('{id}').value ?? document.getElementById('{id}').innerText"
        ))
        .await
        .expect("value")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn type_appends_with_one_trusted_key_press_per_character() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("edit.html").await;
    let name = find(&mut model, "Name", None).await;
    let outcome = type_text(&mut model, name, " Lovelace", &TypeOptions::default())
        .await
        .expect("type");
    assert_eq!(outcome.value, "Ada Lovelace");
    assert_eq!(value_of(&model, "name").await, "Ada Lovelace");
    let seen = events(&model).await;
    // Shift is pressed around the capital; count the typed keys only.
    let on_name: Vec<&Value> = seen
        .iter()
        .filter(|e| e["id"] == "name" && e["key"] != "Shift")
        .collect();
    for kind in ["keydown", "keypress", "input", "keyup"] {
        let n = on_name.iter().filter(|e| e["type"] == kind).count();
        assert_eq!(n, 9, "{kind}: {on_name:?}");
    }
    assert!(
        on_name.iter().all(|e| e["trusted"] == true),
        "untrusted events: {on_name:?}"
    );
    let capital = on_name
        .iter()
        .find(|e| e["type"] == "keydown" && e["key"] == "L")
        .expect("a keydown for L");
    assert_eq!(capital["shift"], true, "a capital is typed with Shift");

    let bio = find(&mut model, "Bio", None).await;
    type_text(
        &mut model,
        bio,
        "Line one\nLine two",
        &TypeOptions::default(),
    )
    .await
    .expect("textarea");
    assert_eq!(value_of(&model, "bio").await, "Line one\nLine two");

    let notes = find(&mut model, "Notes", None).await;
    type_text(
        &mut model,
        notes,
        " there, café ☕",
        &TypeOptions::default(),
    )
    .await
    .expect("contenteditable");
    assert_eq!(value_of(&model, "notes").await, "Hi there, café ☕");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_filters_keys_sees_them_and_the_ignored_edit_is_reported() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("edit.html").await;
    let digits = find(&mut model, "Digits only", None).await;
    let err = type_text(&mut model, digits, "a1b2", &TypeOptions::default())
        .await
        .expect_err("filtered");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    assert_eq!(
        err.action_sent(),
        ActionSent::Sent,
        "the keys did reach the page"
    );
    match &err {
        InputError::Ignored { holds, wanted, .. } => {
            assert_eq!(holds, "12");
            assert_eq!(wanted, "a1b2");
        }
        other => panic!("expected an ignored edit, got {other:?}"),
    }

    let stubborn = find(&mut model, "Stubborn", None).await;
    let err = fill(&mut model, stubborn, "hello")
        .await
        .expect_err("reverted");
    assert!(err.to_string().contains("\"nope\""), "{err}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fill_replaces_the_value_with_trusted_input_and_change() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("edit.html").await;
    let name = find(&mut model, "Name", None).await;
    let outcome = fill(&mut model, name, "Grace Hopper").await.expect("fill");
    assert_eq!(outcome.value, "Grace Hopper");
    let seen = events(&model).await;
    let kinds: Vec<&str> = seen
        .iter()
        .filter(|e| e["id"] == "name")
        .filter_map(|e| e["type"].as_str())
        .collect();
    assert!(
        kinds.contains(&"input") && kinds.contains(&"change"),
        "{kinds:?}"
    );
    // The edit itself is trusted input; the `change` that commits it is
    // fired from script, so the field keeps the focus (leaving it would
    // close widgets that close on blur).
    assert!(
        seen.iter()
            .filter(|e| e["id"] == "name" && e["type"] != "change")
            .all(|e| e["trusted"] == true),
        "{seen:?}"
    );
    assert_eq!(
        model
            .tab()
            .evaluate("document.activeElement.id")
            .await
            .expect("focus"),
        "name",
        "the field keeps the focus"
    );

    let emptied = fill(&mut model, name, "").await.expect("fill empty");
    assert_eq!(emptied.value, "");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_cannot_take_text_says_why() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("edit.html").await;
    let ro = find(&mut model, "Read only", None).await;
    let err = fill(&mut model, ro, "x").await.expect_err("read-only");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    assert_eq!(err.action_sent(), ActionSent::NotSent);
    assert!(err.to_string().contains("read-only"), "{err}");
    assert_eq!(value_of(&model, "ro").await, "fixed");

    let button = find(&mut model, "Not a field", None).await;
    let err = type_text(&mut model, button, "x", &TypeOptions::default())
        .await
        .expect_err("button");
    assert!(err.to_string().contains("not editable"), "{err}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_chords_act_on_the_focused_field() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("edit.html").await;
    let query = find(&mut model, "Query", None).await;
    type_text(&mut model, query, "rust", &TypeOptions::default())
        .await
        .expect("type");
    let tab = model.tab().clone();
    press(&tab, "Control+A").await.expect("select all");
    press(&tab, "Backspace").await.expect("delete");
    assert_eq!(value_of(&model, "q").await, "");
    type_text(&mut model, query, "tokio", &TypeOptions::default())
        .await
        .expect("type");
    press(&tab, "Enter").await.expect("enter");
    assert_eq!(
        model
            .tab()
            .evaluate("window.submitted")
            .await
            .expect("submitted"),
        "tokio"
    );

    let err = press(&tab, "Control+Banana")
        .await
        .expect_err("no such key");
    assert_eq!(err.code(), ErrorCode::CommandRejected);
    assert!(err.to_string().contains("\"Banana\""), "{err}");
    browser.close().await;
}
