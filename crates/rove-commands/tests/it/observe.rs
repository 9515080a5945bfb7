//! The reading commands and the rest of the vocabulary: `screenshot`, `read`,
//! `wait`, `eval`, `select` (native and ARIA), `type`/`fill`/`press`. The
//! JSON shape every face sends: `crate::fast::observe`.

use crate::support;

use rove_commands::Data;
use serde_json::json;
use support::{Fixture, code};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
const JPEG: &[u8] = b"\xff\xd8\xff";

#[tokio::test]
async fn screenshots_cover_viewport_page_element_and_clip_within_a_budget() {
    let mut f = Fixture::start().await;
    f.open("/pointer.html").await;
    let viewport = f.ok(json!({"command": "screenshot"})).await;
    let image = viewport.image.expect("an inline image");
    assert_eq!(image.mime, "image/png");
    assert!(image.bytes.starts_with(PNG));
    let (w, h) = png_size(&image.bytes);
    let (vw, vh) = (f.eval("innerWidth").await, f.eval("innerHeight").await);
    assert_eq!((json!(w), json!(h)), (vw, vh));

    let full = f
        .ok(json!({"command": "screenshot", "full_page": true}))
        .await;
    let (_, fh) = png_size(&full.image.expect("image").bytes);
    assert!(fh > 3000, "the full page is taller than the viewport: {fh}");

    let knob = f.find("Knob", "slider").await;
    let element = f.ok(json!({"command": "screenshot", "ref": knob})).await;
    assert_eq!(png_size(&element.image.expect("image").bytes), (40, 40));

    let clip = json!({"x": 0, "y": 0, "width": 120, "height": 30});
    let clipped = f
        .ok(json!({"command": "screenshot", "clip": clip, "format": "jpeg", "quality": 50}))
        .await;
    let image = clipped.image.expect("image");
    assert_eq!(image.mime, "image/jpeg");
    assert!(image.bytes.starts_with(JPEG));

    // Over budget as PNG, under it as JPEG: retaken, and said so.
    let png_bytes = f
        .ok(json!({"command": "screenshot", "full_page": true}))
        .await
        .image
        .expect("image")
        .bytes
        .len();
    let shrunk = f
        .ok(json!({"command": "screenshot", "full_page": true, "max_bytes": png_bytes - 1}))
        .await;
    assert!(
        shrunk.happened_lines()[0].contains("retaken as JPEG"),
        "{:?}",
        shrunk.happened_lines()
    );
    assert!(shrunk.image.expect("image").bytes.len() < png_bytes);
    let e = f
        .fails(json!({"command": "screenshot", "max_bytes": 100}))
        .await;
    assert_eq!(code(&e), "SCREENSHOT_BUDGET_EXCEEDED");
    assert_eq!(e.facts().expect("facts")["budget"], 100);

    // A model names a file; it lands in the session's output folder.
    let saved = f
        .ok(json!({"command": "screenshot", "path": "observe-shot.png"}))
        .await;
    assert!(saved.image.is_none());
    let Some(Data::Saved { path, .. }) = saved.data else {
        panic!(
            "screenshot answers with the file it saved: {:?}",
            saved.data
        );
    };
    assert!(std::fs::read(&path).expect("saved").starts_with(PNG));
    std::fs::remove_file(&path).expect("cleanup");
    f.close().await;
}

fn png_size(png: &[u8]) -> (u32, u32) {
    let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    (be(16), be(20))
}

#[tokio::test]
async fn read_gives_markdown_and_wait_waits_for_what_it_names() {
    let mut f = Fixture::start().await;
    f.open("/article.html").await;
    let read = f.ok(json!({"command": "read"})).await.text();
    for part in [
        "# Growing tomatoes",
        "Tomatoes need **sun** and [regular water](http://127.0.0.1:",
        "## Steps",
        "1. Sow seeds",
        "  - after frost",
        "| Variety | Days |",
        "| Roma | 75 |",
        "```\nwater: daily\n```",
    ] {
        assert!(read.contains(part), "{part:?} missing from\n{read}");
    }
    assert!(!read.contains("Hidden note"), "{read}");

    let out = f
        .ok(json!({"command": "wait", "text": "Harvest time"}))
        .await;
    assert!(
        out.happened_lines()[0].starts_with("waited "),
        "{:?}",
        out.happened_lines()
    );
    f.ok(json!({"command": "wait", "text_gone": "Loading data"}))
        .await;
    let e = f
        .fails(json!({"command": "wait", "text": "Never there", "ms": 300}))
        .await;
    assert_eq!(code(&e), "TIMEOUT");
    assert!(
        e.to_string().contains("\"Never there\" did not appear"),
        "{e}"
    );
    f.ok(json!({"command": "wait", "url": "*/article.html"}))
        .await;
    f.ok(json!({"command": "wait", "load": "networkidle"}))
        .await;
    let started = std::time::Instant::now();
    f.ok(json!({"command": "wait", "ms": 200})).await;
    assert!(started.elapsed() >= std::time::Duration::from_millis(200));
    let e = f
        .fails(json!({"command": "wait", "text": "a", "url": "b"}))
        .await;
    assert_eq!(code(&e), "COMMAND_REJECTED");
    f.close().await;
}

