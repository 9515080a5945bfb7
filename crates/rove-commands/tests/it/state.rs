//! The state group: cookies and web storage round-tripped, and a login held
//! by a cookie saved in one session and reused by another (by
//! `SessionConfig::storage_state` at start, and by `state load`).

use crate::support;

use rove_commands::{Session, SessionConfig};
use rove_localserver::{RequestLog, Response, Routes};
use serde_json::json;
use support::{Fixture, code};

fn text_of(out: &rove_commands::Outcome) -> String {
    out.data_text().expect("an answer as text").to_owned()
}

/// `/login` sets the session cookie (and the page a theme in local
/// storage); `/account` greets whoever sends the cookie.
fn routes() -> Routes {
    Routes::new()
        .page(
            "/login",
            Response::html(
                "<!doctype html><title>Login</title><link rel=icon href='data:,'><p>logged in</p>\
                 <script>localStorage.setItem('theme', 'dark')</script>",
            )
            .header("Set-Cookie", "sid=token123; Path=/; HttpOnly; Max-Age=3600"),
        )
        .handle("/account", |request| {
            let known = request
                .header("cookie")
                .is_some_and(|c| c.split("; ").any(|p| p == "sid=token123"));
            let body = if known { "Welcome back" } else { "Please log in" };
            Response::html(format!(
                "<!doctype html><title>Account</title><link rel=icon href='data:,'><p id=who>{body}</p>"
            ))
        })
}

#[tokio::test]
async fn cookies_and_storage_round_trip() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/account").await;

    f.ok(json!({"command": "cookies", "action": "set", "name": "pref", "value": "compact"}))
        .await;
    let listed = text_of(&f.ok(json!({"command": "cookies"})).await);
    assert!(listed.starts_with("1 cookie:"), "{listed}");
    assert!(
        listed.contains("pref=\"compact\" domain=127.0.0.1 path=/"),
        "{listed}"
    );
    assert_eq!(f.eval("document.cookie").await, "pref=compact");
    let by_url = text_of(
        &f.ok(json!({"command": "cookies", "url": f.url("/anything")}))
            .await,
    );
    assert!(by_url.contains("pref="), "{by_url}");
    let other = text_of(
        &f.ok(json!({"command": "cookies", "domain": "example.com"}))
            .await,
    );
    assert!(other.starts_with("0 cookies"), "{other}");
    let cleared = text_of(
        &f.ok(json!({"command": "cookies", "action": "clear", "name": "pref"}))
            .await,
    );
    assert_eq!(cleared, "deleted 1 cookies\n");
    assert_eq!(f.eval("document.cookie").await, "");

    f.ok(json!({"command": "storage", "kind": "local", "action": "set", "key": "k", "value": "v\nw"}))
        .await;
    assert_eq!(f.eval("localStorage.getItem('k')").await, "v\nw");
    f.eval("sessionStorage.setItem('tab', '1')").await;
    let local = text_of(&f.ok(json!({"command": "storage", "kind": "local"})).await);
    assert!(
        local.starts_with("1 localStorage entries of http://127.0.0.1:"),
        "{local}"
    );
    // The value's line break is cleaned, and the value quoted.
    assert!(local.contains("\"k\" = \"v w\""), "{local}");
    let session = text_of(&f.ok(json!({"command": "storage", "kind": "session"})).await);
    assert!(session.contains("\"tab\" = \"1\""), "{session}");
    let removed = text_of(
        &f.ok(json!({"command": "storage", "kind": "local", "action": "clear"}))
            .await,
    );
    assert!(
        removed.starts_with("removed 1 localStorage entries"),
        "{removed}"
    );
    assert_eq!(f.eval("localStorage.length").await, 0);
    let e = f
        .fails(json!({"command": "storage", "kind": "local", "action": "set", "key": "k"}))
        .await;
    assert_eq!(code(&e), "COMMAND_REJECTED");
    f.close().await;
}

