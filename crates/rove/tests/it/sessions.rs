//! The CLI over session daemons, end to end with the real binary: commands
//! share a daemon's browser, refs carry from one command to the next, two
//! shells are served in order, sessions are isolated, stale sockets and dead
//! browsers are recovered from, and idle daemons end with their browsers.

use crate::support;

use std::time::Duration;

use rove_localserver::{Response, Routes};
use support::{Env, gone_within, ping, ref_of};

/// The fixture of these tests: `/form` (a name field and a Greet button)
/// and `/all` (one element for every command).
async fn env(name: &str) -> Env {
    let page = "<!doctype html><title>Form</title><h1>Sign up</h1>\
        <label>Name <input id=name></label>\
        <button onclick=\"document.getElementById('out').textContent = 'Hello ' + document.getElementById('name').value\">Greet</button>\
        <p id=out>nobody</p>";
    let all = "<!doctype html><title>All</title><h1>All</h1>\
        <a href=\"/form\">To the form</a>\
        <label>Note <input id=note></label>\
        <label><input type=checkbox id=agree> Agree</label>\
        <label>Color <select id=color><option>Red</option><option>Blue</option></select></label>\
        <button onclick=\"document.getElementById('said').textContent = confirm('Sure?')\">Ask</button><p id=said>-</p>\
        <label>File <input type=file id=file></label>\
        <div draggable=true role=button aria-label=Card id=card>Card</div><div role=region aria-label=Bin id=bin style=\"height:40px\"></div>\
        <p id=drop>-</p><div style=\"height:2000px\"></div><button>Far below</button>\
        <script>bin.addEventListener('dragover', (e) => e.preventDefault()); bin.addEventListener('drop', () => { drop.textContent = 'dropped'; });</script>";
    Env::with_routes(
        name,
        Routes::new()
            .page("/form", Response::html(page))
            .page("/all", Response::html(all)),
    )
    .await
}

#[tokio::test]
async fn commands_share_the_session_and_refs_carry_over() {
    let env = env("share").await;
    let url = env.server.url("/form");
    let opened = env.ok(&["open", &url]).await;
    let view = opened["view"].as_str().expect("view").to_owned();
    let name = ref_of(&view, "textbox \"Name\"");
    let greet = ref_of(&view, "button \"Greet\"");
    env.ok(&["fill", &format!("@{name}"), "Ada"]).await;
    // Global flags after the command name work too.
    let clicked = env.ok(&["click", &greet, "--session", "default"]).await;
    let diff = clicked["view"].as_str().expect("diff");
    assert!(diff.contains("Hello Ada"), "{diff}");
    let (status, failed) = env.run(&["click", "e999"]).await;
    assert_eq!(status, 3, "page errors exit 3");
    assert_eq!(failed["error"]["code"], "REF_NOT_FOUND");
    assert!(
        failed["error"]["fresh_view"]
            .as_str()
            .is_some_and(|v| v.contains("Greet"))
    );
    let read = env
        .ok(&["eval", "document.getElementById('out').textContent"])
        .await;
    assert_eq!(read["data"]["result"], "Hello Ada");
    env.close("default").await;
    assert!(!env.socket("default").exists(), "close removes the socket");
}

#[tokio::test]
async fn two_shells_are_served_in_order() {
    let env = env("order").await;
    let url = env.server.url("/form");
    let view = env.ok(&["open", &url]).await["view"]
        .as_str()
        .expect("view")
        .to_owned();
    let name = ref_of(&view, "textbox \"Name\"");
    let a = "a".repeat(30);
    let b = "b".repeat(30);
    let (args_a, args_b) = (["type", &name, &a], ["type", &name, &b]);
    let (first, second) = tokio::join!(env.run(&args_a), env.run(&args_b));
    assert_eq!((first.0, second.0), (0, 0));
    let value = env
        .ok(&["eval", "document.getElementById('name').value"])
        .await;
    let value = value["data"]["result"].as_str().expect("value").to_owned();
    assert!(
        value == format!("{a}{b}") || value == format!("{b}{a}"),
        "interleaved: {value}"
    );
    env.close("default").await;
}

#[tokio::test]
async fn sessions_are_isolated() {
    let env = env("isolated").await;
    let url = env.server.url("/form");
    env.ok(&["--session", "one", "open", &url]).await;
    env.ok(&["--session", "two", "open", "about:blank"]).await;
    let one = env.ok(&["--session", "one", "eval", "location.href"]).await;
    let two = env.ok(&["--session", "two", "eval", "location.href"]).await;
    assert_eq!(one["data"]["result"], url);
    assert_eq!(two["data"]["result"], "about:blank");
    let (status, failed) = env.run(&["--session", "../x", "snapshot"]).await;
    assert_eq!(status, 2);
    assert_eq!(failed["error"]["code"], "COMMAND_REJECTED");
    env.close("one").await;
    env.close("two").await;
}

