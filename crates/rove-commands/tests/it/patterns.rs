//! Conformance over every page in `tests/patterns/`: the native form
//! controls, and one small working widget per WAI-ARIA Authoring Practices
//! pattern (written for these tests). On each page, in every state the
//! steps lead to, every control the page shows has a ref in the view; each
//! step operates a control with an existing command, the page's own state
//! (read with `eval`) shows the effect, and the next view shows the state.
//! That every page on disk is walked: `crate::fast::patterns`.

use crate::conformance;
use crate::support;

use conformance::{conform, conform_with, ref_of, refused, routes, step, view_of};
use rove_commands::SessionConfig;
use serde_json::json;
use support::{Fixture, code};

/// The pages and the tests that walk them: every page in `tests/patterns/`
/// has its test.
pub(crate) const PAGES: [&str; 16] = [
    "accordion.html",
    "carousel.html",
    "combobox.html",
    "dialog.html",
    "disclosure.html",
    "feed.html",
    "grid.html",
    "listbox.html",
    "menubar.html",
    "native.html",
    "slider.html",
    "spinbutton.html",
    "switch.html",
    "tabs.html",
    "tree.html",
    "treegrid.html",
];

#[tokio::test]
async fn combobox_is_filled_and_its_option_picked() {
    conform(
        "combobox.html",
        vec![
            step(
                json!({"command": "select", "ref": "@combobox \"City\"", "values": ["Lisbon"]}),
                "[city.value, city.getAttribute('aria-expanded')]",
                json!(["Lisbon", "false"]),
                &["combobox \"City\" [collapsed]: Lisbon"],
            ),
            step(
                json!({"command": "fill", "ref": "@combobox \"City\"", "text": "Os"}),
                "city.getAttribute('aria-expanded')",
                json!("true"),
                &[
                    "combobox \"City\" [expanded focused]: Os",
                    "option \"Oslo\"",
                ],
            ),
            step(
                json!({"command": "click", "ref": "@option \"Oslo\""}),
                "[city.value, document.getElementById('c3').getAttribute('aria-selected')]",
                json!(["Oslo", "true"]),
                &["combobox \"City\" [collapsed]: Oslo"],
            ),
            step(
                json!({"command": "select", "ref": "@combobox \"Size\"", "values": ["Large"]}),
                "[size.textContent, size.getAttribute('aria-expanded')]",
                json!(["Large", "false"]),
                &["combobox \"Size\" [collapsed]: Large"],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn listbox_option_is_selected() {
    let selected = "document.querySelector('[aria-selected=true]').textContent";
    conform(
        "listbox.html",
        vec![
            step(
                json!({"command": "select", "ref": "@listbox \"Favourite colour\"", "values": ["Green"]}),
                selected,
                json!("Green"),
                &["option \"Green\" [selected]", "option \"Red\""],
            ),
            step(
                json!({"command": "click", "ref": "@option \"Blue\""}),
                selected,
                json!("Blue"),
                &["option \"Blue\" [selected]"],
            ),
            refused(
                json!({"command": "click", "ref": "@option \"Grey\""}),
                "NOT_ACTIONABLE",
                selected,
                json!("Blue"),
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn menubar_opens_its_menu_and_runs_an_item() {
    let expanded = "file.getAttribute('aria-expanded')";
    conform(
        "menubar.html",
        vec![
            step(
                json!({"command": "click", "ref": "@menuitem \"File\""}),
                expanded,
                json!("true"),
                &[
                    "menuitem \"File\" [haspopup expanded focused]",
                    "menuitemcheckbox \"Autosave\"",
                ],
            ),
            step(
                json!({"command": "click", "ref": "@menuitemcheckbox \"Autosave\""}),
                "document.querySelector('[role=menuitemcheckbox]').getAttribute('aria-checked')",
                json!("true"),
                &["menuitem \"File\" [haspopup collapsed]"],
            ),
            step(
                json!({"command": "click", "ref": "@menuitem \"File\""}),
                expanded,
                json!("true"),
                &["menuitemcheckbox \"Autosave\" [checked]"],
            ),
            step(
                json!({"command": "click", "ref": "@menuitem \"New\""}),
                "document.getElementById('done').textContent",
                json!("chose New"),
                &["menuitem \"File\" [haspopup collapsed]"],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn tabs_switch_by_click_and_by_arrow_key() {
    conform(
        "tabs.html",
        vec![
            step(
                json!({"command": "click", "ref": "@tab \"Hotels\""}),
                "[p1.hidden, p2.hidden]",
                json!([true, false]),
                &[
                    "tab \"Hotels\" [selected focused]",
                    "tab \"Flights\"",
                    "tabpanel \"Hotels\"",
                ],
            ),
            step(
                json!({"command": "press", "keys": "ArrowRight", "ref": "@tab \"Hotels\""}),
                "t3.getAttribute('aria-selected')",
                json!("true"),
                &["tab \"Cars\" [selected focused]", "tabpanel \"Cars\""],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn tree_opens_a_branch_and_selects_a_leaf() {
    conform(
        "tree.html",
        vec![
            step(
                json!({"command": "click", "ref": "@treeitem \"Fruit\""}),
                "document.querySelector('[role=treeitem]').getAttribute('aria-expanded')",
                json!("true"),
                &["treeitem \"Apples\"", "treeitem \"Pears\""],
            ),
            step(
                json!({"command": "click", "ref": "@treeitem \"Pears\""}),
                "document.querySelector('[aria-selected=true]').textContent",
                json!("Pears"),
                &["treeitem \"Pears\" [selected focused]"],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn treegrid_row_opens_with_the_arrow_key() {
    conform(
        "treegrid.html",
        vec![
            step(
                json!({"command": "press", "keys": "ArrowRight", "ref": "@[collapsed clickable] | Trip plans"}),
                "thread.getAttribute('aria-expanded')",
                json!("true"),
                &["| Re: Trip plans | Ann"],
            ),
            step(
                json!({"command": "press", "keys": "ArrowLeft"}),
                "document.querySelector('.reply').hidden",
                json!(true),
                &["[collapsed focused clickable] | Trip plans | 3 messages"],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn grid_cell_is_clicked_and_the_focus_moves_by_key() {
    conform(
        "grid.html",
        vec![
            step(
                json!({"command": "click", "ref": "@3"}),
                "document.getElementById('picked').textContent",
                json!("March 3"),
                &["[selected focused] 3"],
            ),
            step(
                json!({"command": "press", "keys": "ArrowRight", "ref": "@[selected focused] 3"}),
                "document.activeElement.textContent",
                json!("4"),
                &["[focused] 4", "[selected] 3"],
            ),
            step(
                json!({"command": "press", "keys": "Enter"}),
                "document.getElementById('picked').textContent",
                json!("March 4"),
                &["[selected focused] 4"],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn slider_moves_by_keys() {
    let now = "document.querySelector('[role=slider]').getAttribute('aria-valuenow')";
    conform(
        "slider.html",
        vec![
            step(
                json!({"command": "press", "keys": "ArrowRight", "ref": "@slider \"Volume\""}),
                now,
                json!("51"),
                &["slider \"Volume\" [focused]: 51"],
            ),
            step(
                json!({"command": "press", "keys": "End"}),
                now,
                json!("100"),
                &["slider \"Volume\" [focused]: 100"],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn spinbutton_steps_by_key_button_and_fill() {
    let now = "guests.getAttribute('aria-valuenow')";
    conform(
        "spinbutton.html",
        vec![
            step(
                json!({"command": "press", "keys": "ArrowUp", "ref": "@spinbutton \"Guests\""}),
                now,
                json!("3"),
                &["spinbutton \"Guests\" [focused]: 3"],
            ),
            step(
                json!({"command": "click", "ref": "@button \"More guests\""}),
                now,
                json!("4"),
                &["spinbutton \"Guests\": 4"],
            ),
            step(
                json!({"command": "fill", "ref": "@spinbutton \"Guests\"", "text": "6"}),
                now,
                json!("6"),
                &["spinbutton \"Guests\": 6"],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn switch_is_checked_and_unchecked_and_a_disabled_one_refused() {
    conform(
        "switch.html",
        vec![
            step(
                json!({"command": "check", "ref": "@switch \"Dark mode\""}),
                "dark.getAttribute('aria-checked')",
                json!("true"),
                &["switch \"Dark mode\" [checked focused]"],
            ),
            step(
                json!({"command": "uncheck", "ref": "@switch \"Sounds\""}),
                "sounds.getAttribute('aria-checked')",
                json!("false"),
                &["switch \"Sounds\" [focused]"],
            ),
            refused(
                json!({"command": "check", "ref": "@switch \"Beta features\""}),
                "NOT_ACTIONABLE",
                "document.querySelectorAll('[aria-checked=true]').length",
                json!(1),
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn disclosure_shows_its_section() {
    conform(
        "disclosure.html",
        vec![step(
            json!({"command": "click", "ref": "@button \"Show delivery details\""}),
            "more.hidden",
            json!(false),
            &["button \"Show delivery details\" [expanded focused]"],
        )],
    )
    .await;
}

#[tokio::test]
async fn accordion_opens_one_section_at_a_time() {
    conform(
        "accordion.html",
        vec![step(
            json!({"command": "click", "ref": "@button \"Returns\""}),
            "[a1.hidden, a2.hidden]",
            json!([true, false]),
            &[
                "button \"Returns\" [expanded focused]",
                "button \"Shipping\" [collapsed]",
                "region \"Returns\"",
            ],
        )],
    )
    .await;
}

#[tokio::test]
async fn dialog_opens_modal_takes_text_and_closes() {
    conform(
        "dialog.html",
        vec![
            step(
                json!({"command": "click", "ref": "@button \"Rename file\""}),
                "dlg.hidden",
                json!(false),
                &[
                    "dialog \"Rename\" [modal]",
                    "textbox \"New name\" [focused]: draft.txt",
                ],
            ),
            step(
                json!({"command": "fill", "ref": "@textbox \"New name\"", "text": "notes.txt"}),
                "document.getElementById('new-name').value",
                json!("notes.txt"),
                &["textbox \"New name\" [focused]: notes.txt"],
            ),
            step(
                json!({"command": "click", "ref": "@button \"Save\""}),
                "[dlg.hidden, document.getElementById('name').textContent]",
                json!([true, "notes.txt"]),
                &["button \"Rename file\" [focused]"],
            ),
            step(
                json!({"command": "click", "ref": "@button \"Rename file\""}),
                "dlg.hidden",
                json!(false),
                &["dialog \"Rename\" [modal]"],
            ),
            step(
                json!({"command": "press", "keys": "Escape"}),
                "dlg.hidden",
                json!(true),
                &["button \"Rename file\" [focused]"],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn feed_moves_between_stories_and_loads_more() {
    conform(
        "feed.html",
        vec![
            step(
                json!({"command": "press", "keys": "PageDown", "ref": "@article \"Bridge reopens\""}),
                "document.activeElement.getAttribute('aria-posinset')",
                json!("2"),
                &["article \"Market day moves\" [focused]"],
            ),
            step(
                json!({"command": "click", "ref": "@button \"Load more stories\""}),
                "document.querySelectorAll('article').length",
                json!(3),
                &["article \"Story 3\"", "h2 \"Story 3\""],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn carousel_turns_its_slides() {
    let at = "Array.from(document.querySelectorAll('.slide')).findIndex((s) => !s.hidden)";
    conform(
        "carousel.html",
        vec![
            step(
                json!({"command": "click", "ref": "@button \"Next offer\""}),
                at,
                json!(1),
                &[
                    "group \"2 of 3\"",
                    "button \"Slide 2\" [current]",
                    "button \"Slide 1\"",
                ],
            ),
            step(
                json!({"command": "click", "ref": "@button \"Previous offer\""}),
                at,
                json!(0),
                &["group \"1 of 3\""],
            ),
            step(
                json!({"command": "click", "ref": "@button \"Previous offer\""}),
                at,
                json!(2),
                &["group \"3 of 3\"", "button \"Slide 3\" [current]"],
            ),
            step(
                json!({"command": "click", "ref": "@button \"Slide 1\""}),
                at,
                json!(0),
                &["group \"1 of 3\"", "button \"Slide 1\" [current focused]"],
            ),
            step(
                json!({"command": "click", "ref": "@button \"Keep this offer\""}),
                "keep.getAttribute('aria-pressed')",
                json!("true"),
                &["button \"Keep this offer\" [pressed focused]"],
            ),
            step(
                json!({"command": "check", "ref": "@button \"Keep this offer\""}),
                "keep.getAttribute('aria-pressed')",
                json!("true"),
                &["button \"Keep this offer\" [pressed focused]"],
            ),
            step(
                json!({"command": "uncheck", "ref": "@button \"Keep this offer\""}),
                "keep.getAttribute('aria-pressed')",
                json!("false"),
                &["button \"Keep this offer\" [focused]"],
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn native_controls_take_values_in_their_own_forms() {
    let fill = |label: &str, text: &str| json!({"command": "fill", "ref": format!("@{label}"), "text": text});
    let root = std::env::temp_dir().join(format!("rove-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("upload root");
    let ticket = root.join("ticket.pdf");
    std::fs::write(&ticket, "%PDF-1.4").expect("ticket");
    let config = SessionConfig {
        upload_roots: vec![root.clone()],
        ..SessionConfig::default()
    };
    conform_with(
        "native.html",
        config,
        vec![
            step(
                fill("date \"Day\"", "2026-03-14"),
                "[day.value, changes()]",
                json!(["2026-03-14", "change day"]),
                &["date \"Day\" [focused]: 2026-03-14"],
            ),
            refused(fill("date \"Day\"", "2026-13-45"), "COMMAND_REJECTED", "[day.value, changes()]", json!(["2026-03-14", "change day"])),
            refused(fill("date \"Day\"", "14/03/2026"), "COMMAND_REJECTED", "day.value", json!("2026-03-14")),
            step(fill("time \"Time\"", "09:30"), "time.value", json!("09:30"), &["time \"Time\" [focused]: 09:30"]),
            step(
                fill("datetime-local \"Starts\"", "2026-03-14T09:30"),
                "starts.value",
                json!("2026-03-14T09:30"),
                &["datetime-local \"Starts\" [focused]: 2026-03-14T09:30"],
            ),
            step(fill("month \"Month\"", "2026-03"), "month.value", json!("2026-03"), &["month \"Month\" [focused]: 2026-03"]),
            step(fill("week \"Week\"", "2026-W11"), "week.value", json!("2026-W11"), &["week \"Week\" [focused]: 2026-W11"]),
            refused(fill("week \"Week\"", "2026-11"), "COMMAND_REJECTED", "week.value", json!("2026-W11")),
            step(fill("color \"Colour\"", "#3366CC"), "colour.value", json!("#3366cc"), &["color \"Colour\" [focused]: #3366cc"]),
            refused(fill("color \"Colour\"", "blue"), "COMMAND_REJECTED", "colour.value", json!("#3366cc")),
            step(fill("slider \"Volume\"", "35"), "volume.value", json!("35"), &["slider \"Volume\" [focused]: 35"]),
            refused(fill("slider \"Volume\"", "37"), "COMMAND_REJECTED", "volume.value", json!("35")),
            refused(fill("slider \"Volume\"", "80"), "COMMAND_REJECTED", "volume.value", json!("35")),
            step(
                json!({"command": "press", "keys": "ArrowRight", "ref": "@slider \"Volume\""}),
                "volume.value",
                json!("40"),
                &["slider \"Volume\" [focused]: 40"],
            ),
            step(fill("spinbutton \"Seats\"", "4"), "seats.value", json!("4"), &["spinbutton \"Seats\": 4"]),
            step(
                json!({"command": "upload", "ref": "@file \"Ticket\"", "paths": [ticket.display().to_string()]}),
                "ticket.files[0].name",
                json!("ticket.pdf"),
                &["file \"Ticket\" [focused]: ticket.pdf"],
            ),
            step(
                json!({"command": "select", "ref": "@combobox \"Class\"", "values": ["Business"]}),
                "document.getElementById('class').value",
                json!("Business"),
                &["combobox \"Class\": Business (options \"Economy\", \"Business\")"],
            ),
            step(
                json!({"command": "select", "ref": "@listbox \"Meals\"", "values": ["Vegan", "Halal"]}),
                "Array.from(meals.selectedOptions).map((o) => o.value)",
                json!(["Vegan", "Halal"]),
                &["listbox \"Meals\": Vegan, Halal (options \"Vegan\", \"Kosher\", \"Halal\")"],
            ),
            step(fill("textbox \"Remarks\"", "Aisle seat"), "remarks.value", json!("Aisle seat"), &["textbox \"Remarks\" [focused]: Aisle seat"]),
            step(fill("textbox \"Letter\"", "Dear crew,"), "letter.innerText", json!("Dear crew,"), &["textbox \"Letter\" [focused]: Dear crew,"]),
            step(
                json!({"command": "click", "ref": "@button \"Terms\""}),
                "terms.open",
                json!(true),
                &["button \"Terms\" [expanded focused]", "checkbox \"I agree\""],
            ),
            step(
                json!({"command": "check", "ref": "@checkbox \"I agree\""}),
                "agree.checked",
                json!(true),
                &["checkbox \"I agree\" [checked focused]"],
            ),
            step(
                json!({"command": "click", "ref": "@button \"Review\""}),
                "sure.open",
                json!(true),
                &["dialog [modal]", "textbox \"Promo code\" [focused]"],
            ),
            step(fill("textbox \"Promo code\"", "SPRING"), "promo.value", json!("SPRING"), &["textbox \"Promo code\" [focused]: SPRING"]),
            step(
                json!({"command": "click", "ref": "@button \"Send\""}),
                "[sure.open, document.getElementById('log').textContent]",
                json!([false, "sent with SPRING"]),
                &["button \"Review\" [focused]"],
            ),
        ],
    )
    .await;
    let _ = std::fs::remove_dir_all(&root);
}

#[tokio::test]
async fn a_date_in_another_form_is_refused_naming_the_iso_form() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/native.html").await;
    let view = view_of(&mut f).await;
    let day = ref_of(&view, "date \"Day\"");
    let e = f
        .fails(json!({"command": "fill", "ref": day, "text": "03/14/2026"}))
        .await;
    let report = e.report();
    assert_eq!(code(&e), "COMMAND_REJECTED");
    assert!(
        report.message.contains("YYYY-MM-DD"),
        "the error names the form: {}",
        report.message
    );
    assert_eq!(
        serde_json::to_value(report.action_sent).expect("json"),
        json!("not_sent")
    );
    assert_eq!(
        f.eval("[day.value, changes()]").await,
        json!(["", ""]),
        "the field was not touched"
    );

    // A day its picker would not offer (outside min and max) is refused
    // the same way, naming the limits; one inside them is taken.
    let back = ref_of(&view, "date \"Return\"");
    let e = f
        .fails(json!({"command": "fill", "ref": back, "text": "2026-04-02"}))
        .await;
    assert_eq!(code(&e), "COMMAND_REJECTED");
    let message = e.report().message;
    assert!(
        message.contains("from 2026-03-01 to 2026-03-31"),
        "{message}"
    );
    f.ok(json!({"command": "fill", "ref": back, "text": "2026-03-30"}))
        .await;
    assert_eq!(f.eval("back.value").await, json!("2026-03-30"));

    // Typing key by key is refused, pointing at fill.
    let e = f
        .fails(json!({"command": "type", "ref": day, "text": "2026"}))
        .await;
    assert_eq!(code(&e), "NOT_ACTIONABLE");
    assert!(
        e.report().message.contains("fill"),
        "{}",
        e.report().message
    );
    assert_eq!(f.eval("day.value").await, json!(""));
    f.close().await;
}
