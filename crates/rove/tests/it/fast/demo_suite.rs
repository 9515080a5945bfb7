//! `rove demo-site` serving until interrupted, and the commands other than
//! `rove test` refusing a second `--cdp-url`; neither starts a browser.

use crate::support;

use std::time::Duration;

use serde_json::Value;
use tokio::process::Command;

#[tokio::test]
async fn other_commands_refuse_two_cdp_urls() {
    // After the command name, or one before it and one after (clap alone
    // would keep only the second).
    let after = ["--json", "doctor", "--cdp-url", "http://127.0.0.1:9"];
    let before = ["--cdp-url", "http://127.0.0.1:9", "--json", "doctor"];
    for given in [after, before] {
        let output = Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(given)
            .args(["--cdp-url=http://127.0.0.1:10"])
            .env_remove("ROVE_CDP_URL")
            .kill_on_drop(true)
            .output()
            .await
            .expect("ran");
        assert_eq!(output.status.code(), Some(2), "{given:?}");
        let answer: Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
        assert_eq!(answer["error"]["code"], "COMMAND_REJECTED");
        assert_eq!(
            answer["error"]["message"],
            "--cdp-url is given 2 times; only rove test spreads its attempts over several browsers"
        );
    }
}

#[tokio::test]
async fn demo_site_prints_its_url_and_serves_until_interrupted() {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_rove"))
        .arg("demo-site")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("rove demo-site started");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let url = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("a URL within 30 s")
        .expect("read")
        .expect("a line");
    let address = url.strip_prefix("http://").expect("an http URL");
    assert!(address.starts_with("127.0.0.1:"), "{url}");
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect");
    stream
        .write_all(b"GET /api/account?user=kim HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut answer))
        .await
        .expect("answered")
        .expect("read");
    let body = answer.split("\r\n\r\n").nth(1).expect("a body");
    let kim: Value = serde_json::from_str(body).expect("JSON");
    assert_eq!(kim["orders"][0]["id"], 1001, "the seeded shop");
    let status = support::interrupt(
        &mut child,
        Duration::from_secs(10),
        "ended after the signal",
    )
    .await;
    assert_eq!(status.code(), Some(130));
}
