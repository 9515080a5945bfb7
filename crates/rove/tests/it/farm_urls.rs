//! `--cdp-url` as browser farms write it, against a farm's front door
//! ([`rove_testkit::Farm`]) in front of a real Chromium: path-less
//! `ws://…?token=`, `http://…?token=` discovery with a chunked answer and a
//! path-less debugger URL, a token in a header, `wss://` and `https://` with
//! a test CA, and a refused token. The token never shows in output.

use rove_testkit::{External, Farm, test_ca_file};

use crate::cli::{json, rove, run};

const TOKEN: &str = "farm-t0ken-4b8e";

async fn farm(name: &str, tls: bool) -> (External, Farm) {
    let browser = External::start(name);
    let farm = Farm::start(browser.port, &browser.browser_path(), TOKEN, tls).await;
    (browser, farm)
}

async fn doctor(args: &[&str]) -> crate::cli::Run {
    let out = run(rove().args(["--json", "doctor"]).args(args)).await;
    for text in [&out.stdout, &out.stderr] {
        assert!(!text.contains(TOKEN), "the token shows: {text}");
    }
    out
}

fn requests(farm: &Farm) -> Vec<String> {
    farm.seen().into_iter().map(|s| s.request_line).collect()
}

#[tokio::test]
async fn a_farm_is_reached_by_its_documented_url_forms() {
    let (_browser, farm) = farm("farm-forms", false).await;
    let port = farm.port;

    let out = doctor(&["--cdp-url", &format!("ws://127.0.0.1:{port}?token={TOKEN}")]).await;
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    assert!(
        requests(&farm).contains(&format!("GET /?token={TOKEN} HTTP/1.1")),
        "{:?}",
        farm.seen()
    );

    let out = doctor(&[
        "--cdp-url",
        &format!("http://127.0.0.1:{port}?token={TOKEN}"),
    ])
    .await;
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let seen = requests(&farm);
    assert!(
        seen.contains(&format!("GET /json/version?token={TOKEN} HTTP/1.1")),
        "{seen:?}"
    );
    assert!(farm.seen().iter().all(|s| s.authorised), "{seen:?}");
    let connect = &json(&out.stdout)["checks"][0];
    assert!(
        connect.to_string().contains("<redacted>"),
        "doctor names the farm with the token hidden: {connect}"
    );
}

#[tokio::test]
async fn a_header_carries_the_farms_key() {
    let (_browser, farm) = farm("farm-header", false).await;
    let url = format!("http://127.0.0.1:{}", farm.port);
    let bearer = format!("Authorization: Bearer {TOKEN}");
    let out = doctor(&["--cdp-url", &url, "--cdp-header", &bearer]).await;
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let seen = farm.seen();
    assert!(
        seen.len() >= 2 && seen.iter().all(|s| s.authorised),
        "{seen:?}"
    );
}

#[tokio::test]
async fn a_refused_token_is_an_auth_error() {
    let (_browser, farm) = farm("farm-refused", false).await;
    let port = farm.port;
    for url in [
        format!("http://127.0.0.1:{port}?token=wrong-{TOKEN}"),
        format!("ws://127.0.0.1:{port}/?token=wrong-{TOKEN}"),
        format!("http://127.0.0.1:{port}"),
    ] {
        let out = doctor(&["--cdp-url", &url]).await;
        assert_eq!(out.status, Some(6), "{url}: {}", out.stderr);
        let error = &json(&out.stdout)["error"];
        assert_eq!(error["code"], "LAUNCH_FAILED", "{url}: {error}");
        assert_eq!(error["retry"], "never", "{url}: {error}");
        assert_eq!(error["facts"]["status"], 401, "{url}: {error}");
        assert_eq!(error["facts"]["cause"], "auth", "{url}: {error}");
        let message = error["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("refused the credentials (HTTP 401)"),
            "{message}"
        );
        assert!(error["hint"].to_string().contains("token"), "{error}");
    }
}

