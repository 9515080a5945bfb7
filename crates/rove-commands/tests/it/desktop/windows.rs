//! A desktop application's windows as a person sees them: a text editor's
//! save dialog (a second window), the pixels of a window and of one
//! element (with a secret painted over), and the wheel over a text that
//! scrolls.

use base64::Engine;
use rove_commands::{Secret, SessionConfig};
use serde_json::{Value, json};

use super::{first_ref, line_of, one_at_a_time, open_app, ref_of};
use crate::support::{Fixture, code};

/// The view from the line of `window` on: a dialog's own elements.
fn after<'a>(view: &'a str, window: &str) -> &'a str {
    view.split_once(window)
        .unwrap_or_else(|| panic!("{window} in\n{view}"))
        .1
}

#[tokio::test]
async fn a_text_editor_saves_typed_text_through_its_save_dialog() {
    let _one = one_at_a_time().await;
    let folder = rove_testkit::scratch_dir("desktop-editor");
    let file = folder.join("saved by rove.txt");
    let mut fx = Fixture::start().await;
    let (view, _) = open_app(&mut fx, "l3afpad").await;
    let text = first_ref(&view, "textbox", "");
    let typed = fx
        .ok(json!({"command": "type", "ref": text, "text": "Total: 84\nchecked by rove"}))
        .await;
    let diff = typed.view.expect("a diff after typing").text;
    assert!(line_of(&diff, &text).contains("Total: 84"), "{diff}");
    // The save dialog is a second window of the application: its
    // elements join the view, with refs of their own.
    let saving = fx
        .ok(json!({"command": "press", "keys": "Control+s"}))
        .await;
    let dialog = saving.view.expect("a diff with the dialog").text;
    assert!(
        dialog.contains("+ e") && dialog.contains("dialog \"Save As\""),
        "{dialog}"
    );
    let now = fx
        .view_of(json!({"command": "snapshot", "budget": 0}))
        .await;
    // The file name is the dialog's first field (the editor's own text
    // comes before the dialog, and each window keeps its own focus).
    let in_dialog = after(&now, "dialog \"Save As\"");
    let name = first_ref(in_dialog, "textbox", "");
    fx.ok(json!({"command": "fill", "ref": name, "text": file.display().to_string()}))
        .await;
    let now = fx
        .view_of(json!({"command": "snapshot", "budget": 0}))
        .await;
    let save = ref_of(&now, "button \"Save As\"");
    let saved = fx.ok(json!({"command": "click", "ref": save})).await;
    let diff = saved.view.expect("a diff after saving").text;
    assert!(
        diff.contains("- ") && diff.contains("dialog \"Save As\""),
        "the dialog closed: {diff}"
    );
    // The file on disk holds what was typed, and the view's title is the
    // window's new name, not the one it had when it opened.
    assert_eq!(
        std::fs::read_to_string(&file).expect("the editor wrote the file"),
        "Total: 84\nchecked by rove"
    );
    let after = fx.view_of(json!({"command": "snapshot"})).await;
    assert!(
        after.starts_with("[desktop] saved by rove.txt app:l3afpad\n"),
        "{after}"
    );
    fx.ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    fx.close().await;
}

/// The PNG `bytes` as Chromium decodes it: its size, and the share of its
/// pixels that are the calculator's orange and that are black.
async fn decoded(fx: &mut Fixture, bytes: &[u8]) -> Value {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    fx.eval(&format!(
        "(async () => {{
            const img = new Image();
            img.src = 'data:image/png;base64,{data}';
            await img.decode();
            const canvas = document.createElement('canvas');
            canvas.width = img.width;
            canvas.height = img.height;
            const context = canvas.getContext('2d');
            context.drawImage(img, 0, 0);
            const d = context.getImageData(0, 0, img.width, img.height).data;
            let orange = 0, black = 0;
            for (let i = 0; i < d.length; i += 4) {{
                if (d[i] > 200 && d[i + 1] > 60 && d[i + 1] < 170 && d[i + 2] < 90) orange++;
                if (d[i] + d[i + 1] + d[i + 2] === 0) black++;
            }}
            const n = d.length / 4;
            return {{width: img.width, height: img.height, orange: orange / n, black: black / n}};
        }})()"
    ))
    .await
}

