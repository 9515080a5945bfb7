//! The real `rove` binary where it must fail without a browser: `doctor`
//! with none to find, and a `--cdp-url` nobody listens on.

use crate::cli::{json, rove, run};

#[tokio::test]
async fn doctor_fails_with_the_reason_when_there_is_no_browser() {
    let out = run(rove()
        .arg("doctor")
        .env("ROVE_BROWSER", "/nonexistent/chromium"))
    .await;
    assert_eq!(out.status, Some(6), "environment errors exit 6");
    assert!(out.stdout.contains("FAIL find browser"), "{}", out.stdout);
    assert!(out.stderr.contains("error[NO_BROWSER]"), "{}", out.stderr);
    assert!(
        out.stderr.contains("/nonexistent/chromium"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("hint:"), "{}", out.stderr);

    let out = run(rove()
        .args(["--json", "doctor"])
        .env("ROVE_BROWSER", "/nonexistent/chromium"))
    .await;
    assert_eq!(out.status, Some(6));
    let report = json(&out.stdout);
    assert_eq!(report["ok"], false);
    assert_eq!(report["error"]["code"], "NO_BROWSER");
    assert_eq!(report["error"]["retry"], "never");
    assert_eq!(report["error"]["action_sent"], "not_sent");
    assert!(
        report["error"]["hint"]
            .as_str()
            .is_some_and(|h| h.contains("ROVE_BROWSER"))
    );
}

#[tokio::test]
async fn an_unreachable_cdp_url_is_browser_disconnected() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    let out = run(rove().args(["doctor", "--json", "--cdp-url", &url])).await;
    assert_eq!(out.status, Some(6));
    assert_eq!(json(&out.stdout)["error"]["code"], "BROWSER_DISCONNECTED");
}

#[tokio::test]
async fn doctor_shows_a_cdp_url_without_its_credentials() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = closed.local_addr().expect("addr");
    drop(closed);
    for url in [
        format!("ws://{addr}/devtools/browser/x?token=tok-s3cr3t"),
        format!("http://me:pw-s3cr3t@{addr}/"),
        // Keys as path segments (issue 43): by their look, by their name.
        format!("wss://{addr}/ws/9f2c4es3cr3t7a1b3d5f60"),
        format!("ws://{addr}/token/s3cr3t-key/devtools"),
    ] {
        for json in [false, true] {
            // `-vv`: the logs at debug, where the address shows too.
            let mut args = vec!["-vv", "doctor", "--cdp-url", &url];
            if json {
                args.push("--json");
            }
            let out = run(rove().args(&args)).await;
            assert_eq!(out.status, Some(6), "{url}: {}", out.stderr);
            let printed = format!("{}{}", out.stdout, out.stderr);
            assert!(printed.contains("<redacted>"), "{url}: {printed}");
            assert!(!printed.contains("s3cr3t"), "{url}: {printed}");
        }
    }
}

#[tokio::test]
async fn a_malformed_cdp_flag_is_rejected_before_anything_with_the_token_hidden() {
    for args in [
        &["--cdp-url", "ftp://127.0.0.1:9?token=hidden-t0ken-1"][..],
        &["--cdp-url", "http://127.0.0.1:99999?token=hidden-t0ken-1"],
        &["--cdp-url", "127.0.0.1:9222?token=hidden-t0ken-1"],
        &[
            "--cdp-url",
            "http://127.0.0.1:9",
            "--cdp-header",
            "no colon hidden-t0ken-1",
        ],
        &[
            "--cdp-url",
            "http://127.0.0.1:9",
            "--cdp-ca",
            "/nonexistent/ca.pem",
        ],
    ] {
        let out = run(rove().args(["doctor", "--json"]).args(args)).await;
        assert_eq!(out.status, Some(2), "{args:?}: {}", out.stderr);
        assert_eq!(
            json(&out.stdout)["error"]["code"],
            "COMMAND_REJECTED",
            "{args:?}"
        );
        assert!(!out.stdout.contains("hidden-t0ken-1"), "{}", out.stdout);
        assert!(!out.stderr.contains("hidden-t0ken-1"), "{}", out.stderr);
        // Nothing was started: no check ran.
        assert!(json(&out.stdout)["checks"].is_null(), "{}", out.stdout);
    }
}
