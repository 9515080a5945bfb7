//! Every variant renders exactly the line the free-text version printed, so
//! views, snapshots and histories read the same.
//! (A test module: its parent includes it under #[cfg(test)].)

use std::time::Duration;

use super::*;
use crate::answer::fault::{Fault, Recovery};

fn line(h: Happened) -> String {
    h.to_string()
}

/// Each case renders exactly its line.
fn assert_lines(cases: Vec<(Happened, &str)>) {
    for (happened, expected) in cases {
        assert_eq!(line(happened), expected);
    }
}

const E7: Ref = Ref(7);
const E9: Ref = Ref(9);
const T1: TabId = TabId(1);
const T2: TabId = TabId(2);

#[test]
fn pointer_and_scroll_lines_render_as_they_did() {
    assert_lines(vec![
        (
            Happened::Clicked {
                kind: ClickKind::Single(MouseButton::Left),
                target: E7,
            },
            "clicked e7",
        ),
        (
            Happened::Clicked {
                kind: ClickKind::Double,
                target: E7,
            },
            "double-clicked e7",
        ),
        (
            Happened::Clicked {
                kind: ClickKind::Single(MouseButton::Right),
                target: E7,
            },
            "right-clicked e7",
        ),
        (
            Happened::Clicked {
                kind: ClickKind::Single(MouseButton::Middle),
                target: E7,
            },
            "middle-clicked e7",
        ),
        (Happened::Hovering(E7), "hovering over e7"),
        (Happened::ScrolledIntoView(E7), "scrolled e7 into view"),
        (
            Happened::WheelTurned {
                what: Some(E7),
                direction: Direction::Down,
                notches: 6,
            },
            "turned the wheel 6 steps down over e7",
        ),
        (
            Happened::WheelTurned {
                what: None,
                direction: Direction::Left,
                notches: 1,
            },
            "turned the wheel 1 step left over the window",
        ),
        (
            Happened::Scrolled {
                what: None,
                direction: Direction::Down,
                moved: 600.0,
                to: 600.0,
                max: 2000.0,
            },
            "scrolled the page down 600 px: now at 600 of 2000",
        ),
        (
            Happened::Scrolled {
                what: Some(E7),
                direction: Direction::Down,
                moved: 400.0,
                to: 1999.5,
                max: 2000.0,
            },
            "scrolled e7 down 400 px: now at 2000 of 2000 (the end)",
        ),
        (
            Happened::Scrolled {
                what: None,
                direction: Direction::Up,
                moved: 300.0,
                to: 0.0,
                max: 2000.0,
            },
            "scrolled the page up 300 px: now at 0 of 2000 (the start)",
        ),
        (
            Happened::DidNotScroll {
                what: None,
                direction: Direction::Right,
            },
            "the page did not move: it is at its right edge or does not scroll",
        ),
        (
            Happened::DidNotScroll {
                what: Some(E7),
                direction: Direction::Up,
            },
            "e7 did not move: it is at its top or does not scroll",
        ),
        (
            Happened::Dragged {
                from: E7,
                to: E9,
                html5: false,
            },
            "dragged e7 onto e9",
        ),
        (
            Happened::Dragged {
                from: E7,
                to: E9,
                html5: true,
            },
            "dragged e7 onto e9 (the page's drag and drop took it)",
        ),
    ]);
}

