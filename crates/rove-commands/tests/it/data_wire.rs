//! The wire form of an outcome's data: what `--json`, MCP and the daemon
//! carry for an evaluated value (`eval`), a text (`read`) and a saved file
//! (`screenshot` given a path) is pinned byte for byte, and so is how a
//! terminal or a model reads each.

use crate::support;

use rove_commands::{Outcome, SessionConfig};
use rove_localserver::Response;
use serde_json::{Value, json};
use support::Fixture;

/// The outcome's `data` as `--json` prints it.
fn wire(out: &Outcome) -> String {
    serde_json::to_string(&out.to_json()["data"]).expect("JSON")
}

/// The outcome as text, with `data` read as `shown`: what happened, then
/// the data, then the view.
fn text_around(out: &Outcome, shown: &str) -> String {
    let mut text: String = out
        .happened_lines()
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    text.push_str(shown);
    text.push_str(out.view.as_ref().map_or("", |v| v.text.as_str()));
    text
}

#[tokio::test]
async fn eval_read_and_a_saved_screenshot_keep_their_wire_form() {
    let output = rove_testkit::scratch_dir("data-wire-output");
    let routes = support::fixture_routes().page(
        "/wire.html",
        Response::html("<!doctype html><title>Wire</title><h1>Wire</h1><p>One line.</p>"),
    );
    let config = SessionConfig {
        output_dir: Some(output.clone()),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes, config).await;
    f.open("/wire.html").await;

    // An evaluated value: `{"result": value}`, the value's keys in order.
    let evaluated = f
        .ok(json!({"command": "eval", "js": "({s: 'two', n: 1, list: [true, null]})"}))
        .await;
    assert_eq!(
        wire(&evaluated),
        r#"{"result":{"list":[true,null],"n":1,"s":"two"}}"#
    );
    assert_eq!(
        evaluated.text(),
        text_around(
            &evaluated,
            "{\n  \"result\": {\n    \"list\": [\n      true,\n      null\n    ],\n    \"n\": 1,\n    \"s\": \"two\"\n  }\n}\n"
        )
    );
    // The shell prints the value first (then what happened and the view): a
    // string bare, its control characters dropped.
    let string = f
        .ok(json!({"command": "eval", "js": "'bell\\u0007 and\\ttab'"}))
        .await;
    assert_eq!(wire(&string), r#"{"result":"bell\u0007 and\ttab"}"#);
    assert_eq!(
        string.text_value_first(),
        format!("bell and\ttab\n{}", text_around(&string, ""))
    );
    let nothing = f.ok(json!({"command": "eval", "js": "undefined"})).await;
    assert_eq!(wire(&nothing), r#"{"result":null}"#);
    assert_eq!(
        nothing.text_value_first(),
        format!("null\n{}", text_around(&nothing, ""))
    );

    // A value too long to give whole: its JSON, cut, as a text.
    let long = f
        .ok(json!({"command": "eval", "js": "'x'.repeat(30000)"}))
        .await;
    let cut = format!("\"{}", "x".repeat(19_999));
    assert_eq!(wire(&long), Value::String(cut.clone()).to_string());
    assert_eq!(long.text_value_first(), long.text());
    assert_eq!(long.text(), text_around(&long, &format!("{cut}\n")));

    // A text: a JSON string, read as it is.
    let read = f.ok(json!({"command": "read"})).await;
    let markdown = read.to_json()["data"]
        .as_str()
        .expect("read answers with a text")
        .to_owned();
    assert!(
        markdown.contains("# Wire") && markdown.contains("One line."),
        "{markdown}"
    );
    assert_eq!(wire(&read), Value::String(markdown.clone()).to_string());
    assert_eq!(read.text(), text_around(&read, &markdown));
    // Not a value, so the shell prints it where every outcome has its data.
    assert_eq!(read.text_value_first(), read.text());

    // A saved file: `{"path", "bytes", "mime"}`, keys in order.
    let saved = f
        .ok(json!({"command": "screenshot", "path": "wire.png"}))
        .await;
    let path = output.join("wire.png");
    let bytes = std::fs::metadata(&path)
        .expect("the screenshot was written")
        .len();
    let path = path.display().to_string();
    let [happened] = saved.happened_lines().try_into().expect("one line");
    assert!(
        happened.starts_with("saved a screenshot of ") && happened.contains(&path),
        "{happened}"
    );
    assert_eq!(
        wire(&saved),
        format!(
            r#"{{"bytes":{bytes},"mime":"image/png","path":{}}}"#,
            json!(path)
        )
    );
    // Said once to a reader: the line says where, how big and of what
    // type; the fields are on the wire above.
    assert_eq!(saved.text(), format!("{happened}\n"));
    assert!(
        happened.contains(&format!("({bytes} bytes, image/png)")),
        "{happened}"
    );
    f.close().await;
}
