//! `open`, `back`, `forward`, `reload` and `tab`, with the three ways a
//! navigation fails told apart, and tabs the page opens reported.

use crate::support;

use std::time::Duration;

use rove_commands::SessionConfig;
use rove_errors::Classify;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, code, fixture_routes};

fn routes() -> rove_localserver::Routes {
    fixture_routes()
        .page(
            "/missing",
            Response::with_type(
                404,
                "text/html",
                b"<title>Gone</title><h1>Not here</h1>".to_vec(),
            ),
        )
        .page(
            "/missing-with-link",
            Response::with_type(
                404,
                "text/html",
                b"<title>Gone</title><h1>Not here</h1><a href=\"/next.html\">Onward</a>".to_vec(),
            ),
        )
        .page("/broken", Response::status(500))
        .page(
            "/slow.html",
            Response::html("<title>Slow</title><p>Loading</p><img src=\"/never.png\">"),
        )
        .page(
            "/never.png",
            Response::status(200).delayed(Duration::from_secs(30)),
        )
        .page(
            "/slow-next.html",
            Response::html(
                "<title>Later</title><h1>Arrived late</h1><button>Later button</button>",
            )
            .delayed(Duration::from_millis(300)),
        )
        .page(
            "/data.json",
            Response::with_type(
                200,
                "application/json",
                br#"{"status": "loaded over the network"}"#.to_vec(),
            )
            .delayed(Duration::from_millis(400)),
        )
        .page(
            "/file.txt",
            Response::text("quarterly numbers\n")
                .header("Content-Disposition", "attachment; filename=\"report.txt\""),
        )
}

#[tokio::test]
async fn open_back_forward_reload_report_where_the_tab_is() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    let out = f.open("/home.html").await;
    assert!(
        out.happened_lines()[0].starts_with("opened http://127.0.0.1"),
        "{:?}",
        out.happened_lines()
    );
    let view = out.view.expect("a view of the new page");
    assert!(view.text.contains("h1 \"Home\""), "{}", view.text);
    f.open("/next.html").await;
    let back = f.ok(json!({"command": "back"})).await;
    assert!(back.view.expect("view").url.ends_with("/home.html"));
    let forward = f.ok(json!({"command": "forward"})).await;
    assert!(forward.view.expect("view").url.ends_with("/next.html"));
    let e = f.fails(json!({"command": "forward"})).await;
    assert_eq!(code(&e), "COMMAND_REJECTED");
    f.eval("window.marker = 1").await;
    f.ok(json!({"command": "reload"})).await;
    assert_eq!(f.eval("window.marker === undefined").await, json!(true));
    f.close().await;
}

#[tokio::test]
async fn open_tells_network_errors_http_errors_and_unfinished_loads_apart() {
    let config = SessionConfig {
        navigation_timeout: Duration::from_millis(1_500),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes(), config).await;
    // A port nothing listens on any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let e = f
        .fails(json!({"command": "open", "url": format!("http://127.0.0.1:{port}/")}))
        .await;
    assert_eq!(code(&e), "NAVIGATION_FAILED");
    assert_eq!(e.facts().expect("facts")["kind"], "network");
    assert!(e.to_string().contains("ERR_CONNECTION_REFUSED"), "{e}");
    // A port Chromium refuses to open at all: the hint says so rather than
    // blaming the site (X11's port; nothing needs to listen there).
    let e = f
        .fails(json!({"command": "open", "url": "http://127.0.0.1:6000/"}))
        .await;
    assert_eq!(code(&e), "NAVIGATION_FAILED");
    assert!(e.to_string().contains("ERR_UNSAFE_PORT"), "{e}");
    assert!(e.hint().contains("unsafe ports"), "{}", e.hint());

    let url = f.url("/missing");
    let e = f.fails(json!({"command": "open", "url": url})).await;
    assert_eq!(code(&e), "NAVIGATION_FAILED");
    assert_eq!(
        e.facts().expect("facts"),
        json!({"kind": "http_status", "status": 404})
    );
    let page = e.fresh_view().expect("the error page's view");
    assert!(page.contains("Not here"), "{page}");

    let url = f.url("/broken");
    let e = f.fails(json!({"command": "open", "url": url})).await;
    assert_eq!(
        e.facts().expect("facts"),
        json!({"kind": "http_status", "status": 500})
    );

    let url = f.url("/slow.html");
    let e = f.fails(json!({"command": "open", "url": url})).await;
    assert_eq!(code(&e), "TIMEOUT");
    assert_eq!(e.facts().expect("facts")["kind"], "not_loaded");
    assert_eq!(e.report().action_sent, rove_errors::ActionSent::Sent);
    f.close().await;
}