#[tokio::test]
async fn a_stale_socket_is_replaced_and_a_dead_browser_restarted() {
    let env = env("stale").await;
    std::fs::create_dir_all(env.rove_dir()).expect("dir");
    {
        // A socket file nobody listens on, as a crashed daemon leaves.
        let _left = std::os::unix::net::UnixListener::bind(env.socket("default")).expect("bind");
    }
    assert!(env.socket("default").exists());
    let url = env.server.url("/form");
    env.ok(&["open", &url]).await;
    let ping = ping(&env.socket("default")).await;
    let browser = ping["browser_pid"].as_i64().expect("browser pid") as i32;
    // A pid this test's daemon started.
    rove_testkit::kill(browser as u32);
    assert!(gone_within(browser, Duration::from_secs(5)).await);
    let reopened = env.ok(&["open", &url]).await;
    let notes = reopened["notes"].to_string();
    assert!(notes.contains("the browser had died"), "{reopened}");
    env.close("default").await;
}

#[tokio::test]
async fn an_idle_daemon_ends_with_its_browser() {
    let env = env("idle").await;
    let url = env.server.url("/form");
    let output = env
        .rove(&["--json", "open", &url])
        // Long enough that the ping below reaches the daemon on a busy
        // machine; short enough for a test.
        .env("ROVE_IDLE", "5")
        .output()
        .await
        .expect("ran");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let ping = ping(&env.socket("default")).await;
    let daemon = ping["pid"].as_i64().expect("pid") as i32;
    let browser = ping["browser_pid"].as_i64().expect("browser pid") as i32;
    assert!(
        gone_within(daemon, Duration::from_secs(20)).await,
        "the daemon exits when idle"
    );
    assert!(
        gone_within(browser, Duration::from_secs(10)).await,
        "its browser with it"
    );
    assert!(!env.socket("default").exists());
    // Its files go with it.
    assert!(!env.lock("default").exists());
    assert!(!env.log("default").exists());
}

#[tokio::test]
async fn every_command_works_from_the_shell() {
    let env = env("every").await;
    let url = env.server.url("/all");
    let view = env.ok(&["open", &url]).await["view"]
        .as_str()
        .expect("view")
        .to_owned();
    let r = |marker: &str| ref_of(&view, marker);
    let (note, agree, color, ask, file, card, bin, far) = (
        r("textbox \"Note\""),
        r("checkbox \"Agree\""),
        r("combobox \"Color\""),
        r("button \"Ask\""),
        r("file \"File\""),
        r("button \"Card\""),
        r("region \"Bin\""),
        r("button \"Far below\""),
    );
    assert!(
        env.ok(&["snapshot"]).await["view"]
            .as_str()
            .is_some_and(|v| v.contains("All"))
    );
    assert!(env.ok(&["snapshot", "-i"]).await["view"].is_string());
    assert!(env.ok(&["snapshot", "--diff"]).await["view"].is_string());
    assert!(
        env.ok(&["find", "Agree"]).await["view"]
            .as_str()
            .is_some_and(|v| v.contains(&agree))
    );
    env.ok(&["type", &note, "ab"]).await;
    env.ok(&["fill", &note, "xyz"]).await;
    env.ok(&["press", "End", "--ref", &note]).await;
    env.ok(&["press", "Backspace"]).await;
    assert_eq!(
        env.value("document.getElementById('note').value").await,
        "xy"
    );
    env.ok(&["check", &agree]).await;
    assert_eq!(
        env.value("document.getElementById('agree').checked").await,
        true
    );
    env.ok(&["uncheck", &agree]).await;
    env.ok(&["select", &color, "Blue"]).await;
    assert_eq!(
        env.value("document.getElementById('color').value").await,
        "Blue"
    );
    env.ok(&["hover", &ask]).await;
    let asked = env.ok(&["click", &ask]).await;
    assert!(
        asked["happened"]
            .to_string()
            .contains("confirm dialog opened"),
        "{asked}"
    );
    env.ok(&["dialog", "accept"]).await;
    assert_eq!(
        env.value("document.getElementById('said').textContent")
            .await,
        "true"
    );
    let upload = std::env::current_dir().expect("cwd").join("Cargo.toml");
    env.ok(&["upload", &file, upload.to_str().expect("utf-8")])
        .await;
    assert_eq!(
        env.value("document.getElementById('file').files[0].name")
            .await,
        "Cargo.toml"
    );
    env.ok(&["drag", &card, &bin]).await;
    assert_eq!(
        env.value("document.getElementById('drop').textContent")
            .await,
        "dropped"
    );
    env.ok(&["scroll", "down", "300"]).await;
    env.ok(&["scroll", &far]).await;
    env.ok(&["dblclick", &far]).await;
    let shot = env.dir.join("shot.png");
    env.ok(&["screenshot", shot.to_str().expect("utf-8")]).await;
    assert!(std::fs::read(&shot).expect("saved").starts_with(b"\x89PNG"));
    assert!(
        env.ok(&["read"]).await["data"]
            .as_str()
            .is_some_and(|m| m.contains("# All"))
    );
    env.ok(&["wait", "--text", "Far below"]).await;
    env.ok(&["wait", "50"]).await;
    env.ok(&["tab", "new", &env.server.url("/form")]).await;
    let tabs = env.ok(&["tab"]).await["data"]
        .as_str()
        .expect("list")
        .to_owned();
    assert!(tabs.contains("t1") && tabs.contains("t2*"), "{tabs}");
    env.ok(&["tab", "close", "t2"]).await;
    env.ok(&["tab", "switch", "t1"]).await;
    let snapshot = env.ok(&["snapshot"]).await;
    let link = ref_of(
        snapshot["view"].as_str().expect("view"),
        "link \"To the form\"",
    );
    env.ok(&["click", &link]).await;
    env.ok(&["back"]).await;
    env.ok(&["forward"]).await;
    env.ok(&["reload"]).await;
    assert_eq!(env.value("document.title").await, "Form");
    let (status, bad) = env.run(&["wait", "--load", "sideways"]).await;
    assert_eq!(
        (status, bad["error"]["code"].as_str()),
        (2, Some("COMMAND_REJECTED"))
    );
    env.close("default").await;
}

