//! Clicks by ref against real Chromium: trusted events, buttons, modifiers,
//! the first box of a wrapped link, covered and disabled elements, stale refs,
//! scrolling, iframes in and out of process, navigation, dialogs.

use crate::support;

use std::time::Duration;

use rove_errors::{ActionSent, Classify, ErrorCode};
use rove_input::{Button, ClickOptions, InputError, Modifiers, click};
use rove_page::{PageModel, Ref, ViewOptions};
use serde_json::Value;
use support::{events, find};

/// The fixture files, served on both sites (see [`support::TwoSites`]).
async fn sites() -> support::TwoSites {
    let pages: Vec<(String, String)> = [
        "click.html",
        "inner.html",
        "covered.html",
        "next.html",
        "hover-cover.html",
    ]
    .iter()
    .map(|name| {
        let path = format!("{}/tests/it/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        let html = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        (format!("/{name}"), html)
    })
    .collect();
    let pages: Vec<(&str, &str)> = pages
        .iter()
        .map(|(p, h)| (p.as_str(), h.as_str()))
        .collect();
    support::TwoSites::start(&pages).await
}

fn of_type<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == kind).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_is_trusted_and_reaches_its_element() {
    let env = sites().await;
    let mut model = env.open_viewed("/click.html").await;
    let save = find(&mut model, "Save", Some("button")).await;
    click(&mut model, save, &ClickOptions::default())
        .await
        .expect("click");
    let seen = events(&model).await;
    let clicks = of_type(&seen, "click");
    assert_eq!(clicks.len(), 1, "{seen:?}");
    assert_eq!(clicks[0]["id"], "save");
    assert_eq!(
        clicks[0]["trusted"], true,
        "the page must see a trusted click"
    );
    assert_eq!(clicks[0]["detail"], 1);
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn double_right_middle_clicks_and_modifiers() {
    let env = sites().await;
    let mut model = env.open_viewed("/click.html").await;
    let save = find(&mut model, "Save", Some("button")).await;

    click(
        &mut model,
        save,
        &ClickOptions {
            count: 2,
            ..ClickOptions::default()
        },
    )
    .await
    .expect("double");
    let seen = events(&model).await;
    assert_eq!(of_type(&seen, "dblclick").len(), 1, "{seen:?}");
    assert_eq!(of_type(&seen, "click").len(), 2);

    click(
        &mut model,
        save,
        &ClickOptions {
            button: Button::Right,
            ..ClickOptions::default()
        },
    )
    .await
    .expect("right");
    let seen = events(&model).await;
    let menu = of_type(&seen, "contextmenu");
    assert_eq!(menu.len(), 1, "{seen:?}");
    assert_eq!(menu[0]["button"], 2);
    assert!(
        of_type(&seen, "click").is_empty(),
        "a right click is not a click"
    );

    click(
        &mut model,
        save,
        &ClickOptions {
            button: Button::Middle,
            ..ClickOptions::default()
        },
    )
    .await
    .expect("middle");
    let seen = events(&model).await;
    assert_eq!(
        of_type(&seen, "auxclick")
            .first()
            .map(|e| e["button"].clone()),
        Some(1.into()),
        "{seen:?}"
    );

    let held = Modifiers {
        ctrl: true,
        shift: true,
        ..Modifiers::default()
    };
    click(
        &mut model,
        save,
        &ClickOptions {
            modifiers: held,
            ..ClickOptions::default()
        },
    )
    .await
    .expect("ctrl+shift");
    let seen = events(&model).await;
    let clicked = of_type(&seen, "click");
    assert_eq!(
        (clicked[0]["ctrl"].clone(), clicked[0]["shift"].clone()),
        (true.into(), true.into()),
        "{seen:?}"
    );
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrapped_link_is_clicked_on_its_first_line() {
    let env = sites().await;
    let mut model = env.open_viewed("/click.html").await;
    let rects = model
        .tab()
        .evaluate("Array.from(document.getElementById('wrapped').getClientRects()).map(r => [r.top, r.bottom, r.left, r.right])")
        .await
        .expect("rects");
    let rects = rects.as_array().cloned().unwrap_or_default();
    assert!(rects.len() >= 2, "the fixture link must wrap: {rects:?}");
    let link = find(&mut model, "a link that wraps", Some("link")).await;
    click(&mut model, link, &ClickOptions::default())
        .await
        .expect("click");
    let seen = events(&model).await;
    let clicked = of_type(&seen, "click");
    assert_eq!(clicked[0]["id"], "wrapped", "{seen:?}");
    let (x, y) = (
        clicked[0]["x"].as_f64().unwrap_or(-1.0),
        clicked[0]["y"].as_f64().unwrap_or(-1.0),
    );
    let first = &rects[0];
    let inside = |v: f64, lo: &Value, hi: &Value| {
        v >= lo.as_f64().unwrap_or(f64::MAX) && v <= hi.as_f64().unwrap_or(f64::MIN)
    };
    assert!(
        inside(y, &first[0], &first[1]) && inside(x, &first[2], &first[3]),
        "({x}, {y}) is not in the first line {first:?}"
    );
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_covered_element_is_not_actionable_and_names_the_cover() {
    let env = sites().await;
    let mut model = env.open_viewed("/covered.html").await;
    let buy = find(&mut model, "Buy now", Some("button")).await;
    let err = click(
        &mut model,
        buy,
        &ClickOptions {
            timeout: Duration::from_millis(500),
            ..ClickOptions::default()
        },
    )
    .await
    .expect_err("covered");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    assert_eq!(err.action_sent(), ActionSent::NotSent);
    assert!(err.to_string().contains("div#consent-banner"), "{err}");
    assert!(err.hint().contains("div#consent-banner"), "{}", err.hint());
    assert_eq!(
        model.tab().evaluate("window.clicks").await.expect("clicks"),
        0,
        "the covered button was clicked"
    );
    env.browser.close().await;
}

/// What the page's own listeners saw, and which buttons and covers took a
/// click (`hover-cover.html`).
async fn page_saw(model: &PageModel) -> Value {
    model
        .tab()
        .evaluate("({seen: window.seen, pressed: window.pressed, covers: window.covers})")
        .await
        .expect("the page's record")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cover_that_hovering_draws_never_sees_the_press() {
    // The move, press and release go out together; a cover drawn by the
    // page's hover listener or by a :hover rule takes the press, which the
    // guard stops before the page's earliest listener: the answer names
    // the cover and nothing was sent.
    let env = sites().await;
    let mut model = env.open_viewed("/hover-cover.html").await;
    for (name, cover) in [("Delete", "div#delete-menu"), ("Share", "div#share-cover")] {
        let target = find(&mut model, name, Some("button")).await;
        let err = click(
            &mut model,
            target,
            &ClickOptions {
                timeout: Duration::from_millis(400),
                ..ClickOptions::default()
            },
        )
        .await
        .expect_err("covered on hover");
        assert_eq!(err.code(), ErrorCode::NotActionable, "{name}: {err}");
        assert_eq!(err.action_sent(), ActionSent::NotSent, "{name}");
        assert!(err.to_string().contains(cover), "{name}: {err}");
        let saw = page_saw(&model).await;
        assert_eq!(saw["seen"], serde_json::json!([]), "{name}: {saw}");
        assert_eq!(saw["pressed"], serde_json::json!([]), "{name}: {saw}");
        assert_eq!(saw["covers"], 0, "{name}: {saw}");
    }
    // A target that grows under the pointer still takes the press.
    let grow = find(&mut model, "Grow", Some("button")).await;
    click(&mut model, grow, &ClickOptions::default())
        .await
        .expect("a growing button is clicked");
    let saw = page_saw(&model).await;
    assert_eq!(saw["pressed"], serde_json::json!(["grow"]), "{saw}");
    assert_eq!(
        saw["seen"],
        serde_json::json!([
            "pointerdown:grow",
            "mousedown:grow",
            "pointerup:grow",
            "mouseup:grow",
            "click:grow"
        ]),
        "{saw}"
    );
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_that_hovering_draws_over_the_target_is_no_click_on_it() {
    // A frame drawn over the target takes the press into its own document,
    // where no guard of the target's can stop it: the click is not reported
    // as done, and the answer says the page changed with the input sent.
    let env = sites().await;
    let mut model = env.open_viewed("/hover-cover.html").await;
    let print = find(&mut model, "Print", Some("button")).await;
    let err = click(&mut model, print, &ClickOptions::default())
        .await
        .expect_err("the press went to the frame");
    assert_eq!(err.code(), ErrorCode::StaleState, "{err}");
    assert_ne!(err.action_sent(), ActionSent::NotSent, "{err}");
    let saw = page_saw(&model).await;
    assert_eq!(saw["pressed"], serde_json::json!([]), "{saw}");
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disabled_element_says_so() {
    let env = sites().await;
    let mut model = env.open_viewed("/click.html").await;
    for text in ["Disabled", "Inside disabled fieldset"] {
        let r = find(&mut model, text, Some("button")).await;
        // The default 5 s to become actionable is not waited out: a
        // disabled control is known at once.
        let started = std::time::Instant::now();
        let err = click(&mut model, r, &ClickOptions::default())
            .await
            .expect_err("disabled");
        assert!(
            started.elapsed() < Duration::from_millis(2_000),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(err.code(), ErrorCode::NotActionable, "{err}");
        assert!(err.to_string().contains("disabled"), "{err}");
    }
    assert!(of_type(&events(&model).await, "click").is_empty());
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_ref_is_ref_not_found_and_nothing_is_clicked() {
    let env = sites().await;
    let mut model = env.open_viewed("/click.html").await;
    let save = find(&mut model, "Save", Some("button")).await;
    model.tab().evaluate("document.getElementById('save').replaceWith(document.getElementById('save').cloneNode(true))").await.expect("rerender");
    let err = click(&mut model, save, &ClickOptions::default())
        .await
        .expect_err("stale");
    assert_eq!(err.code(), ErrorCode::RefNotFound);
    assert_eq!(err.action_sent(), ActionSent::NotSent);
    match &err {
        InputError::Page(rove_page::PageError::RefNotFound {
            fresh_view: Some(view),
            ..
        }) => {
            assert!(view.contains("button \"Save\""), "{view}");
        }
        other => panic!("expected REF_NOT_FOUND with a fresh view, got {other:?}"),
    }
    assert!(of_type(&events(&model).await, "click").is_empty());
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_element_far_below_is_scrolled_into_view_and_clicked() {
    let env = sites().await;
    let mut model = env.open_viewed("/click.html").await;
    let far = find(&mut model, "Far below", Some("button")).await;
    click(&mut model, far, &ClickOptions::default())
        .await
        .expect("click");
    let seen = events(&model).await;
    assert_eq!(of_type(&seen, "click")[0]["id"], "far", "{seen:?}");
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buttons_in_same_process_and_out_of_process_frames() {
    let env = sites().await;
    let mut model = env.open_viewed("/click.html").await;
    model.tab().evaluate("window.messages = []; addEventListener('message', (e) => window.messages.push(e.data)); 0").await.expect("listen");
    let view = model
        .view(&ViewOptions {
            budget: Some(0),
            ..ViewOptions::default()
        })
        .await
        .expect("view");
    let inner: Vec<Ref> = view
        .text
        .lines()
        .filter(|l| l.contains("button \"Inner button\""))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(inner.len(), 2, "{}", view.text);
    for r in inner {
        click(&mut model, r, &ClickOptions::default())
            .await
            .unwrap_or_else(|e| panic!("{r}: {e}"));
    }
    // The frames report by postMessage, which lands a moment later.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let messages = loop {
        let messages = model
            .tab()
            .evaluate("window.messages")
            .await
            .expect("messages");
        let arrived = messages.as_array().map_or(0, Vec::len);
        if arrived >= 2 || std::time::Instant::now() > deadline {
            break messages;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let hosts: Vec<String> = messages
        .as_array()
        .map(|m| {
            m.iter()
                .filter(|x| x["trusted"] == true)
                .filter_map(|x| x["inner"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        hosts.len(),
        2,
        "both frames must see a trusted click: {messages}"
    );
    assert!(
        hosts.iter().any(|h| h.starts_with("127.0.0.1")),
        "{hosts:?}"
    );
    assert!(
        hosts.iter().any(|h| h.starts_with("localhost")),
        "{hosts:?}"
    );
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_that_navigates_waits_for_the_new_page() {
    let env = sites().await;
    let mut model = env.open_viewed("/click.html").await;
    let next = find(&mut model, "Next page", Some("link")).await;
    let outcome = click(&mut model, next, &ClickOptions::default())
        .await
        .expect("click");
    assert!(outcome.settled.navigated, "{outcome:?}");
    assert!(outcome.settled.loaded, "{outcome:?}");
    let title = model.tab().evaluate("document.title").await.expect("title");
    assert_eq!(title, "Next");
    env.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_is_refused_while_a_dialog_blocks_the_page() {
    let env = sites().await;
    let mut model = env.open_viewed("/click.html").await;
    let save = find(&mut model, "Save", Some("button")).await;
    let tab = model.tab().clone();
    let blocked = tokio::spawn(async move { tab.evaluate("confirm('Really?')").await });
    let watch = model.tab().watch().await.expect("watch");
    watch
        .wait_for_dialog(Duration::from_secs(5))
        .await
        .expect("the dialog was reported");
    let err = click(&mut model, save, &ClickOptions::default())
        .await
        .expect_err("dialog");
    assert_eq!(err.code(), ErrorCode::DialogOpen);
    assert!(err.to_string().contains("Really?"), "{err}");
    model
        .tab()
        .send(&rove_cdp::protocol::page::HandleJavaScriptDialog {
            accept: false,
            prompt_text: None,
        })
        .await
        .expect("dismiss");
    assert_eq!(blocked.await.expect("task").expect("confirm"), false);
    env.browser.close().await;
}