#[tokio::test]
async fn a_click_that_navigates_shows_the_new_page_and_an_idle_click_says_nothing_changed() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/home.html").await;
    let silent = f.find("Count silently", "button").await;
    let out = f.ok(json!({"command": "click", "ref": silent})).await;
    assert!(
        out.happened_lines()
            .contains(&"nothing visible changed".to_owned()),
        "{}",
        out.text()
    );
    assert_eq!(
        out.text(),
        format!("clicked {silent}\nnothing visible changed\n"),
        "an idle click's answer says so once"
    );
    let status = f.find("Change status", "button").await;
    let out = f.ok(json!({"command": "click", "ref": status})).await;
    let diff = out.view.expect("a diff");
    assert!(diff.text.contains("clicked"), "{}", diff.text);
    assert!(diff.tokens < 40, "{}", diff.text);
    // Settling waits for the request the click started, and what its answer
    // changed is in the result.
    let load = f.find("Load data", "button").await;
    let out = f.ok(json!({"command": "click", "ref": load})).await;
    let diff = out.view.expect("a diff").text;
    assert!(diff.contains("loaded over the network"), "{diff}");
    let next = f.find("Next page", "link").await;
    let out = f.ok(json!({"command": "click", "ref": next})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.starts_with("navigated to") && l.ends_with("/next.html")),
        "{:?}",
        out.happened_lines()
    );
    assert!(out.view.expect("view").text.contains("You arrived."));
    // The old page's refs are gone for good.
    let e = f.fails(json!({"command": "click", "ref": status})).await;
    assert_eq!(code(&e), "REF_NOT_FOUND");
    assert!(e.fresh_view().is_some_and(|v| v.contains("Back home")));
    f.close().await;
}

/// The focused tab is the one the browser shows. A hidden tab gets no
/// frames: every click on it waited 5 s for Chromium's input timeout.
#[tokio::test]
async fn the_focused_tab_is_the_visible_one() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/home.html").await;
    f.ok(json!({"command": "tab", "action": "new"})).await;
    assert_eq!(f.eval("document.visibilityState").await, json!("visible"));
    f.ok(json!({"command": "tab", "action": "new"})).await;
    f.ok(json!({"command": "tab", "action": "switch", "tab": "t1"}))
        .await;
    assert_eq!(f.eval("document.visibilityState").await, json!("visible"));
    // Input reaches the tab switched to: the click's handler ran.
    let link = f.find("Next page", "link").await;
    let out = f.ok(json!({"command": "click", "ref": link})).await;
    assert!(out.view.expect("view").text.contains("You arrived."));
    // Closing the focused tab moves focus to the newest, which is shown,
    // though Chromium shows a neighbour of the closed one by itself.
    f.ok(json!({"command": "tab", "action": "switch", "tab": "t2"}))
        .await;
    f.ok(json!({"command": "tab", "action": "close", "tab": "t2"}))
        .await;
    let listed = f.ok(json!({"command": "tab"})).await.text();
    assert!(listed.contains("t3*"), "{listed}");
    assert_eq!(f.eval("document.visibilityState").await, json!("visible"));
    f.close().await;
}

#[tokio::test]
async fn tabs_opened_by_the_page_are_reported_and_followed() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/home.html").await;
    let blank = f.find("Next in a new tab", "link").await;
    let out = f.ok(json!({"command": "click", "ref": blank})).await;
    assert_eq!(out.tab.to_string(), "t2", "{:?}", out.happened_lines());
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.starts_with("opened tab t2")),
        "{:?}",
        out.happened_lines()
    );
    assert!(out.view.expect("view").text.contains("You arrived."));

    f.ok(json!({"command": "tab", "action": "switch", "tab": "t1"}))
        .await;
    let popup = f.find("Open a popup", "button").await;
    let out = f.ok(json!({"command": "click", "ref": popup})).await;
    assert_eq!(out.tab.to_string(), "t3", "{:?}", out.happened_lines());

    // A middle click opens a background tab: reported, not followed.
    f.ok(json!({"command": "tab", "action": "switch", "tab": "t1"}))
        .await;
    let link = f.find("Next page", "link").await;
    let out = f
        .ok(json!({"command": "click", "ref": link, "button": "middle"}))
        .await;
    assert_eq!(out.tab.to_string(), "t1", "{:?}", out.happened_lines());
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.starts_with("opened tab t4")),
        "{:?}",
        out.happened_lines()
    );

    let list = f.ok(json!({"command": "tab"})).await;
    let text = list.text();
    assert!(
        text.contains("t1*") && text.contains("(opened by t1)"),
        "{text}"
    );

    f.ok(json!({"command": "tab", "action": "close", "tab": "t2"}))
        .await;
    let e = f
        .fails(json!({"command": "tab", "action": "switch", "tab": "t2"}))
        .await;
    assert_eq!(code(&e), "NO_TAB");
    let out = f.ok(json!({"command": "tab", "action": "new"})).await;
    let listed = f.ok(json!({"command": "tab"})).await.text();
    assert_eq!(
        out.tab.to_string(),
        "t5",
        "tab ids are never reused: {listed}"
    );
    let url = f.url("/next.html");
    let out = f
        .ok(json!({"command": "open", "url": url, "new_tab": true}))
        .await;
    assert_eq!(out.tab.to_string(), "t6");
    assert!(
        out.happened_lines().contains(&"new tab t6".to_owned()),
        "{:?}",
        out.happened_lines()
    );
    f.close().await;
}

