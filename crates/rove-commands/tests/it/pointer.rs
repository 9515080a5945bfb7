//! `scroll` and `drag` through real wheel and pointer events.

use crate::support;

use serde_json::json;
use support::Fixture;

#[tokio::test]
async fn scrolling_moves_the_page_or_one_box_and_says_how_far() {
    let mut f = Fixture::start().await;
    f.open("/pointer.html").await;
    let out = f
        .ok(json!({"command": "scroll", "direction": "down", "pixels": 500}))
        .await;
    assert!(
        out.happened_lines()[0].starts_with("scrolled the page down 500 px: now at 500 of"),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(f.eval("scrollY").await, json!(500));
    let out = f
        .ok(json!({"command": "scroll", "direction": "up", "pixels": 500}))
        .await;
    // How far the page scrolls depends on the fonts' line heights: the
    // page's own figure.
    let most = f
        .eval("document.scrollingElement.scrollHeight - innerHeight")
        .await;
    assert!(
        out.happened_lines()[0].ends_with(&format!("now at 0 of {most} (the start)")),
        "{:?}",
        out.happened_lines()
    );
    assert!(
        !out.happened_lines()
            .iter()
            .any(|l| l.contains("nothing visible")),
        "{:?}",
        out.happened_lines()
    );
    let out = f.ok(json!({"command": "scroll", "direction": "up"})).await;
    assert!(
        out.happened_lines()[0].starts_with("the page did not move"),
        "{:?}",
        out.happened_lines()
    );

    let log = f.find("Log box", "region").await;
    let out = f
        .ok(json!({"command": "scroll", "ref": log, "direction": "down", "pixels": 200}))
        .await;
    assert!(
        out.happened_lines()[0].starts_with(&format!("scrolled {log} down 200 px")),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(
        f.eval("document.getElementById('box').scrollTop").await,
        json!(200)
    );
    assert_eq!(f.eval("scrollY").await, json!(0), "only the box scrolled");
    // Without a distance: 80% of the box's own height, not of the window's.
    f.ok(json!({"command": "scroll", "ref": log, "direction": "down"}))
        .await;
    let step = f
        .eval("(() => { const b = document.getElementById('box'); return [b.scrollTop, Math.round(b.clientHeight * 0.8)]; })()")
        .await;
    assert_eq!(
        step[0].as_f64(),
        step[1].as_f64().map(|d| 200.0 + d),
        "{step}"
    );

    let bottom = f.find("Bottom button", "button").await;
    f.ok(json!({"command": "scroll", "ref": bottom})).await;
    let visible = f
        .eval("(() => { const r = document.getElementById('bottom').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()")
        .await;
    assert_eq!(visible, json!(true));
    let e = f.fails(json!({"command": "scroll"})).await;
    assert_eq!(support::code(&e), "COMMAND_REJECTED");
    f.close().await;
}

#[tokio::test]
async fn drag_works_for_pointer_capture_and_html5_drag_and_drop() {
    let mut f = Fixture::start().await;
    f.open("/pointer.html").await;
    let card = f.find("Card A", "button").await;
    let lane = f.find("Done lane", "region").await;
    let out = f
        .ok(json!({"command": "drag", "from": card, "to": lane}))
        .await;
    assert!(
        out.happened_lines()[0].contains("drag and drop took it"),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(
        f.eval("document.getElementById('dnd').textContent").await,
        "dropped card-a"
    );

    let knob = f.find("Knob", "slider").await;
    let status = f.find("Log box", "region").await;
    let out = f
        .ok(json!({"command": "drag", "from": knob, "to": status}))
        .await;
    assert_eq!(
        out.happened_lines()[0],
        format!("dragged {knob} onto {status}")
    );
    let moved = f.eval("document.getElementById('ptr').textContent").await;
    let moved = moved.as_str().expect("text");
    assert!(
        moved.starts_with("moved ") && moved.ends_with(" trusted true"),
        "{moved}"
    );
    let dx: i64 = moved
        .split(' ')
        .nth(1)
        .expect("dx")
        .parse()
        .expect("number");
    assert!(dx > 50, "the knob followed the pointer: {moved}");
    f.close().await;
}
