//! Streamlit through rove: the app `streamlit_app.py` (a sidebar of radios,
//! a text input, a selectbox, a slider, a button whose result the server
//! computes, tabs with a data editor). Streamlit answers every input over
//! its WebSocket, so each answer of rove must hold what the server sent
//! back, not the page before it. Every end state is read from what the
//! app's server holds (the JSON it writes after each run).

use std::time::Duration;

use serde_json::Value;

use crate::real_apps::apps::{self, eventually};
use crate::real_apps::driver::{Rove, items};

/// Waits until the server's state for `run` has `key` equal to `want`.
fn server_has(run: &str, key: &str, want: Value) -> Value {
    apps::streamlit().holds(run, key, want)
}

/// The ref of the first element of `role` in the last answer whose name
/// starts with `prefix` (Streamlit names its slider twice: "Quantity
/// Quantity").
fn first(rove: &Rove, role: &str, prefix: &str) -> String {
    items(&rove.last)
        .into_iter()
        .find(|i| i.role == role && i.name.as_deref().is_some_and(|n| n.starts_with(prefix)))
        .map(|i| i.reference)
        .unwrap_or_else(|| panic!("no {role} {prefix:?} in rove's answer:\n{}", rove.last))
}

/// Opens the app for `run` and waits for its server's first run: the page
/// is the app, not the "Running…" shell.
async fn open(rove: &mut Rove, run: &str) {
    let app = apps::streamlit();
    rove.task("streamlit: open the app");
    rove.run(&["open", &app.run_url(run)]).await;
    let built = |text: &str| {
        text.contains("textbox \"Customer name\"") && text.contains("button \"Compute total\"")
    };
    // A cold server may take longer than open waits (importing pandas for
    // its first run): then, and only then, the answer says so: rove's own
    // line, or the app's running indicator in the view when its socket
    // opened only after open's wait had ended (the app had then shown no
    // sign of working yet).
    if !built(&rove.last) {
        assert!(
            rove.last.contains("the page is still") || rove.last.contains("img \"Running...\""),
            "open answers with the app the server built, or says it is still coming:\n{}",
            rove.last
        );
        rove.until("the app built by its server", built).await;
    }
    server_has(run, "product", Value::from("Apples"));
}

#[tokio::test]
async fn streamlit_text_input_selectbox_a_total_the_server_computes_and_tabs() {
    let mut rove = Rove::new("streamlit_form");
    open(&mut rove, "form").await;

    // The widgets keep their refs across the app's reruns.
    let name = rove.pick("textbox", "Customer name");
    let product = first(&rove, "combobox", "Product");
    let compute = rove.pick("button", "Compute total");

    rove.task("streamlit: type a name into the text input");
    rove.run(&["fill", &name, "Ada", "--submit"]).await;
    server_has("form", "name", Value::from("Ada"));

    rove.task("streamlit: choose a product in the selectbox");
    rove.run(&["select", &product, "Pears"]).await;
    assert!(rove.last.contains("\"Pears\" selected"), "{}", rove.last);
    server_has("form", "product", Value::from("Pears"));

    rove.task("streamlit: press the button; the server computes the total");
    rove.run(&["click", &compute]).await;
    // The click's own answer holds what the server sent back over its
    // WebSocket (4 EUR × 10).
    assert!(
        rove.last.contains("Total: 40 EUR"),
        "the click waits for the server's answer:\n{}",
        rove.last
    );
    assert!(
        !rove.last.contains("nothing visible changed"),
        "{}",
        rove.last
    );
    server_has("form", "total", Value::from(40));

    rove.task("streamlit: open the Notes tab");
    let notes = rove.pick("tab", "Notes");
    rove.run(&["click", &notes]).await;
    assert!(
        rove.last.contains("Deliver before noon"),
        "the tab shows its content:\n{}",
        rove.last
    );
}

/// Needs rove-input's slider fill (a value the app receives when the
/// change ends) and its actionability check that takes a control inside
/// its own label for no cover (issue 23, items 1 and 3).
#[tokio::test]
async fn streamlit_slider_and_sidebar_radio_reach_the_server() {
    let mut rove = Rove::new("streamlit_controls");
    open(&mut rove, "controls").await;

    let quantity = first(&rove, "slider", "Quantity");
    let east = rove.pick("radio", "East");

    rove.task("streamlit: set the slider to 70");
    rove.run(&["fill", &quantity, "70"]).await;
    server_has("controls", "quantity", Value::from(70));

    rove.task("streamlit: choose a region in the sidebar");
    rove.run(&["click", &east]).await;
    server_has("controls", "region", Value::from("East"));
}

/// Needs the view of a canvas grid's accessible fallback (issue 23, item
/// 4): the data editor's cells, and a way to edit one. Glide's grid takes a
/// focus coming from outside it as a move to its first cell (a moment
/// later, when its debounced accessible table is drawn again): rove enters
/// the canvas first, as tabbing would, so the cell it clicks or presses
/// keys on is the one the grid selects.
#[tokio::test]
async fn streamlit_data_editor_cell_edit_reaches_the_server() {
    let mut rove = Rove::new("streamlit_editor");
    open(&mut rove, "editor").await;

    rove.task("streamlit: change a count in the data editor");
    // The grid's component draws after the form: its cells may come later.
    let cell = rove.find_exact("gridcell", "2").await;
    // The grid is drawn on a canvas: its cells are the canvas's fallback
    // content, with no box to click. A click activates the cell as a
    // screen reader does; the grid must then hold that cell, not its first.
    rove.run(&["click", &cell]).await;
    rove.until("the grid selects the cell clicked", |view| {
        view.contains("[selected focused] 2 |")
    })
    .await;
    assert!(
        !rove.last.contains("[selected readonly focused] 0"),
        "the grid's first cell is not selected:\n{}",
        rove.last
    );
    // Typing on the selected cell opens the grid's editor with the key: in
    // the press's answer, or a moment later on a loaded machine (the
    // editor's code is loaded the first time, then drawn).
    rove.run(&["press", "5", "--ref", &cell]).await;
    rove.until("the grid's editor holds the key typed", |view| {
        view.contains("textbox [focused]: 5")
    })
    .await;
    let committed = rove.run(&["press", "Enter"]).await;
    eventually(
        "the Streamlit server holds the edited count",
        Duration::from_secs(30),
        || {
            let state = apps::streamlit().state("editor")?;
            match state["orders"][1]["count"].as_i64() {
                Some(5) => Ok(()),
                _ => Err(format!("{state}; rove's answer to Enter:\n{committed}")),
            }
        },
    );
}
