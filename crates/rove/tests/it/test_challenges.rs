//! Challenges through the real binary's `rove test`: a suite over
//! rove-testkit's offline widgets, with one solver plugin that solves
//! hCaptcha and passes on every other kind. The walled task ends on its
//! challenge without a model step; the solved one passes its check; the
//! look-alike page is no challenge. `reached_captcha` comes from what the
//! views showed, in results.json, the suite line and report.html, with no
//! judge to say it. Asserted after the run from what the binary wrote and
//! what the model's server saw.

use std::time::Duration;

use rove_localserver::{LocalServer, Request, RequestLog, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

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

/// The agent's model: says done with success at once.
async fn agent(log: RequestLog) -> LocalServer {
    LocalServer::start(Routes::new().log_requests(log).handle(
        "/v1/chat/completions",
        |_: &Request| {
            let call = json!({"id": "c", "type": "function", "function": {"name": "done", "arguments": json!({"text": "done", "success": true}).to_string()}});
            let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 40, "completion_tokens": 4}});
            Response::with_type(200, "application/json", reply.to_string().into_bytes())
        },
    ))
    .await
    .expect("agent")
}

fn attempt<'a>(results: &'a Value, task: &str) -> &'a Value {
    results["attempts"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["task"] == task))
        .unwrap_or_else(|| panic!("no attempt of {task} in {results:#}"))
}

#[tokio::test]
async fn rove_test_records_the_challenges_its_views_showed_and_which_step_met_them() {
    use std::os::unix::fs::PermissionsExt;
    let pages = LocalServer::start(rove_testkit::challenge_routes(Routes::new()))
        .await
        .expect("pages");
    let log = RequestLog::new();
    let agent = agent(log.clone()).await;
    let dir = rove_testkit::scratch_dir("test-challenges");
    std::fs::write(dir.join("suite.yaml"), SUITE).expect("suite");
    let plugins = dir.join("plugins");
    std::fs::create_dir_all(&plugins).expect("plugins folder");
    let plugin = plugins.join("hcaptcha-only");
    std::fs::write(&plugin, PLUGIN).expect("plugin");
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).expect("mode");
    let out = dir.join("out");
    let output = crate::support::finished(
        Duration::from_secs(240),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .arg("--plugins")
            .arg(&plugins)
            .arg("test")
            .arg(dir.join("suite.yaml"))
            .args(["--model", "openai:scripted", "--vision", "off", "-j", "2"])
            .arg("--out")
            .arg(&out)
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", agent.url("/v1"))
            .env("PAGES", pages.url("").trim_end_matches('/'))
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_MODEL")
            .env_remove("ROVE_PLUGINS"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results.json"))
            .expect("JSON");

    let walled = attempt(&results, "walled");
    assert_eq!(
        (
            &walled["status"],
            &walled["ending"],
            &walled["reached_captcha"]
        ),
        (&json!("failed"), &json!("challenge"), &json!(0)),
        "{walled:#}"
    );
    let solved = attempt(&results, "solved");
    assert_eq!(
        (&solved["status"], &solved["reached_captcha"]),
        (&json!("passed"), &json!(0)),
        "{solved:#}"
    );
    let lookalike = attempt(&results, "lookalike");
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

    assert!(stdout.contains(" · 2 met a challenge"), "{stdout}");
    let report = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert_eq!(
        report.matches("met a challenge on the first page").count(),
        2,
        "report.html says it at each attempt that met one"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
