//! Truth on real applications: what Lumino menus, React portals and admin
//! tables do to a view, reduced to minimal pages. A ref resolves to the
//! element it names or is never shown again; a table keeps its columns; a
//! diff names what the agent was shown.

use crate::support;

use rove_commands::SessionConfig;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, code, fixture_routes};

const MENU: &str = "<title>Menu</title>\
    <button id=b onclick=\"m.isConnected ? m.remove() : document.body.append(m)\">Menu</button>\
    <div id=m role=menu><div role=menuitem onclick=\"document.title = 'picked'\">Item</div></div>\
    <script>var m = document.getElementById('m'); m.remove();</script>";

const TABLE: &str = "<title>People</title><table>\
    <tr><th>Name</th><th>Email</th><th>Phone</th></tr>\
    <tr><td>Ann</td><td></td><td>555-0101</td></tr>\
    <tr><td>Bob</td><td>bob@example.org</td><td></td></tr></table>\
    <div id=d role=dialog aria-label=Notice>Hi <button onclick=\"d.remove()\">Close</button></div>";

const GROWS: &str = "<title>Calendar</title><div id=c></div>\
    <button onclick=\"c.innerHTML = '<table><tr><th>S</th><th>M</th><th>T</th></tr><tr><td></td><td>30</td><td><a href=#1>1</a></td></tr></table><ul><li><a href=#a>Alpha</a></li><li><a href=#b>Beta</a></li></ul>'\">Show</button>\
    <button onclick=\"c.innerHTML = ''\">Hide</button>";

const APP_UI: &str = "<title>App</title>\
    <div role=menu aria-label=File><div role=menuitem>New</div>\
    <div role=presentation tabindex=0 class=sep></div>\
    <div role=menuitem aria-haspopup=true aria-expanded=false>Open Recent</div></div>\
    <div role=toolbar aria-label=Cells><div style=cursor:pointer onclick=\"0\"><div><button>Save</button></div></div></div>\
    <select size=3 aria-label=Empty></select>";

/// An app whose shell is built after the load event, piece by piece: each
/// piece asked of its server (slowly, as a bundle or a data call can be)
/// once the one before has arrived, and drawn a frame later.
const SHELL: &str = "<title>Shell</title><p>Loading…</p><script>\
    const part = (n) => fetch('/slow-part?' + n).then(() => requestAnimationFrame(() => {\
      document.body.insertAdjacentHTML('beforeend', '<button>Part ' + n + '</button>'); if (n < 7) part(n + 1); }));\
    window.onload = () => part(0);\
    </script>";

/// A page that never stops changing, from the first task after its load.
const TICKER: &str = "<title>Ticker</title><h1>Prices</h1><p id=t>0</p><script>\
    const tick = () => { t.textContent = Date.now(); setTimeout(tick, 20); };\
    window.onload = () => setTimeout(tick, 0);</script>";

/// Django's calendar shortcuts, and text in wrappers (a notebook's output).
const WRAPPED: &str = "<title>Wrapped</title><div id=w hidden><a href=#y>Yesterday</a>&nbsp;|&nbsp;<a href=#t>Today</a>&nbsp;|&nbsp;<a href=#m>Tomorrow</a></div>\
    <button onclick=\"w.hidden = false; setTimeout(() => out.innerHTML = '<pre>answer: 42</pre>', 300)\">Reveal</button>\
    <div id=out></div><span>span text</span>";

/// A command palette that closes when its input loses the focus, an inline
/// editor that commits and closes on Enter, and a widget that focuses its
/// own input.
const EDITORS: &str = "<title>Editors</title>\
    <div id=palette><input id=q aria-label=Command onblur=\"palette.remove()\" onchange=\"window.changes = (window.changes || 0) + 1\"></div>\
    <span id=name>untitled.ipynb</span><input id=rename aria-label=Rename \
      onkeydown=\"if (event.key === 'Enter') { document.getElementById('name').textContent = this.value; this.remove(); }\">\
    <input id=gone aria-label=Gone oninput=\"if (this.value === 'final') this.remove()\">\
    <button onclick=\"hidden_field.style.display = 'block'; hidden_field.focus()\">Search</button>\
    <input id=hidden_field aria-label=Found style=display:none>";

