//! Truth on reactive apps (issue 35), reduced to minimal pages: what a
//! screen reader's announcer says is a note on the command that caused it,
//! not a line of the view.

use crate::support;

use rove_commands::SessionConfig;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, code, fixture_routes};

/// Gradio's and AG Grid's announcers: live regions drawn nowhere (one
/// clipped pixel), beside a status the page shows, and a close button named
/// by screen-reader-only text.
const ANNOUNCER: &str = "<title>Announcer</title>\
    <style>.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap}</style>\
    <div id=sr class=sr-only role=status aria-live=polite>Loading</div>\
    <div id=grid class=sr-only aria-live=assertive>No Rows To Show</div>\
    <div role=status id=shown>Ready</div>\
    <button onclick=\"sr.textContent = 'Saved 3 rows'; shown.textContent = 'Done'\">Save</button>\
    <button><span class=sr-only>Close panel</span>x</button>";

/// Jupyter's file list: Refresh reuses the row nodes for another listing,
/// and a player's button renames itself.
const RECYCLED: &str = "<title>Files</title><ul id=files>\
    <li><input type=checkbox aria-label=\"Select file q3_report.ipynb\"> q3_report.ipynb</li>\
    <li><input type=checkbox aria-label=\"Select file notes.md\"> notes.md</li></ul>\
    <button onclick=\"const [a, b] = files.querySelectorAll('li'); \
      a.firstChild.setAttribute('aria-label', 'Select directory Untitled Folder'); a.lastChild.textContent = ' Untitled Folder'; \
      b.firstChild.setAttribute('aria-label', 'Select file notes.md');\">Refresh</button>\
    <button onclick=\"this.textContent = this.textContent === 'Play' ? 'Pause' : 'Play'\">Play</button>";

/// An inline rename that commits on Enter and goes away, and a number
/// field the page takes away once it changed.
const RENAME: &str = "<title>Rename</title><ul><li><span id=name>Untitled Folder</span>\
    <input id=r aria-label=Rename value=\"Untitled Folder\" \
      onkeydown=\"if (event.key === 'Enter') { name.textContent = this.value; this.remove(); }\"></li></ul>\
    <input type=number aria-label=Count value=4 onchange=\"this.remove()\">\
    <input type=password aria-label=Password onkeydown=\"if (event.key === 'Enter') this.remove()\">";

/// A long page whose last line changes: past any small budget's cut.
fn long_page() -> String {
    let mut page =
        String::from("<title>Long</title><button onclick=\"last.value = 'shipped'\">Ship</button>");
    // Past the budget's cut, but within what rove reads to diff against.
    for i in 0..60 {
        page.push_str(&format!("<p>Row {i} waiting</p>"));
    }
    page.push_str("<input id=last aria-label=\"Row 299\" value=waiting>");
    for i in 61..300 {
        page.push_str(&format!("<p>Row {i} waiting</p>"));
    }
    page
}

/// react-aria's NumberField: the number is parsed, formatted and taken
/// only when the field loses the focus; a native select recomputes from
/// the number taken.
const NUMBER_FIELD: &str = "<title>Loan</title>\
    <input id=p inputmode=numeric aria-roledescription=\"Number field\" aria-label=Principal value=\"100,000\">\
    <select id=y aria-label=Years onchange=\"show()\"><option>10</option><option>20</option></select>\
    <p id=pay></p><script>\
    let principal = 100000;\
    const show = () => pay.textContent = 'Monthly: ' + Math.round(principal / (y.value * 12));\
    p.addEventListener('blur', () => { principal = Number(p.value.replace(/,/g, '')) || principal; \
      p.value = principal.toLocaleString('en-US'); show(); });\
    show();</script>";

/// Notebook 7's file list names a row (its title) once it is selected; a
/// table row's cell turns into a link.
const NAMED_ROW: &str = "<title>Rows</title><ul id=l><li id=a>Alpha</li><li>Beta</li></ul>\
    <button onclick=\"a.title = 'Name: Alpha'; l.setAttribute('aria-label', 'Files')\">Select</button>";

/// Gradio's results: markdown outputs in custom elements laid out as
/// blocks, and a tab panel that is hidden or inert.
const RESULTS: &str = "<title>Results</title>\
    <gradio-md style=display:block><strong>Monthly payment: 421.60</strong></gradio-md>\
    <gradio-md style=display:block><em>No scenario saved yet.</em></gradio-md>\
    <div role=tabpanel hidden><p>Settings panel text</p></div>\
    <div role=tabpanel inert><p>Behind the dialog</p></div>";

