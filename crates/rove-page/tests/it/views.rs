//! Snapshots of every fixture page in every mode: full, interactive, scoped
//! to one element, and the diff after the page's own `change()`.

use crate::support;

use rove_page::{Mode, ViewOptions};
use support::{Env, find_ref};

/// Takes the four views of `page` and checks each against its snapshot.
async fn all_modes(page: &str, scope_text: &str, scope_role: Option<&str>) {
    let env = Env::start().await;
    let mut model = env.open(page).await;
    let name = page.trim_end_matches(".html");

    let full = model
        .view(&ViewOptions::mode(Mode::Full))
        .await
        .expect("full view");
    insta::assert_snapshot!(format!("{name}_full"), env.redact(&full.text));

    let interactive = model
        .view(&ViewOptions::mode(Mode::Interactive))
        .await
        .expect("interactive view");
    insta::assert_snapshot!(format!("{name}_interactive"), env.redact(&interactive.text));

    let target = find_ref(&mut model, scope_text, scope_role).await;
    let scoped = model
        .view(&ViewOptions::mode(Mode::Scope(target)))
        .await
        .expect("scoped view");
    insta::assert_snapshot!(
        format!("{name}_scope"),
        env.redact(&format!("scope {target}\n{}", scoped.text))
    );

    model
        .tab()
        .evaluate("window.change()")
        .await
        .expect("change()");
    let diff = model
        .view(&ViewOptions::mode(Mode::Diff))
        .await
        .expect("diff view");
    insta::assert_snapshot!(format!("{name}_diff"), env.redact(&diff.text));
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forms() {
    all_modes("forms.html", "Newsletter", Some("group")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables() {
    all_modes("tables.html", "Seats", Some("grid")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nested_lists() {
    all_modes("lists.html", "Sections", Some("navigation")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shadow_dom() {
    all_modes("shadow.html", "Slot card", Some("region")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_elements() {
    all_modes("hidden.html", "Visible heading", Some("heading")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_regions() {
    all_modes("live.html", "Activity", Some("log")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dialogs() {
    all_modes("dialogs.html", "Are you sure?", Some("dialog")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clickables() {
    all_modes("clickables.html", "Teapot", Some("clickable")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn iframes_same_and_cross_origin() {
    all_modes("frames.html", "Other site", Some("frame")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_row_table() {
    all_modes("big-table.html", "Edit 5000", Some("button")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_controls() {
    all_modes("controls.html", "Extras", Some("button")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_runs() {
    all_modes("text-runs.html", "Dictionary", Some("region")).await;
}

/// Inline-block words inside a sentence (a badge, a price) are one phrase
/// to a reader: one text line (issue 43, item 5). Taller inline blocks
/// laid out side by side (cards) keep their own lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inline_block_inside_a_sentence_stays_in_its_line() {
    let env = Env::start().await;
    let mut model = env.open("inline-block.html").await;
    let full = model
        .view(&ViewOptions::mode(Mode::Full))
        .await
        .expect("full view")
        .text;
    assert!(
        full.lines()
            .any(|l| l.trim() == "Only $5 per month, billed yearly"),
        "{full}"
    );
    assert!(
        full.lines().any(|l| l.trim() == "First card")
            && full.lines().any(|l| l.trim() == "Second card"),
        "{full}"
    );
    env.close().await;
}

/// A modal dialog makes the rest of the page inert: the view shows the
/// dialog alone, marked modal, with its controls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_modal_dialog_leaves_the_inert_page_out() {
    let env = Env::start().await;
    let mut model = env.open("controls.html").await;
    model
        .view(&ViewOptions::mode(Mode::Full))
        .await
        .expect("full view");
    model
        .tab()
        .evaluate("window.openModal()")
        .await
        .expect("openModal()");
    let full = model
        .view(&ViewOptions::mode(Mode::Full))
        .await
        .expect("full view");
    insta::assert_snapshot!("controls_modal", env.redact(&full.text));
    env.close().await;
}

/// The full view names the page's URL when it is news: in the first view
/// of a document and after the URL changed. A second view of the same
/// document at the same URL says `[t1] Title`, and a new document at the
/// same URL (a reload) is news again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_view_names_the_url_when_it_is_news() {
    let env = Env::start().await;
    let mut model = env.open("clickables.html").await;
    let full = ViewOptions::mode(Mode::Full);
    let first = model.view(&full).await.expect("first view").text;
    let header = |text: &str| env.redact(text.lines().next().unwrap_or_default());
    assert_eq!(
        header(&first),
        "[t1] Cards http://127.0.0.1:PORT/clickables.html"
    );
    let again = model.view(&full).await.expect("second view").text;
    assert_eq!(header(&again), "[t1] Cards");
    model
        .tab()
        .evaluate("history.pushState({}, '', 'moved.html')")
        .await
        .expect("pushState");
    let moved = model.view(&full).await.expect("view after pushState").text;
    assert_eq!(
        header(&moved),
        "[t1] Cards http://127.0.0.1:PORT/moved.html"
    );
    let url = env.main.url("/clickables.html");
    model
        .tab()
        .goto(&url, std::time::Duration::from_secs(20))
        .await
        .expect("load again");
    let reopened = model.view(&full).await.expect("view after a load").text;
    assert_eq!(
        header(&reopened),
        "[t1] Cards http://127.0.0.1:PORT/clickables.html"
    );
    model
        .tab()
        .goto(&url, std::time::Duration::from_secs(20))
        .await
        .expect("the same URL loaded once more");
    let reloaded = model.view(&full).await.expect("view after a reload").text;
    assert_eq!(
        header(&reloaded),
        "[t1] Cards http://127.0.0.1:PORT/clickables.html",
        "a new document at the same URL is news"
    );
    env.close().await;
}

/// Click listeners go out beside each walk and are waited for when the
/// document changed since they were last asked for: one added with a
/// change shows in the next view, and one added to a node that did not
/// change shows once the document changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_listeners_added_later_show_once_the_document_changed() {
    let env = Env::start().await;
    let mut model = env.open("clickables.html").await;
    let full = ViewOptions::mode(Mode::Full);
    let first = model.view(&full).await.expect("first view").text;
    assert!(first.contains("- Plain item"), "{first}");
    model
        .tab()
        .evaluate("(() => { const d = document.createElement('div'); d.textContent = 'Added later'; d.addEventListener('click', () => {}); document.body.append(d); })()")
        .await
        .expect("add a clickable");
    let added = model.view(&full).await.expect("view after the change").text;
    assert!(added.contains(" clickable \"Added later\""), "{added}");
    model
        .tab()
        .evaluate("[...document.querySelectorAll('li')].find((li) => li.textContent === 'Plain item').addEventListener('click', () => {})")
        .await
        .expect("listen on a plain item");
    model
        .tab()
        .evaluate("document.querySelector('h1').textContent = 'Products today'")
        .await
        .expect("change the heading");
    let changed = model.view(&full).await.expect("view after a change").text;
    assert!(
        changed
            .lines()
            .any(|l| l.starts_with("- e") && l.ends_with(" Plain item")),
        "the item is clickable now: {changed}"
    );
    env.close().await;
}
