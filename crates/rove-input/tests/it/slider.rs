//! Sliders and spinbuttons take a filled value through real keys, and the
//! app (which commits only when a change ends) sees it: asserted on the
//! app's own committed state, not on the control's value.

use crate::support;

use rove_errors::{ActionSent, Classify, ErrorCode};
use rove_input::{InputError, fill};
use rove_page::PageModel;
use support::{Page, find_exact};

async fn text_of(model: &PageModel, id: &str) -> String {
    model
        .tab()
        .evaluate(&format!("document.getElementById('{id}').textContent"))
        .await
        .expect("text")
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_range_input_that_commits_on_key_release_gets_the_value() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("slider.html").await;
    let volume = find_exact(&mut model, "Volume", "slider").await;
    for wanted in ["70", "0", "100", "35"] {
        let outcome = fill(&mut model, volume, wanted).await.expect(wanted);
        assert_eq!(outcome.value, wanted);
        assert_eq!(
            text_of(&model, "volumeCommitted").await,
            format!("Volume: {wanted}"),
            "the app committed {wanted}"
        );
    }

    // Off its steps, or outside its limits: refused before any key, naming
    // the values it takes.
    let err = fill(&mut model, volume, "72").await.expect_err("off steps");
    assert_eq!(err.code(), ErrorCode::CommandRejected);
    assert_eq!(err.action_sent(), ActionSent::NotSent);
    let message = err.to_string();
    assert!(message.contains("70 and 75"), "{message}");
    assert!(message.contains("from 0 to 100 in steps of 5"), "{message}");
    let err = fill(&mut model, volume, "150").await.expect_err("too high");
    assert_eq!(err.code(), ErrorCode::CommandRejected);
    let err = fill(&mut model, volume, "loud")
        .await
        .expect_err("not a number");
    assert_eq!(err.code(), ErrorCode::CommandRejected);
    assert_eq!(text_of(&model, "volumeCommitted").await, "Volume: 35");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aria_slider_and_a_spinbutton_are_moved_with_their_keys() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("slider.html").await;
    let level = find_exact(&mut model, "Level", "slider").await;
    for wanted in ["14", "20", "0", "2"] {
        let outcome = fill(&mut model, level, wanted).await.expect(wanted);
        assert_eq!(outcome.value, wanted);
        assert_eq!(
            text_of(&model, "levelCommitted").await,
            format!("Level: {wanted}")
        );
    }
    // Its steps are 2, which only its keys tell: 7 is passed, and the error
    // names the values around it and what the slider holds now.
    let err = fill(&mut model, level, "7").await.expect_err("off steps");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    assert_eq!(err.action_sent(), ActionSent::Sent);
    match &err {
        InputError::OffSteps {
            below,
            above,
            holds,
            ..
        } => {
            assert_eq!((below.as_str(), above.as_str()), ("6", "8"));
            assert!(holds == "6" || holds == "8", "{holds}");
            assert_eq!(
                text_of(&model, "levelCommitted").await,
                format!("Level: {holds}"),
                "what the error says it holds is what the app has"
            );
        }
        other => panic!("expected OffSteps, got {other:?}"),
    }
    let err = fill(&mut model, level, "30").await.expect_err("too high");
    assert_eq!(err.code(), ErrorCode::CommandRejected);
    assert_eq!(err.action_sent(), ActionSent::NotSent);

    // A spinbutton that knows only ArrowUp and ArrowDown (no Home or End).
    let month = find_exact(&mut model, "Month", "spinbutton").await;
    for wanted in ["9", "1", "12"] {
        let outcome = fill(&mut model, month, wanted).await.expect(wanted);
        assert_eq!(outcome.value, wanted);
        assert_eq!(
            text_of(&model, "monthCommitted").await,
            format!("Month: {wanted}")
        );
    }
    browser.close().await;
}

/// Hostile limits and keys (issue 37, items 19 and 20): a range of ±1e308
/// without steps said its nearest values were 0 and `inf` and was left at
/// 2e306; a slider that ignores its keys was reported as a text field that
/// did not take the text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_range_as_wide_as_a_float_and_a_slider_deaf_to_keys_are_told_honestly() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("slider.html").await;
    let huge = find_exact(&mut model, "Huge", "slider").await;
    let err = fill(&mut model, huge, "1e300")
        .await
        .expect_err("off its strides");
    let message = err.to_string();
    assert!(!message.contains("inf"), "{message}");
    match &err {
        InputError::OffSteps {
            below,
            above,
            holds,
            ..
        } => {
            assert_eq!(below, "0", "{message}");
            assert_eq!(above.parse::<f64>().ok(), Some(2e306), "{message}");
            assert_eq!(holds, "0", "put back where it came from: {message}");
        }
        other => panic!("expected OffSteps, got {other:?}"),
    }
    let value = model
        .tab()
        .evaluate("document.getElementById('huge').value")
        .await
        .expect("value");
    assert_eq!(value, "0", "the range is left as it was");

    let stuck = find_exact(&mut model, "Stuck", "slider").await;
    let err = fill(&mut model, stuck, "7")
        .await
        .expect_err("deaf to keys");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    assert_eq!(err.action_sent(), ActionSent::Sent);
    let message = err.to_string();
    assert!(
        message.contains("did not move to 7") && message.contains("left it at 5"),
        "{message}"
    );
    assert!(
        !message.contains("text"),
        "no text field's words: {message}"
    );
    assert!(!err.hint().contains("text"), "{}", err.hint());
    browser.close().await;
}

/// A slider its keys do not move but a pointer does (issue 43, item 5):
/// its thumb is dragged along its track to the value, which is read back
/// and committed by the app on release.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slider_deaf_to_keys_is_dragged_to_the_value() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("slider.html").await;
    let dragged = find_exact(&mut model, "Dragged", "slider").await;
    for wanted in ["70", "5", "100"] {
        let outcome = fill(&mut model, dragged, wanted).await.expect(wanted);
        assert_eq!(outcome.value, wanted);
        assert_eq!(
            text_of(&model, "draggedCommitted").await,
            format!("Dragged: {wanted}"),
            "the app committed {wanted}"
        );
    }
    browser.close().await;
}

/// Issue 35, item 5: a composite slider (older Quasar) names the slider on
/// an element that takes no focus; its focusable part (the track with a
/// tabindex) gets the keys.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_composite_slider_gets_its_keys_through_its_focusable_part() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("slider.html").await;
    let composite = find_exact(&mut model, "Composite", "slider").await;
    let outcome = fill(&mut model, composite, "7").await.expect("fill");
    assert_eq!(outcome.value, "7");
    assert_eq!(
        text_of(&model, "compositeCommitted").await,
        "Composite: 7",
        "the app committed 7"
    );
    browser.close().await;
}
