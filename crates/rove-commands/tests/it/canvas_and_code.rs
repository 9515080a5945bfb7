//! Canvas grids and code editors through the commands: `read` gives code
//! by its lines and a canvas by its fallback content, and a canvas grid's
//! cell (which has no box) carries a ref in its row and is reached by a
//! click or the keyboard, or the error says why nothing can reach it.

use crate::support;

use rove_commands::SessionConfig;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, code, fixture_routes};

/// A grid drawn on a canvas, its cells in the canvas's fallback content as
/// Glide Data Grid keeps them: a `table role=grid` inside the canvas, header
/// and body cells with tabindex -1, and the framework's handlers at the
/// root (React delegates `onClick` and `onFocus` there, so no cell has a
/// listener of its own). Focus selects the cell (its `aria-selected`, as the
/// grid re-renders it); a click on a cell opens its editor, as Glide's
/// fallback cells turn a click into Enter; Enter on the canvas does too.
const GRID: &str = "<!doctype html><title>Grid</title>\
    <canvas id=grid tabindex=0 width=300 height=80>\
      <table role=grid aria-rowcount=2 aria-colcount=2><thead role=rowgroup><tr role=row aria-rowindex=1>\
        <th role=columnheader tabindex=-1 aria-colindex=1>Name</th><th role=columnheader tabindex=-1 aria-colindex=2>Age</th></tr></thead>\
      <tbody role=rowgroup><tr role=row aria-rowindex=2>\
        <td role=gridcell tabindex=-1 aria-selected=false id=c00>Ada</td><td role=gridcell tabindex=-1 aria-selected=false id=c10>36</td>\
      </tr><tr role=row aria-rowindex=3>\
        <td role=gridcell tabindex=-1 aria-disabled=true id=c01>Locked</td><td role=gridcell tabindex=-1 id=c11>-</td>\
      </tr></tbody></table>\
    </canvas><p id=picked>none</p><p id=log></p>\
    <script>\
      const root = document.documentElement;\
      root.addEventListener('focusin', (e) => {\
        const td = e.target.closest && e.target.closest('td');\
        if (!td) return;\
        for (const c of document.querySelectorAll('td')) c.setAttribute('aria-selected', String(c === td));\
        picked.textContent = 'selected ' + td.id;\
      });\
      root.addEventListener('click', (e) => {\
        const td = e.target.closest && e.target.closest('td');\
        if (td) log.textContent = 'clicked ' + td.id + ' (' + e.type + ', editing)';\
      });\
      grid.addEventListener('keydown', (e) => { if (e.key === 'Enter') picked.textContent += ', editing'; });\
    </script>";

#[tokio::test]
async fn a_canvas_grid_cell_has_a_ref_in_its_row_and_a_click_reaches_it() {
    let routes = fixture_routes().page("/grid", Response::html(GRID));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    let view = f.open("/grid").await.view.expect("a view").text;
    // The row line carries each cell's ref: something to click.
    let row = view
        .lines()
        .find(|l| l.contains("Ada"))
        .unwrap_or_else(|| panic!("no row of Ada in\n{view}"));
    let cells: Vec<&str> = row.split(" | ").collect();
    assert_eq!(cells.len(), 3, "{row}");
    let cell = cells[1]
        .strip_suffix(" Ada")
        .unwrap_or_else(|| panic!("no ref before Ada in {row:?}"))
        .to_owned();
    assert!(cells[2].ends_with(" 36 |"), "{row}");
    // The click reaches the cell: the grid selects it and takes the click.
    let started = std::time::Instant::now();
    let clicked = f.ok(json!({"command": "click", "ref": cell})).await;
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "not waited on: {:?}",
        started.elapsed()
    );
    assert_eq!(f.eval("picked.textContent").await, "selected c00");
    assert_eq!(
        f.eval("log.textContent").await,
        "clicked c00 (click, editing)"
    );
    let text = clicked.text();
    assert!(
        text.contains(&format!("clicked {cell} (canvas fallback content")),
        "{text}"
    );
    // The diff: the cell, now selected and focused, by the ref the row
    // showed; the grid's text lines; nothing else (the other cell kept its
    // state).
    let diff = clicked.view.expect("a diff").text;
    let lines: Vec<&str> = diff.lines().collect();
    assert_eq!(lines.len(), 3, "{diff}");
    assert_eq!(
        lines[0],
        format!("~ {cell} gridcell \"Ada\" [selected focused clickable]"),
        "{diff}"
    );
    assert!(
        lines[1].starts_with("~ e") && lines[1].ends_with(" text selected c00"),
        "{diff}"
    );
    assert_eq!(lines[2], "+ clicked c00 (click, editing)", "{diff}");
    // A right click has no simulated form: it says what works.
    let e = f
        .fails(json!({"command": "click", "ref": cell, "button": "right"}))
        .await;
    assert_eq!(code(&e), "NOT_ACTIONABLE", "{e}");
    assert!(e.to_string().contains("a plain click activates it"), "{e}");
    // The keyboard reaches a cell too: focused (the grid selects it), then
    // the key.
    let age = f.find("36", "gridcell").await;
    f.ok(json!({"command": "press", "keys": "Enter", "ref": age}))
        .await;
    assert_eq!(f.eval("picked.textContent").await, "selected c10, editing");
    // A disabled cell is not activated: the click is refused as disabled.
    let locked = f.find("Locked", "gridcell").await;
    let e = f.fails(json!({"command": "click", "ref": locked})).await;
    assert_eq!(code(&e), "NOT_ACTIONABLE", "{e}");
    assert!(e.to_string().contains("disabled"), "{e}");
    assert!(!f.eval("log.textContent").await.to_string().contains("c01"));
    f.close().await;
}

