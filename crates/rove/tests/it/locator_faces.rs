//! Locators at the faces: `rove click 'role=button[name="Save"]'` acts on
//! the element and prints what the locator resolved to before the usual
//! outcome line (a bad locator is refused before the daemon is asked); an
//! MCP tool call answers the same line first.

use crate::support;

use rove_localserver::{Response, Routes};
use serde_json::json;
use support::Env;
use support::mcp_client::{McpClient, text};

const PAGE: &str = "<!doctype html><title>Form</title><link rel=icon href='data:,'>\
    <button onclick=\"document.getElementById('state').textContent = 'saved'\">Save</button>\
    <p id=state>idle</p>";

#[tokio::test]
async fn the_shell_prints_what_a_locator_resolved_to_before_the_outcome() {
    let env = Env::with_routes(
        "locators",
        Routes::new().page("/form", Response::html(PAGE)),
    )
    .await;
    env.ok(&["open", &env.server.url("/form")]).await;
    let view = env.ok(&["snapshot"]).await;
    let save = support::ref_of(view["view"].as_str().unwrap_or_default(), "button \"Save\"");

    let output = env
        .rove(&["click", "role=button[name=\"Save\"]"])
        .output()
        .await
        .expect("rove runs");
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{shown}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(
        lines.first().copied(),
        Some(format!("role=button[name=\"Save\"] → {save} button \"Save\"").as_str()),
        "{shown}"
    );
    assert_eq!(
        lines.get(1).copied(),
        Some(format!("clicked {save}").as_str())
    );
    assert_eq!(
        env.value("document.getElementById('state').textContent")
            .await,
        "saved"
    );

    // --json carries the same line first in `happened`.
    let out = env.ok(&["get", "text", "css=#state"]).await;
    assert_eq!(out["data"]["result"], "saved", "{out}");
    assert!(
        out["happened"][0]
            .as_str()
            .is_some_and(|l| l.starts_with("css=#state → e")),
        "{out}"
    );

    // A target that is neither a ref nor a locator: usage error, exit 2.
    let (status, refused) = env.run(&["click", "Save"]).await;
    assert_eq!(status, 2, "{refused}");
    assert_eq!(refused["error"]["code"], "COMMAND_REJECTED", "{refused}");
    env.close("default").await;
}

#[tokio::test]
async fn an_mcp_tool_call_answers_what_a_locator_resolved_to_first() {
    let env = Env::with_routes(
        "locators-mcp",
        Routes::new().page("/form", Response::html(PAGE)),
    )
    .await;
    let mut client = McpClient::start(&env, &[]).await;
    let opened = client
        .call("open", json!({"url": env.server.url("/form")}))
        .await;
    assert_eq!(opened["isError"], false, "{opened}");
    let clicked = client.call("click", json!({"ref": "text=save"})).await;
    assert_eq!(clicked["isError"], false, "{clicked}");
    let shown = text(&clicked, 0);
    let first = shown.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("text=save → e") && first.ends_with(" button \"Save\""),
        "{shown}"
    );
    assert!(
        shown
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("clicked e")),
        "{shown}"
    );
    let state = client
        .call(
            "eval",
            json!({"js": "document.getElementById('state').textContent"}),
        )
        .await;
    assert!(text(&state, 0).contains("saved"), "{state}");
}
