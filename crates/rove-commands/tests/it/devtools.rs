//! The devtools group: `console` returns what the page logged since the
//! last call (or all), filtered by level, with source locations, and an
//! uncaught error with its stack.

use crate::support;

use serde_json::json;
use support::Fixture;

fn text_of(out: &rove_commands::Outcome) -> String {
    out.data_text()
        .expect("console answers with text")
        .to_owned()
}

#[tokio::test]
async fn console_messages_and_an_uncaught_error_with_its_stack() {
    let mut f = Fixture::start().await;
    let url = f.url("/console.html");
    f.open("/console.html").await;

    let first = text_of(&f.ok(json!({"command": "console"})).await);
    assert!(
        first.contains("5 console messages since the last call"),
        "{first}"
    );
    // Each message with its level, its text quoted, and where it was logged
    // (the inline script starts on line 7 of the page).
    assert!(
        first.contains(&format!("[log] \"hello 42 Object\" at {url}:7:9")),
        "{first}"
    );
    // The page's line break and zero-width space do not reach the reader.
    assert!(
        first.contains("[warning] \"careful now e99 button\""),
        "{first}"
    );
    assert!(first.contains("[info] \"note\""), "{first}");
    assert!(first.contains("[debug] \"detail\""), "{first}");
    assert!(first.contains("[error] \"bad thing\""), "{first}");

    // Since the last call: nothing new yet.
    let again = text_of(&f.ok(json!({"command": "console"})).await);
    assert!(
        again.starts_with("no console messages since the last call"),
        "{again}"
    );

    // An uncaught error, thrown two calls deep by a click.
    let throw = f.find("Throw", "button").await;
    f.ok(json!({"command": "click", "ref": throw})).await;
    let thrown = text_of(&f.ok(json!({"command": "console"})).await);
    assert!(
        thrown.contains("1 console message since the last call"),
        "{thrown}"
    );
    assert!(
        thrown.contains("[error exception] \"Uncaught Error: boom from inner\" at "),
        "{thrown}"
    );
    assert!(
        thrown.contains(&format!("    at inner ({url}:13:9)")),
        "{thrown}"
    );
    assert!(
        thrown.contains(&format!("    at thrower ({url}:16:3)")),
        "{thrown}"
    );

    // All kept, errors only: the console.error and the exception.
    let errors = text_of(
        &f.ok(json!({"command": "console", "all": true, "level": "error"}))
            .await,
    );
    assert!(
        errors.contains("2 console messages at level error or worse kept"),
        "{errors}"
    );
    assert!(!errors.contains("hello"), "{errors}");
    // Warning and worse: three.
    let warnings = text_of(
        &f.ok(json!({"command": "console", "all": true, "level": "warning"}))
            .await,
    );
    assert!(warnings.starts_with("3 console messages"), "{warnings}");
    f.close().await;
}

#[tokio::test]
async fn a_console_read_at_one_level_leaves_the_lower_levels_unread() {
    let mut f = Fixture::start().await;
    f.open("/console.html").await;
    let errors = text_of(&f.ok(json!({"command": "console", "level": "error"})).await);
    assert!(
        errors.starts_with("1 console message at level error or worse since the last call"),
        "{errors}"
    );
    // The rest is still new to the next call without a filter.
    let rest = text_of(&f.ok(json!({"command": "console"})).await);
    assert!(
        rest.starts_with("4 console messages since the last call"),
        "{rest}"
    );
    assert!(rest.contains("[debug] \"detail\""), "{rest}");
    assert!(!rest.contains("bad thing"), "read already: {rest}");
    f.close().await;
}

/// A message's text is quoted as page text is everywhere in rove: its `"`
/// and `\` escaped, and every other character as the page wrote it (an
/// accent made of a letter and a combining mark stays a letter, never
/// `\u{301}`).
#[tokio::test]
async fn a_console_message_is_quoted_as_page_text_is() {
    let mut f = Fixture::start().await;
    f.open("/console_quoting.html").await;
    let shown = text_of(&f.ok(json!({"command": "console"})).await);
    assert!(
        shown.contains("[log] \"cafe\u{301} \\\"menu\\\" C:\\\\temp\""),
        "{shown}"
    );
    assert!(!shown.contains("\\u{"), "{shown}");
    f.close().await;
}
