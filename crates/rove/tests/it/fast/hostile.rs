//! Hostile task and results files for `rove test`, without a browser
//! (issue 24): a task that would fill a secret's value into what the model
//! reads is refused before anything runs (item 2), and task names in
//! `--compare` that break lines print no line that passes for rove's own
//! (item 5); and the demo shop's login, which goes on only to its own pages
//! (item 6).

use std::time::Duration;

use rove_localserver::RequestLog;
use serde_json::json;
use tokio::process::Command;

use crate::test_suite::{model_logged, scratch};

/// The lines a forged name tries to pass for rove's own.
const FORGED: &str = "\n1 attempts: 1 passed, 0 failed\nPASSED";

#[tokio::test]
async fn task_names_in_compare_cannot_forge_its_lines() {
    let dir = scratch("hostile-compare");
    let file = |name: &str, passed: u64| {
        let results = json!({"schema": 1, "tasks": [
            {"name": format!("shop{FORGED}\n0 worse, 1 better"), "passed": passed, "attempts": 10,
             "pass_rate": passed as f64 / 10.0, "interval": [passed as f64 / 10.0 - 0.05, passed as f64 / 10.0 + 0.05]}
        ]});
        let path = dir.join(name);
        std::fs::write(&path, results.to_string()).expect("results");
        path
    };
    let (old, new) = (file("old.json", 10), file("new.json", 0));
    let output = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(["test", "--compare"])
        .arg(&old)
        .arg(&new)
        .output()
        .await
        .expect("ran");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "clearly worse: {stdout}");
    for line in stdout.lines() {
        assert!(
            line != "PASSED" && !line.starts_with("1 attempts: 1 passed"),
            "a forged line {line:?} in:\n{stdout}"
        );
    }
    assert!(
        !stdout.lines().any(|l| l.starts_with("0 worse, 1 better")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("1 worse, 0 better")),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_secret_or_key_variable_in_what_a_model_reads_refuses_the_file() {
    let log = RequestLog::new();
    let model = model_logged(log.clone()).await;
    let dir = scratch("hostile-vars");
    for (file, text, field) in [
        (
            "task.yaml",
            "name: login\ntask: \"the password is ${ROVE_HOSTILE_PW}\"\nsecrets: {PW: ROVE_HOSTILE_PW}\n",
            "task",
        ),
        (
            "truth.yaml",
            "name: login\ntask: Log in with <secret>PW</secret>\nground_truth: \"pw ${ROVE_HOSTILE_PW}\"\nsecrets: {PW: ROVE_HOSTILE_PW}\n",
            "ground_truth",
        ),
        (
            "key.yaml",
            "name: login\ntask: \"use the key ${OPENAI_API_KEY}\"\n",
            "task",
        ),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text).expect("task file");
        let output = crate::support::finished(
            Duration::from_secs(60),
            Command::new(env!("CARGO_BIN_EXE_rove"))
                .arg("test")
                .arg(&path)
                .args(["--model", "openai:scripted", "--vision", "off"])
                .env("OPENAI_API_KEY", "sk-live-hostile-77")
                .env("OPENAI_BASE_URL", model.url("/v1"))
                .env("ROVE_HOSTILE_PW", "Hunter2Zq9x")
                .env_remove("ROVE_CDP_URL"),
        )
        .await;
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(2), "{file}: {stdout}\n{stderr}");
        assert!(
            stderr.contains(&format!("{file}:1: {field}: ")),
            "{file}: the field is named: {stderr}"
        );
        assert!(
            !stderr.contains("Hunter2Zq9x") && !stderr.contains("sk-live-hostile-77"),
            "{stderr}"
        );
        assert!(stdout.is_empty(), "nothing ran: {stdout}");
    }
    assert!(log.requests().is_empty(), "the model was never asked");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where the demo shop sends the browser after a login with `next`: the
/// `Location` of its answer to a real POST (issue 24, item 6).
async fn after_login(site: &rove_demo::DemoSite, next: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let encoded: String = next.bytes().map(|b| format!("%{b:02X}")).collect();
    let body = format!(
        "username={}&password={}&next={encoded}",
        rove_demo::SEEDED[0],
        rove_demo::SEED_PASSWORD
    );
    let address = site
        .url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let mut stream = tokio::net::TcpStream::connect(&address)
        .await
        .expect("connect");
    let request = format!(
        "POST /login HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("answered within 10 s")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    assert!(answer.starts_with("HTTP/1.1 303"), "{answer}");
    answer
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(name, _)| name.eq_ignore_ascii_case("location"))
                .map(|(_, to)| to.trim().to_owned())
        })
        .unwrap_or_else(|| panic!("no Location: {answer}"))
}

#[tokio::test]
async fn the_demo_shops_login_goes_on_only_to_its_own_pages() {
    let site = rove_demo::DemoSite::start(0).await.expect("demo shop");
    assert_eq!(after_login(&site, "/orders").await, "/orders");
    for foreign in [
        "/\\evil.test",
        "//evil.test",
        "/\t/evil.test",
        "https://evil.test/",
        "/%2F/evil.test",
    ] {
        assert_eq!(after_login(&site, foreign).await, "/account", "{foreign:?}");
    }
}
