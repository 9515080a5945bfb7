//! `fill` on real code and rich-text editors (CodeMirror 5 and 6, Monaco,
//! ProseMirror, a plain contenteditable), pinned by
//! scripts/editors/package-lock.json and served on 127.0.0.1: the whole
//! content is replaced (never `<new><old>`), checked on the editor's own
//! state, and an editor that changes the text gives an error saying what it
//! holds.

use std::path::PathBuf;
use std::time::Duration;

use rove_errors::{ActionSent, Classify, ErrorCode};
use rove_input::{InputError, fill};
use rove_localserver::{LocalServer, Response, Routes};
use rove_page::{PageModel, ViewOptions};
use serde_json::Value;

use crate::support::{self, find_exact};

fn editors_dir() -> PathBuf {
    let dir = std::env::var_os("ROVE_EDITORS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../target/editors/node_modules"
            ))
        });
    assert!(
        dir.join("codemirror5/lib/codemirror.js").is_file(),
        "the editors are not in {}: run scripts/fetch-editors.sh (scripts/test.sh does)",
        dir.display()
    );
    dir
}

pub(crate) struct EditorPage {
    pub(crate) browser: rove_browser::Browser,
    pub(crate) _server: LocalServer,
    pub(crate) model: PageModel,
}

/// Serves the fixture `name` with the editors (and widgets) beside it, opens it and waits
/// until its script says the editors are ready.
pub(crate) async fn open(name: &str) -> EditorPage {
    let path = format!("{}/tests/it/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let html = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let server = LocalServer::start(
        Routes::new()
            .folder("/node_modules", editors_dir())
            .page(&format!("/{name}"), Response::html(html)),
    )
    .await
    .expect("server");
    let browser = support::launch().await;
    let mut model = support::load(&browser, &server.url(&format!("/{name}"))).await;
    let mut ready = false;
    for _ in 0..100 {
        if eval(&model, "window.ready === true").await == Value::Bool(true) {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready, "{name}: the editor did not load");
    model.view(&ViewOptions::default()).await.expect("view");
    EditorPage {
        browser,
        _server: server,
        model,
    }
}

pub(crate) async fn eval(model: &PageModel, js: &str) -> Value {
    model.tab().evaluate(js).await.expect("evaluate")
}

const SQL: &str = "select id, name\nfrom facts\nwhere id > 2";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codemirror_5_is_replaced_not_prepended_to() {
    let EditorPage {
        browser,
        _server,
        mut model,
    } = open("editor-cm5.html").await;
    let sql = find_exact(&mut model, "SQL", "textbox").await;
    let outcome = fill(&mut model, sql, SQL).await.expect("fill");
    assert_eq!(eval(&model, "sql.getValue()").await, SQL);
    assert_eq!(outcome.value, SQL);
    // Again, over the new text: still replaced.
    fill(&mut model, sql, "select 1").await.expect("fill again");
    assert_eq!(eval(&model, "sql.getValue()").await, "select 1");

    // An editor that changes what it is given: the error says what it holds.
    let shout = find_exact(&mut model, "Shouting SQL", "textbox").await;
    let err = fill(&mut model, shout, "select 2")
        .await
        .expect_err("changed");
    assert_eq!(err.code(), ErrorCode::NotActionable);
    assert_eq!(err.action_sent(), ActionSent::Sent);
    match &err {
        InputError::Ignored { holds, .. } => assert_eq!(holds, "SELECT 2"),
        other => panic!("expected Ignored, got {other:?}"),
    }
    assert_eq!(eval(&model, "shout.getValue()").await, "SELECT 2");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_into_codemirror_5_is_checked_on_what_the_editor_shows() {
    // Issue 43, item 5: the keys reach CodeMirror's hidden textarea, which
    // it empties as it takes them; the text is in the editor, not in the
    // textarea, and typing must not say it was ignored.
    let EditorPage {
        browser,
        _server,
        mut model,
    } = open("editor-cm5.html").await;
    // The editor's caret is where it was left (the start of a fresh
    // editor), not at the end of the text.
    let sql = find_exact(&mut model, "SQL", "textbox").await;
    let outcome = rove_input::type_text(
        &mut model,
        sql,
        "/* a */ ",
        &rove_input::TypeOptions::default(),
    )
    .await
    .expect("typed, not ignored");
    let holds = eval(&model, "sql.getValue()").await;
    assert_eq!(holds, "/* a */ select * from facts");
    assert_eq!(outcome.value, holds);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codemirror_6_is_replaced() {
    let EditorPage {
        browser,
        _server,
        mut model,
    } = open("editor-cm6.html").await;
    let query = find_exact(&mut model, "Query", "textbox").await;
    let outcome = fill(&mut model, query, SQL).await.expect("fill");
    assert_eq!(eval(&model, "view.state.doc.toString()").await, SQL);
    assert_eq!(outcome.value, SQL);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn monaco_is_replaced() {
    let EditorPage {
        browser,
        _server,
        mut model,
    } = open("editor-monaco.html").await;
    let query = find_exact(&mut model, "Query", "textbox").await;
    let outcome = fill(&mut model, query, SQL).await.expect("fill");
    assert_eq!(eval(&model, "editor.getValue()").await, SQL);
    assert_eq!(outcome.value, SQL);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_text_in_a_virtualised_editor_is_checked_on_the_lines_it_draws() {
    let text: Vec<String> = (1..=400).map(|i| format!("SELECT {i};")).collect();
    let text = text.join("\n");
    for (page, state) in [
        ("editor-monaco.html", "editor.getValue()"),
        ("editor-cm6.html", "view.state.doc.toString()"),
    ] {
        let EditorPage {
            browser,
            _server,
            mut model,
        } = open(page).await;
        let query = find_exact(&mut model, "Query", "textbox").await;
        let outcome = fill(&mut model, query, &text).await.expect(page);
        assert_eq!(eval(&model, state).await, text.as_str(), "{page}");
        let lines = outcome.shown_lines.expect("only some lines are drawn");
        assert_eq!(lines.of, 400, "{page}");
        assert!(
            lines.first > 1 && lines.last <= 400 && lines.last - lines.first < 200,
            "{page}: {lines:?}"
        );
        browser.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prosemirror_and_a_plain_contenteditable_are_replaced() {
    let EditorPage {
        browser,
        _server,
        mut model,
    } = open("editor-prosemirror.html").await;
    let story = find_exact(&mut model, "Story", "textbox").await;
    let text = "A new beginning.\nAnd a new end.";
    let outcome = fill(&mut model, story, text).await.expect("fill");
    assert_eq!(
        eval(
            &model,
            "pm.state.doc.textBetween(0, pm.state.doc.content.size, '\\n')"
        )
        .await,
        text
    );
    assert_eq!(outcome.value, text);

    let plain = find_exact(&mut model, "Plain notes", "textbox").await;
    fill(&mut model, plain, "New notes").await.expect("fill");
    assert_eq!(
        eval(&model, "document.getElementById('plain').innerText").await,
        "New notes"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_editor_rove_has_no_rules_for_is_replaced_and_read_from_what_it_shows() {
    let EditorPage {
        browser,
        _server,
        mut model,
    } = open("editor-ace.html").await;
    let query = find_exact(&mut model, "Query", "textbox").await;
    let outcome = fill(&mut model, query, SQL).await.expect("fill");
    // Replaced, not prepended to; and the answer is what the editor shows,
    // not its emptied textarea.
    assert_eq!(eval(&model, "ed.getValue()").await, SQL);
    assert_eq!(outcome.value, SQL);
    fill(&mut model, query, "select 1")
        .await
        .expect("fill again");
    assert_eq!(eval(&model, "ed.getValue()").await, "select 1");
    browser.close().await;
}
