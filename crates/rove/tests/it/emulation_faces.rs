//! `set` and `pdf` at the faces: the shell spells them as a person would
//! (`rove set device iPhone 15`, negative coordinates, `rove pdf out.pdf`
//! written where the shell is), and `rove mcp` offers them only with their
//! groups.

use crate::support;

use rove_localserver::{Response, Routes};
use serde_json::json;
use support::Env;
use support::mcp_client::{McpClient, text};

const PAGE: &str = "<!doctype html><title>Phone</title>\
    <meta name=viewport content='width=device-width, initial-scale=1'>\
    <link rel=icon href='data:,'><h1>A page to emulate and print</h1>";

async fn env(name: &str) -> Env {
    Env::with_routes(name, Routes::new().page("/page", Response::html(PAGE))).await
}

#[tokio::test]
async fn the_shell_sets_a_device_and_a_position_and_prints_where_it_is() {
    let env = env("emulate-cli").await;
    env.ok(&["open", &env.server.url("/page")]).await;

    let out = env.ok(&["set", "device", "iPhone", "15"]).await;
    let said = out["data"].as_str().unwrap_or_default().to_owned();
    assert!(said.contains("the device is iPhone 15"), "{out}");
    assert_eq!(env.value("innerWidth").await, 393);
    assert_eq!(
        env.value("matchMedia('(pointer: coarse)').matches").await,
        true
    );

    // A southern, western position is negative, not a flag.
    env.ok(&["set", "geo", "-33.9249", "-18.4241"]).await;
    let position = env
        .value("new Promise(ok => navigator.geolocation.getCurrentPosition(p => ok([p.coords.latitude, p.coords.longitude]), e => ok(e.message), {timeout: 5000}))")
        .await;
    assert_eq!(position, json!([-33.9249, -18.4241]));

    // A relative path is the shell's, not the daemon's.
    let folder = env.dir.join("prints");
    std::fs::create_dir_all(&folder).expect("folder");
    let mut pdf = env.rove(&["--json", "pdf", "page.pdf", "--format", "letter"]);
    pdf.current_dir(&folder);
    let (status, wrote) = support::output_json(&["pdf"], pdf).await;
    assert_eq!(status, 0, "{wrote}");
    let bytes = std::fs::read(folder.join("page.pdf")).expect("the PDF");
    assert!(bytes.starts_with(b"%PDF-") && bytes.len() > 1024);
    env.close("default").await;
}

#[tokio::test]
async fn mcp_offers_set_and_pdf_with_their_groups() {
    let env = env("emulate-mcp").await;
    let url = env.server.url("/page");

    let mut plain = McpClient::start(&env, &[]).await;
    let refused = plain
        .call("set", json!({"what": "media", "value": "dark"}))
        .await;
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(text(&refused, 0).contains("--caps emulation"), "{refused}");

    let mut mcp = McpClient::start(&env, &["--caps", "emulation,pdf"]).await;
    let names = mcp.tool_names().await;
    assert!(names.iter().any(|n| n == "set") && names.iter().any(|n| n == "pdf"));
    let opened = mcp.call("open", json!({"url": url})).await;
    assert_eq!(opened["isError"], false, "{opened}");
    let set = mcp
        .call("set", json!({"what": "media", "value": "dark"}))
        .await;
    assert_eq!(set["isError"], false, "{set}");
    assert!(text(&set, 0).contains("color scheme dark"), "{set}");
    let dark = mcp
        .call(
            "eval",
            json!({"js": "matchMedia('(prefers-color-scheme: dark)').matches"}),
        )
        .await;
    assert!(text(&dark, 0).contains("true"), "{dark}");
    // A model names a file, not a path.
    let escaped = mcp
        .call("pdf", json!({"file": "/tmp/rove-escape.pdf"}))
        .await;
    assert_eq!(escaped["isError"], true, "{escaped}");
    let printed = mcp.call("pdf", json!({"file": "page.pdf"})).await;
    assert_eq!(printed["isError"], false, "{printed}");
    assert!(text(&printed, 0).contains("page.pdf"), "{printed}");
}