#[tokio::test]
async fn a_login_saved_in_one_session_holds_in_another() {
    let output = rove_testkit::scratch_dir("state-output");
    let config = SessionConfig {
        output_dir: Some(output.clone()),
        ..SessionConfig::default()
    };
    let log = RequestLog::new();
    let mut f = Fixture::with(routes().log_requests(log.clone()), config.clone()).await;
    f.open("/login").await;
    f.open("/account").await;
    assert_eq!(
        f.eval("document.getElementById('who').textContent").await,
        "Welcome back"
    );
    let saved = text_of(
        &f.ok(json!({"command": "state", "action": "save", "file": "login.json"}))
            .await,
    );
    assert!(
        saved.starts_with("saved 1 cookies and the local storage of 1 origins"),
        "{saved}"
    );
    let file = output.join("login.json");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("the state file"))
            .expect("JSON");
    assert_eq!(state["cookies"][0]["name"], "sid");
    assert_eq!(state["cookies"][0]["httpOnly"], true);
    assert_eq!(
        state["origins"][0]["localStorage"][0],
        json!({"name": "theme", "value": "dark"})
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&file)
        .expect("metadata")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "a saved login is its owner's only");

    // A fresh session of the same browser is not logged in…
    let account = f.url("/account");
    let mut fresh = Session::start(&f.browser, SessionConfig::default())
        .await
        .expect("session");
    let open = |url: &str| -> rove_commands::Command {
        serde_json::from_value(json!({"command": "open", "url": url})).expect("open")
    };
    let who = |out: rove_commands::Outcome| out.view.expect("a view").text;
    let view = who(fresh.execute(&open(&account)).await.expect("open"));
    assert!(view.contains("Please log in"), "{view}");

    // …one started with the saved state is, with its local storage.
    let mut reused = Session::start(
        &f.browser,
        SessionConfig {
            storage_state: Some(file.clone()),
            ..SessionConfig::default()
        },
    )
    .await
    .expect("session with state");
    let view = who(reused.execute(&open(&account)).await.expect("open"));
    assert!(view.contains("Welcome back"), "{view}");
    let theme: rove_commands::Command =
        serde_json::from_value(json!({"command": "eval", "js": "localStorage.getItem('theme')"}))
            .expect("eval");
    let out = reused.execute(&theme).await.expect("eval");
    assert_eq!(out.result().expect("data"), "dark");

    // And `state load` in a running session does the same (a model loads a
    // plain name from the session's output folder).
    let mut later = Session::start(&f.browser, config).await.expect("session");
    let load: rove_commands::Command =
        serde_json::from_value(json!({"command": "state", "action": "load", "file": "login.json"}))
            .expect("load");
    let loaded = later.execute(&load).await.expect("state load");
    assert!(
        loaded
            .text()
            .starts_with("loaded 1 cookies and the local storage of 1 origins"),
        "{}",
        loaded.text()
    );
    // The tab that restored the storage was never one of the session's.
    assert_eq!(later.context().tabs().len(), 1);
    let view = who(later.execute(&open(&account)).await.expect("open"));
    assert!(view.contains("Welcome back"), "{view}");
    f.close().await;
    // The tab that restored the local storage asked the server nothing.
    let asked: Vec<String> = log.requests().iter().map(|r| r.path.clone()).collect();
    assert!(!asked.contains(&"/".to_owned()), "{asked:?}");
    assert_eq!(
        asked.iter().filter(|p| *p == "/login").count(),
        1,
        "{asked:?}"
    );
}

/// One cookie the browser refuses (a `;` in its name) failed the whole
/// `state load` ("Invalid cookie fields"), loading nothing; an entry with
/// no name was dropped without a word.
#[tokio::test]
async fn a_state_file_with_one_bad_cookie_loads_the_rest_and_names_it() {
    let output = rove_testkit::scratch_dir("state-bad-cookie");
    let config = SessionConfig {
        output_dir: Some(output.clone()),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes(), config).await;
    let host = url::Url::parse(&f.url("/")).expect("url");
    let host = host.host_str().expect("a host").to_owned();
    let state = json!({
        "cookies": [
            {"name": "sid", "value": "token123", "domain": host, "path": "/"},
            {"name": "bad;name", "value": "x", "domain": host, "path": "/"},
            {"name": "theme", "value": "dark", "domain": host, "path": "/"},
            {"value": "nameless", "domain": host},
        ],
        "origins": [],
    });
    std::fs::write(output.join("mixed.json"), state.to_string()).expect("state file");
    let loaded = text_of(
        &f.ok(json!({"command": "state", "action": "load", "file": "mixed.json"}))
            .await,
    );
    assert!(loaded.starts_with("loaded 2 cookies"), "{loaded}");
    assert!(
        loaded.contains("left out cookies the browser refused: \"bad;name\""),
        "{loaded}"
    );
    assert!(loaded.contains("#4 (no name)"), "{loaded}");
    f.open("/account").await;
    assert_eq!(
        f.eval("document.getElementById('who').textContent").await,
        "Welcome back",
        "the good cookie was set"
    );
    f.close().await;
    let _ = std::fs::remove_dir_all(&output);
}
