//! JupyterLab through rove: a notebook from the launcher, a cell run and its
//! output read, the notebook renamed through the File menu twice and
//! through the file browser's context menu, then found in the file browser.
//! Every end state is read from the notebook files on disk.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::real_apps::apps::{self, eventually};
use crate::real_apps::driver::{Rove, items};

/// The notebook at `path`, once it parses.
fn notebook(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A cell's source as one string (nbformat stores a string or lines).
fn joined(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// The notebook whose tab is selected in a view or diff
/// (`e50 tab "Untitled.ipynb" [selected]`).
fn selected_notebook(view: &str) -> Option<String> {
    view.lines()
        .filter(|l| l.contains("[selected]"))
        .flat_map(items)
        .find(|i| i.role == "tab" && i.name.as_deref().is_some_and(|n| n.ends_with(".ipynb")))
        .and_then(|i| i.name)
}

/// The first text field in the last answer (a cell's editor, a name field).
fn first_textbox(rove: &Rove, place: &str) -> String {
    items(&rove.last)
        .into_iter()
        .find(|i| i.role == "textbox")
        .map(|i| i.reference)
        .unwrap_or_else(|| panic!("no text field in {place}:\n{}", rove.last))
}

/// Waits until `to` exists and `from` is gone in the server's folder.
fn renamed(root: &Path, from: &str, to: &str) {
    eventually(
        &format!("{from} is renamed {to} on disk"),
        Duration::from_secs(30),
        || {
            let nb = notebook(&root.join(to))?;
            if root.join(from).exists() {
                return Err(format!("{from} is still there"));
            }
            Ok(nb)
        },
    );
}

/// The ref of the text field that holds `value` in the last answer (the
/// name field of a rename: `e177 textbox [focused]: first-name.ipynb`).
fn field_holding(rove: &Rove, value: &str) -> String {
    rove.last
        .lines()
        .filter(|l| l.ends_with(&format!(": {value}")))
        .flat_map(items)
        .find(|i| i.role == "textbox")
        .map(|i| i.reference)
        .unwrap_or_else(|| panic!("no field holding {value:?}:\n{}", rove.last))
}

#[tokio::test]
async fn jupyterlab_runs_a_cell_in_a_new_notebook_then_renames_it_three_times() {
    let jupyter = apps::jupyter();
    let mut rove = Rove::new("jupyter");

    rove.task("jupyterlab: create a notebook from the launcher, run a cell, read its output, save");
    rove.run(&["open", &jupyter.lab_url("run", "")]).await;
    // JupyterLab builds itself for a while after the load event.
    rove.run(&["wait", "--text", "Python 3 (ipykernel)", "60000"])
        .await;
    rove.run(&["snapshot", "-i"]).await;
    let file = rove.pick("menuitem", "File");
    // The launcher's first kernel button is the notebook's (the console's
    // comes after it).
    let notebook_button = rove.pick_prefix("button", "Python 3 (ipykernel)");
    rove.run(&["click", &notebook_button]).await;
    // The notebook opens after a round trip to the server.
    rove.until("the new notebook", |view| {
        selected_notebook(view).is_some()
            && items(view).iter().any(|i| i.role == "textbox")
            && view.contains("Save and create checkpoint")
    })
    .await;
    let name = selected_notebook(&rove.last).unwrap_or_default();
    let cell = first_textbox(&rove, "the new notebook");
    let save = rove.pick_prefix("button", "Save and create checkpoint");
    rove.run(&["type", &cell, "print('answer:', 6 * 7)"]).await;
    rove.run(&["press", "Shift+Enter"]).await;
    // The output: `wait --text` does not see text in JupyterLab's output
    // area (rove's find skips plain text in generic containers; reported),
    // so read the page until the kernel has answered, as a user would.
    rove.until("the cell's output", |view| view.contains("answer: 42"))
        .await;
    rove.run(&["click", &save]).await;
    // The first save of an untitled notebook offers a new name first.
    let keep_name = rove.await_ref("button", "Rename and Save").await;
    rove.run(&["click", &keep_name]).await;

    let path = jupyter.root.join(&name);
    let saved = eventually(
        "the notebook on disk has the output",
        Duration::from_secs(30),
        || {
            let nb = notebook(&path)?;
            let outputs = &nb["cells"][0]["outputs"];
            if outputs.as_array().is_some_and(|o| !o.is_empty()) {
                Ok(nb)
            } else {
                Err(nb["cells"].to_string())
            }
        },
    );
    let first = &saved["cells"][0];
    assert_eq!(first["cell_type"], "code");
    assert_eq!(joined(&first["source"]), "print('answer:', 6 * 7)");
    assert_eq!(first["execution_count"], 1);
    assert_eq!(first["outputs"][0]["name"], "stdout");
    assert_eq!(joined(&first["outputs"][0]["text"]), "answer: 42\n");

    rove.task("jupyterlab: rename the notebook through the File menu, twice");
    for (from, to) in [
        (name.as_str(), "first-name.ipynb"),
        ("first-name.ipynb", "second-name.ipynb"),
    ] {
        rove.run(&["click", &file]).await;
        let rename = rove.await_ref("menuitem", "Rename Notebook").await;
        rove.run(&["click", &rename]).await;
        let field = field_holding(&rove, from);
        let confirm = rove.await_ref("button", "Rename File").await;
        rove.run(&["fill", &field, to]).await;
        rove.run(&["click", &confirm]).await;
        renamed(&jupyter.root, from, to);
        rove.until("the notebook's tab with its new name", |view| {
            selected_notebook(view).as_deref() == Some(to)
        })
        .await;
    }

    rove.task("jupyterlab: rename the notebook through the file browser's context menu, find it");
    let entry = rove.await_ref("button", "second-name.ipynb").await;
    rove.run(&["click", &entry, "--button", "right"]).await;
    let rename = rove.await_ref("menuitem", "Rename").await;
    rove.run(&["click", &rename]).await;
    let field = field_holding(&rove, "second-name.ipynb");
    // Enter on its own: `fill --submit` answers REF_NOT_FOUND here, since
    // fill leaves the field, which commits the name and removes the field
    // before the Enter (reported).
    rove.run(&["fill", &field, "final-name.ipynb"]).await;
    rove.run(&["press", "Enter"]).await;
    renamed(&jupyter.root, "second-name.ipynb", "final-name.ipynb");
    rove.run(&["find", "final-name.ipynb", "--role", "button"])
        .await;
    rove.await_ref("button", "final-name.ipynb").await;

    let nb = notebook(&jupyter.root.join("final-name.ipynb")).expect("the renamed notebook");
    assert_eq!(
        nb["cells"][0], saved["cells"][0],
        "the renamed notebook's cell"
    );
    for gone in [name.as_str(), "first-name.ipynb", "second-name.ipynb"] {
        assert!(!jupyter.root.join(gone).exists(), "{gone} is still on disk");
    }
}
