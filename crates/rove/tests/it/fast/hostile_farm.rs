//! A farm's credentials where rove did not know to look (issue 37, items
//! 4 and 9), without a browser: LambdaTest's `capabilities=` and
//! BrowserStack's `caps=` carry the key inside a JSON document that is a
//! URL parameter (as written or URL-encoded), and some farms take a
//! `?jwt=`. An unreachable address of each is refused with the key hidden
//! in the CLI's error and in an MCP tool's result, and `print-config` never
//! writes such an address into a host's file (it names `ROVE_CDP_URL`).

use serde_json::json;

use crate::support::Env;
use crate::support::mcp_client::{McpClient, text};

const KEY: &str = "F4rmK3y-S3cr3t";

/// Farm addresses at `port` (nothing listens there), each with the key.
fn addresses(port: u16) -> Vec<String> {
    vec![
        format!(
            r#"ws://127.0.0.1:{port}/playwright?capabilities={{"browserName":"Chrome","LT:Options":{{"user":"ada","accessKey":"{KEY}"}}}}"#
        ),
        format!(
            "ws://127.0.0.1:{port}/playwright?capabilities=%7B%22LT%3AOptions%22%3A%7B%22user%22%3A%22ada%22%2C%22accessKey%22%3A%22{KEY}%22%7D%7D"
        ),
        format!(
            r#"ws://127.0.0.1:{port}/?caps={{"browserstack.username":"ada","browserstack.key":"{KEY}"}}"#
        ),
        format!("ws://127.0.0.1:{port}/?jwt={KEY}&launch=1"),
    ]
}

fn closed_port() -> u16 {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    port
}

#[tokio::test]
async fn a_key_inside_a_farms_capabilities_is_hidden_from_errors_and_tool_results() {
    let port = closed_port();
    let env = Env::new("hostile-farm-keys").await;
    for (i, url) in addresses(port).into_iter().enumerate() {
        // A session of its own for each address: a running session refuses
        // a command that names another browser.
        let session = format!("farm{i}");
        let (status, report) = env
            .run(&["--session", &session, "--cdp-url", &url, "snapshot"])
            .await;
        assert_eq!(status, 6, "{url}: {report}");
        let shown = report.to_string();
        assert!(shown.contains("<redacted>"), "{url}: {shown}");
        assert!(!shown.contains(KEY), "{url}: {shown}");
        let out = env
            .rove(&["--session", &session, "--cdp-url", &url, "snapshot"])
            .output()
            .await
            .expect("ran");
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!printed.contains(KEY), "{url}: {printed}");
        env.close(&session).await;

        let mut mcp = McpClient::start(&env, &["--cdp-url", &url]).await;
        let result = mcp.call("snapshot", json!({})).await;
        assert_eq!(result["isError"], true, "{url}: {result}");
        let said = result.to_string();
        assert!(text(&result, 0).contains("<redacted>"), "{url}: {said}");
        assert!(!said.contains(KEY), "{url}: {said}");
        mcp.interrupt().await;
    }
}

#[test]
fn print_config_never_writes_a_key_inside_a_farms_capabilities() {
    let dir = rove_testkit::scratch_dir("hostile-farm-print-config");
    for url in addresses(9222) {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rove"))
            .current_dir(&dir)
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_CDP_HEADER")
            .env_remove("ROVE_SESSION")
            .args([
                "--cdp-url",
                &url,
                "print-config",
                "--harness",
                "claude-code",
            ])
            .output()
            .expect("ran");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
        assert_eq!(out.status.code(), Some(0), "{url}: {stderr}");
        assert!(
            !stdout.contains(KEY) && !stderr.contains(KEY),
            "{url}: {stdout}{stderr}"
        );
        assert!(!stdout.contains("--cdp-url"), "{url}: {stdout}");
        assert!(stderr.contains("ROVE_CDP_URL"), "{url}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
