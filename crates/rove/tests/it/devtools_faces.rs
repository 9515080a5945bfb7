//! The opt-in tool groups at the faces: `rove mcp` lists only the core
//! tools by default and refuses the others with the flag that enables them;
//! `--caps` adds them; the CLI has every command without asking.

use crate::support;

use rove_localserver::{Response, Routes};
use serde_json::{Value, json};
use support::Env;
use support::mcp_client::{McpClient, text};

const LOGGING: &str = "<!doctype html><title>Logs</title><link rel=icon href='data:,'>\
    <p>logging</p><script>console.warn('disk almost full'); console.log('ready');</script>";

async fn env(name: &str) -> Env {
    let routes = Routes::new()
        .page("/logs", Response::html(LOGGING))
        .page(
            "/login",
            Response::html("<!doctype html><title>Login</title><p>logged in</p>")
                .header("Set-Cookie", "sid=token123; Path=/; HttpOnly"),
        )
        .handle("/account", |request| {
            let known = request
                .header("cookie")
                .is_some_and(|c| c.contains("sid=token123"));
            let body = if known {
                "Welcome back"
            } else {
                "Please log in"
            };
            Response::html(format!(
                "<!doctype html><title>Account</title><p>{body}</p>"
            ))
        });
    Env::with_routes(name, routes).await
}

#[tokio::test]
async fn mcp_offers_an_opt_in_group_only_with_its_flag() {
    let env = env("caps-mcp").await;
    let url = env.server.url("/logs");

    let mut plain = McpClient::start(&env, &[]).await;
    let core = plain.tool_names().await;
    assert!(!core.iter().any(|n| n == "console"), "{core:?}");
    let refused = plain.call("console", json!({})).await;
    assert_eq!(refused["isError"], true, "{refused}");
    let error: Value = serde_json::from_str(&text(&refused, 0)).expect("the error as JSON");
    assert_eq!(error["code"], "COMMAND_REJECTED");
    assert!(
        error["hint"]
            .as_str()
            .unwrap_or_default()
            .contains("--caps devtools"),
        "{error}"
    );
    assert_eq!(error["facts"]["flag"], "--caps devtools");

    let mut all = McpClient::start(&env, &["--caps", "all"]).await;
    let every = all.tool_names().await;
    assert_eq!(every.len(), rove_commands::tools().len(), "{every:?}");
    assert!(every.len() > core.len());
    let opened = all.call("open", json!({"url": url})).await;
    assert_eq!(opened["isError"], false, "{opened}");
    let logged = all.call("console", json!({"level": "warning"})).await;
    assert_eq!(logged["isError"], false, "{logged}");
    let shown = text(&logged, 0);
    assert!(shown.contains("[warning] \"disk almost full\""), "{shown}");
    assert!(!shown.contains("ready"), "{shown}");
}

#[tokio::test]
async fn the_cli_has_console_without_any_flag() {
    let env = env("caps-cli").await;
    env.ok(&["open", &env.server.url("/logs")]).await;
    let out = env.ok(&["console"]).await;
    let shown = out["data"].as_str().unwrap_or_default().to_owned();
    assert!(
        shown.contains("2 console messages since the last call"),
        "{out}"
    );
    assert!(shown.contains("[log] \"ready\""), "{out}");
    env.close("default").await;
}

#[tokio::test]
async fn the_cli_lists_requests_and_writes_a_har_where_the_shell_is() {
    let env = env("caps-net").await;
    env.ok(&["open", &env.server.url("/logs")]).await;
    let out = env.ok(&["network", "--type", "document"]).await;
    let shown = out["data"].as_str().unwrap_or_default().to_owned();
    assert!(shown.contains("GET 200 document"), "{out}");
    // A relative path is the shell's, not the daemon's.
    let folder = env.dir.join("work");
    std::fs::create_dir_all(&folder).expect("folder");
    let mut har = env.rove(&["--json", "network", "har", "out.har"]);
    har.current_dir(&folder);
    let (status, wrote) = support::output_json(&["network", "har"], har).await;
    assert_eq!(status, 0, "{wrote}");
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("out.har")).expect("the HAR"))
            .expect("JSON");
    assert_eq!(file["log"]["version"], "1.2");
    env.close("default").await;
}

#[tokio::test]
async fn a_login_saved_at_the_shell_starts_another_session_logged_in() {
    let env = env("caps-state").await;
    let folder = env.dir.join("work");
    std::fs::create_dir_all(&folder).expect("folder");
    env.ok(&["--session", "first", "open", &env.server.url("/login")])
        .await;
    let mut save = env.rove(&[
        "--json",
        "--session",
        "first",
        "state",
        "save",
        "login.json",
    ]);
    save.current_dir(&folder);
    let (status, saved) = support::output_json(&["state", "save"], save).await;
    assert_eq!(status, 0, "{saved}");
    let file = folder.join("login.json").to_string_lossy().into_owned();
    let account = env.server.url("/account");
    let opened = env
        .ok(&[
            "--session",
            "second",
            "--storage-state",
            &file,
            "open",
            &account,
        ])
        .await;
    assert!(
        opened["view"]
            .as_str()
            .unwrap_or_default()
            .contains("Welcome back"),
        "{opened}"
    );
    let cookies = env.ok(&["--session", "second", "cookies"]).await;
    assert!(
        cookies["data"]
            .as_str()
            .unwrap_or_default()
            .contains("sid=\"token123\""),
        "{cookies}"
    );
    let plain = env.ok(&["--session", "third", "open", &account]).await;
    assert!(
        plain["view"]
            .as_str()
            .unwrap_or_default()
            .contains("Please log in"),
        "{plain}"
    );
    for session in ["first", "second", "third"] {
        env.close(session).await;
    }
}

#[tokio::test]
async fn a_profile_one_session_uses_is_refused_to_another() {
    let env = env("caps-profile").await;
    let profile = env.dir.join("profile").to_string_lossy().into_owned();
    let url = env.server.url("/login");
    env.ok(&["--session", "one", "--profile", &profile, "open", &url])
        .await;
    let (status, refused) = env
        .run(&["--session", "two", "--profile", &profile, "open", &url])
        .await;
    assert_eq!(status, 6, "{refused}");
    assert_eq!(refused["error"]["code"], "LAUNCH_FAILED", "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("is in use"),
        "{refused}"
    );
    // The first session goes on, its login kept in the profile.
    let cookies = env.ok(&["--session", "one", "cookies"]).await;
    assert!(
        cookies["data"]
            .as_str()
            .unwrap_or_default()
            .contains("sid="),
        "{cookies}"
    );
    env.close("one").await;
    env.close("two").await;
}

/// `--profile` naming a regular file failed as LAUNCH_FAILED ("File
/// exists", with a hint to read the browser's stderr).
#[tokio::test]
async fn a_profile_at_a_regular_file_says_so() {
    let env = env("caps-profile-file").await;
    let file = env.dir.join("not-a-folder");
    std::fs::write(&file, "x").expect("a file");
    let file = file.to_string_lossy().into_owned();
    let (status, refused) = env
        .run(&[
            "--session",
            "file",
            "--profile",
            &file,
            "open",
            &env.server.url("/login"),
        ])
        .await;
    assert_eq!(status, 2, "{refused}");
    assert_eq!(refused["error"]["code"], "COMMAND_REJECTED", "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&file) && message.contains("is a file, not a folder"),
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), "x");
    env.close("file").await;
}
