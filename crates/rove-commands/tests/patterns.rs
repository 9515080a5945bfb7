//! Conformance over every page in `tests/patterns/`: the native form
//! controls, and one small working widget per WAI-ARIA Authoring Practices
//! pattern (written for these tests). On each page, in every state the
//! steps lead to, every control the page shows has a ref in the view; each
//! step operates a control with an existing command, the page's own state
//! (read with `eval`) shows the effect, and the next view shows the state.

mod support;

use std::path::Path;

use rove_commands::SessionConfig;
use rove_localserver::Routes;
use serde_json::{Value, json};
use support::{Fixture, code};

fn routes() -> Routes {
    rove_testkit::fixture_routes(&patterns_dir())
}

fn patterns_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/patterns")
}

/// One operation on a pattern page.
struct Step {
    /// The command; a string `@role "name"` stands for the ref of the line
    /// that reads so in the view before the step.
    command: Value,
    /// The error code the command must fail with, if it must.
    error: Option<&'static str>,
    /// An expression read in the page afterwards, and the value it must have.
    check: &'static str,
    expect: Value,
    /// Lines the next view must hold after their refs (each the whole rest
    /// of its line or row cell: flags and value included).
    shows: &'static [&'static str],
}

fn step(
    command: Value,
    check: &'static str,
    expect: Value,
    shows: &'static [&'static str],
) -> Step {
    Step {
        command,
        error: None,
        check,
        expect,
        shows,
    }
}

/// A step whose command must be refused with `error`, leaving the page as
/// `check` reads it.
fn refused(command: Value, error: &'static str, check: &'static str, expect: Value) -> Step {
    Step {
        command,
        error: Some(error),
        check,
        expect,
        shows: &[],
    }
}

/// The controls the page shows, read from Chromium's own role and name in
/// the page: every element that is a native control or has an ARIA widget
/// role, visible, not inert behind a modal dialog, as `role "name"` the
/// way a view writes it; and every other element a widget made focusable
/// (a grid's cells, a treegrid's rows, a feed's articles), as the first
/// line (or cell) of its text. The options of a native select are listed on the
/// select's line, not as lines of their own.
const CONTROLS: &str = r#"(() => {
  const roles = new Set(ROLES);
  const typed = ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'file'];
  const modals = Array.from(document.querySelectorAll('dialog:modal'));
  const lines = [];
  const near = [];
  for (const e of document.querySelectorAll('a[href], button, input, select, textarea, summary, [role], [contenteditable], [tabindex]')) {
    if (!e.checkVisibility({checkVisibilityCSS: true}) || e.closest('[aria-hidden=true], [inert]')) continue;
    if (modals.length && !modals.some((m) => m.contains(e))) continue;
    if (e.closest('select') && e.tagName === 'OPTION') continue;
    let role = e.computedRole;
    let name = e.computedName;
    if (e.tagName === 'INPUT' && typed.includes(e.type)) role = e.type;
    if (e.tagName === 'INPUT' && e.type === 'file') name = e.labels[0].textContent.trim();
    if (e.tagName === 'SUMMARY') role = 'button';
    if (e.isContentEditable && e.hasAttribute('contenteditable') && (role === 'generic' || role === '')) role = 'textbox';
    if (roles.has(role)) lines.push(`${role} "${name}"`);
    else if (e.hasAttribute('tabindex')) near.push(e.innerText.trim().split(/\s*[\n\t]/)[0].trim() || name);
  }
  return {lines, near};
})()"#;

/// Whether a line of `view` shows `text` right after a ref, with at most
/// a role word, flags in brackets, a cell bar and a quote between them
/// (`e5 article "Title`, `e7 [collapsed] | Title`, `| e9 3 |`).
fn has_ref_near(view: &str, text: &str) -> bool {
    view.lines().any(|line| {
        line.match_indices(text).any(|(at, _)| {
            let mut head = line[..at]
                .trim_end_matches(['"', ' '])
                .trim_end_matches('|')
                .trim_end();
            if head.ends_with(']') {
                head = head.rfind('[').map_or(head, |open| head[..open].trim_end());
            }
            let mut words = head.rsplit(' ');
            let is_ref = |w: &str| {
                w.len() > 1 && w.starts_with('e') && w[1..].chars().all(|c| c.is_ascii_digit())
            };
            match (words.next(), words.next()) {
                (Some(last), _) if is_ref(last) => true,
                (Some(role), Some(before)) => {
                    role.chars().all(|c| c.is_ascii_lowercase() || c == '-') && is_ref(before)
                }
                _ => false,
            }
        })
    })
}