#[tokio::test]
async fn a_window_screenshot_is_its_pixels_and_a_secret_shown_in_it_is_painted_over() {
    let _one = one_at_a_time().await;
    let config = SessionConfig {
        secrets: rove_commands::Secrets(vec![Secret::parse("PIN=31337").expect("a secret")]),
        ..SessionConfig::default()
    };
    let mut fx = Fixture::with(rove_localserver::Routes::new(), config).await;
    let (view, _) = open_app(&mut fx, "gnome-calculator").await;
    let equals = ref_of(&view, "button \"=\"");
    let seven = ref_of(&view, "button \"7\"");
    let display = first_ref(&view, "textbox", "[focused]");
    let shot = |r: Option<&str>| match r {
        Some(r) => json!({"command": "screenshot", "ref": r}),
        None => json!({"command": "screenshot"}),
    };
    let window = fx.ok(shot(None)).await;
    assert!(window.text().contains("the window"), "{}", window.text());
    let window = window.image.expect("an image").bytes;
    let equals_shot = fx
        .ok(shot(Some(&equals)))
        .await
        .image
        .expect("an image")
        .bytes;
    let seven_shot = fx
        .ok(shot(Some(&seven)))
        .await
        .image
        .expect("an image")
        .bytes;
    // Someone types the secret into the display: its pixels are painted
    // over (its text is the faces' to redact, as a page's is).
    fx.ok(json!({"command": "fill", "ref": display, "text": "31337"}))
        .await;
    let secret_shot = fx
        .ok(shot(Some(&display)))
        .await
        .image
        .expect("an image")
        .bytes;
    // What a window's screenshot cannot be is refused, saying so.
    let page = fx
        .fails(json!({"command": "screenshot", "full_page": true}))
        .await;
    assert_eq!(code(&page), "COMMAND_REJECTED", "{page}");
    let small = fx
        .fails(json!({"command": "screenshot", "max_bytes": 100}))
        .await;
    assert_eq!(code(&small), "SCREENSHOT_BUDGET_EXCEEDED", "{small}");
    fx.ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    // Chromium decodes each, and each shows what it names.
    let window = decoded(&mut fx, &window).await;
    let equals_shot = decoded(&mut fx, &equals_shot).await;
    let seven_shot = decoded(&mut fx, &seven_shot).await;
    let secret_shot = decoded(&mut fx, &secret_shot).await;
    let number = |v: &Value, k: &str| v[k].as_f64().unwrap_or_else(|| panic!("{k} in {v}"));
    assert!(
        number(&window, "width") >= 300.0 && number(&window, "height") >= 400.0,
        "{window}"
    );
    assert!(
        number(&window, "orange") > 0.01,
        "the window holds the = key: {window}"
    );
    assert!(
        number(&equals_shot, "width") < 150.0,
        "one key: {equals_shot}"
    );
    assert!(
        number(&equals_shot, "orange") > 0.8,
        "the = key is orange: {equals_shot}"
    );
    assert!(
        number(&seven_shot, "orange") < 0.01,
        "the 7 key is not: {seven_shot}"
    );
    assert!(number(&seven_shot, "black") < 0.5, "{seven_shot}");
    assert!(
        number(&secret_shot, "black") > 0.99,
        "the secret is painted over: {secret_shot}"
    );
    fx.close().await;
}

#[tokio::test]
async fn the_wheel_scrolls_a_long_text_down_and_back() {
    let _one = one_at_a_time().await;
    let mut fx = Fixture::start().await;
    let (view, _) = open_app(&mut fx, "l3afpad").await;
    let text = first_ref(&view, "textbox", "");
    let lines: Vec<String> = (1..=300).map(|n| format!("line {n}")).collect();
    fx.ok(json!({"command": "fill", "ref": text, "text": lines.join("\n")}))
        .await;
    let before = fx
        .view_of(json!({"command": "snapshot", "budget": 0}))
        .await;
    let bar = before
        .lines()
        .map(str::trim)
        .filter(|l| l.contains(" scrollbar: "))
        .map(|l| l.split_once(' ').map(|(r, _)| r.to_owned()).expect("a ref"))
        .collect::<Vec<_>>();
    assert!(!bar.is_empty(), "scroll bars in\n{before}");
    let offset = |view: &str| -> Vec<f64> {
        bar.iter()
            .map(|r| {
                line_of(view, r)
                    .rsplit_once(": ")
                    .and_then(|(_, n)| n.parse().ok())
                    .unwrap_or_else(|| panic!("a number on {r}'s line in\n{view}"))
            })
            .collect()
    };
    assert!(offset(&before).iter().all(|n| *n == 0.0), "{before}");
    let down = fx
        .ok(json!({"command": "scroll", "ref": text, "direction": "down", "pixels": 400}))
        .await;
    assert!(
        down.text().contains("turned the wheel 8 steps down over"),
        "{}",
        down.text()
    );
    let diff = down.view.expect("a diff").text;
    let now = fx
        .view_of(json!({"command": "snapshot", "budget": 0}))
        .await;
    let moved = offset(&now);
    assert!(moved.iter().any(|n| *n > 100.0), "the bar moved: {now}");
    assert!(diff.contains("scrollbar: "), "the diff shows it: {diff}");
    // Over the window, no element named: back to the top.
    let up = fx
        .ok(json!({"command": "scroll", "direction": "up", "pixels": 5000}))
        .await;
    assert!(up.text().contains("over the window"), "{}", up.text());
    let top = fx
        .view_of(json!({"command": "snapshot", "budget": 0}))
        .await;
    assert!(offset(&top).iter().all(|n| *n == 0.0), "{top}");
    let bad = fx
        .fails(json!({"command": "scroll", "direction": "down", "pixels": -3}))
        .await;
    assert_eq!(code(&bad), "COMMAND_REJECTED", "{bad}");
    fx.ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    fx.close().await;
}

