//! Locators where a ref is taken: `css=`, `role=…[name=…]` and `text=` each
//! resolve to the one element the view shows, the command acts on it, and
//! the answer says what the locator resolved to. Ambiguous, missing,
//! hidden and malformed locators are refused, with nothing sent to the
//! page; a hostile selector stays data.

use crate::support;

use rove_errors::{Classify, Retry};
use rove_localserver::Response;
use serde_json::{Value, json};
use support::{Fixture, code};

/// The first line of an answer: what the locator resolved to.
fn resolution(out: &rove_commands::Outcome) -> String {
    out.happened_lines().first().cloned().unwrap_or_default()
}

async fn status(f: &mut Fixture) -> Value {
    f.eval("document.getElementById('status').textContent")
        .await
}

#[tokio::test]
async fn each_locator_form_resolves_to_the_right_element_and_the_command_acts() {
    let mut f = Fixture::start().await;
    f.open("/locators.html").await;
    let save = f.find("Save", "button").await;

    // css= → click.
    let out = f.ok(json!({"command": "click", "ref": "css=#save"})).await;
    assert_eq!(
        resolution(&out),
        format!("css=#save → {save} button \"Save\""),
        "{}",
        out.text()
    );
    assert_eq!(out.happened_lines()[1], format!("clicked {save}"));
    assert_eq!(status(&mut f).await, "saved");

    // role=…[name=…] → fill.
    let email = f.find("Email", "textbox").await;
    let out = f
        .ok(json!({"command": "fill", "ref": "role=textbox[name=\"Email\"]", "text": "ada@example.com"}))
        .await;
    assert_eq!(
        resolution(&out),
        format!("role=textbox[name=\"Email\"] → {email} textbox \"Email\"")
    );
    assert_eq!(
        f.eval("document.getElementById('email').value").await,
        "ada@example.com"
    );

    // text= → check: the label's text aims at its checkbox.
    let out = f
        .ok(json!({"command": "check", "ref": "text=remember ME"}))
        .await;
    assert!(
        resolution(&out).starts_with("text=remember ME → e")
            && resolution(&out).ends_with("checkbox \"Remember me\""),
        "{}",
        out.text()
    );
    assert_eq!(
        f.eval("document.getElementById('remember').checked").await,
        true
    );

    // css= → get text; the innermost text wins for text=.
    let out = f
        .ok(json!({"command": "get", "what": "text", "ref": "css=p.note"}))
        .await;
    assert_eq!(out.result().expect("data"), "Hello world");
    // Text split over elements, in a card with a click listener: the
    // paragraph holding all of it, not the card around it.
    let out = f
        .ok(json!({"command": "get", "what": "attr", "name": "class", "ref": "text=hello WORLD"}))
        .await;
    assert_eq!(out.result().expect("data"), "note");
    let out = f
        .ok(json!({"command": "get", "what": "attr", "name": "id", "ref": "text=\"Save\""}))
        .await;
    assert_eq!(out.result().expect("data"), "save");

    // A substring name, and css= into an open shadow root.
    f.ok(json!({"command": "click", "ref": "role=button[name*=\"SHADOW\"]"}))
        .await;
    let out = f
        .ok(json!({"command": "get", "what": "text", "ref": "css=#inner"}))
        .await;
    assert_eq!(out.result().expect("data"), "pressed");

    // A same-origin iframe's element.
    let out = f
        .ok(json!({"command": "click", "ref": "css=#in-frame"}))
        .await;
    assert!(
        resolution(&out).contains("button \"Frame button\""),
        "{}",
        out.text()
    );
    let out = f
        .ok(json!({"command": "get", "what": "text", "ref": "role=button[name=\"frame clicked\"]"}))
        .await;
    assert_eq!(out.result().expect("data"), "frame clicked");

    // The same element resolved twice keeps its ref.
    let out = f
        .ok(json!({"command": "hover", "ref": "role=button[name=\"Save\"]"}))
        .await;
    assert!(resolution(&out).contains(&format!("→ {save} ")));
    f.close().await;
}

#[tokio::test]
async fn an_ambiguous_locator_is_refused_naming_its_candidates() {
    let mut f = Fixture::start().await;
    f.open("/locators.html").await;
    let draft = f.find("Save draft", "button").await;
    let copy = f.find("Save copy", "button").await;
    let err = f
        .fails(json!({"command": "click", "ref": "css=button.draft"}))
        .await;
    assert_eq!(code(&err), "COMMAND_REJECTED");
    assert_eq!(err.retry(), Retry::Never);
    let message = err.to_string();
    assert!(
        message.contains("matches 2 elements")
            && message.contains(&format!("{draft} button \"Save draft\""))
            && message.contains(&format!("{copy} button \"Save copy\"")),
        "{message}"
    );
    // Three buttons hold "save" in their names; each is named by its ref.
    let err = f
        .fails(json!({"command": "click", "ref": "role=button[name*=\"save\"]"}))
        .await;
    assert!(err.to_string().contains("matches 3 elements"), "{err}");
    assert_eq!(status(&mut f).await, "idle", "nothing was clicked");
    f.close().await;
}

