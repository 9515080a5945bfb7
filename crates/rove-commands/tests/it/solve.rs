//! `solve` with fake solver plugins: small shell scripts each test writes
//! into its own plugins folder (a token, tiles, the plugin's own
//! `LICENSE_INVALID`, one that hangs, one that prints garbage), over
//! rove-testkit's offline challenge pages. Every script saves the request
//! it read, so the tests see what a plugin is given.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rove_commands::{CommandError, SessionConfig};
use rove_errors::{Classify, Retry};
use rove_localserver::Routes;
use serde_json::{Value, json};

use crate::support::{Fixture, code};

/// A plugins folder holding one plugin, `name`, whose body is `script`
/// (after a line that saves the request next to it as `request.json`).
fn plugin(folder: &str, name: &str, script: &str) -> PathBuf {
    let dir = rove_testkit::scratch_dir(folder);
    write_plugin(&dir, name, script);
    dir
}

/// Writes (or rewrites) the plugin `name` in `dir`.
fn write_plugin(dir: &Path, name: &str, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let body = format!("#!/bin/sh\ncat > \"$(dirname \"$0\")/request.json\"\n{script}\n");
    std::fs::write(&path, body).expect("plugin");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("mode");
}

fn request(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("request.json")).expect("the plugin saved it");
    serde_json::from_str(&text).expect("the request is JSON")
}

async fn fixture(plugins: &Path, timeout: Duration) -> Fixture {
    let config = SessionConfig {
        plugins: Some(plugins.to_path_buf()),
        solver_timeout: timeout,
        ..SessionConfig::default()
    };
    Fixture::with(rove_testkit::challenge_routes(Routes::new()), config).await
}

async fn status(f: &mut Fixture) -> Value {
    f.eval("document.getElementById('status').textContent")
        .await
}

#[tokio::test]
async fn a_token_goes_into_the_widget_and_its_callback_and_the_page_says_solved() {
    let dir = plugin(
        "solve-token",
        "token.sh",
        "echo '{\"token\": \"03AFcWeA-plugin-token\"}'",
    );
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.open("/recaptcha.html").await;
    let out = f.ok(json!({"command": "solve"})).await;
    let said = out.text();
    assert!(
        said.contains("solved e1 (recaptcha-v2) with the plugin token.sh: put its token in 1 response field and called the page's onHuman()"),
        "{said}"
    );
    let view = f.view_of(json!({"command": "snapshot"})).await;
    assert!(
        view.contains("\ncaptcha e1 kind=recaptcha-v2 state=solved\n"),
        "{view}"
    );
    assert_eq!(status(&mut f).await, "verified 03AFcWeA-plugi");
    let mut asked = request(&dir);
    let agent = asked
        .as_object_mut()
        .and_then(|o| o.remove("user_agent"))
        .unwrap_or_default();
    let seen = f.eval("navigator.userAgent").await;
    assert_eq!(agent, seen, "the user agent the page sees");
    let url = f.url("/recaptcha.html");
    assert_eq!(
        asked,
        json!({"protocol": 1, "kind": "recaptcha-v2", "site_key": "6LcLocalTestKeyV2",
               "page_url": url, "state": "unsolved"}),
        "the plugin gets the challenge and nothing else"
    );
    // Solved already: nothing is sent again.
    let again = f.ok(json!({"command": "solve", "ref": "e1"})).await;
    assert!(
        again.text().contains("e1 (recaptcha-v2) is solved already"),
        "{}",
        again.text()
    );
    f.close().await;
}