/// Whether `view` has a line (or a row cell) reading `eN {rest}`; with
/// `whole`, `rest` must run to the end of the line or cell.
fn has_line(view: &str, rest: &str, whole: bool) -> bool {
    view.match_indices(rest).any(|(at, _)| {
        let before = &view[..at];
        let Some(head) = before.strip_suffix(' ') else {
            return false;
        };
        let word = head
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("");
        let is_ref = word.len() > 1
            && word.starts_with('e')
            && word[1..].chars().all(|c| c.is_ascii_digit());
        let after = &view[at + rest.len()..];
        let ends = after.is_empty() || after.starts_with('\n') || after.starts_with(" |");
        is_ref && (ends || (!whole && (after.starts_with(' ') || after.starts_with(':'))))
    })
}

/// The ref of the line reading `eN {rest}…` in `view`.
fn ref_of(view: &str, rest: &str) -> String {
    for (at, _) in view.match_indices(rest) {
        let head = view[..at].trim_end_matches(' ');
        let word = head
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("");
        if word.len() > 1 && word.starts_with('e') && word[1..].chars().all(|c| c.is_ascii_digit())
        {
            return word.to_owned();
        }
    }
    panic!("no line {rest:?} in the view:\n{view}");
}

/// `command` with each `@role "name"` string replaced by its ref in `view`.
fn resolve(command: &Value, view: &str) -> Value {
    match command {
        Value::String(s) if s.starts_with('@') => Value::String(ref_of(view, &s[1..])),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), resolve(v, view)))
                .collect(),
        ),
        other => other.clone(),
    }
}

async fn view_of(f: &mut Fixture) -> String {
    let out = f.ok(json!({"command": "snapshot"})).await;
    out.view.expect("snapshot answers with a view").text
}

/// Every control the page shows has a line with a ref in `view`.
async fn every_control_has_a_ref(f: &mut Fixture, view: &str, when: &str) {
    let roles = serde_json::to_string(rove_page::INTERACTIVE_ROLES).expect("roles");
    let controls = f.eval(&CONTROLS.replace("ROLES", &roles)).await;
    let lines = controls["lines"].as_array().expect("control lines");
    let near = controls["near"].as_array().expect("focusable elements");
    assert!(
        !lines.is_empty() || !near.is_empty(),
        "{when}: the page shows no control"
    );
    for control in lines {
        let control = control.as_str().expect("a string");
        assert!(
            has_line(view, control, false),
            "{when}: {control} has no ref in the view:\n{view}"
        );
    }
    for text in near {
        let text = text.as_str().expect("a string");
        assert!(
            has_ref_near(view, text),
            "{when}: the focusable {text:?} has no ref in the view:\n{view}"
        );
    }
}

/// Opens `page`, checks its controls, and runs its steps.
async fn conform(page: &str, steps: Vec<Step>) {
    conform_with(page, SessionConfig::default(), steps).await;
}

async fn conform_with(page: &str, config: SessionConfig, steps: Vec<Step>) {
    let mut f = Fixture::with(routes(), config).await;
    f.open(&format!("/{page}")).await;
    let mut view = view_of(&mut f).await;
    every_control_has_a_ref(&mut f, &view, &format!("{page} as loaded")).await;
    for (i, s) in steps.iter().enumerate() {
        let command = resolve(&s.command, &view);
        let when = format!("{page} after step {} ({command})", i + 1);
        match s.error {
            None => {
                f.ok(command.clone()).await;
            }
            Some(error) => {
                let e = f.fails(command.clone()).await;
                assert_eq!(code(&e), error, "{when}: {}", e.report().message);
            }
        }
        let state = f.eval(s.check).await;
        assert_eq!(state, s.expect, "{when}: {} in the page", s.check);
        view = view_of(&mut f).await;
        for line in s.shows {
            assert!(
                has_line(&view, line, true),
                "{when}: the view has no line {line:?}:\n{view}"
            );
        }
        every_control_has_a_ref(&mut f, &view, &when).await;
    }
    f.close().await;
}

/// The pages and the tests that walk them: every page in `tests/patterns/`
/// has its test.
const PAGES: [&str; 16] = [
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

#[test]
fn every_pattern_page_is_walked() {
    let mut found: Vec<String> = std::fs::read_dir(patterns_dir())
        .expect("tests/patterns")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    assert_eq!(found, PAGES);
}

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
                &["spinbutton \"Guests\" [focused]: 6"],
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
            step(fill("spinbutton \"Seats\"", "4"), "seats.value", json!("4"), &["spinbutton \"Seats\" [focused]: 4"]),
            step(
                json!({"command": "upload", "ref": "@file \"Ticket\"", "paths": [ticket.display().to_string()]}),
                "ticket.files[0].name",
                json!("ticket.pdf"),
                &["file \"Ticket\": ticket.pdf"],
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