#[tokio::test]
async fn eval_runs_expressions_and_functions_and_reports_throws() {
    let mut f = Fixture::start().await;
    f.open("/home.html").await;
    assert_eq!(f.eval("1 + 1").await, json!(2));
    assert_eq!(f.eval("() => document.title").await, json!("Home"));
    assert_eq!(
        f.eval("async () => { await new Promise(r => setTimeout(r, 10)); return [1, {a: 'b'}]; }")
            .await,
        json!([1, {"a": "b"}])
    );
    assert_eq!(f.eval("undefined").await, json!(null));
    let search = f.find("Search", "textbox").await;
    f.ok(json!({"command": "fill", "ref": search, "text": "tomatoes"}))
        .await;
    let out = f
        .ok(json!({"command": "eval", "js": "(el) => el.value + ' ' + el.id", "ref": search}))
        .await;
    assert_eq!(out.result().expect("data"), "tomatoes q");
    let e = f.fails(json!({"command": "eval", "js": "null.x"})).await;
    assert_eq!(code(&e), "EVALUATION_FAILED");
    assert!(e.to_string().contains("TypeError"), "{e}");
    let e = f
        .fails(json!({"command": "eval", "js": "(() => { throw new Error('boom') })()"}))
        .await;
    assert!(e.to_string().contains("boom"), "{e}");
    f.close().await;
}

#[tokio::test]
async fn a_select_whose_change_navigates_reports_the_new_page() {
    let mut f = Fixture::start().await;
    f.open("/jump.html").await;
    let menu = f.find("Go to", "combobox").await;
    let out = f
        .ok(json!({"command": "select", "ref": menu, "values": ["Next"]}))
        .await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.starts_with("navigated to ") && l.ends_with("/next.html")),
        "{:?}",
        out.happened_lines()
    );
    let view = out.view.expect("a view").text;
    assert!(view.contains("Next page"), "{view}");
    f.close().await;
}

#[tokio::test]
async fn select_picks_options_in_aria_listboxes_and_comboboxes() {
    let mut f = Fixture::start().await;
    f.open("/widgets.html").await;
    let chosen = "document.getElementById('chosen').textContent";
    let fruit = f.find("Fruit", "listbox").await;
    let out = f
        .ok(json!({"command": "select", "ref": fruit, "values": ["Banana"]}))
        .await;
    assert_eq!(
        out.happened_lines()[0],
        format!("{fruit} now has \"Banana\" selected")
    );
    assert_eq!(
        f.eval(chosen).await,
        "fruit Banana true",
        "a trusted click on the option"
    );

    let country = f.find("Country", "combobox").await;
    f.ok(json!({"command": "select", "ref": country, "values": ["Japan"]}))
        .await;
    assert_eq!(f.eval(chosen).await, "country Japan");

    let city = f.find("City", "combobox").await;
    f.ok(json!({"command": "select", "ref": city, "values": ["Lyon"]}))
        .await;
    assert_eq!(f.eval(chosen).await, "city Lyon");
    assert_eq!(
        f.eval("document.getElementById('city').value").await,
        "Lyon"
    );

    let e = f
        .fails(json!({"command": "select", "ref": fruit, "values": ["Durian"]}))
        .await;
    assert_eq!(code(&e), "COMMAND_REJECTED");
    assert!(
        e.to_string().contains("no option is named \"Durian\""),
        "{e}"
    );
    f.close().await;
}

#[tokio::test]
async fn typing_filling_and_pressing_through_commands() {
    let mut f = Fixture::start().await;
    f.open("/home.html").await;
    let search = f.find("Search", "textbox").await;
    f.ok(json!({"command": "type", "ref": search, "text": "ab"}))
        .await;
    f.ok(json!({"command": "type", "ref": search, "text": "C"}))
        .await;
    assert_eq!(f.eval("document.getElementById('q').value").await, "abC");
    f.ok(json!({"command": "fill", "ref": search, "text": "new"}))
        .await;
    assert_eq!(f.eval("document.getElementById('q').value").await, "new");
    f.ok(json!({"command": "press", "keys": "Control+A", "ref": search}))
        .await;
    f.ok(json!({"command": "press", "keys": "Backspace"})).await;
    assert_eq!(f.eval("document.getElementById('q').value").await, "");
    let query = f.find("Query", "textbox").await;
    let out = f
        .ok(json!({"command": "fill", "ref": query, "text": "seeds", "submit": true}))
        .await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.contains("/next.html?query=seeds")),
        "{:?}",
        out.happened_lines()
    );
    let e = f
        .fails(json!({"command": "press", "keys": "Control+Nope"}))
        .await;
    assert_eq!(code(&e), "COMMAND_REJECTED");
    f.close().await;
}

/// Half an emoji in the page's text (a lone UTF-16 surrogate, which a
/// page's script or a cut can leave) is shown as U+FFFD; before, one such
/// character made every view and `read` of the page fail to decode.
#[tokio::test]
async fn half_an_emoji_in_the_page_is_shown_not_fatal() {
    let long = format!("{}😀 and more", "a".repeat(198));
    let page = format!(
        "<!doctype html><title>Cut</title><p id=x></p><button>{long}</button>\
         <script>document.getElementById('x').textContent = 'half \\uD83D here';\
         document.title = 'T\\uD83D'; console.log('said \\uD83D')</script>"
    );
    let routes = support::fixture_routes().page("/cut", rove_localserver::Response::html(page));
    let mut f = Fixture::with(routes, rove_commands::SessionConfig::default()).await;
    let out = f.open("/cut").await;
    let view = out.view.expect("a view").text;
    assert!(view.contains("half \u{FFFD} here"), "{view}");
    // A name cut next to an emoji is cut before it, not through it.
    assert!(
        view.contains(&format!("button \"{}…\"", "a".repeat(198))),
        "{view}"
    );
    let read = f.ok(json!({"command": "read"})).await.text();
    assert!(read.contains("half \u{FFFD} here"), "{read}");
    let console = f
        .ok(json!({"command": "console", "all": true}))
        .await
        .text();
    assert!(console.contains("said \u{FFFD}"), "{console}");
    f.close().await;
}
