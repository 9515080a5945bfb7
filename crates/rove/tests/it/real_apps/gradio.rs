//! Gradio through rove: the app `gradio_app.py` (a theme dropdown that
//! takes only its options, a number, a slider, a payment its server
//! computes through Gradio's queue, a Save button). Every end state is what
//! the app's server received (the JSON it writes per run), never rove's own
//! view alone.

use serde_json::Value;

use crate::real_apps::apps;
use crate::real_apps::driver::Rove;

/// Waits until the server's state for `run` has `key` equal to `want`.
fn server_has(run: &str, key: &str, want: Value) -> Value {
    apps::gradio().holds(run, key, want)
}

async fn open(rove: &mut Rove, run: &str) {
    rove.task("gradio: open the app");
    rove.run(&["open", &apps::gradio().run_url(run)]).await;
    rove.until("the app's form", |text| {
        text.contains("combobox \"Theme\"") && text.contains("button \"Save\"")
    })
    .await;
}

/// Issue 35, item 1: typing into Gradio's dropdown only filters its list;
/// the app keeps its old choice. `fill` chooses the option the text names,
/// and refuses a text that is none of them.
#[tokio::test]
async fn gradio_fill_on_a_dropdown_chooses_the_option_the_app_saves() {
    let mut rove = Rove::new("gradio_dropdown");
    open(&mut rove, "dropdown").await;
    let theme = rove.pick("combobox", "Theme");
    let save = rove.pick("button", "Save");

    rove.task("gradio: choose a theme by filling the dropdown");
    rove.run(&["fill", &theme, "dark"]).await;
    assert!(
        rove.last.contains("chose the option \"Dark\""),
        "fill says which option it chose:\n{}",
        rove.last
    );
    rove.run(&["click", &save]).await;
    assert!(rove.last.contains("Saved theme Dark"), "{}", rove.last);
    server_has(
        "dropdown",
        "saved",
        serde_json::json!({"theme": "Dark", "principal": 100000, "years": 20}),
    );

    rove.task("gradio: a theme that is not an option is refused");
    let refused = rove.try_run(&["fill", &theme, "Purple"]).await;
    assert!(
        !refused.ok(),
        "a text that is no option is not 'filled':\n{refused:?}"
    );
    assert!(
        refused.stderr.contains("NOT_ACTIONABLE")
            && refused.stderr.contains("\"Purple\" is none of them")
            && refused.stderr.contains("\"System\", \"Light\", \"Dark\""),
        "the error names the options:\n{}",
        refused.stderr
    );
    let shown = rove.run(&["snapshot"]).await;
    assert!(
        shown
            .lines()
            .any(|l| l.contains("combobox \"Theme\"") && l.ends_with(": Dark")),
        "the box kept the app's choice:\n{shown}"
    );
}

/// Issue 35, items 2 and 4: a number the app computes with reaches it
/// before rove reports the computation, and Gradio's hidden status
/// announcer ("Loading", "In queue") is no line of the answer.
#[tokio::test]
async fn gradio_payment_is_computed_from_the_number_filled_and_shown_without_its_announcer() {
    let mut rove = Rove::new("gradio_payment");
    open(&mut rove, "payment").await;
    let principal = rove.pick("spinbutton", "Principal");
    let compute = rove.pick("button", "Compute");

    rove.task("gradio: compute a payment for another principal");
    rove.run(&["fill", &principal, "300000"]).await;
    rove.run(&["click", &compute]).await;
    // 300,000 over 20 years at 5 %: what the server computes.
    assert!(
        rove.last.contains("Monthly payment: 1979.87"),
        "the click's answer holds the server's result for the value filled:\n{}",
        rove.last
    );
    assert!(
        !rove
            .last
            .lines()
            .any(|l| l.contains(" status") || l.trim_start_matches(['+', '~', ' ']) == "Loading"),
        "the announcer is not a line of the answer:\n{}",
        rove.last
    );
    server_has(
        "payment",
        "payment",
        serde_json::json!({"principal": 300000, "years": 20, "monthly": 1979.87}),
    );
    let shown = rove.run(&["snapshot"]).await;
    assert!(
        !shown.contains("Loading") && !shown.contains("In queue"),
        "{shown}"
    );
}

/// Issue 35, item 3: Gradio draws a tab's code and table only once the tab
/// is opened; the click's answer holds them, the code as its lines (a
/// read-only CodeMirror 6 editor is a textbox of several lines).
#[tokio::test]
async fn gradio_a_tab_click_shows_the_code_and_table_it_draws() {
    let mut rove = Rove::new("gradio_tab");
    open(&mut rove, "tab").await;
    let schedule = rove.pick("tab", "Schedule");
    rove.task("gradio: open the schedule tab");
    rove.run(&["click", &schedule]).await;
    for line in [
        "│ schedule = plan(term=20)",
        "│ for month in schedule:",
        "│     pay(month)",
        "| Month | Payment |",
    ] {
        assert!(
            rove.last.contains(line),
            "the tab's answer shows {line:?}:\n{}",
            rove.last
        );
    }
}

/// Issue 35, item 3: a file given to Gradio's upload is sent to its server
/// and answered through its queue; `upload` answers with the app's result,
/// not with "Uploading 1 file...".
#[tokio::test]
async fn gradio_upload_answers_with_the_result_the_server_computed() {
    let mut rove = Rove::new("gradio_upload");
    open(&mut rove, "upload").await;
    let estimate = rove.pick("tab", "Estimate");
    rove.run(&["click", &estimate]).await;
    let field = rove.pick("button", "Click to upload or drop files");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/real_apps/statement.txt"
    );
    rove.task("gradio: upload a statement");
    rove.run(&["upload", &field, file]).await;
    assert!(
        rove.last.contains("Statement lines: 3"),
        "the upload's answer holds the server's count:\n{}",
        rove.last
    );
    assert!(!rove.last.contains("Uploading"), "{}", rove.last);
    server_has("upload", "statement", serde_json::json!({"lines": 3}));
}

/// Issue 35, item 3: every step of a slider's keys is a change the server
/// answers late (0.6 s each); the answer shows the estimate for the value
/// the slider ends on, never one for a value it passed through.
#[tokio::test]
async fn gradio_slider_answer_is_for_the_value_it_ends_on() {
    let mut rove = Rove::new("gradio_slider");
    open(&mut rove, "slider").await;
    let estimate = rove.pick("tab", "Estimate");
    rove.run(&["click", &estimate]).await;
    let term = rove.pick("slider", "range slider for Term");
    rove.task("gradio: set the term to 25 years");
    rove.run(&["fill", &term, "25"]).await;
    let estimates: Vec<&str> = rove
        .last
        .lines()
        .filter(|l| l.contains("Estimate for"))
        .collect();
    assert!(
        estimates
            .iter()
            .any(|l| l.contains("Estimate for 25 years: 25000 EUR"))
            && estimates
                .iter()
                .all(|l| l.starts_with('-') || l.contains("25 years")),
        "the answer's estimate is for 25 years:\n{}",
        rove.last
    );
    server_has("slider", "estimate", serde_json::json!({"term": 25}));
}
