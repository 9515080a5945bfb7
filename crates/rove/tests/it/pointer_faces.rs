//! `mouse` and `fill-form` at the shell: `rove click --at X Y` clicks a
//! point of the viewport (a negative coordinate is a number, refused by the
//! daemon with nothing sent, not a flag), and `rove fill-form REF=VALUE …`
//! fills several fields in one call.

use crate::support;

use rove_localserver::{Response, Routes};
use support::Env;

const PAGE: &str = "<!doctype html><title>Points</title><link rel=icon href='data:,'>\
    <style>body{margin:0} #go{position:absolute;left:20px;top:20px;width:100px;height:40px}</style>\
    <button id=go onclick=\"this.textContent = 'went ' + event.isTrusted\">Go</button>\
    <form style='margin-top:120px'><label>Name <input id=name></label>\
    <label><input type=checkbox id=agree> Agree</label></form>";

#[tokio::test]
async fn the_shell_clicks_at_a_point_and_fills_a_form_in_one_call() {
    let env = Env::with_routes(
        "pointer-cli",
        Routes::new().page("/page", Response::html(PAGE)),
    )
    .await;
    let opened = env.ok(&["open", &env.server.url("/page")]).await;

    let view = opened["view"].as_str().unwrap_or_default().to_owned();
    let go = support::ref_of(&view, "button \"Go\"");
    let out = env.ok(&["click", "--at", "70", "40"]).await;
    assert_eq!(
        out["happened"][0],
        format!("clicked at (70, 40) on {go} button \"Go\""),
        "{out}"
    );
    assert_eq!(
        env.value("document.getElementById('go').textContent").await,
        "went true"
    );

    let (status, refused) = env.run(&["click", "--at", "-5", "40"]).await;
    assert_ne!(status, 0, "{refused}");
    assert_eq!(refused["error"]["code"], "COMMAND_REJECTED", "{refused}");
    assert_eq!(refused["error"]["action_sent"], "not_sent", "{refused}");

    let name = support::ref_of(&view, "textbox \"Name\"");
    let agree = support::ref_of(&view, "checkbox \"Agree\"");
    env.ok(&[
        "fill-form",
        &format!("{name}=Ada"),
        &format!("{agree}=true"),
    ])
    .await;
    assert_eq!(
        env.value(
            "[document.getElementById('name').value, document.getElementById('agree').checked]"
        )
        .await,
        serde_json::json!(["Ada", true])
    );
    env.close("default").await;
}
