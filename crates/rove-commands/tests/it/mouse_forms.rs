//! `mouse` (coordinates of the viewport) and `fill-form` (several fields in
//! one call), in real Chromium over fixture pages.

use crate::support;

use rove_errors::{ActionSent, Classify};
use serde_json::{Value, json};
use support::Fixture;

/// The centre of the element `target` names, from `get box`.
async fn centre(f: &mut Fixture, target: &str) -> (f64, f64) {
    let out = f
        .ok(json!({"command": "get", "what": "box", "ref": target}))
        .await;
    let b = out.result().expect("a box").clone();
    let n = |k: &str| b[k].as_f64().expect("a number");
    (n("x") + n("width") / 2.0, n("y") + n("height") / 2.0)
}

async fn text_of(f: &mut Fixture, id: &str) -> Value {
    f.eval(&format!("document.getElementById('{id}').textContent"))
        .await
}

#[tokio::test]
async fn a_click_at_an_elements_box_has_the_clicks_effect() {
    let mut f = Fixture::start().await;
    f.open("/mouse.html").await;
    let count = f.find("Count", "button").await;
    let (x, y) = centre(&mut f, &count).await;
    let out = f
        .ok(json!({"command": "mouse", "action": "click", "x": x, "y": y}))
        .await;
    // The answer names what was under the pointer, as the view does.
    assert_eq!(
        out.happened_lines()[0],
        format!("clicked at ({x:.0}, {y:.0}) on {count} button \"Count\"")
    );
    assert_eq!(
        text_of(&mut f, "clicks").await,
        "clicked 1 detail 1 trusted true"
    );
    // The answer's diff shows what the click changed.
    let view = out.view.expect("a diff").text;
    assert!(view.contains("clicked 1 detail 1"), "{view}");

    f.ok(json!({"command": "mouse", "action": "click", "x": x, "y": y, "count": 2}))
        .await;
    assert_eq!(
        text_of(&mut f, "clicks").await,
        "clicked 3 detail 2 trusted true"
    );
    let out = f
        .ok(json!({"command": "mouse", "action": "click", "x": x, "y": y, "button": "right"}))
        .await;
    assert!(out.happened_lines()[0].starts_with("right-clicked at"));
    assert_eq!(text_of(&mut f, "clicks").await, "context menu");
    f.close().await;
}

#[tokio::test]
async fn a_click_at_a_point_reports_the_dialog_and_the_navigation_it_caused() {
    let mut f = Fixture::start().await;
    f.open("/mouse.html").await;
    let warn = f.find("Warn", "button").await;
    let (x, y) = centre(&mut f, &warn).await;
    let out = f
        .ok(json!({"command": "mouse", "action": "click", "x": x, "y": y}))
        .await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l == "an alert dialog opened: \"careful\""),
        "{:?}",
        out.happened_lines()
    );
    // While the dialog blocks the page, pointer input is refused unsent.
    let e = f
        .fails(json!({"command": "mouse", "action": "move", "x": 5, "y": 5}))
        .await;
    assert_eq!(support::code(&e), "DIALOG_OPEN");
    assert_eq!(e.action_sent(), ActionSent::NotSent);
    f.ok(json!({"command": "dialog", "accept": true})).await;

    let next = f.find("Next page", "link").await;
    let (x, y) = centre(&mut f, &next).await;
    let out = f
        .ok(json!({"command": "mouse", "action": "click", "x": x, "y": y}))
        .await;
    let url = f.url("/next.html");
    assert!(
        out.happened_lines()
            .contains(&format!("navigated to {url}")),
        "{:?}",
        out.happened_lines()
    );
    assert!(out.view.is_some_and(|v| v.url == url));
    f.close().await;
}

#[tokio::test]
async fn down_move_move_up_across_calls_draws_a_stroke() {
    let mut f = Fixture::start().await;
    f.open("/mouse.html").await;
    // The pad is at (40, 120) in the viewport (the fixture places it).
    let at = |x: f64, y: f64| (40.0 + x, 120.0 + y);
    let (x0, y0) = at(20.0, 20.0);
    f.ok(json!({"command": "mouse", "action": "move", "x": x0, "y": y0}))
        .await;
    let out = f.ok(json!({"command": "mouse", "action": "down"})).await;
    assert_eq!(
        out.happened_lines()[0],
        "pressed the left button at (60, 140) on e2 clickable \"Drawing pad\"; it stays down until mouse up"
    );
    for (x, y) in [at(150.0, 60.0), at(300.0, 100.0)] {
        let out = f
            .ok(json!({"command": "mouse", "action": "move", "x": x, "y": y}))
            .await;
        assert!(
            out.happened_lines()[0].ends_with("with a button held"),
            "{:?}",
            out.happened_lines()
        );
    }
    assert_eq!(text_of(&mut f, "stroke").await, "no stroke", "not up yet");
    f.ok(json!({"command": "mouse", "action": "up"})).await;
    assert_eq!(
        text_of(&mut f, "stroke").await,
        "stroke from 20,20 to 300,100 moves 2 trusted true"
    );
    // The canvas holds ink along the stroke.
    let inked = f
        .eval("(() => { const c = document.getElementById('pad').getContext('2d'); const d = c.getImageData(0, 0, 400, 150).data; let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })()")
        .await;
    assert!(inked.as_u64().is_some_and(|n| n > 100), "{inked}");

    // The button is up now: a second up is refused, nothing sent.
    let e = f.fails(json!({"command": "mouse", "action": "up"})).await;
    assert_eq!(support::code(&e), "COMMAND_REJECTED");
    assert_eq!(e.action_sent(), ActionSent::NotSent);
    f.close().await;
}

