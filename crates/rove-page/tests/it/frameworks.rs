//! What app frameworks' pages do to a view and to `find`, reduced to one
//! fixture page (apps.html): a Datasette foreign-key cell (a link and the
//! id beside it), names with no-break spaces, a Notebook-7 toolbar of
//! custom elements whose shadow roots hold the buttons, code blocks and
//! editor lines, a Glide-Data-Grid-shaped canvas whose fallback content is
//! the grid, and a diff that removes a header's button and a status
//! elsewhere.

use crate::support;

use rove_page::{FindQuery, Mode, PageModel, ViewOptions};
use support::Env;

async fn full(model: &mut PageModel) -> String {
    model
        .view(&ViewOptions::mode(Mode::Full))
        .await
        .expect("full view")
        .text
}

async fn find(model: &mut PageModel, text: &str) -> String {
    model
        .find(&FindQuery {
            text: text.into(),
            ..FindQuery::default()
        })
        .await
        .expect("find")
        .text
}

/// The lines of `view` from the one containing `from`, as many as `count`,
/// without their indent.
fn lines_from(view: &str, from: &str, count: usize) -> Vec<String> {
    view.lines()
        .skip_while(|l| !l.contains(from))
        .take(count)
        .map(|l| l.trim().to_owned())
        .collect()
}