async fn fixture() -> Fixture {
    let routes = fixture_routes()
        .page("/results.html", Response::html(RESULTS))
        .page("/announcer.html", Response::html(ANNOUNCER))
        .page("/recycled.html", Response::html(RECYCLED))
        .page("/rename.html", Response::html(RENAME))
        .page("/long.html", Response::html(long_page()))
        .page("/number-field.html", Response::html(NUMBER_FIELD))
        .page("/named-row.html", Response::html(NAMED_ROW));
    Fixture::with(routes, SessionConfig::default()).await
}

#[tokio::test]
async fn a_hidden_live_region_is_a_note_on_the_action_not_a_line_of_the_view() {
    let mut f = fixture().await;
    let view = f.open("/announcer.html").await.view.expect("view").text;
    assert!(
        !view.contains("Loading") && !view.contains("No Rows To Show"),
        "announcers are not page content:\n{view}"
    );
    assert!(
        view.contains("Ready"),
        "a status the page shows stays:\n{view}"
    );
    assert!(
        view.contains("button \"Close panel x\"") || view.contains("button \"Close panel\""),
        "screen-reader-only names of controls stay:\n{view}"
    );
    let save = f.find("Save", "button").await;
    let out = f.ok(json!({"command": "click", "ref": save})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l == "the page announced \"Saved 3 rows\""),
        "the announcement is a note on the click:\n{}",
        out.text()
    );
    let diff = out.view.expect("a diff").text;
    assert!(!diff.contains("Saved 3 rows"), "{diff}");
    assert!(diff.contains("Done"), "{diff}");
    // Once: the same words again are not news.
    let out = f.ok(json!({"command": "click", "ref": save})).await;
    assert!(
        !out.text().contains("announced"),
        "an announcement is reported once:\n{}",
        out.text()
    );
    let view = f.view_of(json!({"command": "snapshot"})).await;
    assert!(!view.contains("Saved 3 rows"), "{view}");
    f.close().await;
}

/// Issue 35, item 6: a row's control that now names another item is
/// another thing: a new ref, and the old one stale, never a ref that
/// silently names something else.
#[tokio::test]
async fn a_recycled_row_control_gets_a_new_ref_and_its_old_one_goes_stale() {
    let mut f = fixture().await;
    f.open("/recycled.html").await;
    let report = f.find("Select file q3_report.ipynb", "checkbox").await;
    let notes = f.find("Select file notes.md", "checkbox").await;
    let play = f.find("Play", "button").await;
    let refresh = f.find("Refresh", "button").await;
    let out = f.ok(json!({"command": "click", "ref": refresh})).await;
    let diff = out.view.expect("a diff").text;
    assert!(
        diff.contains(&format!(
            "- {report} checkbox \"Select file q3_report.ipynb\""
        )),
        "the old item is removed under its old ref:\n{diff}"
    );
    let folder = f.find("Select directory Untitled Folder", "checkbox").await;
    assert_ne!(folder, report, "another item, another ref");
    assert!(
        diff.contains(&format!(
            "+ {folder} checkbox \"Select directory Untitled Folder\""
        )),
        "{diff}"
    );
    assert_eq!(
        f.find("Select file notes.md", "checkbox").await,
        notes,
        "a row that still names the same item keeps its ref"
    );
    let e = f.fails(json!({"command": "click", "ref": report})).await;
    assert_eq!(code(&e), "REF_NOT_FOUND", "{:?}", e.report());
    assert!(
        !f.eval("document.querySelector('input').checked")
            .await
            .as_bool()
            .unwrap_or(true),
        "nothing was clicked through the stale ref"
    );
    // A control outside a row that renames itself is the same control.
    let out = f.ok(json!({"command": "click", "ref": play})).await;
    let diff = out.view.expect("a diff").text;
    assert!(
        diff.contains(&format!("~ {play} button \"Pause\"")),
        "{diff}"
    );
    f.close().await;
}