#[tokio::test]
async fn tiles_are_clicked_with_trusted_input_as_the_plugin_names_them() {
    let dir = plugin("solve-cells", "cells.sh", "echo '{\"cells\": [2, 5, 9]}'");
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.open("/recaptcha-image.html").await;
    let checkbox = f.find("I'm not a robot", "checkbox").await;
    f.ok(json!({"command": "click", "ref": checkbox})).await;
    let out = f.ok(json!({"command": "solve"})).await;
    assert!(
        out.text()
            .contains("with the plugin cells.sh: clicked tiles 2, 5, 9 of 9 and verify"),
        "{}",
        out.text()
    );
    assert_eq!(status(&mut f).await, "verified 03AFcWeA-image");
    let asked = request(&dir);
    assert_eq!(asked["state"], "challenge");
    assert_eq!(asked["image"]["rows"], 3);
    assert_eq!(asked["image"]["cols"], 3);
    assert_eq!(
        asked["image"]["instructions"],
        "Select all images with traffic lights"
    );
    let png = asked["image"]["png"].as_str().unwrap_or_default();
    assert!(png.starts_with("iVBORw0KGgo"), "a PNG of the challenge");
    f.close().await;
}

#[tokio::test]
async fn no_plugin_is_no_solver_with_how_to_install_one() {
    let dir = rove_testkit::scratch_dir("solve-none");
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.open("/hcaptcha.html").await;
    let e = f.fails(json!({"command": "solve"})).await;
    let report = e.report();
    assert_eq!(code(&e), "NO_SOLVER");
    assert_eq!(e.retry(), Retry::Never);
    assert!(
        report.hint.contains("install a solver plugin"),
        "{}",
        report.hint
    );
    assert!(report.hint.contains("rove doctor"), "{}", report.hint);
    assert_eq!(status(&mut f).await, "not verified");
    f.close().await;
}

#[tokio::test]
async fn the_plugins_own_error_keeps_its_code_hint_and_retry() {
    let dir = plugin(
        "solve-license",
        "licensed.sh",
        r#"echo '{"error": {"code": "LICENSE_INVALID", "message": "the license expired on 2026-01-01", "hint": "renew the license at https://solver.example/account", "retry": "never"}}'"#,
    );
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.open("/turnstile.html").await;
    let e = f.fails(json!({"command": "solve"})).await;
    let report = e.report();
    assert_eq!(code(&e), "LICENSE_INVALID");
    assert_eq!(report.retry, Retry::Never);
    assert_eq!(
        report.hint,
        "renew the license at https://solver.example/account"
    );
    assert!(
        report.message.contains("the license expired on 2026-01-01"),
        "{}",
        report.message
    );
    assert_eq!(report.facts, Some(json!({"plugin": "licensed.sh"})));
    let wire = serde_json::to_value(&report).expect("serializes");
    assert_eq!(wire["code"], "LICENSE_INVALID");
    assert_eq!(request(&dir)["kind"], "turnstile");
    f.close().await;
}

#[tokio::test]
async fn a_hanging_plugin_is_killed_with_its_children_at_its_deadline() {
    let dir = plugin(
        "solve-hang",
        "hangs.sh",
        "sleep 300 &\necho $! > \"$(dirname \"$0\")/child.pid\"\nwait",
    );
    let mut f = fixture(&dir, Duration::from_secs(2)).await;
    f.open("/recaptcha.html").await;
    let started = Instant::now();
    let e = f.fails(json!({"command": "solve"})).await;
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(code(&e), "SOLVER_FAILED");
    assert_eq!(e.retry(), Retry::Retry);
    assert!(
        e.to_string()
            .contains("hangs.sh did not answer within 2 s; rove killed it"),
        "{e}"
    );
    let child: u32 = std::fs::read_to_string(dir.join("child.pid"))
        .expect("the plugin started a child")
        .trim()
        .parse()
        .expect("a pid");
    let gone = rove_testkit::gone_within(child, Duration::from_secs(5)).await;
    assert!(gone, "the plugin's child {child} outlived it");
    assert_eq!(status(&mut f).await, "not verified");
    f.close().await;
}

