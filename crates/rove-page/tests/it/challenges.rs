//! Challenges in the view: each widget, recognised offline by its frames,
//! scripts and markup (rove-testkit's challenge pages), is one line
//! `captcha eN kind=… state=…` first in the view, and a page that only
//! talks like one is no challenge.

use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use rove_page::{Challenge, Mode, PageModel, ViewOptions};

use crate::support::on_element;

async fn open(server: &LocalServer, browser: &rove_browser::Browser, path: &str) -> PageModel {
    let context = browser.new_context().await.expect("context");
    let tab = context.new_tab().await.expect("tab");
    tab.goto(&server.url(path), Duration::from_secs(20))
        .await
        .expect("load");
    PageModel::new(tab)
}

/// The view's challenge lines, and its challenges.
async fn challenges(model: &mut PageModel) -> (String, Vec<String>, Vec<Challenge>) {
    let view = model
        .view(&ViewOptions::mode(Mode::Full))
        .await
        .expect("view");
    let lines = view
        .text
        .lines()
        .filter(|l| l.starts_with("captcha "))
        .map(str::to_owned)
        .collect();
    (view.text, lines, view.challenges)
}

/// Polls the view until a challenge line reads `state`.
async fn until_state(model: &mut PageModel, state: &str) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (text, lines, _) = challenges(model).await;
        if lines.iter().any(|l| l.ends_with(&format!("state={state}"))) {
            return text;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no state={state} in\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn each_widget_is_one_line_with_its_kind_and_state() {
    let server = LocalServer::start(rove_testkit::challenge_routes(Routes::new()))
        .await
        .expect("server");
    let browser = rove_testkit::launch().await;
    let cases = [
        (
            "/recaptcha.html",
            "recaptcha-v2",
            "unsolved",
            Some("6LcLocalTestKeyV2"),
        ),
        (
            "/recaptcha-v3.html",
            "recaptcha-v3",
            "passive",
            Some("6LcLocalTestKeyV3"),
        ),
        (
            "/hcaptcha.html",
            "hcaptcha",
            "unsolved",
            Some("10000000-ffff-ffff-ffff-000000000001"),
        ),
        (
            "/turnstile.html",
            "turnstile",
            "unsolved",
            Some("1x00000000000000000000AA"),
        ),
        (
            "/interstitial.html",
            "cloudflare-interstitial",
            "unsolved",
            None,
        ),
        (
            "/arkose.html",
            "arkose",
            "unsolved",
            Some("476068BF-9607-4799-B53D-966BE91E2D67"),
        ),
        ("/image-captcha.html", "image", "unsolved", None),
    ];
    for (path, kind, state, key) in cases {
        let mut model = open(&server, &browser, path).await;
        let (text, lines, found) = challenges(&mut model).await;
        assert_eq!(lines.len(), 1, "{path}: one challenge line in\n{text}");
        let second = text.lines().nth(1).unwrap_or_default();
        assert!(
            second.starts_with("captcha e")
                && second.ends_with(&format!(" kind={kind} state={state}")),
            "{path}: the line right under the header reads {second:?} in\n{text}"
        );
        assert_eq!(found.len(), 1, "{path}");
        assert_eq!(
            (
                found[0].kind.as_str(),
                found[0].state.as_str(),
                found[0].site_key.as_deref()
            ),
            (kind, state, key),
            "{path}"
        );
        assert_eq!(
            second,
            format!("captcha {} kind={kind} state={state}", found[0].reference)
        );
    }
    browser.close().await;
}

#[tokio::test]
async fn a_page_that_only_says_verify_you_are_human_is_no_challenge() {
    let server = LocalServer::start(rove_testkit::challenge_routes(Routes::new()))
        .await
        .expect("server");
    let browser = rove_testkit::launch().await;
    let mut model = open(&server, &browser, "/verify-human.html").await;
    let (text, lines, found) = challenges(&mut model).await;
    assert!(text.contains("h1 \"Verify you are human\""), "{text}");
    assert!(lines.is_empty() && found.is_empty(), "{text}");
    browser.close().await;
}

#[tokio::test]
async fn a_token_solves_and_its_expiry_shows_in_the_line_and_the_diff() {
    let server = LocalServer::start(rove_testkit::challenge_routes(Routes::new()))
        .await
        .expect("server");
    let browser = rove_testkit::launch().await;
    let mut model = open(&server, &browser, "/recaptcha-expiring.html").await;
    let (_, _, found) = challenges(&mut model).await;
    let widget = found[0].reference;
    // The anchor frame's checkbox, clicked as a person would.
    let anchor = rove_testkit::find(&mut model, "I'm not a robot", Some("checkbox")).await;
    on_element(&mut model, anchor, "this.click()").await;
    let diff = model
        .view(&ViewOptions::mode(Mode::Diff))
        .await
        .expect("diff");
    assert!(
        diff.text.contains(&format!(
            "~ captcha {widget} kind=recaptcha-v2 state=solved"
        )),
        "{}",
        diff.text
    );
    // The token lapses after 1.5 s: the field is emptied and only the
    // widget's own frame says why.
    let text = until_state(&mut model, "expired").await;
    assert!(text.contains("verification expired"), "{text}");
    browser.close().await;
}

#[tokio::test]
async fn an_open_image_challenge_reads_challenge() {
    let server = LocalServer::start(rove_testkit::challenge_routes(Routes::new()))
        .await
        .expect("server");
    let browser = rove_testkit::launch().await;
    let mut model = open(&server, &browser, "/recaptcha-image.html").await;
    let (text, lines, _) = challenges(&mut model).await;
    assert!(lines[0].ends_with("state=unsolved"), "{text}");
    let anchor = rove_testkit::find(&mut model, "I'm not a robot", Some("checkbox")).await;
    on_element(&mut model, anchor, "this.click()").await;
    let text = until_state(&mut model, "challenge").await;
    assert_eq!(
        text.lines().filter(|l| l.starts_with("captcha ")).count(),
        1,
        "the challenge frame is the same widget: {text}"
    );
    // What a solver is sent and what its answer is clicked on.
    let (_, _, found) = challenges(&mut model).await;
    let image = found[0].image.clone().expect("the open challenge's tiles");
    assert_eq!(image.grid, (3, 3));
    assert_eq!(image.tiles.len(), 9);
    assert!(image.verify.is_some());
    assert_eq!(image.instructions, "Select all images with traffic lights");
    let lights = on_element(&mut model, image.tiles[1], "return this.textContent").await;
    assert_eq!(lights, "🚦", "tile 2 is the second of the first row");
    browser.close().await;
}

#[tokio::test]
async fn two_widgets_on_one_page_are_two_lines() {
    let server = LocalServer::start(rove_testkit::challenge_routes(Routes::new()))
        .await
        .expect("server");
    let browser = rove_testkit::launch().await;
    let mut model = open(&server, &browser, "/two-challenges.html").await;
    let (text, _, found) = challenges(&mut model).await;
    let kinds: Vec<&str> = found.iter().map(|c| c.kind.as_str()).collect();
    assert_eq!(kinds, ["recaptcha-v2", "hcaptcha"], "{text}");
    assert_ne!(found[0].reference, found[1].reference);
    browser.close().await;
}

/// hCaptcha's checkbox frame and, at the body's end, its challenge frame
/// (shown or hidden), for the widget `id`.
fn hcaptcha_widget(id: &str) -> (String, String) {
    let at = format!(
        "/captcha/v1/4fe0c2f/static/hcaptcha.html#frame=FRAME&amp;id={id}&amp;sitekey=10000000-ffff-ffff-ffff-00000000000{}",
        &id[1..]
    );
    (
        format!(
            "<div class=h-captcha data-sitekey=k{id}><iframe width=303 height=78 src=\"{}\"></iframe><textarea name=h-captcha-response style=display:none></textarea></div>",
            at.replace("FRAME", "checkbox")
        ),
        format!(
            "<div style=\"visibility: VISIBLE{id}; position: absolute; top: 0\"><iframe width=330 height=420 src=\"{}\"></iframe></div>",
            at.replace("FRAME", "challenge")
        ),
    )
}

#[tokio::test]
async fn an_open_challenge_belongs_to_the_widget_its_address_names() {
    let (first, first_challenge) = hcaptcha_widget("w1");
    let (second, second_challenge) = hcaptcha_widget("w2");
    // The second widget's challenge is open, listed after the first's.
    let page = format!(
        "<title>Two</title>{first}{second}{}{}",
        first_challenge.replace("VISIBLEw1", "hidden"),
        second_challenge.replace("VISIBLEw2", "visible")
    );
    let server = LocalServer::start(rove_testkit::challenge_routes(
        Routes::new().page("/two-hcaptchas.html", Response::html(page)),
    ))
    .await
    .expect("server");
    let browser = rove_testkit::launch().await;
    let mut model = open(&server, &browser, "/two-hcaptchas.html").await;
    let text = until_state(&mut model, "challenge").await;
    let (_, lines, found) = challenges(&mut model).await;
    let states: Vec<&str> = found.iter().map(|c| c.state.as_str()).collect();
    assert_eq!(states, ["unsolved", "challenge"], "{text}\n{lines:?}");
    assert!(found[1].image.is_some(), "{text}");
    browser.close().await;
}

#[tokio::test]
async fn odd_frame_addresses_and_walls_in_frames_leave_the_view_whole() {
    let odd = "<title>Odd</title><div class=g-recaptcha><iframe width=304 height=78 src=\"/recaptcha/api2/anchor?k=%E0%A4%A\"></iframe></div>";
    let framed = "<title>Framed</title><h1>News</h1><iframe width=400 height=300 src=/interstitial.html></iframe>";
    let server = LocalServer::start(rove_testkit::challenge_routes(
        Routes::new()
            .page("/odd.html", Response::html(odd))
            .page("/framed.html", Response::html(framed)),
    ))
    .await
    .expect("server");
    let browser = rove_testkit::launch().await;
    // A malformed escape in a widget frame's address is kept as written.
    let mut model = open(&server, &browser, "/odd.html").await;
    let (text, _, found) = challenges(&mut model).await;
    assert_eq!(found.len(), 1, "{text}");
    assert_eq!(found[0].site_key.as_deref(), Some("%E0%A4%A"), "{text}");
    // A wall inside a frame is another site's page, not this one's.
    let mut model = open(&server, &browser, "/framed.html").await;
    let (text, lines, _) = challenges(&mut model).await;
    assert!(
        text.contains("Checking if the site connection is secure"),
        "{text}"
    );
    assert!(lines.is_empty(), "{text}");
    browser.close().await;
}
