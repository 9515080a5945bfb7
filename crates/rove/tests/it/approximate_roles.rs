//! A browser rove did not launch (a farm's) runs without the blink feature
//! rove turns on in its own (issue 43, item 6), and no CDP command turns it
//! on: the walker then approximates roles and names. Measured on MiniWoB++
//! and JupyterLab (docs/benchmarks.md), every line the approximation got
//! wrong came from four of Chromium's rules it lacked; on a page made of
//! those four the view over `--cdp-url` must read as on rove's own browser.

use rove_localserver::{LocalServer, Response, Routes};

use crate::cli::{rove, run};

/// The four, each as the measured page had it: a jQuery UI tab's link
/// (`role=presentation` on a focusable element, which keeps its own role),
/// a JupyterLab side tab and toolbar button shown by an icon (named by
/// their tooltip), MiniWoB's phone book link (an anchor without href that
/// a script listens to is a link) and jQuery UI's menu items (a list item
/// outside a list is nothing: the box around the menu item and its
/// submenu, with jQuery UI's pointer cursor, is a clickable).
/// And a button input, named by its value.
const PAGE: &str = "<!doctype html><title>Approximated</title>\
    <ul role=tablist><li role=tab><a href='#t1' role=presentation tabindex=-1>Tab #1</a></li></ul>\
    <ul role=tablist><li role=tab tabindex=0 title='File Browser (Ctrl+Shift+F)'><svg width=16 height=16></svg></li></ul>\
    <button title='New Launcher'><svg width=16 height=16></svg></button>\
    <p>Phone: <a class=phone>373-684-4941</a></p>\
    <form><input type=submit value=Go></form>\
    <ul role=menu tabindex=0><li class=item style='cursor:pointer'><div role=menuitem tabindex=-1 aria-haspopup=true>Jocelyne</div>\
      <ul role=menu style='display:none'><li><div role=menuitem tabindex=-1>Lynett</div></li></ul></li></ul>\
    <script>\
      document.querySelector('.phone').addEventListener('click', () => {});\
    </script>";

/// The view of `url` in `session`, refs written `eN` (two browsers number
/// their elements alike, but nothing here should rest on it).
async fn view(session: &str, cdp_url: Option<&str>, url: &str) -> String {
    let mut command = rove();
    command.args(["--session", session]);
    if let Some(cdp) = cdp_url {
        command.args(["--cdp-url", cdp]);
    }
    let out = run(command.args(["open", url])).await;
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let shown = out
        .stdout
        .lines()
        .filter(|l| !l.starts_with("opened ") && !l.starts_with('['))
        .map(|l| {
            l.split(' ')
                .map(|w| {
                    let is_ref = w.len() > 1
                        && w.starts_with('e')
                        && w[1..].bytes().all(|b| b.is_ascii_digit());
                    if is_ref { "eN" } else { w }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n");
    run(rove().args(["--session", session, "close"])).await;
    shown
}

#[tokio::test]
async fn a_browser_without_the_feature_reads_the_measured_patterns_as_chromium_does() {
    let server = LocalServer::start(Routes::new().page("/page", Response::html(PAGE)))
        .await
        .expect("fixture server");
    let url = server.url("/page");
    let browser = rove_testkit::External::start("approximate-roles");
    let cdp = format!("http://127.0.0.1:{}", browser.port);
    let approximated = view("approx-farm", Some(&cdp), &url).await;
    for line in [
        "eN link \"Tab #1\"",
        "eN tab \"File Browser (Ctrl+Shift+F)\"",
        "eN button \"New Launcher\"",
        "eN link \"373-684-4941\"",
        "eN clickable .item",
        "eN button \"Go\"",
    ] {
        assert!(
            approximated.lines().any(|l| l.trim_start() == line),
            "{line:?} missing from the view over --cdp-url:\n{approximated}"
        );
    }
    let own = view("approx-own", None, &url).await;
    assert_eq!(approximated, own, "over --cdp-url, then rove's own browser");
}