#[tokio::test]
async fn a_plugin_printing_garbage_is_a_typed_failure_and_nothing_is_sent() {
    let dir = plugin(
        "solve-garbage",
        "garbage.sh",
        "echo 'Traceback (most recent call last): KeyError: token'",
    );
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.open("/recaptcha.html").await;
    let e: CommandError = f.fails(json!({"command": "solve"})).await;
    assert_eq!(code(&e), "SOLVER_FAILED");
    assert!(
        e.to_string()
            .contains("garbage.sh printed what is not the protocol's JSON"),
        "{e}"
    );
    assert!(e.to_string().contains("Traceback"), "{e}");
    assert_eq!(
        e.action_sent(),
        rove_errors::ActionSent::NotSent,
        "nothing reached the page"
    );
    assert_eq!(status(&mut f).await, "not verified");
    f.close().await;
}

#[tokio::test]
async fn an_image_captchas_text_answer_is_typed_into_its_field() {
    let dir = plugin("solve-text", "reads.sh", "echo '{\"text\": \"W7KP\"}'");
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.open("/image-captcha.html").await;
    let out = f.ok(json!({"command": "solve"})).await;
    let said = out.text();
    assert!(
        said.contains("answered e1 (image) with the plugin reads.sh: typed its answer into e"),
        "{said}"
    );
    assert!(
        said.contains("; the page checks it when its form is sent") && !said.contains("solved"),
        "never called solved: {said}"
    );
    assert_eq!(
        f.eval("document.querySelector('[name=captcha_code]').value")
            .await,
        "W7KP"
    );
    // Typed is as far as rove can see: the page checks it on sending.
    let view = f.view_of(json!({"command": "snapshot"})).await;
    assert!(view.contains(" kind=image state=answered\n"), "{view}");
    let asked = request(&dir);
    assert_eq!(asked["kind"], "image");
    assert_eq!(asked["state"], "unsolved");
    assert_eq!(
        asked["image"]["instructions"],
        "type the text the image shows"
    );
    assert!(
        asked["image"].get("rows").is_none(),
        "no grid for a text captcha: {asked}"
    );
    let png = asked["image"]["png"].as_str().unwrap_or_default();
    assert!(png.starts_with("iVBORw0KGgo"), "a PNG of the captcha image");
    f.close().await;
}

#[tokio::test]
async fn text_for_a_widget_that_takes_none_is_refused_and_nothing_is_typed() {
    let dir = plugin(
        "solve-text-wrong",
        "reads.sh",
        "echo '{\"text\": \"W7KP\"}'",
    );
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.open("/recaptcha.html").await;
    let e = f.fails(json!({"command": "solve"})).await;
    assert_eq!(code(&e), "SOLVER_FAILED");
    assert!(
        e.to_string()
            .contains("answered with text, which e1 (recaptcha-v2) does not take"),
        "{e}"
    );
    assert_eq!(status(&mut f).await, "not verified");
    f.close().await;
}

#[tokio::test]
async fn hcaptchas_image_challenge_is_answered_tile_by_tile() {
    let dir = plugin(
        "solve-hcaptcha-cells",
        "cells.sh",
        "echo '{\"cells\": [1, 4, 8]}'",
    );
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.open("/hcaptcha-image.html").await;
    let checkbox = f.find("I am human", "checkbox").await;
    f.ok(json!({"command": "click", "ref": checkbox})).await;
    let view = f.view_of(json!({"command": "snapshot"})).await;
    assert!(view.contains(" kind=hcaptcha state=challenge\n"), "{view}");
    let out = f.ok(json!({"command": "solve"})).await;
    assert!(
        out.text()
            .contains("(hcaptcha) with the plugin cells.sh: clicked tiles 1, 4, 8 of 9 and verify"),
        "{}",
        out.text()
    );
    let verified = status(&mut f).await;
    assert!(
        verified
            .as_str()
            .is_some_and(|s| s.starts_with("verified P1_image-")),
        "{verified}"
    );
    let asked = request(&dir);
    assert_eq!(asked["kind"], "hcaptcha");
    assert_eq!(asked["state"], "challenge");
    assert_eq!(
        (
            asked["image"]["rows"].clone(),
            asked["image"]["cols"].clone()
        ),
        (json!(3), json!(3))
    );
    assert_eq!(
        asked["image"]["instructions"],
        "Please click each image containing a bus"
    );
    f.close().await;
}