#[test]
fn typing_and_filling_lines_render_as_they_did() {
    assert_lines(vec![
        (
            Happened::TypedFocused { count: 3 },
            "typed 3 characters into the focused element",
        ),
        (
            Happened::Typed {
                count: 5,
                target: E7,
                field_gone: false,
            },
            "typed 5 characters into e7",
        ),
        (
            Happened::Typed {
                count: 5,
                target: E7,
                field_gone: true,
            },
            "typed 5 characters into e7; then the page took the field away",
        ),
        (
            Happened::Filled {
                target: E7,
                field_gone: false,
                shown_lines: None,
                list: rove_input::ListChoice::None,
            },
            "filled e7",
        ),
        (
            Happened::Filled {
                target: E7,
                field_gone: false,
                shown_lines: None,
                list: rove_input::ListChoice::Chose("Dark".into()),
            },
            "filled e7: chose the option \"Dark\" from its list",
        ),
        (
            Happened::Filled {
                target: E7,
                field_gone: true,
                shown_lines: None,
                list: rove_input::ListChoice::None,
            },
            "filled e7; then the page took the field away",
        ),
        (
            Happened::Filled {
                target: E7,
                field_gone: false,
                shown_lines: Some(rove_input::ShownLines {
                    first: 31,
                    last: 60,
                    of: 60,
                }),
                list: rove_input::ListChoice::None,
            },
            "filled e7 (the editor draws only lines 31 to 60 of the 60 sent: those were checked)",
        ),
        (Happened::Pressed("Enter".into()), "pressed Enter"),
        (Happened::Pressed("Control+a".into()), "pressed Control+a"),
        (
            Happened::Selected {
                target: E7,
                options: vec!["Peru".into(), "Chile \"CL\"".into()],
            },
            "e7 now has \"Peru\", \"Chile \\\"CL\\\"\" selected",
        ),
        (
            Happened::Toggled {
                target: E7,
                checked: true,
                already: false,
            },
            "e7 is now checked",
        ),
        (
            Happened::Toggled {
                target: E7,
                checked: false,
                already: true,
            },
            "e7 was already unchecked; nothing sent",
        ),
        (
            Happened::Uploaded {
                target: E7,
                files: vec!["/a".into()],
            },
            "gave e7 1 file: /a",
        ),
        (
            Happened::Uploaded {
                target: E7,
                files: vec!["/a".into(), "/b".into()],
            },
            "gave e7 2 files: /a, /b",
        ),
        (
            Happened::SecretNotFilled {
                placeholder: "{{pw}}".into(),
            },
            "{{pw}} was sent as written, not as its value: a secret is filled in only as the text of type or fill, in a field of a page on its domain",
        ),
    ]);
}

#[test]
fn tab_and_dialog_lines_render_as_they_did() {
    assert_lines(vec![
        (Happened::NewTab(T2), "new tab t2"),
        (Happened::SwitchedTo(T2), "switched to t2"),
        (
            Happened::Followed {
                tab: T2,
                back: Some(T1),
            },
            "switched to t2 (tab(action=switch, tab=t1) goes back)",
        ),
        (
            Happened::Followed {
                tab: T2,
                back: None,
            },
            "switched to t2 (tab(action=switch, tab=) goes back)",
        ),
        (Happened::ClosedTab(T2), "closed t2"),
        (Happened::NowOn(T1), "now on t1"),
        (
            Happened::NoTabsLeft,
            "no tabs left; open a URL to start again",
        ),
        (
            Happened::DialogAnswered {
                answer: Answer::Accepted,
                kind: "confirm".into(),
                message: "Sure?\n  really".into(),
            },
            "accepted the confirm \"Sure? really\"",
        ),
        (
            Happened::DialogAnswered {
                answer: Answer::Dismissed,
                kind: "alert".into(),
                message: "hi".into(),
            },
            "dismissed the alert \"hi\"",
        ),
        (
            Happened::AnotherDialog {
                kind: "alert".into(),
                message: "again".into(),
            },
            "another alert dialog opened: \"again\"",
        ),
        (
            Happened::DialogLoop { in_a_row: 3 },
            "this page has opened 3 dialogs in a row; to leave it, open another URL (rove closes this tab, dialogs and all, and opens the URL in a new one)",
        ),
        (
            Happened::LeftBlockedTab {
                tab: T1,
                url: "http://a.test/".into(),
                kind: "alert".into(),
                message: "loop".into(),
            },
            "left t1 at http://a.test/: an alert dialog blocked it (\"loop\"); rove closed it",
        ),
        (
            Happened::ClosedPopup {
                url: "http://evil.test/".into(),
            },
            "closed a tab opened at http://evil.test/ (outside the allowed domains)",
        ),
        (
            Happened::OpenedTab {
                tab: T2,
                at: "about:blank".into(),
            },
            "opened tab t2 at about:blank",
        ),
        (
            Happened::DialogOpened {
                kind: "alert".into(),
                message: "hello".into(),
            },
            "an alert dialog opened: \"hello\"",
        ),
        (
            Happened::DialogOpened {
                kind: "prompt".into(),
                message: "name?".into(),
            },
            "a prompt dialog opened: \"name?\"",
        ),
    ]);
}

