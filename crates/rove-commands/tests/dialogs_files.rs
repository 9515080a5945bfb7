//! `dialog` (alert, confirm, prompt, chains, DIALOG_OPEN for everything else)
//! and `upload` (by input, by chooser, denied outside the allowed roots).

mod support;

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
        out.happened
            .iter()
            .any(|l| l == "an alert dialog opened: \"Saved!\""),
        "{:?}",
        out.happened
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
    assert_eq!(out.happened[0], "accepted the alert \"Saved!\"");
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
        out.happened
            .iter()
            .any(|l| l == "another alert dialog opened: \"second\""),
        "{:?}",
        out.happened
    );
    let out = f.ok(json!({"command": "dialog", "accept": true})).await;
    assert!(
        !out.happened.iter().any(|l| l.contains("dialog opened")),
        "{:?}",
        out.happened
    );
    assert_eq!(
        f.eval("document.getElementById('result').textContent")
            .await,
        "both answered"
    );

    let e = f.fails(json!({"command": "dialog", "accept": true})).await;
    assert_eq!(code(&e), "COMMAND_REJECTED", "no dialog is open");
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

    let one = f.find("Attachment: No file chosen", "button").await;
    let out = f
        .ok(json!({"command": "upload", "ref": one, "paths": [a]}))
        .await;
    assert!(
        out.happened[0].starts_with(&format!("gave {one} 1 file")),
        "{:?}",
        out.happened
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

    let many = f.find("Photos: No file chosen", "button").await;
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
        assert_eq!(
            e.facts().expect("facts")["allowed_roots"][0],
            root.display().to_string()
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
