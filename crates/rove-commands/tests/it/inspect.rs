//! The inspect group: `get` answers one fact about an element a ref names
//! (text, value, attribute, box, visible, enabled, checked), read in rove's
//! own world so the page's overrides do not change it.

use crate::support;

use rove_localserver::Response;
use serde_json::{Value, json};
use support::{Fixture, code};

const PAGE: &str = "<!doctype html><title>Inspect</title>\
    <style>body{margin:0} #box{position:absolute;left:10px;top:20px;width:200px;height:50px}</style>\
    <a id=box href='/next?x=1' title='Go on'>Next  page</a>\
    <label>Name <input id=name value='Ada'></label>\
    <label><input type=checkbox id=agree checked> Agree</label>\
    <button disabled>Send</button>\
    <div role=switch aria-checked=false tabindex=0>Dark mode</div>\
    <button id=hidden style='visibility:hidden'>Ghost</button>\
    <script>Element.prototype.getAttribute = () => 'spoofed';</script>";

async fn get(f: &mut Fixture, what: &str, reference: &str, name: Option<&str>) -> Value {
    let mut command = json!({"command": "get", "what": what, "ref": reference});
    if let Some(name) = name {
        command["name"] = json!(name);
    }
    f.ok(command)
        .await
        .result()
        .expect("get answers with data")
        .clone()
}

#[tokio::test]
async fn get_reads_one_fact_of_an_element() {
    let routes = support::fixture_routes().page("/inspect", Response::html(PAGE));
    let mut f = Fixture::with(routes, rove_commands::SessionConfig::default()).await;
    f.open("/inspect").await;
    let link = f.find("Next page", "link").await;
    let field = f.find("Name", "textbox").await;
    let agree = f.find("Agree", "checkbox").await;
    let send = f.find("Send", "button").await;
    let switch = f.find("Dark mode", "switch").await;

    assert_eq!(get(&mut f, "text", &link, None).await, "Next page");
    // The page replaced getAttribute in its own world; rove reads the real one.
    assert_eq!(get(&mut f, "attr", &link, Some("href")).await, "/next?x=1");
    assert_eq!(get(&mut f, "attr", &link, Some("rel")).await, Value::Null);
    assert_eq!(
        get(&mut f, "box", &link, None).await,
        json!({"x": 10, "y": 20, "width": 200, "height": 50})
    );
    assert_eq!(get(&mut f, "value", &field, None).await, "Ada");
    f.ok(json!({"command": "fill", "ref": field, "text": "Grace"}))
        .await;
    assert_eq!(get(&mut f, "value", &field, None).await, "Grace");

    assert_eq!(get(&mut f, "checked", &agree, None).await, true);
    assert_eq!(get(&mut f, "checked", &switch, None).await, false);
    assert_eq!(get(&mut f, "enabled", &agree, None).await, true);
    assert_eq!(get(&mut f, "enabled", &send, None).await, false);
    assert_eq!(get(&mut f, "visible", &send, None).await, true);
    let hidden = f
        .eval("document.getElementById('hidden').style.visibility = 'visible'")
        .await;
    assert_eq!(hidden, "visible");
    let ghost = f.find("Ghost", "button").await;
    f.eval("document.getElementById('hidden').style.visibility = 'hidden'")
        .await;
    assert_eq!(get(&mut f, "visible", &ghost, None).await, false);

    let nameless = f
        .fails(json!({"command": "get", "what": "attr", "ref": link}))
        .await;
    assert_eq!(code(&nameless), "COMMAND_REJECTED");
    let gone = f
        .fails(json!({"command": "get", "what": "text", "ref": "e999"}))
        .await;
    assert_eq!(code(&gone), "REF_NOT_FOUND");
    f.close().await;
}
