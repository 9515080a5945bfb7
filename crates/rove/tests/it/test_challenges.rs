//! Challenges through the real binary's `rove test`: a suite over
//! rove-testkit's offline widgets, with one solver plugin that solves
//! hCaptcha and passes on every other kind. The walled task ends on its
//! challenge without a model step; the solved one passes its check; the
//! look-alike page is no challenge. `reached_captcha` comes from what the
//! views showed, in results.json, the suite line and report.html, with no
//! judge to say it. Asserted after the run from what the binary wrote and
//! what the model's server saw.

use std::time::Duration;

use rove_localserver::{LocalServer, RequestLog, Routes};
use serde_json::json;

use crate::support::suite::{attempt, done_model, rove_test};

const SUITE: &str = r#"
- name: walled
  task: Sign up behind the wall
  start_url: ${PAGES}/recaptcha.html
- name: solved
  task: Send the contact form
  start_url: ${PAGES}/hcaptcha.html
  verify:
    - text: {contains: verified P1_plugin}
- name: lookalike
  task: Log in to the look-alike
  start_url: ${PAGES}/verify-human.html
"#;

/// Solves hCaptcha with a token; any other kind is not its own.
const PLUGIN: &str = r#"#!/bin/sh
request=$(cat)
case "$request" in
  *'"kind":"hcaptcha"'*) echo '{"token": "P1_plugin-token"}' ;;
  *) echo '{"error": {"code": "UNSUPPORTED_KIND", "message": "only hCaptcha here", "hint": "install another plugin"}}' ;;
esac
"#;

#[tokio::test]
async fn rove_test_records_the_challenges_its_views_showed_and_which_step_met_them() {
    use std::os::unix::fs::PermissionsExt;
    let pages = LocalServer::start(rove_testkit::challenge_routes(Routes::new()))
        .await
        .expect("pages");
    let log = RequestLog::new();
    let agent = done_model(log.clone()).await;
    let plugins = rove_testkit::scratch_dir("test-challenges-plugins");
    let plugin = plugins.join("hcaptcha-only");
    std::fs::write(&plugin, PLUGIN).expect("plugin");
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).expect("mode");
    let suite = SUITE.replace("${PAGES}", pages.url("").trim_end_matches('/'));
    let plugins_flag = plugins.to_string_lossy().into_owned();
    let run = rove_test(
        "challenges",
        &suite,
        &agent,
        &["--plugins", &plugins_flag, "-j", "2"],
        Duration::from_secs(240),
    )
    .await;
    assert_eq!(run.status, 1, "{}\n{}", run.stdout, run.stderr);
    let results = &run.results;

    let walled = attempt(results, "walled");
    assert_eq!(
        (
            &walled["status"],
            &walled["ending"],
            &walled["reached_captcha"]
        ),
        (&json!("failed"), &json!("challenge"), &json!(0)),
        "{walled:#}"
    );
    let solved = attempt(results, "solved");
    assert_eq!(
        (&solved["status"], &solved["reached_captcha"]),
        (&json!("passed"), &json!(0)),
        "{solved:#}"
    );
    let lookalike = attempt(results, "lookalike");
    assert_eq!(lookalike["status"], "self-reported", "{lookalike:#}");
    assert!(
        lookalike.get("reached_captcha").is_none(),
        "a page that only says so is no challenge: {lookalike:#}"
    );
    assert_eq!(results["suite"]["reached_captcha"], 2, "{results:#}");

    // No model step was spent on the wall: the model never saw its task.
    let asked: Vec<String> = log
        .requests()
        .iter()
        .map(|r| String::from_utf8_lossy(&r.body).into_owned())
        .collect();
    assert!(
        asked.iter().any(|b| b.contains("Send the contact form")),
        "the solved task reached the model"
    );
    assert!(
        !asked.iter().any(|b| b.contains("Sign up behind the wall")),
        "the walled task reached the model"
    );

    assert!(
        run.stdout.contains(" · 2 met a challenge"),
        "{}",
        run.stdout
    );
    let report = run.report.expect("report.html");
    assert_eq!(
        report.matches("met a challenge on the first page").count(),
        2,
        "report.html says it at each attempt that met one"
    );
}