#[test]
fn page_and_settle_lines_render_as_they_did() {
    assert_lines(vec![
        (
            Happened::NavigationStopped,
            "the navigation it started ended without a new page",
        ),
        (
            Happened::Navigated {
                url: "http://a.test/b".into(),
                loaded: true,
            },
            "navigated to http://a.test/b",
        ),
        (
            Happened::Navigated {
                url: "http://a.test/b".into(),
                loaded: false,
            },
            "navigating to http://a.test/b (still loading)",
        ),
        (Happened::Waited { ms: 250 }, "waited 250 ms"),
        (
            Happened::Opened {
                url: "http://a.test/".into(),
                status: Some(404),
            },
            "opened http://a.test/ (HTTP 404)",
        ),
        (
            Happened::Opened {
                url: "http://a.test/".into(),
                status: Some(200),
            },
            "opened http://a.test/",
        ),
        (
            Happened::Opened {
                url: "http://a.test/".into(),
                status: None,
            },
            "opened http://a.test/",
        ),
        (
            Happened::StillChanging {
                secs: 3,
                changes: 40,
                place: Some("main \"Results\"".into()),
            },
            "the page was still changing 3 s after it loaded (40 changes, the last in main \"Results\"); the view may be incomplete (snapshot again, or wait(text=…) for what you expect)",
        ),
        (
            Happened::ResultCut {
                chars: 5000,
                shown: 4000,
            },
            "the result has 5000 characters; the first 4000 are shown",
        ),
        (
            Happened::BlockedLoading {
                url: "http://evil.test/".into(),
            },
            "blocked loading http://evil.test/ (outside the allowed domains)",
        ),
        (Happened::NothingChanged, "nothing visible changed"),
        (
            Happened::NothingChangedInPart,
            "nothing visible changed in the part of the page rove reads; it goes on past that (find \"text\" reaches the rest)",
        ),
        (
            Happened::AwaitingServer {
                secs: 3,
                answered: true,
                changed: false,
            },
            "no change yet after 3 s; the page is still receiving its server's answer (wait, then snapshot)",
        ),
        (
            Happened::AwaitingServer {
                secs: 3,
                answered: false,
                changed: false,
            },
            "no change yet after 3 s; the page is still waiting for its server's answer (wait, then snapshot)",
        ),
        (
            Happened::AwaitingServer {
                secs: 3,
                answered: true,
                changed: true,
            },
            "after 3 s the page is still receiving its server's answer; more may change (wait, then snapshot)",
        ),
    ]);
}

#[test]
fn screenshot_lines_render_as_they_did() {
    assert_lines(vec![
        (
            Happened::Retaken {
                budget: 1000,
                quality: 60,
            },
            "over the 1000-byte budget: retaken as JPEG at quality 60",
        ),
        (
            Happened::ScreenshotSaved {
                what: Shot::Element("e7".into()),
                path: "/tmp/x.png".into(),
                bytes: 42,
                mime: "image/png",
            },
            "saved a screenshot of element e7 to /tmp/x.png (42 bytes, image/png)",
        ),
        (
            Happened::ScreenshotTaken {
                what: Shot::FullPage,
                bytes: 42,
                mime: "image/jpeg",
            },
            "took a screenshot of the full page (42 bytes, image/jpeg)",
        ),
        (
            Happened::ScreenshotTaken {
                what: Shot::Clip,
                bytes: 1,
                mime: "image/png",
            },
            "took a screenshot of the clip (1 bytes, image/png)",
        ),
        (
            Happened::ScreenshotTaken {
                what: Shot::Viewport,
                bytes: 1,
                mime: "image/png",
            },
            "took a screenshot of the viewport (1 bytes, image/png)",
        ),
    ]);
}