#[tokio::test]
async fn the_wheel_scrolls_the_page_and_says_how_far() {
    let mut f = Fixture::start().await;
    f.open("/mouse.html").await;
    let out = f
        .ok(json!({"command": "mouse", "action": "wheel", "dy": 500, "x": 600, "y": 400}))
        .await;
    assert_eq!(
        out.happened_lines()[0],
        "turned the wheel by (0, 500) at (600, 400): the page scrolled from (0, 0) to (0, 500)"
    );
    assert_eq!(f.eval("scrollY").await, json!(500));
    f.ok(json!({"command": "mouse", "action": "wheel", "dy": -200}))
        .await;
    assert_eq!(f.eval("scrollY").await, json!(300));
    f.close().await;
}

#[tokio::test]
async fn a_point_outside_the_viewport_is_refused_with_nothing_sent() {
    let mut f = Fixture::start().await;
    f.open("/mouse.html").await;
    f.eval("window.seen = 0; for (const t of ['pointermove', 'pointerdown', 'mousedown', 'click', 'wheel']) addEventListener(t, () => window.seen++, true); 0")
        .await;
    for (x, y) in [
        (1280.0, 10.0),
        (10.0, 720.0),
        (-1.0, 10.0),
        (5000.0, 5000.0),
    ] {
        let e = f
            .fails(json!({"command": "mouse", "action": "click", "x": x, "y": y}))
            .await;
        assert_eq!(support::code(&e), "COMMAND_REJECTED", "{e}");
        assert_eq!(e.action_sent(), ActionSent::NotSent);
        assert!(
            e.to_string()
                .contains("outside the viewport, which is 1280 × 720"),
            "{e}"
        );
    }
    let e = f
        .fails(json!({"command": "mouse", "action": "wheel", "dy": 100, "x": 2000, "y": 10}))
        .await;
    assert_eq!(e.action_sent(), ActionSent::NotSent);
    let e = f
        .fails(json!({"command": "mouse", "action": "move", "x": 10, "y": -3}))
        .await;
    assert!(
        e.report().hint.contains("give x from 0 to 1279"),
        "{}",
        e.report().hint
    );
    assert_eq!(
        f.eval("window.seen").await,
        json!(0),
        "no event reached the page"
    );
    assert_eq!(text_of(&mut f, "clicks").await, "no clicks");
    assert_eq!(f.eval("scrollY").await, json!(0));
    f.close().await;
}

#[tokio::test]
async fn fill_form_fills_text_select_checkbox_and_date_in_one_call() {
    let mut f = Fixture::start().await;
    f.open("/form.html").await;
    let name = f.find("Name", "textbox").await;
    let country = f.find("Country", "combobox").await;
    let subscribe = f.find("Subscribe", "checkbox").await;
    let start = f.find("Start date", "date").await;
    let out = f
        .ok(json!({"command": "fill-form", "fields": [
            {"ref": name, "value": "Ada Lovelace"},
            {"ref": country, "value": "Peru"},
            {"ref": subscribe, "value": true},
            {"ref": start, "value": "2024-05-01"},
        ]}))
        .await;
    assert_eq!(
        out.happened_lines(),
        [
            format!("filled {name}"),
            format!("{country} now has \"Peru\" selected"),
            format!("{subscribe} is now checked"),
            format!("filled {start}"),
        ]
    );
    let held = f
        .eval("['name', 'country', 'start'].map((id) => document.getElementById(id).value).concat(document.getElementById('subscribe').checked)")
        .await;
    assert_eq!(held, json!(["Ada Lovelace", "Peru", "2024-05-01", true]));
    // One diff at the end holds every change.
    let view = out.view.expect("a diff").text;
    assert!(
        view.contains("Ada Lovelace") && view.contains("2024-05-01"),
        "{view}"
    );
    f.close().await;
}

