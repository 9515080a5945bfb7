//! Canvas grids and code editors through the commands: `read` gives code
//! by its lines and a canvas by its fallback content, and a canvas grid's
//! cell (which has no box) is reached through the keyboard, or the error
//! says why the pointer cannot reach it.

use crate::support;

use rove_commands::SessionConfig;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, code, fixture_routes};

/// A grid drawn on a canvas, its cells in the canvas's fallback content as
/// Glide Data Grid keeps them: focusable cells (tabindex -1) whose focus
/// selects the cell, keys handled where they bubble to, and a header cell
/// without a tabindex.
const GRID: &str = "<!doctype html><title>Grid</title>\
    <canvas id=grid tabindex=0 width=300 height=80>\
      <table role=grid><tr role=row><th role=columnheader>Name</th><th role=columnheader>Age</th></tr>\
      <tr role=row><td role=gridcell tabindex=-1 id=c00>Ada</td><td role=gridcell tabindex=-1 id=c10>36</td></tr></table>\
    </canvas><p id=picked>none</p>\
    <script>\
      for (const td of document.querySelectorAll('td')) td.addEventListener('focus', () => { picked.textContent = 'selected ' + td.id; });\
      grid.addEventListener('keydown', (e) => { if (e.key === 'Enter') picked.textContent += ', editing'; });\
    </script>";

#[tokio::test]
async fn a_canvas_grid_cell_is_reached_by_the_keyboard_and_a_click_says_why_not() {
    let routes = fixture_routes().page("/grid", Response::html(GRID));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    let view = f.open("/grid").await.view.expect("a view").text;
    assert!(view.contains("| Ada | 36 |"), "{view}");
    let cell = f.find("Ada", "gridcell").await;
    // No box: the click fails at once, saying what will work.
    let started = std::time::Instant::now();
    let e = f.fails(json!({"command": "click", "ref": cell})).await;
    assert_eq!(code(&e), "NOT_ACTIONABLE", "{e}");
    assert!(e.to_string().contains("canvas's fallback content"), "{e}");
    assert!(e.to_string().contains("press a key with its ref"), "{e}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "not waited on: {:?}",
        started.elapsed()
    );
    assert_eq!(f.eval("picked.textContent").await, "none");
    // The keyboard reaches it: focused (the grid selects the cell), then
    // the key.
    f.ok(json!({"command": "press", "keys": "Enter", "ref": cell}))
        .await;
    assert_eq!(f.eval("picked.textContent").await, "selected c00, editing");
    // A header cell takes no focus: nothing can reach it, and the error
    // says so.
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