// The desktop lines had no case when the free-text version was replaced;
// these hold what they say now.
#[test]
fn desktop_lines_render_as_they_do() {
    assert_lines(vec![
        (
            Happened::DesktopTarget {
                app: "gnome-calculator".into(),
                pid: Some(42),
                started: true,
            },
            "started the desktop application gnome-calculator (pid 42); commands now work on its windows (desktop leave goes back to the browser)",
        ),
        (
            Happened::DesktopTarget {
                app: "zenity".into(),
                pid: None,
                started: false,
            },
            "attached to the desktop application zenity; commands now work on its windows (desktop leave goes back to the browser)",
        ),
        (
            Happened::DesktopAppExited {
                app: "zenity".into(),
                code: Some(1),
            },
            "zenity exited with code 1; commands work on the browser's tab again",
        ),
        (
            Happened::LeftDesktop {
                app: "zenity".into(),
            },
            "left zenity; commands work on the browser's tab again",
        ),
    ]);
}

#[test]
fn a_crashed_tab_renders_as_the_faults_sentence() {
    let fault = TabFault {
        tab: TabId(1),
        url: "http://a.test/".into(),
        fault: Fault::Crashed,
        recovery: Recovery::Replaced { by: TabId(2) },
    };
    let text = Happened::TabFault {
        fault: fault.clone(),
        while_idle: false,
    }
    .to_string();
    assert_eq!(text, fault.describe());
}

#[test]
fn a_hung_tab_renders_as_the_faults_sentence() {
    let fault = TabFault {
        tab: TabId(3),
        url: String::new(),
        fault: Fault::Hung {
            silent_for: Duration::from_secs(5),
        },
        recovery: Recovery::Stopped,
    };
    let text = Happened::TabFault {
        fault: fault.clone(),
        while_idle: true,
    }
    .to_string();
    // The background probe's note, as it was worded before.
    assert_eq!(text, format!("{} (found while idle)", fault.describe()));
    assert!(text.starts_with("t3 did not answer for"), "{text}");
}

#[test]
fn serializes_as_its_line() {
    let json = serde_json::to_value(vec![Happened::NewTab(TabId(4)), Happened::NothingChanged])
        .expect("serializes");
    assert_eq!(
        json,
        serde_json::json!(["new tab t4", "nothing visible changed"])
    );
}

#[test]
fn decisions_follow_the_variant_not_the_wording() {
    // A page's own text that reads like a decision line changes nothing.
    let lookalike = Happened::DialogAnswered {
        answer: Answer::Accepted,
        kind: "alert".into(),
        message: "a dialog opened: navigated to x; nothing visible changed".into(),
    };
    assert!(!lookalike.is_dialog_opened());
    assert!(!lookalike.changes_page());
    assert!(!lookalike.is_scroll());
    assert!(
        Happened::AnotherDialog {
            kind: "alert".into(),
            message: String::new()
        }
        .is_dialog_opened()
    );
    assert!(
        Happened::Followed {
            tab: TabId(2),
            back: None
        }
        .changes_page()
    );
    assert!(Happened::SwitchedTo(TabId(2)).changes_page());
    assert!(
        Happened::Navigated {
            url: "x".into(),
            loaded: true
        }
        .changes_page()
    );
    assert!(Happened::ScrolledIntoView(Ref(1)).is_scroll());
    assert!(
        !Happened::DidNotScroll {
            what: None,
            direction: Direction::Down
        }
        .is_scroll()
    );
}