/// Fallback content that takes no focus (a canvas's caption) has nothing
/// for a click or a key to reach: the error says so.
#[tokio::test]
async fn canvas_fallback_that_takes_no_focus_says_nothing_reaches_it() {
    let page = "<!doctype html><title>Chart</title><canvas width=300 height=80>\
        <table role=grid><tr role=row><th role=columnheader onclick=\"void 0\">Name</th></tr></table></canvas>";
    let routes = fixture_routes().page("/chart", Response::html(page));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    f.open("/chart").await;
    let header = f.find("Name", "columnheader").await;
    let e = f.fails(json!({"command": "click", "ref": header})).await;
    assert!(e.to_string().contains("takes no focus"), "{e}");
    f.close().await;
}

/// Code editors' lines, code blocks and a canvas grid's fallback cells, as
/// `read` gives them: each line of code on its own line (they ran together,
/// or became a code block per line), and the grid's cells as a table (a
/// canvas was skipped whole).
#[tokio::test]
async fn read_keeps_code_lines_and_reads_a_canvas_by_its_fallback() {
    let page = "<!doctype html><title>Code</title>\
        <code style='display:block;white-space:pre'>let a = 1;\nlet b = 2;</code>\
        <div class=cm-editor><div class=cm-scroller><div class=cm-content contenteditable=true role=textbox>\
          <div class=cm-line>select *</div><div class=cm-line>  from people</div></div></div></div>\
        <div class=CodeMirror><div class=CodeMirror-lines><div class=CodeMirror-code>\
          <div><div class=CodeMirror-gutter-wrapper><div class=CodeMirror-linenumber>1</div></div><pre class=CodeMirror-line><span>select name</span></pre></div>\
          <div><div class=CodeMirror-gutter-wrapper><div class=CodeMirror-linenumber>2</div></div><pre class=CodeMirror-line><span>from staff</span></pre></div>\
        </div></div></div>\
        <div class=monaco-editor><textarea class=inputarea>def f(x):</textarea><div class=view-lines aria-hidden=true role=presentation>\
          <div class=view-line style='position:absolute;top:19px'><span>&nbsp;&nbsp;return&nbsp;x</span></div>\
          <div class=view-line style='position:absolute;top:0px'><span>def&nbsp;f(x):</span></div>\
        </div></div>\
        <div style='margin-top:60px'><canvas width=300 height=80>\
          <table role=grid><tr role=row><th role=columnheader>Name</th><th role=columnheader>Age</th></tr>\
          <tr role=row><td role=gridcell tabindex=-1>Ada</td><td role=gridcell tabindex=-1>36</td></tr></table>\
        </canvas></div>";
    let routes = fixture_routes().page("/code", Response::html(page));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    f.open("/code").await;
    let read = f.ok(json!({"command": "read"})).await.text();
    for part in [
        "```\nlet a = 1;\nlet b = 2;\n```",
        "```\nselect *\n  from people\n```",
        "```\nselect name\nfrom staff\n```",
        "```\ndef f(x):\n  return x\n```",
        "| Name | Age |",
        "| Ada | 36 |",
    ] {
        assert!(read.contains(part), "{part:?} missing from\n{read}");
    }
    // The field Monaco takes keys through is not read as a second copy.
    assert!(!read.contains("[def f(x):]"), "{read}");
    f.close().await;
}
