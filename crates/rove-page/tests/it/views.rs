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