#[tokio::test]
async fn a_download_lands_in_the_session_folder_with_its_size() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/home.html").await;
    let link = f.find("Get the report", "link").await;
    let out = f.ok(json!({"command": "click", "ref": link})).await;
    assert_eq!(out.downloads.len(), 1, "{}", out.text());
    let download = &out.downloads[0];
    assert_eq!(download.bytes, 18);
    assert_eq!(download.path.file_name().expect("name"), "report.txt");
    assert!(download.path.starts_with(f.session.download_dir()));
    assert_eq!(
        std::fs::read_to_string(&download.path).expect("file"),
        "quarterly numbers\n"
    );
    f.close().await;
}

#[tokio::test]
async fn a_navigation_racing_the_next_command_never_lands_it_on_the_wrong_page() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    for _ in 0..3 {
        f.open("/home.html").await;
        let leave = f.find("Leave soon", "button").await;
        let silent = f.find("Count silently", "button").await;
        // The page leaves 60 ms after the click, for a page that takes 300 ms
        // to answer: the next click races the navigation.
        f.ok(json!({"command": "click", "ref": leave})).await;
        match f.run(json!({"command": "click", "ref": silent})).await {
            // It reached the old page, which then left.
            Ok(out) => assert!(
                out.happened_lines()[0].starts_with("clicked"),
                "{:?}",
                out.happened_lines()
            ),
            // Or the old page was gone, or going: never a click on the new one.
            Err(e) => assert!(
                ["REF_NOT_FOUND", "STALE_STATE"].contains(&code(&e)),
                "{:?}",
                e.report()
            ),
        }
        f.ok(json!({"command": "wait", "text": "Arrived late"}))
            .await;
        let e = f.fails(json!({"command": "click", "ref": silent})).await;
        assert_eq!(code(&e), "REF_NOT_FOUND");
        assert!(e.fresh_view().is_some_and(|v| v.contains("Later button")));
    }
    f.close().await;
}

#[tokio::test]
async fn settling_is_capped_as_the_session_says() {
    let config = SessionConfig {
        settle: rove_input::SettleLimits {
            network_cap: Duration::from_millis(50),
            ..rove_input::SettleLimits::default()
        },
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes(), config).await;
    f.open("/home.html").await;
    let load = f.find("Load data", "button").await;
    // The answer takes 400 ms; this session waits for requests 50 ms.
    let out = f.ok(json!({"command": "click", "ref": load})).await;
    let diff = out.view.expect("a diff").text;
    assert!(!diff.contains("loaded over the network"), "{diff}");
    f.ok(json!({"command": "wait", "text": "loaded over the network"}))
        .await;
    f.close().await;
}

#[tokio::test]
async fn the_domain_policy_covers_navigations_redirects_links_and_popups() {
    // `localhost` reaches the same server under another name: outside a
    // policy that allows only 127.0.0.1.
    let routes = routes()
        .handle("/leave.html", |request| {
            let port = request
                .header("host")
                .and_then(|h| h.rsplit(':').next())
                .unwrap_or_default()
                .to_owned();
            Response::html(format!(
                "<title>Leave</title><a href=\"http://localhost:{port}/next.html\">Away</a>\
                 <button onclick=\"window.open('http://localhost:{port}/next.html')\">Pop</button>"
            ))
        })
        .handle("/bounce", |request| {
            let port = request
                .header("host")
                .and_then(|h| h.rsplit(':').next())
                .unwrap_or_default()
                .to_owned();
            Response::redirect(&format!("http://localhost:{port}/next.html"))
        });
    let config = SessionConfig {
        policy: rove_browser::DomainPolicy::from_lists(Some(["127.0.0.1"]), [""; 0])
            .expect("policy"),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes, config).await;
    let port = f
        .url("/")
        .rsplit(':')
        .next()
        .unwrap_or_default()
        .trim_end_matches('/')
        .to_owned();
    let away = format!("http://localhost:{port}/next.html");

    let e = f.fails(json!({"command": "open", "url": away})).await;
    assert_eq!(code(&e), "NAVIGATION_BLOCKED");
    assert_eq!(e.facts().expect("facts")["allowed_domains"][0], "127.0.0.1");

    let bounce = f.url("/bounce");
    let e = f.fails(json!({"command": "open", "url": bounce})).await;
    assert_eq!(code(&e), "NAVIGATION_BLOCKED", "{:?}", e.report());
    assert!(e.to_string().contains("localhost"), "{e}");

    f.open("/leave.html").await;
    let link = f.find("Away", "link").await;
    let out = f.ok(json!({"command": "click", "ref": link})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.starts_with("blocked loading http://localhost")),
        "{:?}",
        out.happened_lines()
    );
    let here = f.eval("location.hostname").await;
    assert_ne!(here, "localhost");

    f.open("/leave.html").await;
    let pop = f.find("Pop", "button").await;
    let out = f.ok(json!({"command": "click", "ref": pop})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.starts_with("closed a tab opened at http://localhost")),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(f.session.context().tabs().len(), 1, "the popup is gone");
    f.close().await;
}