/// `e12 button "Run"` without its ref.
/// `line` without its own ref, every other ref written `eN`.
fn without_refs(line: &str) -> String {
    unref(line)
        .split(' ')
        .map(|w| {
            let is_ref =
                w.len() > 1 && w.starts_with('e') && w[1..].bytes().all(|b| b.is_ascii_digit());
            if is_ref { "eN" } else { w }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn unref(line: &str) -> &str {
    line.split_once(' ').map_or(line, |(_, rest)| rest)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_cell_keeps_the_text_beside_its_link() {
    let env = Env::start().await;
    let mut model = env.open("apps.html").await;
    let view = full(&mut model).await;
    // Datasette's foreign key: the link and the id after it, both shown.
    let row = lines_from(&view, "| Ada |", 1).concat();
    assert!(row.ends_with("link \"Engineering\" 1 |"), "{view}");
    // A cell of plain text is its name alone, with no line for its text.
    assert!(view.contains("| Grace | Research |"), "{view}");
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn find_matches_a_no_break_space_with_a_plain_one() {
    let env = Env::start().await;
    let mut model = env.open("apps.html").await;
    let saved = find(&mut model, "Save draft").await;
    assert!(saved.contains(": 1 match\n"), "{saved}");
    assert!(saved.contains("button \"Save"), "{saved}");
    let sorted = find(&mut model, "id ▼").await;
    assert!(sorted.contains("columnheader \"id"), "{sorted}");
    // Thin and ideographic spaces too; and the other way round (a query
    // with a no-break space finds the plain one).
    let thin = find(&mut model, "thin space and ideographic space").await;
    assert!(thin.contains(": 1 match\n"), "{thin}");
    let other = find(&mut model, "Grace\u{a0}").await;
    assert!(other.contains("Grace"), "{other}");
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pointer_wrapper_around_a_shadow_roots_button_is_that_button() {
    let env = Env::start().await;
    let mut model = env.open("apps.html").await;
    let view = full(&mut model).await;
    let light: Vec<String> = lines_from(&view, "toolbar \"Light\"", 3);
    let light: Vec<&str> = light.iter().map(|l| unref(l)).collect();
    assert_eq!(
        light,
        ["toolbar \"Light\"", "button \"Cut\"", "button \"Copy\""],
        "{view}"
    );
    // The same shape with each button in a custom element's shadow root
    // (and a click listener on the host, as FAST's button has): one line
    // per button, as in the light DOM. An icon button takes the name its
    // host's title gives it.
    let notebook: Vec<String> = lines_from(&view, "toolbar \"Notebook\"", 5);
    let notebook: Vec<&str> = notebook.iter().map(|l| unref(l)).collect();
    assert_eq!(
        notebook,
        [
            "toolbar \"Notebook\"",
            "button \"Run\"",
            "button \"Interrupt the kernel\"",
            "button \"Restart the kernel\"",
            "h2 \"Code\"",
        ],
        "{view}"
    );
    let found = find(&mut model, "Interrupt the kernel").await;
    assert!(found.contains("button \"Interrupt the kernel\""), "{found}");
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_blocks_and_editor_lines_keep_their_line_breaks() {
    let env = Env::start().await;
    let mut model = env.open("apps.html").await;
    let view = full(&mut model).await;
    // Code as written, after its mark: indentation and quotes are the
    // code's, never rove's quoting.
    assert_eq!(
        lines_from(&view, "fn main", 4),
        [
            "│ fn main() {",
            "│     println!(\"hi\");",
            "│     \"service\": \"billing\",",
            "│ }"
        ],
        "{view}"
    );
    // A CodeMirror 6 editor (an editing host of line elements): its lines
    // under its own line, not run together as one value.
    let query = lines_from(&view, "textbox \"Query\"", 4);
    assert_eq!(unref(&query[0]), "textbox \"Query\"", "{view}");
    assert_eq!(
        query[1..],
        ["│ select *", "│   from people", "│ where age > 3"],
        "{view}"
    );
    // CodeMirror 5 (a <pre> per line beside its hidden textarea).
    assert_eq!(
        lines_from(&view, "select name", 2),
        ["│ select name", "│ from staff"],
        "{view}"
    );
    // Monaco: its lines are drawn in an aria-hidden layer, in the order of
    // their place; they are the text of the field that takes the keys.
    let monaco = lines_from(&view, "textbox \"Editor content\"", 3);
    assert_eq!(unref(&monaco[0]), "textbox \"Editor content\"", "{view}");
    assert_eq!(monaco[1..], ["│ def f(x):", "│   return x"], "{view}");
    // The interactive view has no text lines: the editor keeps its value.
    let interactive = model
        .view(&ViewOptions::mode(Mode::Interactive))
        .await
        .expect("interactive view")
        .text;
    assert!(
        interactive.contains("textbox \"Query\": select * from people where age > 3"),
        "{interactive}"
    );
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_canvas_grid_shows_its_fallback_cells() {
    let env = Env::start().await;
    let mut model = env.open("apps.html").await;
    let view = full(&mut model).await;
    let grid = lines_from(&view, "h2 \"Grid\"", 5);
    assert_eq!(unref(&grid[1]), "grid", "{view}");
    // Each cell takes the focus (tabindex -1, as the grid moves it from
    // cell to cell): each carries its ref in its row's line, something
    // to click.
    let rows: Vec<String> = grid[2..].iter().map(|l| without_refs(l)).collect();
    assert_eq!(
        rows,
        [
            "| eN Name | eN Age |",
            "| eN Ada | eN 36 |",
            "| eN Grace | eN 45 |"
        ],
        "{view}"
    );
    let found = find(&mut model, "Grace").await;
    assert!(found.contains("gridcell \"Grace\""), "{found}");
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diff_counts_inside_a_removed_button_only_what_was_inside_it() {
    let env = Env::start().await;
    let mut model = env.open("apps.html").await;
    let view = full(&mut model).await;
    let stop = lines_from(&view, "button \"Stop\"", 1).concat();
    let status = lines_from(&view, "status \"Running\"", 1).concat();
    assert!(!stop.is_empty() && !status.is_empty(), "{view}");
    model
        .tab()
        .evaluate("window.change()")
        .await
        .expect("change()");
    let diff = model
        .view(&ViewOptions::mode(Mode::Diff))
        .await
        .expect("diff")
        .text;
    assert!(diff.lines().any(|l| l == format!("- {stop}")), "{diff}");
    assert!(
        diff.lines()
            .any(|l| l.starts_with(&format!("- {status} (and "))),
        "{diff}"
    );
    env.close().await;
}
