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