const SLOW_SERVER: &str = "<title>Files</title><ul id=l><li>notes.md</li></ul>\
    <button onclick=\"fetch('/slow-make', {method: 'POST'}).then(() => l.insertAdjacentHTML('beforeend', '<li>Untitled Folder <input aria-label=Name></li>'))\">New Folder</button>";

async fn fixture() -> Fixture {
    let routes = fixture_routes()
        .page("/slow-server.html", Response::html(SLOW_SERVER))
        .page(
            "/slow-make",
            Response::text("made").delayed(std::time::Duration::from_secs(5)),
        )
        .page("/editors.html", Response::html(EDITORS))
        .page("/wrapped.html", Response::html(WRAPPED))
        .page("/shell.html", Response::html(SHELL))
        .page(
            "/slow-part",
            Response::html("part").delayed(std::time::Duration::from_millis(90)),
        )
        .page("/ticker.html", Response::html(TICKER))
        .page("/app-ui.html", Response::html(APP_UI))
        .page("/grows.html", Response::html(GROWS))
        .page("/menu.html", Response::html(MENU))
        .page("/table.html", Response::html(TABLE));
    Fixture::with(routes, SessionConfig::default()).await
}

#[tokio::test]
async fn a_click_whose_request_the_server_answers_late_says_so_not_that_nothing_changed() {
    // Jupyter makes a folder on its server, then shows its name field; a
    // busy server answered after the settle's wait for the click's request,
    // and the answer read as if the click had done nothing more.
    let mut f = fixture().await;
    f.open("/slow-server.html").await;
    let make = f.find("New Folder", "button").await;
    let out = f.ok(json!({"command": "click", "ref": make})).await;
    let text = out.text();
    assert!(
        !text.contains("nothing visible changed"),
        "an unanswered request is not no change:\n{text}"
    );
    assert!(
        text.contains("the page is still waiting for its server's answer"),
        "{text}"
    );
    // The answer comes: the field the server's answer drew.
    f.ok(json!({"command": "wait", "text": "Untitled Folder", "ms": 10000}))
        .await;
    let view = f.ok(json!({"command": "snapshot"})).await;
    assert!(view.text().contains("textbox \"Name\""), "{}", view.text());
    f.close().await;
}

#[tokio::test]
async fn a_menu_put_back_gets_refs_that_work_and_its_old_ones_stay_dead() {
    let mut f = fixture().await;
    f.open("/menu.html").await;
    let button = f.find("Menu", "button").await;
    f.ok(json!({"command": "click", "ref": button})).await;
    let first = f.find("Item", "menuitem").await;
    // Closed and opened again: the same nodes, put back.
    f.ok(json!({"command": "click", "ref": button})).await;
    f.ok(json!({"command": "click", "ref": button})).await;
    let again = f.find("Item", "menuitem").await;
    assert_ne!(first, again, "a ref reported gone is never shown again");
    let e = f.fails(json!({"command": "click", "ref": first})).await;
    assert_eq!(code(&e), "REF_NOT_FOUND");
    let fresh = e.fresh_view().expect("a fresh view").to_owned();
    assert!(!fresh.contains(&format!("{first} ")), "{fresh}");
    assert!(fresh.contains(&format!("{again} menuitem")), "{fresh}");
    let out = f.ok(json!({"command": "click", "ref": again})).await;
    assert_eq!(f.eval("document.title").await, "picked");
    // The title changed, so something visible did.
    assert!(
        !out.happened_lines()
            .iter()
            .any(|l| l == "nothing visible changed"),
        "{}",
        out.text()
    );
    f.close().await;
}

