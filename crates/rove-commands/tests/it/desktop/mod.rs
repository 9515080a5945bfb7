//! A desktop application as the session's target, through the one command
//! vocabulary: gnome-calculator computes 12 × 7 by clicks on the refs its
//! view shows, page-only commands are refused, and an application that
//! exits under the session is a typed error at once. Run inside a desktop
//! (`scripts/desktop-env.sh`, as scripts/test.sh does); without one these
//! fail with DESKTOP_UNAVAILABLE.

use std::time::{Duration, Instant};

use rove_commands::Happened;
use serde_json::json;

use crate::support::{Fixture, code};

mod windows;

/// The tests that open applications take turns: gnome-calculator runs
/// once per desktop, and keys go to the window under the pointer, which
/// another test's window (all open at 0,0 without a window manager) could
/// cover.
pub(crate) async fn one_at_a_time() -> tokio::sync::MutexGuard<'static, ()> {
    static CALCULATOR: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    CALCULATOR.lock().await
}

/// `desktop open TARGET`: the first view, and the process rove started.
pub(crate) async fn open_app(fx: &mut Fixture, target: &str) -> (String, u32) {
    let opened = fx
        .ok(json!({"command": "desktop", "action": "open", "target": target}))
        .await;
    let pid = opened
        .happened
        .iter()
        .find_map(|h| match h {
            Happened::DesktopTarget { pid, .. } => *pid,
            _ => None,
        })
        .expect("the process id");
    (opened.view.expect("a view of the application").text, pid)
}

/// The ref on the view's line for `what` (`button "7"`).
pub(crate) fn ref_of(view: &str, what: &str) -> String {
    view.lines()
        .map(str::trim)
        .find_map(|line| {
            let (r, rest) = line.split_once(' ')?;
            (rest == what || rest.starts_with(&format!("{what} "))).then(|| r.to_owned())
        })
        .unwrap_or_else(|| panic!("no {what} in\n{view}"))
}

