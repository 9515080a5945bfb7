//! A desktop application at the faces: the shell and `rove mcp --caps
//! desktop` reach it with the same commands; and a browser with a window
//! (`headed_run`). Run inside a desktop (`scripts/desktop-env.sh`, as
//! scripts/test.sh does).

mod agent_face;
mod headed_run;

use crate::support;

use serde_json::json;
use support::Env;
use support::mcp_client::{McpClient, text};

/// gnome-calculator runs once per desktop: these tests take turns.
pub(crate) async fn one_at_a_time() -> tokio::sync::MutexGuard<'static, ()> {
    static CALCULATOR: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    CALCULATOR.lock().await
}

/// The ref on the view's line for `what` (`button "7"`).
fn ref_of(view: &str, what: &str) -> String {
    view.lines()
        .map(str::trim)
        .find_map(|line| {
            let (r, rest) = line.split_once(' ')?;
            (rest == what).then(|| r.to_owned())
        })
        .unwrap_or_else(|| panic!("no {what} in\n{view}"))
}

/// The pid `desktop open`'s answer says it started.
fn started_pid(opened: &serde_json::Value) -> String {
    let said = opened["happened"][0].as_str().unwrap_or_default();
    said.split("(pid ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .expect("the pid in the answer")
        .to_owned()
}

#[tokio::test]
async fn the_shell_drives_the_calculator_and_close_ends_it() {
    let _one = one_at_a_time().await;
    let env = Env::new("desktop-cli").await;
    let opened = env.ok(&["desktop", "open", "gnome-calculator"]).await;
    let view = opened["view"].as_str().expect("a view").to_owned();
    let pid = started_pid(&opened);
    for key in ["6", "×", "7", "="] {
        env.ok(&["click", &ref_of(&view, &format!("button {key:?}"))])
            .await;
    }
    let read = env.ok(&["read"]).await;
    let text = read["data"].as_str().unwrap_or_default();
    assert!(text.lines().any(|l| l.trim() == "42"), "{read}");
    let (status, refused) = env.run(&["eval", "1"]).await;
    assert_eq!(status, 2, "{refused}");
    assert_eq!(refused["error"]["code"], "COMMAND_REJECTED", "{refused}");
    env.close("default").await;
    // The application rove started ended with the session.
    let alive = std::process::Command::new("kill")
        .args(["-0", &pid])
        .stderr(std::process::Stdio::null())
        .status()
        .expect("kill runs");
    assert!(
        !alive.success(),
        "gnome-calculator {pid} outlived the session"
    );
}

#[tokio::test]
async fn mcp_offers_desktop_with_its_flag_and_drives_the_calculator() {
    let _one = one_at_a_time().await;
    let env = Env::new("desktop-mcp").await;
    let mut plain = McpClient::start(&env, &[]).await;
    assert!(!plain.tool_names().await.iter().any(|n| n == "desktop"));
    let mut mcp = McpClient::start(&env, &["--caps", "desktop"]).await;
    let opened = mcp
        .call(
            "desktop",
            json!({"action": "open", "target": "gnome-calculator"}),
        )
        .await;
    assert_eq!(opened["isError"], false, "{opened}");
    let view = (0..3)
        .map(|i| text(&opened, i))
        .collect::<Vec<_>>()
        .join("\n");
    let seven = ref_of(&view, "button \"7\"");
    let clicked = mcp.call("click", json!({"ref": seven})).await;
    assert_eq!(clicked["isError"], false, "{clicked}");
    let shown = text(&clicked, 0);
    assert!(shown.contains("textbox [focused]: 7"), "{shown}");
    let left = mcp.call("desktop", json!({"action": "leave"})).await;
    assert_eq!(left["isError"], false, "{left}");
    mcp.interrupt().await;
    plain.interrupt().await;
}

#[tokio::test]
async fn an_application_rove_started_ends_with_a_daemon_killed_outright() {
    let _one = one_at_a_time().await;
    let env = Env::new("desktop-sigkill").await;
    let opened = env.ok(&["desktop", "open", "gnome-calculator"]).await;
    let pid: u32 = started_pid(&opened).parse().expect("a pid");
    let daemon = support::ping(&env.socket("default")).await["pid"]
        .as_u64()
        .expect("the daemon's pid");
    // SIGKILL: no handler of rove's runs; the kernel's death signal must.
    rove_testkit::kill(u32::try_from(daemon).expect("a pid"));
    assert!(
        rove_testkit::gone_within(pid, std::time::Duration::from_secs(10)).await,
        "gnome-calculator {pid} outlived the daemon"
    );
}

#[tokio::test]
async fn doctor_finds_the_bus_and_the_display_keys_and_screenshots_need() {
    let env = Env::new("desktop-doctor").await;
    let (status, report) = env.run(&["doctor"]).await;
    assert_eq!(status, 0, "{report}");
    let desktop = report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == "desktop")
        .expect("a desktop line")
        .clone();
    assert_ne!(desktop["degraded"], true, "{desktop}");
    let detail = desktop["detail"].as_str().unwrap_or_default();
    assert!(
        detail.starts_with("the accessibility bus answers")
            && detail.contains("the X display answers (1280×1024)"),
        "{desktop}"
    );
}
