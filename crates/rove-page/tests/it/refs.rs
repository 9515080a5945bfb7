//! Refs that never lie: a gone element is REF_NOT_FOUND, never another one.

use crate::support;

use std::time::Duration;

use rove_errors::{Classify, ErrorCode};
use rove_page::{Mode, PageError, PageModel, Ref, View, ViewOptions};
use support::{Env, find_ref, on_element};

const PAGE: &str = r#"<!doctype html><title>Rerender</title>
<div id="app"><button id="b1">Save</button><p id="status">Loading</p><button id="other">Other</button></div>
<script>
window.rerender = () => { const old = document.getElementById('b1'); const b = document.createElement('button'); b.id = 'b2'; b.textContent = 'Save'; old.replaceWith(b); };
</script>"#;

async fn open_html(env: &Env, html: &str) -> PageModel {
    let tab = env.tab().await;
    let url = format!("data:text/html,{}", urlencode(html));
    tab.goto(&url, Duration::from_secs(10)).await.expect("load");
    PageModel::new(tab)
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn expect_not_found(result: Result<impl std::fmt::Debug, PageError>, r: Ref) -> String {
    match result {
        Err(PageError::RefNotFound {
            reference,
            fresh_view,
            ..
        }) => {
            assert_eq!(reference, r);
            let err_code = ErrorCode::RefNotFound;
            assert_eq!(err_code.as_str(), "REF_NOT_FOUND");
            fresh_view.expect("REF_NOT_FOUND carries a fresh view")
        }
        other => panic!("expected REF_NOT_FOUND for {r}, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rerendered_button_gets_a_new_ref_and_the_old_one_is_not_found() {
    let env = Env::start().await;
    let mut model = open_html(&env, PAGE).await;
    model.view(&ViewOptions::default()).await.expect("view");
    let old = find_ref(&mut model, "Save", Some("button")).await;
    assert_eq!(on_element(&mut model, old, "return this.id;").await, "b1");

    model
        .tab()
        .evaluate("window.rerender()")
        .await
        .expect("rerender");
    let view = model
        .view(&ViewOptions::default())
        .await
        .expect("view after");
    let new = find_ref(&mut model, "Save", Some("button")).await;
    assert_ne!(new, old, "a new element must get a new ref");
    assert!(
        view.text.contains(&format!("{new} button \"Save\"")),
        "{}",
        view.text
    );
    assert!(
        !view.text.contains(&format!("{old} ")),
        "the old ref is still shown:\n{}",
        view.text
    );
    assert_eq!(on_element(&mut model, new, "return this.id;").await, "b2");

    let err = model.element(old).await;
    let fresh = expect_not_found(err, old);
    assert!(fresh.contains(&format!("{new} button \"Save\"")), "{fresh}");
    let err = model.view(&ViewOptions::mode(Mode::Scope(old))).await;
    expect_not_found(err, old);
    // The other button kept its ref through all this.
    let other = find_ref(&mut model, "Other", Some("button")).await;
    assert_eq!(
        on_element(&mut model, other, "return this.id;").await,
        "other"
    );
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_navigation_every_old_ref_is_not_found() {
    let env = Env::start().await;
    let mut model = env.open("forms.html").await;
    let before = model.view(&ViewOptions::default()).await.expect("view");
    let refs = support::named_refs(&before.text);
    assert!(refs.len() > 10, "{}", before.text);

    model
        .tab()
        .goto(&env.main.url("/tables.html"), Duration::from_secs(10))
        .await
        .expect("navigate");
    let after = model
        .view(&ViewOptions::default())
        .await
        .expect("view after");
    for (r, name) in &refs {
        let err = model.element(*r).await;
        assert!(
            matches!(err, Err(PageError::RefNotFound { .. })),
            "{r} ({name}) still resolves after navigation: {err:?}"
        );
        assert!(
            !after.text.contains(&format!("{r} ")),
            "{r} reused after navigation:\n{}",
            after.text
        );
    }
    // New refs continue after the old ones; no number is given twice.
    let max_old = refs.iter().map(|(r, _)| r.0).max().unwrap_or(0);
    for (r, _) in support::named_refs(&after.text) {
        assert!(r.0 > max_old, "{r} reuses a number from the previous page");
    }
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_ref_is_not_found_and_says_so() {
    let env = Env::start().await;
    let mut model = env.open("lists.html").await;
    model.view(&ViewOptions::default()).await.expect("view");
    let err = model.element(Ref(999)).await.expect_err("never handed out");
    assert_eq!(err.code(), ErrorCode::RefNotFound);
    assert!(err.to_string().contains("no such ref"), "{err}");
    env.close().await;
}

/// Sets the status paragraph's text and returns the diff after it.
async fn set_status(model: &mut PageModel, text: &str) -> View {
    model
        .tab()
        .evaluate(&format!(
            "document.getElementById('status').textContent = {}",
            serde_json::json!(text)
        ))
        .await
        .expect("set the status");
    model
        .view(&ViewOptions::mode(Mode::Diff))
        .await
        .expect("diff")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diff_after_one_text_change_names_that_element_and_nothing_else() {
    let env = Env::start().await;
    let mut model = open_html(&env, PAGE).await;
    model.view(&ViewOptions::default()).await.expect("baseline");
    let diff = set_status(&mut model, "Done").await;
    assert_eq!(diff.mode, Mode::Diff, "{}", diff.text);
    let changes: Vec<&str> = diff.text.lines().collect();
    assert_eq!(
        changes.len(),
        1,
        "exactly one change expected:\n{}",
        diff.text
    );
    let line = changes[0];
    assert!(
        line.starts_with("~ e") && line.contains("Done") && !line.contains("Loading"),
        "the line says what the element reads now, not what it read: {line}"
    );
    let named: Ref = line[2..]
        .split_whitespace()
        .next()
        .and_then(|r| r.parse().ok())
        .expect("a ref");
    assert_eq!(
        on_element(&mut model, named, "return this.id;").await,
        "status"
    );

    // Nothing changed since: the diff says so.
    let again = model
        .view(&ViewOptions::mode(Mode::Diff))
        .await
        .expect("diff again");
    assert!(again.text.contains("no changes"), "{}", again.text);

    // One word of a long sentence: the diff shows that word with one word of
    // context, never the sentence again.
    set_status(
        &mut model,
        "Enter the username alan and the password KPnMy into the text fields",
    )
    .await;
    let diff = set_status(
        &mut model,
        "Enter the username bob and the password KPnMy into the text fields",
    )
    .await;
    let line = diff.text.trim();
    assert!(line.starts_with(&format!("~ {named} text ")), "{line}");
    assert!(line.ends_with("…username bob…"), "{line}");
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diff_larger_than_most_of_the_page_is_sent_as_a_full_view() {
    let env = Env::start().await;
    let mut model = env.open("lists.html").await;
    model.view(&ViewOptions::default()).await.expect("baseline");
    model
        .tab()
        .evaluate("document.body.innerHTML = '<h1>Brand new</h1><p>Everything changed.</p><button>Go</button>'")
        .await
        .expect("replace");
    let view = model
        .view(&ViewOptions::mode(Mode::Diff))
        .await
        .expect("diff");
    assert_eq!(view.mode, Mode::Full, "{}", view.text);
    assert!(view.text.starts_with("(the diff has"), "{}", view.text);
    assert!(view.text.contains("button \"Go\""), "{}", view.text);
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_javascript_dialog_is_reported_instead_of_the_tree() {
    let env = Env::start().await;
    let mut model = env.open("lists.html").await;
    model.view(&ViewOptions::default()).await.expect("view");
    // The alert blocks the page; evaluate it without waiting for an answer.
    let tab = model.tab().clone();
    let blocked = tokio::spawn(async move { tab.evaluate("alert('Saved!')").await });
    let watch = model.tab().watch().await.expect("watch");
    watch
        .wait_for_dialog(Duration::from_secs(5))
        .await
        .expect("the dialog was reported");
    let view = model
        .view(&ViewOptions::default())
        .await
        .expect("view with dialog");
    assert!(
        view.text
            .contains("alert dialog blocks the page: \"Saved!\""),
        "{}",
        view.text
    );
    model
        .tab()
        .send(&rove_cdp::protocol::page::HandleJavaScriptDialog {
            accept: true,
            prompt_text: None,
        })
        .await
        .expect("answer");
    blocked.await.expect("task").expect("alert returned");
    // The script's answer and the dialog's closing event come to rove by
    // different ways; the view after it reads the tab's watch, so wait
    // until the watch has seen the dialog go.
    let mut changes = watch.changes();
    tokio::time::timeout(
        Duration::from_secs(5),
        changes.wait_for(|_| watch.dialog().is_none()),
    )
    .await
    .expect("the dialog's closing was seen")
    .expect("the watch is alive");
    let view = model
        .view(&ViewOptions::default())
        .await
        .expect("view after");
    assert!(view.text.contains("h2 \"Shopping list\""), "{}", view.text);
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_list_the_sessions_tabs_and_diffs_report_new_ones() {
    let env = Env::start().await;
    let context = env.browser.new_context().await.expect("context");
    let first = context.new_tab().await.expect("first tab");
    first
        .goto(&env.main.url("/lists.html"), Duration::from_secs(10))
        .await
        .expect("load");
    let mut model = PageModel::in_context(first.clone(), context.clone());
    let alone = model.view(&ViewOptions::default()).await.expect("view");
    assert!(
        !alone.text.contains("tabs:"),
        "one tab needs no tabs line:\n{}",
        alone.text
    );

    let second = context.new_tab().await.expect("second tab");
    second
        .goto(&env.main.url("/forms.html"), Duration::from_secs(10))
        .await
        .expect("load");
    let diff = model
        .view(&ViewOptions::mode(Mode::Diff))
        .await
        .expect("diff");
    assert!(
        diff.text.contains("tabs: t1* Recipes, t2 Sign up"),
        "{}",
        diff.text
    );
    assert!(!diff.text.contains("no changes"), "{}", diff.text);
    let full = model.view(&ViewOptions::default()).await.expect("full");
    assert!(
        full.text
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("tabs: t1*")),
        "{}",
        full.text
    );
    env.close().await;
}
