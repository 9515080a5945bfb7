//! `dialog` (alert, confirm, prompt, chains, DIALOG_OPEN for everything else)
//! and `upload` (by input, by chooser, denied outside the allowed roots).

use crate::support;

use rove_commands::SessionConfig;
use serde_json::json;
use support::{Fixture, code, fixture_routes};

#[tokio::test]
async fn dialogs_are_reported_block_other_actions_and_are_answered() {
    let mut f = Fixture::start().await;
    f.open("/dialogs.html").await;

    let alert = f.find("Alert", "button").await;
    let out = f.ok(json!({"command": "click", "ref": alert})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l == "an alert dialog opened: \"Saved!\""),
        "{:?}",
        out.happened_lines()
    );
    // Every other action names the dialog instead of hanging.
    let plain = "e999";
    let e = f.fails(json!({"command": "click", "ref": plain})).await;
    assert_eq!(code(&e), "DIALOG_OPEN");
    assert_eq!(
        e.facts().expect("facts"),
        json!({"dialog": "alert", "text": "Saved!"})
    );
    let e = f.fails(json!({"command": "eval", "js": "1"})).await;
    assert_eq!(code(&e), "DIALOG_OPEN");
    let e = f
        .fails(json!({"command": "dialog", "accept": true, "text": "no"}))
        .await;
    assert_eq!(code(&e), "COMMAND_REJECTED", "an alert takes no text");
    let out = f.ok(json!({"command": "dialog", "accept": true})).await;
    assert_eq!(out.happened_lines()[0], "accepted the alert \"Saved!\"");
    assert!(out.view.expect("view").text.contains("after alert"));

    let confirm = f.find("Confirm", "button").await;
    f.ok(json!({"command": "click", "ref": confirm})).await;
    f.ok(json!({"command": "dialog", "accept": false})).await;
    assert_eq!(
        f.eval("document.getElementById('result').textContent")
            .await,
        "confirm false"
    );
    f.ok(json!({"command": "click", "ref": confirm})).await;
    f.ok(json!({"command": "dialog", "accept": true})).await;
    assert_eq!(
        f.eval("document.getElementById('result').textContent")
            .await,
        "confirm true"
    );

    let prompt = f.find("Prompt", "button").await;
    let out = f.ok(json!({"command": "click", "ref": prompt})).await;
    let view = out.view.expect("view");
    assert!(
        view.text.contains("prompt default \"nobody\""),
        "{}",
        view.text
    );
    f.ok(json!({"command": "dialog", "accept": true, "text": "Ada"}))
        .await;
    assert_eq!(
        f.eval("document.getElementById('result').textContent")
            .await,
        "prompt Ada"
    );

    let two = f.find("Two alerts", "button").await;
    f.ok(json!({"command": "click", "ref": two})).await;
    let out = f.ok(json!({"command": "dialog", "accept": true})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l == "another alert dialog opened: \"second\""),
        "{:?}",
        out.happened_lines()
    );
    let out = f.ok(json!({"command": "dialog", "accept": true})).await;
    assert!(
        !out.happened_lines()
            .iter()
            .any(|l| l.contains("dialog opened")),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(
        f.eval("document.getElementById('result').textContent")
            .await,
        "both answered"
    );

    // The same text twice is two dialogs, and the answer says so.
    let same = f.find("Same alert twice", "button").await;
    f.ok(json!({"command": "click", "ref": same})).await;
    let out = f.ok(json!({"command": "dialog", "accept": true})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l == "another alert dialog opened: \"Sure?\""),
        "{:?}",
        out.happened_lines()
    );
    f.ok(json!({"command": "dialog", "accept": true})).await;
    assert_eq!(
        f.eval("document.getElementById('result').textContent")
            .await,
        "asked twice"
    );

    // A page that opens one while loading: the navigation arrived, and the
    // view is the dialog.
    let out = f.open("/alerting.html").await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l == "an alert dialog opened: \"while loading\""),
        "{:?}",
        out.happened_lines()
    );
    let out = f.ok(json!({"command": "dialog", "accept": true})).await;
    assert!(out.view.expect("view").text.contains("After the alert"));
    f.close().await;
}