#[tokio::test]
async fn the_interstitials_clearance_cookie_is_set_for_the_page_and_the_page_loaded_again() {
    let answer = format!(
        "echo '{{\"cookies\": [{{\"name\": \"cf_clearance\", \"value\": \"{}\"}}]}}'",
        rove_testkit::CLEARANCE
    );
    let dir = plugin("solve-cookie", "clears.sh", &answer);
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    // The wall comes with a 403: the failure carries its view.
    let e = f
        .fails(json!({"command": "open", "url": f.url("/guarded")}))
        .await;
    assert!(e.to_string().contains("403"), "{e}");
    let out = f.ok(json!({"command": "solve"})).await;
    assert!(
        out.text().contains(
            "(cloudflare-interstitial) with the plugin clears.sh: set the cookie \"cf_clearance\" and loaded the page again"
        ),
        "{}",
        out.text()
    );
    let view = f.view_of(json!({"command": "snapshot"})).await;
    assert!(view.contains("Welcome past the wall"), "{view}");
    assert!(!view.contains("captcha e"), "{view}");
    assert_eq!(request(&dir)["kind"], "cloudflare-interstitial");
    f.close().await;
}

#[tokio::test]
async fn a_cookie_for_another_site_is_refused_and_none_is_set() {
    let dir = plugin("solve-cookie-elsewhere", "elsewhere.sh", "true");
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.fails(json!({"command": "open", "url": f.url("/guarded")}))
        .await;
    // The page is on 127.0.0.1: no domain above an address, no other site.
    for domain in [
        "example.com",
        "EXAMPLE.COM",
        "0.0.1",
        "0.1",
        "1",
        ".",
        "com",
        "127.0.0.1.example.com",
    ] {
        let answer = format!(
            "echo '{{\"cookies\": [{{\"name\": \"cf_clearance\", \"value\": \"cleared-by-plugin\"}}, {{\"name\": \"session\", \"value\": \"stolen\", \"domain\": \"{domain}\"}}]}}'"
        );
        write_plugin(&dir, "elsewhere.sh", &answer);
        let e = f.fails(json!({"command": "solve"})).await;
        assert_eq!(code(&e), "SOLVER_FAILED", "{domain}: {e}");
        assert!(
            e.to_string()
                .contains("which is not the page's site 127.0.0.1"),
            "{domain}: {e}"
        );
    }
    let jar = f.ok(json!({"command": "cookies"})).await;
    assert!(!jar.text().contains("cf_clearance"), "{}", jar.text());
    assert!(!jar.text().contains("stolen"), "{}", jar.text());
    let view = f.view_of(json!({"command": "snapshot"})).await;
    assert!(view.contains("kind=cloudflare-interstitial"), "{view}");
    f.close().await;
}

#[tokio::test]
async fn a_text_answer_longer_than_a_line_is_refused_and_nothing_is_typed() {
    let long = "W".repeat(101);
    let dir = plugin(
        "solve-text-long",
        "reads.sh",
        &format!("echo '{{\"text\": \"{long}\"}}'"),
    );
    let mut f = fixture(&dir, Duration::from_secs(20)).await;
    f.open("/image-captcha.html").await;
    let e = f.fails(json!({"command": "solve"})).await;
    assert_eq!(code(&e), "SOLVER_FAILED");
    assert!(
        e.to_string().contains(
            "answered with 101 characters, but a captcha's text is one line of at most 100"
        ),
        "{e}"
    );
    write_plugin(
        &dir,
        "reads.sh",
        r#"printf '%s\n' '{"text": "W7\u0007KP"}'"#,
    );
    let e = f.fails(json!({"command": "solve"})).await;
    assert!(e.to_string().contains("holding control characters"), "{e}");
    assert_eq!(
        f.eval("document.querySelector('[name=captcha_code]').value")
            .await,
        ""
    );
    f.close().await;
}