/// Issue 35, item 7: a control removed after the agent was told its new
/// value reads as removed with that value, not the one before the edit;
/// a password's value is never shown.
#[tokio::test]
async fn a_removed_line_shows_the_value_the_agent_was_told() {
    let mut f = fixture().await;
    f.open("/rename.html").await;
    let rename = f.find("Rename", "textbox").await;
    let out = f
        .ok(json!({"command": "fill", "ref": rename, "text": "archive", "submit": true}))
        .await;
    let diff = out.view.expect("a diff").text;
    assert!(
        diff.contains(&format!("- {rename} textbox \"Rename\": archive")),
        "{diff}"
    );
    let count = f.find("Count", "spinbutton").await;
    let out = f
        .ok(json!({"command": "fill", "ref": count, "text": "8"}))
        .await;
    let diff = out.view.expect("a diff").text;
    assert!(
        diff.contains(&format!("- {count} spinbutton \"Count\": 8")),
        "{diff}"
    );
    let password = f.find("Password", "textbox").await;
    let out = f
        .ok(json!({"command": "fill", "ref": password, "text": "hunter2", "submit": true}))
        .await;
    assert!(!out.text().contains("hunter2"), "{}", out.text());
    f.close().await;
}

/// Issue 35, item 7: a line past the budget's cut was never shown; when it
/// changes, the diff shows it as added, not as a change of something seen.
#[tokio::test]
async fn a_change_of_a_line_never_shown_is_added_not_changed() {
    let mut f = fixture().await;
    f.open("/long.html").await;
    let view = f
        .view_of(json!({"command": "snapshot", "budget": 200}))
        .await;
    assert!(
        !view.contains("Row 299"),
        "the budget cut the page:\n{view}"
    );
    let ship = f.find("Ship", "button").await;
    let diff = f.view_of(json!({"command": "click", "ref": ship})).await;
    assert!(
        diff.lines()
            .any(|l| l.starts_with("+ ") && l.contains("textbox \"Row 299\": shipped")),
        "a line never shown is added:\n{diff}"
    );
    assert!(!diff.contains("~"), "{diff}");
    f.close().await;
}

/// Issue 35, item 2: a number field that takes its value on blur is left
/// with Tab after fill, so the app computes with the number before rove
/// answers, and the next command (a select set from script) too.
#[tokio::test]
async fn a_number_field_is_committed_before_the_answer() {
    let mut f = fixture().await;
    f.open("/number-field.html").await;
    let principal = f.find("Principal", "textbox").await;
    let out = f
        .ok(json!({"command": "fill", "ref": principal, "text": "300000"}))
        .await;
    let text = out.text();
    assert!(
        text.contains(&format!("left {principal} with Tab")),
        "{text}"
    );
    assert!(
        text.contains("Monthly: 2500"),
        "the app's answer to 300,000:\n{text}"
    );
    assert!(
        text.contains("Principal\": 300,000"),
        "the value the app shows:\n{text}"
    );
    let years = f.find("Years", "combobox").await;
    let out = f
        .ok(json!({"command": "select", "ref": years, "values": ["20"]}))
        .await;
    assert!(out.text().contains("Monthly: 1250"), "{}", out.text());
    // Enter commits instead when asked: no Tab.
    let out = f
        .ok(json!({"command": "fill", "ref": principal, "text": "120000", "submit": true}))
        .await;
    assert!(!out.text().contains("with Tab"), "{}", out.text());
    f.close().await;
}

/// Issue 35, item 7: an element the view showed no line of (an unnamed
/// list) that gets one (a name) is added in the diff, not `~` changed: the
/// agent never saw a line of it; a list item that takes a name still has
/// no line, in a diff as in a view.
#[tokio::test]
async fn an_element_that_gets_its_first_line_is_added_not_changed() {
    let mut f = fixture().await;
    f.open("/named-row.html").await;
    let select = f.find("Select", "button").await;
    let diff = f.view_of(json!({"command": "click", "ref": select})).await;
    assert!(
        !diff.contains("Name: Alpha"),
        "a list item shows no line of its own, in views or diffs:\n{diff}"
    );
    assert!(
        diff.lines()
            .any(|l| l.starts_with("+ ") && l.contains("list \"Files\"")),
        "{diff}"
    );
    assert!(!diff.contains("~"), "{diff}");
    f.close().await;
}

/// `read` gives what a reader sees, block by block: two results laid out
/// as blocks are two paragraphs, not one run of text; a hidden or inert
/// panel is not read.
#[tokio::test]
async fn read_separates_blocks_and_leaves_out_hidden_and_inert_panels() {
    let mut f = fixture().await;
    f.open("/results.html").await;
    let out = f.ok(json!({"command": "read"})).await;
    let text = out.text();
    assert!(
        text.contains("**Monthly payment: 421.60**\n\n*No scenario saved yet.*"),
        "{text}"
    );
    assert!(!text.contains("Settings panel text"), "{text}");
    assert!(!text.contains("Behind the dialog"), "{text}");
    f.close().await;
}