#[tokio::test]
async fn uploads_reach_inputs_and_choosers_but_only_from_allowed_roots() {
    let root = std::env::temp_dir().join(format!("rove-upload-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("root");
    let a = root.join("a.txt");
    let b = root.join("b.txt");
    std::fs::write(&a, "alpha").expect("a");
    std::fs::write(&b, "be").expect("b");
    let config = SessionConfig {
        upload_roots: vec![root.clone()],
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(fixture_routes(), config).await;
    f.open("/files.html").await;
    let picked = "document.getElementById('picked').textContent";

    let one = f.find("Attachment", "file").await;
    let out = f
        .ok(json!({"command": "upload", "ref": one, "paths": [a]}))
        .await;
    assert!(
        out.happened_lines()[0].starts_with(&format!("gave {one} 1 file")),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(f.eval(picked).await, "one: a.txt 5");
    let e = f
        .fails(json!({"command": "upload", "ref": one, "paths": [a, b]}))
        .await;
    assert_eq!(
        code(&e),
        "COMMAND_REJECTED",
        "a single input takes one file"
    );

    let many = f.find("Photos", "file").await;
    f.ok(json!({"command": "upload", "ref": many, "paths": [a, b]}))
        .await;
    assert_eq!(f.eval(picked).await, "many: a.txt 5, b.txt 2");

    let chooser = f.find("Choose a file", "button").await;
    f.ok(json!({"command": "upload", "ref": chooser, "paths": [b]}))
        .await;
    assert_eq!(f.eval(picked).await, "hidden: b.txt 2");

    let not_chooser = f.find("Not a chooser", "button").await;
    let e = f
        .fails(json!({"command": "upload", "ref": not_chooser, "paths": [b]}))
        .await;
    assert_eq!(code(&e), "NOT_ACTIONABLE");
    assert!(e.to_string().contains("opened no file chooser"), "{e}");

    for denied in ["/etc/hostname", "/no/such/file"] {
        let e = f
            .fails(json!({"command": "upload", "ref": one, "paths": [denied]}))
            .await;
        assert_eq!(code(&e), "UPLOAD_DENIED", "{denied}");
        // The hint names the roots this caller can use.
        let hint = e.report().hint;
        assert!(hint.contains(&root.display().to_string()), "{hint}");
        assert!(!hint.contains("working directory"), "{hint}");
        let roots = e.facts().expect("facts")["allowed_roots"].clone();
        assert!(
            roots
                .as_array()
                .is_some_and(|r| r.iter().any(|r| *r == root.display().to_string())),
            "{roots}"
        );
    }
    let escape = format!("{}/../../etc/hostname", root.display());
    let e = f
        .fails(json!({"command": "upload", "ref": one, "paths": [escape]}))
        .await;
    assert_eq!(code(&e), "UPLOAD_DENIED");
    assert_eq!(
        f.eval(picked).await,
        "hidden: b.txt 2",
        "a denied upload sends nothing"
    );
    f.close().await;
    std::fs::remove_dir_all(&root).expect("cleanup");
}

#[tokio::test]
async fn a_dialog_the_page_takes_away_stops_blocking() {
    // The alert runs in a cross-site iframe (`localhost` is another site than
    // `127.0.0.1`, so its own process); the page removes the iframe, and the
    // dialog with it, without anyone answering it.
    let routes = fixture_routes()
        .handle("/host.html", |request| {
            let host = request.header("host").unwrap_or_default().to_owned();
            let port = host.rsplit(':').next().unwrap_or_default().to_owned();
            rove_localserver::Response::html(format!(
                "<title>Host</title><p id=\"state\">framed</p><button onclick=\"window.pressed = true\">Press</button>\
                 <iframe src=\"http://localhost:{port}/frame-alert.html\"></iframe>\
                 <script>window.drop = () => {{ document.querySelector('iframe').remove(); document.getElementById('state').textContent = 'frame gone'; }};</script>"
            ))
        })
        .page(
            "/frame-alert.html",
            rove_localserver::Response::html("<p>inner</p><script>setTimeout(() => alert('from the frame'), 2500)</script>"),
        );
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    let url = f.url("/host.html");
    f.ok(json!({"command": "open", "url": url})).await;
    let press = f.find("Press", "button").await;
    let mut blocked = None;
    for _ in 0..50 {
        match f.run(json!({"command": "click", "ref": press})).await {
            Err(e) if code(&e) == "DIALOG_OPEN" => {
                blocked = Some(e);
                break;
            }
            _ => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    }
    let blocked = blocked.expect("the frame's alert was reported");
    assert_eq!(blocked.facts().expect("facts")["text"], "from the frame");
    // The page's own script takes the frame away (harness: through CDP, since
    // rove refuses input while the dialog is open).
    let tab = f.session.context().focused().expect("tab");
    tab.evaluate("window.drop()").await.expect("drop the frame");
    // Chromium 156 still ignores input to the tab after the frame took its
    // dialog away (and answering the dialog then crashes the browser): a
    // click is either done, the page seeing it, or not reported done.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    tab.evaluate("window.pressed = false").await.expect("reset");
    let clicked = f.run(json!({"command": "click", "ref": press})).await;
    let pressed = tab.evaluate("window.pressed").await.expect("read");
    if let Err(e) = &clicked {
        assert_ne!(
            code(e),
            "DIALOG_OPEN",
            "the dialog went with its frame: {e}"
        );
    }
    assert!(
        clicked.is_err() || pressed == json!(true),
        "rove reported the click done, yet the page never saw it"
    );
    let view = f
        .ok(json!({"command": "snapshot"}))
        .await
        .view
        .expect("view")
        .text;
    assert!(
        view.contains("frame gone") && !view.contains("dialog"),
        "{view}"
    );
    f.close().await;
}

/// A session writing into `output`, on the dialogs page, whose local
/// storage was saved to `good.json`: the file and its bytes.
async fn with_a_good_state_file(
    output: &std::path::Path,
) -> (Fixture, std::path::PathBuf, Vec<u8>) {
    let config = SessionConfig {
        output_dir: Some(output.to_path_buf()),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(fixture_routes(), config).await;
    f.open("/dialogs.html").await;
    f.ok(json!({"command": "storage", "kind": "local", "action": "set", "key": "theme", "value": "dark"}))
        .await;
    f.ok(json!({"command": "state", "action": "save", "file": "good.json"}))
        .await;
    let saved = output.join("good.json");
    let good = std::fs::read(&saved).expect("the good state file");
    (f, saved, good)
}

/// While an alert blocks the page, every command that needs the page's
/// scripts answers DIALOG_OPEN before sending anything (instead of waiting
/// for the dialog into a deadline), `state save` writes nothing over an
/// earlier good file, and what the browser answers itself keeps working.
#[tokio::test]
async fn an_open_dialog_refuses_page_commands_at_once_and_state_save_writes_nothing() {
    let output = rove_testkit::scratch_dir("dialog-state");
    let (mut f, saved, good) = with_a_good_state_file(&output).await;
    assert!(
        String::from_utf8_lossy(&good).contains("\"dark\""),
        "{}",
        String::from_utf8_lossy(&good)
    );

    let alert = f.find("Alert", "button").await;
    f.ok(json!({"command": "click", "ref": alert})).await;
    for command in [
        json!({"command": "read"}),
        json!({"command": "find", "text": "Alert"}),
        json!({"command": "wait", "text": "never here", "ms": 30000}),
        json!({"command": "storage", "kind": "local"}),
        json!({"command": "storage", "kind": "session", "action": "clear"}),
        json!({"command": "state", "action": "save", "file": "good.json"}),
        json!({"command": "eval", "js": "1"}),
        json!({"command": "press", "keys": "Enter"}),
        json!({"command": "scroll", "direction": "down"}),
        json!({"command": "screenshot"}),
        json!({"command": "reload"}),
    ] {
        let e = f.fails(command.clone()).await;
        let report = e.report();
        assert_eq!(code(&e), "DIALOG_OPEN", "{command}: {report:?}");
        assert_eq!(
            report.action_sent,
            rove_errors::ActionSent::NotSent,
            "{command}"
        );
        assert_eq!(
            e.facts().expect("facts"),
            json!({"dialog": "alert", "text": "Saved!"}),
            "{command}"
        );
    }
    assert_eq!(
        std::fs::read(&saved).expect("the state file"),
        good,
        "state save replaced the good file while a dialog blocked the page"
    );
    let names: Vec<_> = std::fs::read_dir(&output)
        .expect("output folder")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("good.json")]);

    // The browser answers these itself: the dialog does not stop them; a
    // snapshot is the dialog.
    let view = f
        .ok(json!({"command": "snapshot"}))
        .await
        .view
        .expect("view");
    assert!(
        view.text.contains("alert dialog blocks the page"),
        "{}",
        view.text
    );
    f.ok(json!({"command": "cookies"})).await;
    f.ok(json!({"command": "tab", "action": "list"})).await;
    f.ok(json!({"command": "console"})).await;

    f.ok(json!({"command": "dialog", "accept": true})).await;
    let read = f.ok(json!({"command": "read"})).await;
    assert!(read.text().contains("after alert"), "{}", read.text());
    f.close().await;
}

/// A script that ran (it clicked, changing the page) but returned what the
/// browser cannot hand back is `sent`, its side effect uncertain.
#[tokio::test]
async fn an_eval_whose_result_cannot_be_returned_says_the_script_ran() {
    let mut f = Fixture::start().await;
    f.open("/dialogs.html").await;
    let e = f
        .fails(json!({"command": "eval", "js": "(() => { [...document.querySelectorAll('button')].find(b => b.textContent === 'Plain').click(); const o = {}; o.self = o; return o; })()"}))
        .await;
    let report = e.report();
    assert_eq!(code(&e), "EVALUATION_FAILED", "{report:?}");
    assert_eq!(report.action_sent, rove_errors::ActionSent::Sent);
    assert_eq!(report.side_effect, rove_errors::SideEffect::Uncertain);
    assert!(
        report.message.contains("the script ran"),
        "{}",
        report.message
    );
    assert_eq!(f.eval("window.pressed === true").await, json!(true));
    f.close().await;
}

/// `state save` reads every tab: a dialog in a tab other than the focused
/// one refuses it as a whole, and the earlier file stays as it was, while
/// the focused tab's own commands go on.
#[tokio::test]
async fn a_dialog_in_another_tab_refuses_state_save_as_a_whole() {
    let output = rove_testkit::scratch_dir("dialog-state-other-tab");
    let (mut f, saved, good) = with_a_good_state_file(&output).await;

    let url = f.url("/dialogs.html");
    f.ok(json!({"command": "tab", "action": "new", "url": url}))
        .await;
    let alert = f.find("Alert", "button").await;
    f.ok(json!({"command": "click", "ref": alert})).await;
    f.ok(json!({"command": "tab", "action": "switch", "tab": "t1"}))
        .await;
    f.ok(json!({"command": "read"})).await;
    let e = f
        .fails(json!({"command": "state", "action": "save", "file": "good.json"}))
        .await;
    assert_eq!(code(&e), "DIALOG_OPEN", "{:?}", e.report());
    assert_eq!(std::fs::read(&saved).expect("the state file"), good);
    f.close().await;
}

/// A page that asks before it is left, once the user has typed in it.
const UNSAVED: &str = "<title>Draft</title><input aria-label=Draft>\
    <script>window.addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; });</script>";

#[tokio::test]
async fn open_held_by_a_beforeunload_dialog_says_the_tab_did_not_navigate() {
    let routes = fixture_routes()
        .page("/unsaved.html", rove_localserver::Response::html(UNSAVED))
        .page(
            "/elsewhere.html",
            // Slow to come, and built by its script once loaded, as
            // Notebook 7 builds its page.
            rove_localserver::Response::html(
                "<title>Elsewhere</title><p>Loading…</p><script>addEventListener('load', () => \
                 setTimeout(() => { document.body.innerHTML = '<h1>Arrived</h1><button>Go on</button>'; }, 50));</script>",
            )
            .delayed(std::time::Duration::from_millis(400)),
        );
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    f.open("/unsaved.html").await;
    // Chromium asks before leaving only a page the user interacted with.
    let draft = f.find("Draft", "textbox").await;
    f.ok(json!({"command": "type", "ref": draft, "text": "half a thought"}))
        .await;
    let elsewhere = f.url("/elsewhere.html");
    let e = f.fails(json!({"command": "open", "url": elsewhere})).await;
    assert_eq!(code(&e), "DIALOG_OPEN", "{e}");
    let message = e.to_string();
    assert!(
        message.contains("did not navigate") && message.contains("beforeunload"),
        "{message}"
    );
    assert!(!message.contains("opened"), "{message}");
    assert_eq!(
        e.facts().expect("facts")["kind"],
        json!("held_by_dialog"),
        "{:?}",
        e.facts()
    );
    // The tab is still on the draft, the dialog open; accepting it lets
    // the navigation go on.
    // The answer is the page the navigation reached, built, not the draft
    // or a page still loading (issue 35, item 3).
    let out = f.ok(json!({"command": "dialog", "accept": true})).await;
    let text = out.text();
    assert!(text.contains("accepted the beforeunload"), "{text}");
    assert!(
        text.contains("h1 \"Arrived\"") && text.contains("button \"Go on\""),
        "the answer shows the page reached:\n{text}"
    );
    f.close().await;
}