#[tokio::test]
async fn a_locator_matching_nothing_asks_for_a_fresh_look() {
    let mut f = Fixture::start().await;
    f.open("/locators.html").await;
    for locator in [
        "css=#nowhere",
        "text=Not on this page",
        "role=button[name=\"Publish\"]",
    ] {
        let err = f.fails(json!({"command": "click", "ref": locator})).await;
        let report = err.report();
        assert_eq!(code(&err), "REF_NOT_FOUND", "{locator}");
        assert_eq!(err.retry(), Retry::Reobserve, "{locator}");
        assert!(report.message.contains("matches no element"), "{report:?}");
        assert!(report.hint.contains("css=SELECTOR"), "{report:?}");
        let fresh = err.fresh_view().expect("a fresh view comes with it");
        assert!(fresh.contains("button \"Save\""), "{fresh}");
    }
    f.close().await;
}

#[tokio::test]
async fn invalid_css_and_bad_syntax_are_typed_errors_and_touch_nothing() {
    let mut f = Fixture::start().await;
    f.open("/locators.html").await;
    let err = f
        .fails(json!({"command": "click", "ref": "css=button[" }))
        .await;
    assert_eq!(code(&err), "COMMAND_REJECTED");
    assert!(
        err.to_string().contains("is not a valid CSS selector"),
        "{err}"
    );
    assert!(
        err.report().hint.contains("role=ROLE"),
        "{:?}",
        err.report()
    );

    // Bad syntax is refused while the call is parsed, naming the forms.
    let parsed = rove_commands::Command::from_tool_call("click", Some(&json!({"ref": "#save"})));
    let err = parsed.expect_err("not a ref or a locator");
    assert_eq!(code(&err), "COMMAND_REJECTED");
    assert!(err.to_string().contains("css=SELECTOR"), "{err}");

    // A drag whose second locator fails sends nothing for the first.
    let err = f
        .fails(json!({"command": "drag", "from": "css=#save", "to": "css=#nowhere"}))
        .await;
    assert_eq!(code(&err), "REF_NOT_FOUND");
    assert_eq!(status(&mut f).await, "idle");
    f.close().await;
}

#[tokio::test]
async fn a_locator_aimed_at_what_the_view_does_not_show_is_refused() {
    let mut f = Fixture::start().await;
    f.open("/locators.html").await;
    let err = f
        .fails(json!({"command": "click", "ref": "css=#ghost"}))
        .await;
    assert_eq!(code(&err), "NOT_ACTIONABLE");
    assert!(err.to_string().contains("hidden"), "{err}");

    f.eval("document.getElementById('modal').showModal()").await;
    for locator in ["css=#delete", "text=Delete", "role=button[name=\"Delete\"]"] {
        let err = f.fails(json!({"command": "click", "ref": locator})).await;
        assert_eq!(code(&err), "NOT_ACTIONABLE", "{locator}: {err}");
        assert_eq!(err.retry(), Retry::Reobserve);
        assert!(err.to_string().contains("modal dialog"), "{locator}: {err}");
    }
    assert_eq!(
        status(&mut f).await,
        "idle",
        "the button behind was not clicked"
    );
    // Inside the modal, the same kind of locator works.
    f.ok(json!({"command": "click", "ref": "text=\"Confirm\""}))
        .await;
    assert_eq!(status(&mut f).await, "confirmed");
    f.close().await;
}