#[tokio::test]
async fn sessions_keep_their_own_cookies() {
    let env = env("cookies").await;
    let url = env.server.url("/form");
    env.ok(&["--session", "one", "open", &url]).await;
    env.ok(&["--session", "two", "open", &url]).await;
    env.ok(&["--session", "one", "eval", "document.cookie = 'who=one'"])
        .await;
    let one = env
        .ok(&["--session", "one", "eval", "document.cookie"])
        .await;
    let two = env
        .ok(&["--session", "two", "eval", "document.cookie"])
        .await;
    assert_eq!(one["data"]["result"], "who=one");
    assert_eq!(two["data"]["result"], "");
    env.close("one").await;
    env.close("two").await;
}

#[tokio::test]
async fn a_killed_daemon_is_replaced_by_the_next_command() {
    let env = env("killed").await;
    let url = env.server.url("/form");
    env.ok(&["open", &url]).await;
    let before = ping(&env.socket("default")).await;
    let daemon = before["pid"].as_i64().expect("pid") as i32;
    let browser = before["browser_pid"].as_i64().expect("browser pid") as i32;
    // A pid this test's command started.
    rove_testkit::kill(daemon as u32);
    assert!(gone_within(daemon, Duration::from_secs(5)).await);
    assert!(
        gone_within(browser, Duration::from_secs(10)).await,
        "the browser dies with its daemon"
    );
    let reopened = env.ok(&["open", &url]).await;
    assert!(
        reopened["view"]
            .as_str()
            .is_some_and(|v| v.contains("Greet"))
    );
    let after = ping(&env.socket("default")).await;
    assert_ne!(after["pid"], before["pid"]);
    env.close("default").await;
}

/// A running session's browser is fixed when it starts (issue 37, item
/// 14): a later command that names another one (`--cdp-url`,
/// `--cdp-header`, `--browser`, `--headed`) is refused, naming the
/// session's own with no credential, instead of running on it silently.
#[tokio::test]
async fn a_command_naming_another_browser_is_refused_by_a_running_session() {
    let env = env("browser-flags").await;
    let url = env.server.url("/form");
    env.ok(&["open", &url]).await;
    let stranger = "/usr/bin/chromium-of-someone-else";
    for (flags, says) in [
        (
            vec!["--cdp-url", "ws://127.0.0.1:9/?token=F4RM-S3CRET"],
            "a browser it launched itself",
        ),
        (
            vec!["--cdp-header", "Authorization: Bearer H34DER-S3CRET"],
            "no --cdp-header",
        ),
        (vec!["--browser", stranger], "the browser rove found itself"),
        (vec!["--headed"], "a headless browser"),
    ] {
        let mut args = flags.clone();
        args.push("snapshot");
        let (status, answer) = env.run(&args).await;
        assert_eq!(status, 2, "{flags:?}: {answer}");
        assert_eq!(answer["error"]["code"], "COMMAND_REJECTED", "{answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{flags:?}: {message}");
        assert!(!answer.to_string().contains("S3CRET"), "{answer}");
        assert!(
            answer["error"]["hint"]
                .as_str()
                .is_some_and(|h| h.contains("rove close")),
            "{answer}"
        );
    }
    // Without them, the session's own browser answers, on its page.
    let view = env.ok(&["snapshot"]).await;
    assert!(view.to_string().contains("Sign up"), "{view}");
    env.close("default").await;
}