#[tokio::test]
async fn a_row_far_down_a_list_is_scrolled_into_view_and_back() {
    let _one = one_at_a_time().await;
    let mut fx = Fixture::start().await;
    let rows: Vec<String> = (1..=200).map(|n| format!("row{n}")).collect();
    let list = format!("zenity --list --column=N {}", rows.join(" "));
    let (view, _) = open_app(&mut fx, &list).await;
    let far = ref_of(&view, "cell \"row158\"");
    let near = ref_of(&view, "cell \"row2\"");
    // Out of view, it has no pixels to capture.
    let hidden = fx.fails(json!({"command": "screenshot", "ref": far})).await;
    assert_eq!(code(&hidden), "NOT_ACTIONABLE", "{hidden}");
    // GTK does not scroll on request (ScrollTo answers false): the wheel
    // turns over the list until the row is inside it.
    let scrolled = fx.ok(json!({"command": "scroll", "ref": far})).await;
    assert!(
        scrolled
            .text()
            .contains(&format!("scrolled {far} into view")),
        "{}",
        scrolled.text()
    );
    let diff = scrolled.view.expect("a diff").text;
    assert!(diff.contains("scrollbar: "), "the bar moved: {diff}");
    let shot = fx.ok(json!({"command": "screenshot", "ref": far})).await;
    assert!(shot.image.is_some(), "{}", shot.text());
    // And back up to the second row.
    fx.ok(json!({"command": "scroll", "ref": near})).await;
    let shot = fx.ok(json!({"command": "screenshot", "ref": near})).await;
    assert!(shot.image.is_some(), "{}", shot.text());
    let gone = fx.fails(json!({"command": "screenshot", "ref": far})).await;
    assert_eq!(
        code(&gone),
        "NOT_ACTIONABLE",
        "row158 is out of view again: {gone}"
    );
    fx.ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    fx.close().await;
}

#[tokio::test]
async fn the_widget_factorys_about_dialog_opens_is_read_and_its_refs_end_with_it() {
    let _one = one_at_a_time().await;
    let mut fx = Fixture::start().await;
    let (view, _) = open_app(&mut fx, "gtk3-widget-factory").await;
    // A window without a name is titled after its application.
    assert!(
        view.starts_with("[desktop] gtk3-widget-factory app:gtk3-widget-factory\n"),
        "{view}"
    );
    let menu = ref_of(&view, "button \"Menu\"");
    let shown = fx.ok(json!({"command": "click", "ref": menu})).await;
    let shown = shown.view.expect("a diff with the menu").text;
    let about = ref_of(&shown.replace("+ ", ""), "button \"About Widget Factory\"");
    let dialog = fx.ok(json!({"command": "click", "ref": about})).await;
    let dialog = dialog.view.expect("a diff with the dialog").text;
    assert!(
        dialog.contains("dialog \"About GTK Widget Factory\" [modal]"),
        "{dialog}"
    );
    let read = fx.ok(json!({"command": "read"})).await;
    assert!(
        read.data_text()
            .expect("text")
            .contains("Running against GTK+ 3"),
        "the dialog's text is read: {}",
        read.text()
    );
    let now = fx
        .view_of(json!({"command": "snapshot", "budget": 0}))
        .await;
    // The dialog's own buttons (the main window has a Close of its own).
    let in_dialog = after(&now, "dialog \"About GTK Widget Factory\"");
    let credits = ref_of(in_dialog, "button \"Credits\"");
    let close = ref_of(in_dialog, "button \"Close\"");
    let closed = fx.ok(json!({"command": "click", "ref": close})).await;
    let closed = closed.view.expect("a diff without the dialog").text;
    assert!(
        closed.contains("- e") && closed.contains("dialog \"About GTK Widget Factory\""),
        "{closed}"
    );
    // A ref of the window that closed is a typed error, and the
    // application goes on.
    let gone = fx.fails(json!({"command": "click", "ref": credits})).await;
    assert_eq!(code(&gone), "REF_NOT_FOUND", "{gone}");
    assert!(gone.to_string().contains("window closed"), "{gone}");
    // With the view that gives the refs to use now.
    let fresh = gone.fresh_view().expect("a fresh view");
    assert!(
        fresh.starts_with("[desktop] gtk3-widget-factory") && !fresh.contains("About GTK"),
        "{fresh}"
    );
    fx.ok(json!({"command": "snapshot"})).await;
    fx.ok(json!({"command": "desktop", "action": "leave"}))
        .await;
    fx.close().await;
}