#[tokio::test]
async fn wss_and_https_are_reached_with_the_test_ca() {
    let (_browser, farm) = farm("farm-tls", true).await;
    let port = farm.port;
    let ca = test_ca_file();
    let ca = ca.to_str().expect("utf-8 path");
    for url in [
        format!("wss://127.0.0.1:{port}?token={TOKEN}"),
        format!("https://localhost:{port}/?token={TOKEN}"),
    ] {
        let out = doctor(&["--cdp-url", &url, "--cdp-ca", ca]).await;
        assert_eq!(out.status, Some(0), "{url}: {}\n{}", out.stdout, out.stderr);
    }
    assert!(
        requests(&farm).contains(&format!("GET /json/version?token={TOKEN} HTTP/1.1")),
        "{:?}",
        farm.seen()
    );
    // Without the CA the farm's certificate is not trusted.
    let out = doctor(&[
        "--cdp-url",
        &format!("wss://127.0.0.1:{port}?token={TOKEN}"),
    ])
    .await;
    assert_eq!(out.status, Some(6), "{}", out.stderr);
    let error = json(&out.stdout)["error"].to_string();
    assert!(error.contains("BROWSER_DISCONNECTED"), "{error}");
    assert!(error.to_lowercase().contains("certificate"), "{error}");
}

#[tokio::test]
async fn a_session_daemon_reaches_the_farm_with_the_header_and_logs_no_key() {
    use rove_localserver::{LocalServer, Response, Routes};
    let (_browser, farm) = farm("farm-session", false).await;
    let site = LocalServer::start(Routes::new().page(
        "/farm",
        Response::html("<!doctype html><title>Through the farm</title><p>hi</p>"),
    ))
    .await
    .expect("fixture server");
    let url = format!("http://127.0.0.1:{}", farm.port);
    let bearer = format!("Authorization: Bearer {TOKEN}");
    let session = format!("farm-{}", std::process::id());
    let command = |args: &[&str]| {
        let mut command = rove();
        command
            .env("ROVE_SESSION", &session)
            // The daemon logs all it does, so the log is worth reading.
            .env("RUST_LOG", "debug")
            .args(["--cdp-url", &url, "--cdp-header", &bearer])
            .args(args);
        command
    };
    // A wrong key: the daemon's refusal reaches the shell, by cause.
    let wrong = format!("Authorization: Bearer wrong-{TOKEN}");
    let out = run(rove()
        .env("ROVE_SESSION", format!("{session}-wrong"))
        .args(["--json", "--cdp-url", &url, "--cdp-header", &wrong])
        .args(["open", &site.url("/farm")]))
    .await;
    assert_eq!(out.status, Some(6), "{}\n{}", out.stdout, out.stderr);
    let error = &json(&out.stdout)["error"];
    assert_eq!(error["code"], "LAUNCH_FAILED", "{error}");
    assert_eq!(error["facts"]["status"], 401, "{error}");
    assert!(!out.stdout.contains(TOKEN) && !out.stderr.contains(TOKEN));

    let out = run(&mut command(&["open", &site.url("/farm")])).await;
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("Through the farm"), "{}", out.stdout);
    // The daemon's log, read while the session lives: it leaves with it.
    let log = crate::cli::runtime_dir()
        .join("rove")
        .join(format!("{session}.log"));
    let log = std::fs::read_to_string(&log).expect("the daemon wrote its log");
    let out = run(&mut command(&["close"])).await;
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    // The farm's browser is the farm's to end; rove says so.
    assert!(
        out.stdout
            .contains(&format!("the browser at {url} is not rove's"))
            && out.stdout.contains("its owner (the farm) ends it"),
        "{}",
        out.stdout
    );
    // The daemon, not this process, connected: with the header it was given.
    let seen = farm.seen();
    let (refused, let_in) = seen.split_at(1);
    assert!(!refused[0].authorised, "{seen:?}");
    assert!(
        let_in.len() >= 2 && let_in.iter().all(|s| s.authorised),
        "{seen:?}"
    );
    assert!(log.contains("daemon listening"), "{log}");
    assert!(
        !log.contains(TOKEN),
        "the daemon's log shows the key: {log}"
    );
}