#[tokio::test]
async fn empty_cells_keep_their_columns_and_a_removed_line_names_the_ref_shown() {
    let mut f = fixture().await;
    let view = f.open("/table.html").await.view.expect("view").text;
    assert!(view.contains("| Ann |  | 555-0101 |"), "{view}");
    assert!(view.contains("| Bob | bob@example.org |  |"), "{view}");
    let dialog = view
        .lines()
        .find(|l| l.contains("dialog \"Notice\""))
        .and_then(|l| l.split_whitespace().next())
        .expect("the dialog's line")
        .to_owned();
    let close = f.find("Close", "button").await;
    let out = f.ok(json!({"command": "click", "ref": close})).await;
    let diff = out.view.expect("a diff").text;
    assert!(
        diff.contains(&format!("- {dialog} dialog \"Notice\"")),
        "the diff names {dialog}: {diff}"
    );
    f.close().await;
}

#[tokio::test]
async fn a_diff_shows_added_and_removed_structure_as_the_view_does() {
    let mut f = fixture().await;
    f.open("/grows.html").await;
    let show = f.find("Show", "button").await;
    let diff = f
        .ok(json!({"command": "click", "ref": show}))
        .await
        .view
        .expect("a diff")
        .text;
    // The rows read as they do in a view: one line each, empty cells kept.
    assert!(diff.contains("| S | M | T |"), "{diff}");
    assert!(diff.contains("|  | 30 | e"), "{diff}");
    assert!(
        diff.contains("+ - e") && diff.contains("link \"Alpha\""),
        "{diff}"
    );
    for hidden in ["cell", "columnheader", "listitem", " list"] {
        assert!(!diff.contains(hidden), "{hidden} in {diff}");
    }
    let full = f
        .ok(json!({"command": "snapshot"}))
        .await
        .view
        .expect("view");
    assert!(
        diff.len() < full.text.len() + 40,
        "{diff}\nvs\n{}",
        full.text
    );
    // Taken away again: the removed lines name refs the agent was shown.
    let hide = f.find("Hide", "button").await;
    let diff = f
        .ok(json!({"command": "click", "ref": hide}))
        .await
        .view
        .expect("a diff")
        .text;
    for line in diff.lines().filter(|l| l.starts_with("- ")) {
        let r = line[2..].split_whitespace().next().unwrap_or_default();
        assert!(
            full.text.contains(&format!("{r} ")),
            "{r} was never shown: {diff}"
        );
    }
    f.close().await;
}

#[tokio::test]
async fn app_chrome_reads_as_one_line_per_thing_with_its_popup_hints() {
    let mut f = fixture().await;
    let view = f.open("/app-ui.html").await.view.expect("view").text;
    let submenu = view
        .lines()
        .find(|l| l.contains("menuitem \"Open Recent\""))
        .unwrap_or_else(|| panic!("{view}"));
    assert!(
        submenu.contains("haspopup") && submenu.contains("collapsed"),
        "{view}"
    );
    assert!(
        !view
            .lines()
            .any(|l| l.split_whitespace().nth(1) == Some("clickable") && !l.contains('"')),
        "no nameless clickable lines: {view}"
    );
    let save_lines = view.lines().filter(|l| l.contains("Save")).count();
    assert_eq!(save_lines, 1, "{view}");
    assert!(!view.contains("clickable"), "{view}");
    assert!(!view.contains("(options )"), "{view}");
    f.close().await;
}