#[tokio::test]
async fn the_calculator_computes_twelve_times_seven_by_clicks_on_refs() {
    let _one = one_at_a_time().await;
    let mut fx = Fixture::start().await;
    let opened = fx
        .ok(json!({"command": "desktop", "action": "open", "target": "gnome-calculator"}))
        .await;
    let view = opened.view.expect("a view of the application").text;
    assert!(
        view.starts_with("[desktop] Calculator app:gnome-calculator\n"),
        "{view}"
    );
    // The application is one more kind of tab, and the one commands go to.
    let tabs = fx.ok(json!({"command": "tab"})).await;
    let tabs = tabs.data_text().expect("the tabs").to_owned();
    let lines: Vec<&str> = tabs.lines().collect();
    assert!(
        lines[0].starts_with("t1  "),
        "the page's tab, not the target: {tabs}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("desktop* Calculator app:gnome-calculator (pid ")),
        "{tabs}"
    );
    let mut last = None;
    for key in ["1", "2", "×", "7", "="] {
        // `find` gives the same refs the view shows.
        let r = fx.find(key, "button").await;
        assert_eq!(r, ref_of(&view, &format!("button {key:?}")));
        last = Some(fx.ok(json!({"command": "click", "ref": r})).await);
    }
    let diff = last
        .expect("clicked")
        .view
        .expect("a diff after the click")
        .text;
    assert!(diff.contains(": 84"), "the diff shows the result: {diff}");
    let read = fx.ok(json!({"command": "read"})).await;
    let text = read.data_text().expect("text");
    assert!(
        text.lines().any(|l| l.trim() == "84"),
        "read gives the result: {text}"
    );
    let snapshot = fx.view_of(json!({"command": "snapshot"})).await;
    assert!(snapshot.contains("textbox"), "{snapshot}");
    let refused = fx.fails(json!({"command": "eval", "js": "1"})).await;
    assert_eq!(code(&refused), "COMMAND_REJECTED");
    assert!(refused.to_string().contains("desktop leave"), "{refused}");
    let left = fx
        .ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    assert!(matches!(
        left.happened.as_slice(),
        [Happened::LeftDesktop { .. }]
    ));
    // Back on the page: its commands work again.
    assert_eq!(fx.eval("1 + 1").await, json!(2));
    fx.close().await;
}

#[tokio::test]
async fn an_application_that_exits_under_the_session_is_a_typed_error_at_once() {
    let _one = one_at_a_time().await;
    let mut fx = Fixture::start().await;
    let (view, pid) = open_app(&mut fx, "gnome-calculator").await;
    let seven = ref_of(&view, "button \"7\"");
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let gone = fx.fails(json!({"command": "click", "ref": seven})).await;
    assert!(started.elapsed() < Duration::from_secs(5), "nothing hangs");
    assert_eq!(code(&gone), "NO_TAB", "{gone}");
    assert!(gone.to_string().contains("gone"), "{gone}");
    // The session is back on its tab.
    assert_eq!(fx.eval("2 + 2").await, json!(4));
    fx.close().await;
}

#[tokio::test]
async fn attaching_to_no_such_application_names_the_call_that_lists_them() {
    let mut fx = Fixture::start().await;
    let refused = fx
        .fails(json!({"command": "desktop", "action": "attach", "target": "nothing-runs-by-this-name"}))
        .await;
    assert_eq!(code(&refused), "COMMAND_REJECTED", "{refused}");
    assert!(
        refused.report().hint.contains("desktop apps"),
        "{:?}",
        refused.report()
    );
    // Still on the tab.
    assert_eq!(fx.eval("3 + 3").await, json!(6));
    fx.close().await;
}

/// The ref of the first line that starts with `what` (a role and name)
/// and holds `having` (a value or a flag).
pub(crate) fn first_ref(view: &str, what: &str, having: &str) -> String {
    view.lines()
        .map(str::trim)
        .find_map(|line| {
            let (r, rest) = line.split_once(' ')?;
            (rest.starts_with(what) && rest.contains(having)).then(|| r.to_owned())
        })
        .unwrap_or_else(|| panic!("no {what} with {having:?} in\n{view}"))
}

/// The view's line for the element `r`.
pub(crate) fn line_of(view: &str, r: &str) -> String {
    view.lines()
        .map(str::trim)
        .find(|l| l.starts_with(&format!("{r} ")) || l.starts_with(&format!("~ {r} ")))
        .unwrap_or_else(|| panic!("no line for {r} in\n{view}"))
        .to_owned()
}

#[tokio::test]
async fn the_widget_factory_takes_a_check_a_number_a_slider_text_and_a_choice() {
    let _one = one_at_a_time().await;
    let mut fx = Fixture::start().await;
    let (view, _) = open_app(&mut fx, "gtk3-widget-factory").await;
    // A disabled control is refused, as on a page.
    let disabled = first_ref(&view, "checkbox \"checkbutton\"", "[disabled]");
    let refused = fx.fails(json!({"command": "check", "ref": disabled})).await;
    assert_eq!(code(&refused), "NOT_ACTIONABLE", "{refused}");
    // A check box that is neither checked nor disabled.
    let check = view
        .lines()
        .map(str::trim)
        .find(|l| l.ends_with("checkbox \"checkbutton\""))
        .and_then(|l| l.split_once(' ').map(|(r, _)| r.to_owned()))
        .unwrap_or_else(|| panic!("an unchecked check box in\n{view}"));
    let checked = fx.ok(json!({"command": "check", "ref": check})).await;
    let diff = checked.view.expect("a diff").text;
    assert!(line_of(&diff, &check).contains("[checked"), "{diff}");
    let spin = first_ref(&view, "spinbutton", ": 50");
    let slider = first_ref(&view, "slider", ": 50");
    let entry = view
        .lines()
        .map(str::trim)
        .find(|l| l.contains(" textbox") && l.ends_with(": entry") && !l.contains("disabled"))
        .and_then(|l| l.split_once(' ').map(|(r, _)| r.to_owned()))
        .unwrap_or_else(|| panic!("an entry in\n{view}"));
    fx.ok(json!({"command": "fill", "ref": spin, "text": "72"}))
        .await;
    fx.ok(json!({"command": "fill", "ref": slider, "text": "30"}))
        .await;
    fx.ok(json!({"command": "fill", "ref": entry, "text": "typed by rove"}))
        .await;
    let combo = first_ref(&view, "combobox \"Left\"", "");
    let selected = fx
        .ok(json!({"command": "select", "ref": combo, "values": ["right"]}))
        .await;
    assert!(selected.text().contains("Right"), "{}", selected.text());
    let missing = fx
        .fails(json!({"command": "select", "ref": combo, "values": ["Upside"]}))
        .await;
    assert!(
        missing.to_string().contains("Left, Middle, Right"),
        "{missing}"
    );
    // Read back from the application, not from what rove sent.
    let now = fx
        .view_of(json!({"command": "snapshot", "budget": 0}))
        .await;
    assert!(line_of(&now, &spin).ends_with(": 72"), "{now}");
    assert!(line_of(&now, &slider).ends_with(": 30"), "{now}");
    assert!(line_of(&now, &entry).ends_with(": typed by rove"), "{now}");
    assert!(line_of(&now, &check).contains("checked"), "{now}");
    assert!(
        line_of(&now, &combo).contains("combobox \"Right\""),
        "{now}"
    );
    fx.ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    fx.close().await;
}

#[tokio::test]
async fn the_calculator_takes_typed_keys_a_chord_and_enter() {
    let _one = one_at_a_time().await;
    let mut fx = Fixture::start().await;
    fx.ok(json!({"command": "desktop", "action": "open", "target": "gnome-calculator"}))
        .await;
    fx.ok(json!({"command": "type", "text": "99"})).await;
    // Control+A selects what was typed, so the next keys replace it.
    fx.ok(json!({"command": "press", "keys": "Control+a"}))
        .await;
    fx.ok(json!({"command": "type", "text": "12*7"})).await;
    let pressed = fx.ok(json!({"command": "press", "keys": "Enter"})).await;
    let diff = pressed.view.expect("a diff after the key").text;
    assert!(diff.contains(": 84"), "the diff shows the result: {diff}");
    // `wait` reads the window for text, as it reads a page.
    fx.ok(json!({"command": "wait", "text": "84"})).await;
    let never = fx
        .fails(json!({"command": "wait", "text": "12345", "ms": 300}))
        .await;
    assert_eq!(code(&never), "TIMEOUT", "{never}");
    let page_only = fx.fails(json!({"command": "wait", "url": "example"})).await;
    assert_eq!(code(&page_only), "COMMAND_REJECTED", "{page_only}");
    let unknown = fx
        .fails(json!({"command": "press", "keys": "Hyper+A"}))
        .await;
    assert_eq!(code(&unknown), "COMMAND_REJECTED", "{unknown}");
    fx.ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    fx.close().await;
}

#[tokio::test]
async fn a_hung_application_is_a_timeout_within_the_call_deadline() {
    let _one = one_at_a_time().await;
    let mut fx = Fixture::start().await;
    let (view, pid) = open_app(&mut fx, "gnome-calculator").await;
    let pid = pid.to_string();
    let seven = ref_of(&view, "button \"7\"");
    let signal = |which: &str| {
        let sent = std::process::Command::new("kill")
            .args([which, pid.as_str()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill {which}");
    };
    // Stopped: it holds its connection to the bus and answers nothing.
    signal("-STOP");
    let started = Instant::now();
    let hung = fx.run(json!({"command": "click", "ref": seven})).await;
    let waited = started.elapsed();
    signal("-CONT");
    let hung = hung.expect_err("a stopped application answers nothing");
    assert_eq!(code(&hung), "TIMEOUT", "{hung}");
    assert_eq!(
        serde_json::to_value(hung.report().action_sent).expect("serializes"),
        json!("possibly_sent"),
        "the press was sent before the wait"
    );
    assert!(
        waited >= Duration::from_secs(4) && waited < Duration::from_secs(8),
        "bounded by the call's 5 s deadline: {waited:?}"
    );
    // Going again, it answers again.
    fx.ok(json!({"command": "snapshot"})).await;
    fx.ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    fx.close().await;
}

#[tokio::test]
async fn a_zenity_question_answered_exits_with_the_answer_as_its_code() {
    let _one = one_at_a_time().await;
    let mut fx = Fixture::start().await;
    for (answer, exit) in [("Yes", 0), ("No", 1)] {
        let opened = fx
            .ok(json!({"command": "desktop", "action": "open", "target": "zenity --question --text=Proceed?"}))
            .await;
        let view = opened.view.expect("a view of the dialog").text;
        assert!(view.contains("dialog \"Question\""), "{view}");
        let button = ref_of(&view, &format!("button {answer:?}"));
        let answered = fx.ok(json!({"command": "click", "ref": button})).await;
        // Its exit code is zenity's answer: 0 for yes, 1 for no.
        assert!(
            answered.happened.iter().any(|h| matches!(
                h,
                Happened::DesktopAppExited { code: Some(code), .. } if *code == exit
            )),
            "{}",
            answered.text()
        );
        // The session is back on its tab.
        assert_eq!(fx.eval("5 + 5").await, json!(10));
    }
    fx.close().await;
}

#[tokio::test]
async fn one_session_reads_a_page_computes_on_the_desktop_and_types_the_result_back() {
    let _one = one_at_a_time().await;
    let routes = rove_localserver::Routes::new().page(
        "/invoice",
        rove_localserver::Response::html(
            "<!doctype html><title>Invoice</title><link rel=icon href='data:,'>\
             <p>Units: <b id=units>12</b> at 7 each</p>\
             <label>Total <input id=total></label>",
        ),
    );
    let mut fx = Fixture::with(routes, rove_commands::SessionConfig::default()).await;
    fx.open("/invoice").await;
    let units = fx
        .eval("document.getElementById('units').textContent")
        .await;
    let units = units.as_str().expect("a text").to_owned();
    fx.ok(json!({"command": "desktop", "action": "open", "target": "gnome-calculator"}))
        .await;
    fx.ok(json!({"command": "type", "text": format!("{units}*7")}))
        .await;
    fx.ok(json!({"command": "press", "keys": "Enter"})).await;
    let read = fx.ok(json!({"command": "read"})).await;
    let total = read
        .data_text()
        .expect("text")
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_digit()))
        .expect("the calculator's result")
        .to_owned();
    assert_eq!(total, "84");
    fx.ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    let field = fx.find("Total", "textbox").await;
    fx.ok(json!({"command": "fill", "ref": field, "text": total}))
        .await;
    assert_eq!(
        fx.eval("document.getElementById('total').value").await,
        json!("84")
    );
    fx.close().await;
}
