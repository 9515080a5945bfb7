//! A shell asking for a value gets the value first: `rove eval
//! 'document.title'` prints the title bare (control characters dropped),
//! then what changed; `rove get` and `rove is` likewise.

use crate::support;

use rove_localserver::{Response, Routes};
use support::Env;

const PAGE: &str = "<!doctype html><title>Red \u{1b}[31malert</title><link rel=icon href='data:,'>\
    <a href='/next' title='Onward'>Next</a>\
    <label><input type=checkbox checked> Agree</label>";

async fn stdout(env: &Env, args: &[&str]) -> String {
    let output = env.rove(args).output().await.expect("rove runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[tokio::test]
async fn eval_get_and_is_print_the_value_first() {
    let env = Env::with_routes("values", Routes::new().page("/page", Response::html(PAGE))).await;
    env.ok(&["open", &env.server.url("/page")]).await;

    let title = stdout(&env, &["eval", "document.title"]).await;
    assert_eq!(title.lines().next(), Some("Red [31malert"), "{title:?}");
    assert!(!title.contains('\u{1b}'), "{title:?}");

    let object = stdout(&env, &["eval", "({n: 2})"]).await;
    assert!(object.starts_with("{\n  \"n\": 2\n}\n"), "{object:?}");

    // The answer for --json is unchanged: the value under data.result.
    assert_eq!(env.value("1 + 1").await, 2);

    let view = stdout(&env, &["snapshot"]).await;
    let link = support::ref_of(&view, "link \"Next\"");
    let agree = support::ref_of(&view, "checkbox \"Agree\"");
    let title = stdout(&env, &["get", "attr", "title", &link]).await;
    assert_eq!(title.lines().next(), Some("Onward"), "{title:?}");
    let checked = stdout(&env, &["is", "checked", &agree]).await;
    assert_eq!(checked.lines().next(), Some("true"), "{checked:?}");
    env.close("default").await;
}