/// The view an HTTP error page's failure carries is one the next command
/// can act on: its refs were handed out.
#[tokio::test]
async fn the_refs_in_an_http_error_pages_view_are_usable() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    let url = f.url("/missing-with-link");
    let e = f.fails(json!({"command": "open", "url": url})).await;
    assert_eq!(code(&e), "NAVIGATION_FAILED");
    let page = e.fresh_view().expect("the error page's view").to_owned();
    let line = page
        .lines()
        .find(|l| l.contains("link \"Onward\""))
        .unwrap_or_else(|| panic!("no link in {page}"));
    let reference = line
        .split_whitespace()
        .find(|w| w.len() > 1 && w.starts_with('e') && w[1..].chars().all(|c| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no ref in {line}"));
    let out = f.ok(json!({"command": "click", "ref": reference})).await;
    let view = out.view.expect("the next page's view");
    assert!(view.text.contains("Next page"), "{}", view.text);
    f.close().await;
}

/// `tab new URL` whose navigation fails after the tab was made says so:
/// the tab is in the facts, and the side effect is uncertain.
#[tokio::test]
async fn a_tab_new_that_fails_after_making_the_tab_names_it() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/next.html").await;
    // Chromium refuses port 9 (an unsafe port) at once, after the tab exists.
    let e = f
        .fails(json!({"command": "tab", "action": "new", "url": "http://127.0.0.1:9/"}))
        .await;
    let report = e.report();
    assert_eq!(code(&e), "NAVIGATION_FAILED", "{report:?}");
    assert_eq!(report.action_sent, rove_errors::ActionSent::Sent);
    assert_eq!(report.side_effect, rove_errors::SideEffect::Uncertain);
    let facts = e.facts().expect("facts");
    assert_eq!(facts["new_tab"], "t2", "{facts}");
    assert_eq!(facts["cause"]["kind"], "network", "{facts}");
    assert!(e.to_string().contains("opened tab t2"), "{e}");
    let listed = f.ok(json!({"command": "tab", "action": "list"})).await;
    assert!(listed.text().contains("t2"), "{}", listed.text());
    f.close().await;
}

/// A view names the URL when it is news to whoever reads it: a second look
/// at the same page says `[t1] Title`, but the first view of a tab the
/// session's focus came back to names it again, however many views ago
/// that tab was last seen.
#[tokio::test]
async fn a_tab_switched_back_to_names_its_url_again() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/home.html").await;
    let home = f.url("/home.html");
    let header = |out: rove_commands::Outcome| {
        let view = out.view.expect("view").text;
        view.lines().next().unwrap_or_default().to_owned()
    };
    let again = header(f.ok(json!({"command": "snapshot"})).await);
    assert!(!again.contains("http"), "the same page again: {again}");
    f.ok(json!({"command": "tab", "action": "new"})).await;
    let back = header(
        f.ok(json!({"command": "tab", "action": "switch", "tab": "t1"}))
            .await,
    );
    assert!(back.starts_with("[t1] ") && back.ends_with(&home), "{back}");
    let after = header(f.ok(json!({"command": "snapshot"})).await);
    assert!(!after.contains("http"), "told once: {after}");
    f.ok(json!({"command": "tab", "action": "new"})).await;
    f.ok(json!({"command": "tab", "action": "close"})).await;
    let now_on = header(
        f.ok(json!({"command": "tab", "action": "switch", "tab": "t1"}))
            .await,
    );
    assert!(now_on.ends_with(&home), "{now_on}");
    f.close().await;
}
