//! Notebook 7 through rove: its file list, whose rows Notebook reuses for
//! other files as the listing changes. A folder made from the New menu and
//! renamed inline is checked on disk; a ref handed out for one file's row
//! never names another file's afterwards.

use std::time::Duration;

use crate::real_apps::apps::{self, JUPYTER_TOKEN, eventually};
use crate::real_apps::driver::Rove;

#[tokio::test]
async fn notebook7_makes_and_renames_a_folder_and_refs_never_name_another_row() {
    let app = apps::notebook();
    std::fs::create_dir_all(&app.root).expect("the served folder");
    std::fs::write(
        app.root.join("q3_report.ipynb"),
        r#"{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#,
    )
    .expect("a notebook");
    std::fs::write(app.root.join("notes.md"), "notes\n").expect("a file");
    let mut rove = Rove::new("notebook7");

    rove.task("notebook 7: open the file list");
    rove.run(&["open", &format!("{}tree?token={JUPYTER_TOKEN}", app.url)])
        .await;
    rove.until("the file list", |t| {
        t.contains("checkbox \"Select file \\\"q3_report.ipynb\\\"\"")
    })
    .await;
    let report = rove.pick("checkbox", "Select file \"q3_report.ipynb\"");

    rove.task("notebook 7: make a folder from the New menu and name it");
    let new = rove.pick("menuitem", "New");
    rove.run(&["click", &new]).await;
    let folder = rove.pick("menuitem", "New Folder");
    rove.run(&["click", &folder]).await;
    // The server makes the folder: the click's answer holds its name
    // field, or (a server slower than the settle's wait for the requests
    // the click sent) says the page still waits for its server, and the
    // field comes then. Never an answer that passes for the whole of it.
    let has_field = |text: &str| {
        crate::real_apps::driver::items(text)
            .iter()
            .any(|i| i.role == "textbox")
    };
    if !has_field(&rove.last) {
        assert!(
            rove.last.contains("still waiting for its server's answer")
                || rove.last.contains("still receiving its server's answer"),
            "the click's answer shows the new folder's name field or says the server has not answered:\n{}",
            rove.last
        );
        rove.until("the new folder's name field", has_field).await;
    }
    let name = crate::real_apps::driver::items(&rove.last)
        .into_iter()
        .find(|i| i.role == "textbox")
        .map(|i| i.reference)
        .unwrap_or_else(|| panic!("the new folder's name field:\n{}", rove.last));
    rove.run(&["fill", &name, "archive", "--submit"]).await;
    eventually(
        "the folder is named archive on disk",
        Duration::from_secs(30),
        || {
            if app.root.join("archive").is_dir() && !app.root.join("Untitled Folder").exists() {
                Ok(())
            } else {
                Err(format!(
                    "{:?}",
                    std::fs::read_dir(&app.root).map(|d| d.count())
                ))
            }
        },
    );

    rove.task("notebook 7: the row refs handed out before still name what they named");
    let answer = rove.try_run(&["snapshot"]).await;
    let view = answer.stdout;
    let line = view
        .lines()
        .find(|l| l.contains(&format!("{report} ")))
        .map(str::to_owned);
    match line {
        // Still on the page: still the same file's checkbox.
        Some(line) => assert!(
            line.contains("q3_report.ipynb"),
            "{report} now names another row: {line}"
        ),
        // Or gone, and then a stale ref, never a click on another row.
        None => {
            let stale = rove.try_run(&["click", &report]).await;
            assert!(
                !stale.ok() && stale.stderr.contains("REF_NOT_FOUND"),
                "{report} is gone from the view, so it is stale: {stale:?}"
            );
        }
    }
    assert!(
        !std::fs::read_dir(&app.root)
            .expect("the served folder")
            .flatten()
            .any(|e| e.file_name() == "Untitled Folder"),
        "nothing else was made"
    );
}
