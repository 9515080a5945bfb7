//! Quasar 2 (Vue 3) widgets, pinned by scripts/editors/package-lock.json:
//! a QSelect whose field is a read-only input that opens its options on a
//! click, and a QSlider. Checked on the app's own state (`window.state`).

use rove_input::{ListChoice, fill, select_options};
use serde_json::Value;

use crate::editor::{EditorPage, eval, open};
use crate::support::find_exact;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_select_that_opens_on_click_chooses_by_select_and_fill() {
    let EditorPage {
        browser,
        _server,
        mut model,
    } = open("quasar.html").await;
    let fruit = find_exact(&mut model, "Fruit", "combobox").await;
    // Its field is an <input readonly>: typing is refused, a click opens
    // the list, and the option is clicked.
    let outcome = select_options(&mut model, fruit, &["Banana".to_owned()])
        .await
        .expect("select on a QSelect");
    assert_eq!(outcome.selected, vec!["Banana".to_owned()]);
    assert_eq!(eval(&model, "window.state.fruit").await, "Banana");
    // `fill` on it chooses too (it takes no text), and says so.
    let outcome = fill(&mut model, fruit, "Cherry").await.expect("fill");
    assert_eq!(outcome.list, ListChoice::Chose("Cherry".to_owned()));
    assert_eq!(eval(&model, "window.state.fruit").await, "Cherry");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quasar_slider_takes_the_value_by_its_keys() {
    let EditorPage {
        browser,
        _server,
        mut model,
    } = open("quasar.html").await;
    let amount = find_exact(&mut model, "Amount", "slider").await;
    let outcome = fill(&mut model, amount, "35").await.expect("fill");
    assert_eq!(outcome.value, "35");
    assert_eq!(eval(&model, "window.state.amount").await, Value::from(35));
    browser.close().await;
}