#[tokio::test]
async fn open_waits_for_an_app_shell_and_says_when_a_page_never_settles() {
    let mut f = fixture().await;
    let out = f.open("/shell.html").await;
    let view = out.view.clone().expect("view").text;
    assert!(
        view.contains("button \"Part 7\""),
        "the whole shell: {view}"
    );
    assert!(
        !out.happened_lines()
            .iter()
            .any(|l| l.contains("still changing")),
        "{:?}",
        out.happened_lines()
    );
    let out = f.open("/ticker.html").await;
    // How many changes, and where the last one was.
    let still = out
        .happened_lines()
        .into_iter()
        .find(|l| l.contains("may be incomplete"))
        .unwrap_or_else(|| panic!("{:?}", out.happened_lines()));
    let changes: u64 = still
        .split(" changes")
        .next()
        .and_then(|s| s.rsplit('(').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a count of changes: {still}"));
    assert!(changes >= 50, "a change every 20 ms for 3 s: {still}");
    assert!(still.contains("the last in heading \"Prices\""), "{still}");
    f.close().await;
}

#[tokio::test]
async fn tabs_get_a_desktop_viewport_by_default_and_the_size_asked_for() {
    let mut f = fixture().await;
    f.open("/menu.html").await;
    assert_eq!(
        f.eval("[innerWidth, innerHeight]").await,
        json!([1280, 720])
    );
    let url = f.url("/menu.html");
    f.ok(json!({"command": "tab", "action": "new", "url": url}))
        .await;
    assert_eq!(f.eval("innerWidth").await, 1280, "a new tab too");
    f.close().await;
    let small = SessionConfig {
        viewport: Some("800x600".parse().expect("size")),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(
        fixture_routes().page("/menu.html", Response::html(MENU)),
        small,
    )
    .await;
    f.open("/menu.html").await;
    assert_eq!(f.eval("[innerWidth, innerHeight]").await, json!([800, 600]));
    f.close().await;
}

#[tokio::test]
async fn text_in_wrappers_is_found_waited_for_and_never_given_a_wrappers_ref() {
    let mut f = fixture().await;
    f.open("/wrapped.html").await;
    let reveal = f.find("Reveal", "button").await;
    let diff = f
        .ok(json!({"command": "click", "ref": reveal}))
        .await
        .view
        .expect("a diff")
        .text;
    // Two runs of `|` in one wrapper are not two things with one ref.
    let bars: Vec<&str> = diff.lines().filter(|l| l.contains('|')).collect();
    assert_eq!(bars.len(), 2, "{diff}");
    assert!(bars.iter().all(|l| !l.contains(" text ")), "{diff}");
    f.ok(json!({"command": "wait", "text": "answer: 42", "ms": 5000}))
        .await;
    for words in ["answer: 42", "span text"] {
        let found = f
            .ok(json!({"command": "find", "text": words}))
            .await
            .view
            .expect("find")
            .text;
        assert!(found.contains("1 match"), "{words}: {found}");
    }
    f.close().await;
}

#[tokio::test]
async fn fill_keeps_the_focus_and_says_when_the_page_took_the_field_away() {
    let mut f = fixture().await;
    f.open("/editors.html").await;
    // A palette that closes on blur keeps its query, and heard `change`.
    let command = f.find("Command", "textbox").await;
    f.ok(json!({"command": "fill", "ref": command, "text": "rename"}))
        .await;
    assert_eq!(
        f.eval("document.getElementById('q')?.value").await,
        "rename"
    );
    assert_eq!(f.eval("window.changes").await, 1);
    // An inline editor that commits on Enter and closes: fill --submit.
    let rename = f.find("Rename", "textbox").await;
    let out = f
        .ok(json!({"command": "fill", "ref": rename, "text": "final.ipynb", "submit": true}))
        .await;
    assert!(
        out.happened_lines().iter().any(|l| l == "pressed Enter"),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(
        f.eval("document.getElementById('name').textContent").await,
        "final.ipynb"
    );
    // A field the page removes as the text arrives: the text was sent.
    let gone = f.find("Gone", "textbox").await;
    let out = f
        .ok(json!({"command": "fill", "ref": gone, "text": "final"}))
        .await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.contains("took the field away")),
        "{:?}",
        out.happened_lines()
    );
    // A widget that focuses its own input: type without a ref.
    let search = f.find("Search", "button").await;
    f.ok(json!({"command": "click", "ref": search})).await;
    let out = f.ok(json!({"command": "type", "text": "notebook"})).await;
    assert!(
        out.happened_lines()[0].contains("the focused element"),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(f.eval("hidden_field.value").await, "notebook");
    // `fill` needs the field: refused while the call is parsed.
    let e = rove_commands::Command::from_tool_call("fill", Some(&json!({"text": "x"})))
        .expect_err("fill without a ref");
    assert_eq!(code(&e), "COMMAND_REJECTED");
    assert!(e.to_string().contains("missing field `ref`"), "{e}");
    f.close().await;
}