#[tokio::test]
async fn fill_form_stopping_at_field_two_says_what_was_filled_and_what_not() {
    let mut f = Fixture::start().await;
    f.open("/form.html").await;
    let name = f.find("Name", "textbox").await;
    let locked = f.find("Locked", "textbox").await;
    let notes = f.find("Notes", "textbox").await;
    let e = f
        .fails(json!({"command": "fill-form", "fields": [
            {"ref": name, "value": "Ada"},
            {"ref": locked, "value": "changed"},
            {"ref": notes, "value": "later"},
        ]}))
        .await;
    assert_eq!(support::code(&e), "NOT_ACTIONABLE", "{e}");
    assert_eq!(e.action_sent(), ActionSent::Sent, "field 1 was filled");
    let report = e.report();
    assert!(
        report
            .message
            .starts_with(&format!("fill-form stopped at field 2 ({locked}): ")),
        "{}",
        report.message
    );
    assert!(
        report
            .message
            .ends_with(&format!("; filled: {name}; not touched: {notes}")),
        "{}",
        report.message
    );
    let facts = report.facts.expect("facts");
    assert_eq!(facts["filled"], json!([name]));
    assert_eq!(facts["failed"], json!(locked));
    assert_eq!(facts["not_touched"], json!([notes]));
    let held = f
        .eval("['name', 'locked', 'notes'].map((id) => document.getElementById(id).value)")
        .await;
    assert_eq!(held, json!(["Ada", "fixed", ""]));

    // A boolean for a text field is refused at that field, nothing sent.
    let e = f
        .fails(json!({"command": "fill-form", "fields": [{"ref": notes, "value": true}]}))
        .await;
    assert_eq!(support::code(&e), "COMMAND_REJECTED");
    assert_eq!(e.action_sent(), ActionSent::NotSent);
    f.close().await;
}

#[tokio::test]
async fn fill_form_fields_take_locators_and_say_what_they_resolved_to() {
    let mut f = Fixture::start().await;
    f.open("/form.html").await;
    let out = f
        .ok(json!({"command": "fill-form", "fields": [
            {"ref": "css=#name", "value": "Grace Hopper"},
            {"ref": "role=combobox[name=\"Country\"]", "value": "Uruguay"},
            {"ref": "text=Subscribe", "value": true},
        ]}))
        .await;
    let said = out.happened_lines();
    let located: Vec<&String> = said.iter().filter(|l| l.contains(" → e")).collect();
    assert_eq!(located.len(), 3, "{said:?}");
    assert!(located[0].starts_with("css=#name → e"), "{said:?}");
    let held = f
        .eval("['name', 'country'].map((id) => document.getElementById(id).value).concat(document.getElementById('subscribe').checked)")
        .await;
    assert_eq!(held, json!(["Grace Hopper", "Uruguay", true]));
    f.close().await;
}

/// A "Cancel" button over a "Transfer" one that hides on hover (pure CSS),
/// and an unnamed landmark whose text hides characters.
const HOVER_PAGE: &str = "<!doctype html><title>Hover</title><style>\
    body{margin:0} .wrap{position:relative;width:200px;height:60px;margin:20px}\
    .wrap button{position:absolute;left:0;top:0;width:200px;height:60px}\
    .wrap:hover .a{visibility:hidden}</style>\
    <div class=wrap><button class=b onclick=\"document.getElementById('hit').textContent='transfer'\">Transfer</button>\
    <button class=a onclick=\"document.getElementById('hit').textContent='cancel'\">Cancel</button></div>\
    <p id=hit>-</p><main style='height:200px'>Welcome\u{202E}\u{E0049}\u{E0047}\u{85}x</main>";

#[tokio::test]
async fn the_element_named_is_the_one_the_click_hit_and_its_name_is_clean() {
    let routes =
        support::fixture_routes().page("/hover", rove_localserver::Response::html(HOVER_PAGE));
    let mut f = Fixture::with(routes, rove_commands::SessionConfig::default()).await;
    f.open("/hover").await;
    let transfer = f.find("Transfer", "button").await;
    // Before the pointer arrives Cancel is on top; once it hovers, Cancel
    // hides and the click lands on Transfer: the answer says Transfer.
    let out = f
        .ok(json!({"command": "mouse", "action": "click", "x": 120, "y": 50}))
        .await;
    assert_eq!(text_of(&mut f, "hit").await, "transfer");
    assert_eq!(
        out.happened_lines()[0],
        format!("clicked at (120, 50) on {transfer} button \"Transfer\"")
    );
    // Over an unnamed landmark: its role, no name made of its text, and
    // nothing hidden or breaking the line reaches the answer.
    let out = f
        .ok(json!({"command": "mouse", "action": "move", "x": 100, "y": 200}))
        .await;
    let line = out.happened_lines()[0].clone();
    assert!(
        line.starts_with("moved the pointer to (100, 200) over e"),
        "{line}"
    );
    assert!(line.ends_with(" main"), "{line}");
    assert!(
        !line
            .chars()
            .any(|c| c.is_control() || rove_base::text::is_invisible(c)),
        "{line:?}"
    );
    f.close().await;
}