#[tokio::test]
async fn a_hostile_locator_stays_data_and_a_huge_match_count_is_bounded() {
    let many = "<!doctype html><title>Many</title><p id=state>calm</p><ul>".to_owned()
        + &"<li class=x>item</li>".repeat(3_000)
        + "</ul>";
    let routes = support::fixture_routes().page("/many", Response::html(many));
    let mut f = Fixture::with(routes, rove_commands::SessionConfig::default()).await;
    f.open("/many").await;
    for locator in [
        "css=a'); alert(1); ('",
        "css=*:not(\"\\\"); alert(1); //\")",
        "text=x\"); alert(1); //",
        "text=\"\\\"); alert(1); //\"",
        "role=button[name=\"'); document.title = 'owned'; ('\"]",
        "css=</script><script>alert(1)</script>",
    ] {
        let err = f.fails(json!({"command": "click", "ref": locator})).await;
        assert!(
            ["COMMAND_REJECTED", "REF_NOT_FOUND"].contains(&code(&err)),
            "{locator}: {err}"
        );
    }
    // No dialog opened (eval would be refused), the page is as it was.
    assert_eq!(f.eval("document.title").await, "Many");
    assert_eq!(
        f.eval("document.getElementById('state').textContent").await,
        "calm"
    );

    // Counting stops at 1,000 (each command here is bounded by the
    // fixture's 60 s; on a quiet machine these take tens of milliseconds).
    let err = f
        .fails(json!({"command": "click", "ref": "css=li.x"}))
        .await;
    assert_eq!(code(&err), "COMMAND_REJECTED");
    let message = err.to_string();
    assert!(message.contains("at least 1000 elements"), "{message}");
    // Five candidates named by ref, and a mark that there are more.
    assert_eq!(
        message.matches(" listitem \"item\"").count(),
        5,
        "{message}"
    );
    assert!(message.ends_with(", …"), "{message}");
    let err = f
        .fails(json!({"command": "click", "ref": "text=item"}))
        .await;
    assert!(err.to_string().contains("at least 1000"), "{err}");
    f.close().await;
}

#[tokio::test]
async fn css_says_it_cannot_reach_a_closed_shadow_root_where_role_and_text_can() {
    let mut f = Fixture::start().await;
    // Opening takes a view, which finds the closed roots.
    f.open("/closed-shadow.html").await;
    let err = f
        .fails(json!({"command": "fill", "ref": "css=#d-field", "text": "x"}))
        .await;
    assert_eq!(code(&err), "REF_NOT_FOUND");
    assert!(
        err.to_string()
            .contains("cannot reach inside a closed shadow root"),
        "{err}"
    );
    f.ok(json!({"command": "fill", "ref": "role=textbox[name=\"Declared field\"]", "text": "ok"}))
        .await;
    let out = f
        .ok(json!({"command": "click", "ref": "text=Declared button"}))
        .await;
    assert!(
        resolution(&out).ends_with("button \"Declared button\""),
        "{}",
        out.text()
    );
    let out = f
        .ok(json!({"command": "get", "what": "value", "ref": "role=textbox[name=\"Declared field\"]"}))
        .await;
    assert_eq!(out.result().expect("data"), "ok");
    // The click reached the button inside the closed root.
    let out = f
        .ok(json!({"command": "get", "what": "text", "ref": "role=button[name*=\"pressed\"]"}))
        .await;
    assert_eq!(out.result().expect("data"), "Declared pressed");
    f.close().await;
}

#[tokio::test]
async fn names_with_invisible_characters_match_as_the_view_shows_them() {
    // A zero-width space inside "Save", a BOM inside "Order", a tag
    // character after "Pay": a person sees Save, Order and Pay, and so does
    // the view; find and every locator match those words too.
    let page = "<!doctype html><title>Hidden</title><p id=status>-</p>\
        <button onclick=\"document.getElementById('status').textContent='saved'\">Sa\u{200B}ve</button>\
        <p>Or\u{FEFF}der number 7</p>\
        <button onclick=\"document.getElementById('status').textContent='paid'\">Pay\u{E0041}</button>\
        <button onclick=\"document.getElementById('status').textContent='home'\">Go\u{1}Home</button>";
    let routes = support::fixture_routes().page("/hidden", Response::html(page));
    let mut f = Fixture::with(routes, rove_commands::SessionConfig::default()).await;
    let out = f.open("/hidden").await;
    let view = out.view.expect("a view").text;
    assert!(view.contains("button \"Save\""), "{view}");
    assert!(view.contains("Order number 7"), "not \"Or der\": {view}");
    assert!(view.contains("button \"Pay\""), "{view}");

    let save = f.find("Save", "button").await;
    let found = f
        .ok(json!({"command": "find", "text": "order number"}))
        .await
        .text();
    assert!(found.contains("Order number 7"), "{found}");

    let out = f
        .ok(json!({"command": "click", "ref": "role=button[name=\"Save\"]"}))
        .await;
    assert_eq!(
        resolution(&out),
        format!("role=button[name=\"Save\"] → {save} button \"Save\"")
    );
    assert_eq!(status(&mut f).await, "saved");
    f.ok(json!({"command": "click", "ref": "text=\"Pay\""}))
        .await;
    assert_eq!(status(&mut f).await, "paid");
    // A control character shows as a space, and matches as one.
    assert!(view.contains("button \"Go Home\""), "{view}");
    f.ok(json!({"command": "click", "ref": "role=button[name=\"Go Home\"]"}))
        .await;
    assert_eq!(status(&mut f).await, "home");
    f.close().await;
}
