//! A page that breaks the builtins rove's scripts use gets either rove
//! working as usual (its scripts run in worlds of their own, which the page
//! cannot reach) or an honest `INTERNAL` error naming the script and the
//! exception, never a claim that the element went away.

use crate::support;

use rove_cdp::CdpError;
use rove_cdp::protocol::runtime::{CallFunctionOn, Evaluate};
use rove_errors::{Classify, ErrorCode};
use rove_input::{ClickOptions, click, fill, scroll_by, set_checked};
use support::{Page, find};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_work_on_a_page_that_broke_the_builtins_rove_uses() {
    let Page {
        browser,
        server: _server,
        mut model,
    } = Page::open("broken.html").await;
    let go = find(&mut model, "Go", Some("button")).await;
    click(&mut model, go, &ClickOptions::default())
        .await
        .expect("the click works: actionable.js runs in rove's world");
    let count = model
        .tab()
        .evaluate("document.getElementById('count').textContent")
        .await
        .expect("count");
    assert_eq!(count, "1", "the page's own handler ran once");

    let name = find(&mut model, "Name", Some("textbox")).await;
    fill(&mut model, name, "Ada")
        .await
        .expect("fill works: editable.js runs in rove's world");
    let value = model
        .tab()
        .evaluate("document.getElementById('name').value")
        .await
        .expect("value");
    assert_eq!(value, "Ada");

    let agree = find(&mut model, "Agree", Some("checkbox")).await;
    let toggled = set_checked(&mut model, agree, true).await.expect("check");
    assert!(!toggled.unchanged);

    // The page replaced `scrollY` and `innerHeight` in its world; the page's
    // scroll position is read in a world of rove's own.
    let scrolled = scroll_by(&mut model, None, (0.0, 1.0), Some(500.0))
        .await
        .expect("scroll works");
    assert!(scrolled.before.height > 0.0, "{scrolled:?}");
    assert!(
        (scrolled.after.y - scrolled.before.y - 500.0).abs() < 2.0,
        "moved 500 px: {scrolled:?}"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_that_throws_is_an_internal_error_with_its_message() {
    let Page {
        browser,
        server: _server,
        model,
    } = Page::open("broken.html").await;
    let session = model.tab().session().await.expect("session");
    let document = session
        .send(&Evaluate {
            expression: "document".into(),
            ..Evaluate::default()
        })
        .await
        .expect("document")
        .result
        .object_id
        .expect("an object");
    // A script of rove's in the page's own world, where the page broke
    // `Array.prototype.map`.
    let call = CallFunctionOn::on(
        "probe.js",
        "function() {\n  return [1, 2].map(x => x);\n}",
        document.as_str(),
    )
    .by_value();
    let error = session
        .run_checked(&call, None)
        .await
        .expect_err("the page broke map");
    assert_eq!(error.code(), ErrorCode::Internal, "{error}");
    assert!(!error.document_gone(), "not a stale element: {error}");
    let CdpError::Script {
        script,
        message,
        line,
        ..
    } = &error
    else {
        panic!("a script error: {error:?}");
    };
    assert_eq!(script, "probe.js");
    assert!(
        message.contains("Array.prototype.map is broken by the page"),
        "{message}"
    );
    assert!(*line >= 1, "{error}");
    assert!(
        error.to_string().contains("probe.js"),
        "the message names the script: {error}"
    );

    // An answer of the wrong shape is a decode failure, also INTERNAL.
    let call = CallFunctionOn::on(
        "shape.js",
        "function() { return 'text'; }",
        document.as_str(),
    )
    .by_value();
    let error = session
        .run_checked_value::<_, u32>(&call, None)
        .await
        .expect_err("a string is not a number");
    assert_eq!(error.code(), ErrorCode::Internal, "{error}");
    assert!(error.to_string().contains("shape.js"), "{error}");
    browser.close().await;
}
