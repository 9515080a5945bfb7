//! The network group: requests listed with their bodies on demand, a
//! blocked request failing in the page, a mocked response seen by the page
//! (the server never asked), rules dropped by clear, and a HAR file.

use crate::support;

use rove_commands::SessionConfig;
use rove_localserver::{RequestLog, Response};
use serde_json::{Value, json};
use support::{Fixture, code, fixture_routes};

fn text_of(out: &rove_commands::Outcome) -> String {
    out.data_text()
        .expect("network answers with text")
        .to_owned()
}

fn json_reply(body: &str) -> Response {
    Response::with_type(200, "application/json", body.as_bytes().to_vec())
}

async fn fixture(log: RequestLog, config: SessionConfig) -> Fixture {
    let routes = fixture_routes()
        .log_requests(log)
        .handle("/api/items", |_| {
            json_reply(r#"{"items":["apple","pear"]}"#)
        })
        .handle("/api/price", |_| json_reply(r#"{"price": 10}"#))
        .page("/ads/banner.js", Response::text("var ad = 1;"));
    Fixture::with(routes, config).await
}

/// Clicks the button named `name` and waits for `text` on the page.
async fn press(f: &mut Fixture, name: &str, text: &str) {
    let button = f.find(name, "button").await;
    f.ok(json!({"command": "click", "ref": button})).await;
    f.ok(json!({"command": "wait", "text": text})).await;
}

/// The number of the listed request whose line contains `needle`.
fn id_of(listing: &str, needle: &str) -> u64 {
    let line = listing
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no {needle} in {listing}"));
    line.split_whitespace().next().expect("an id")[1..]
        .parse()
        .expect("a number")
}

#[tokio::test]
async fn requests_are_listed_and_shown_with_their_bodies() {
    let mut f = fixture(RequestLog::new(), SessionConfig::default()).await;
    f.open("/net.html").await;
    let first = text_of(&f.ok(json!({"command": "network"})).await);
    assert!(first.contains("GET 200 document"), "{first}");
    assert!(first.contains("/net.html"), "{first}");

    press(&mut f, "Load items", "items apple,pear").await;
    // A filter that leaves the fetch out leaves it unread, too.
    let none = text_of(
        &f.ok(json!({"command": "network", "type": "document"}))
            .await,
    );
    assert!(
        none.starts_with("no requests since the last call"),
        "{none}"
    );
    let listed = text_of(&f.ok(json!({"command": "network"})).await);
    assert!(
        listed.starts_with("1 request since the last call"),
        "{listed}"
    );
    assert!(listed.contains("POST 200 fetch"), "{listed}");
    let id = id_of(&listed, "/api/items");

    let shown = text_of(
        &f.ok(json!({"command": "network", "action": "show", "id": id}))
            .await,
    );
    assert!(shown.contains("status 200 OK"), "{shown}");
    assert!(
        shown.contains("request body (11 B):\n  | {\"q\":\"all\"}"),
        "{shown}"
    );
    assert!(
        shown.contains("response body (26 B):\n  | {\"items\":[\"apple\",\"pear\"]}"),
        "{shown}"
    );
    assert!(shown.contains("content-type: application/json"), "{shown}");
    // A budget cuts a body and says so.
    let cut = text_of(
        &f.ok(json!({"command": "network", "action": "show", "id": id, "max_bytes": 5}))
            .await,
    );
    assert!(
        cut.contains("  | {\"ite\n  … cut at 5 bytes of 26"),
        "{cut}"
    );

    // Filters: by type and status, over everything kept.
    let documents = text_of(
        &f.ok(json!({"command": "network", "all": true, "type": "document"}))
            .await,
    );
    assert!(documents.starts_with("1 request kept"), "{documents}");
    let missing = f
        .fails(json!({"command": "network", "action": "show", "id": 999}))
        .await;
    assert_eq!(code(&missing), "COMMAND_REJECTED");
    f.close().await;
}

#[tokio::test]
async fn a_blocked_request_fails_in_the_page_and_a_mock_answers_for_the_server() {
    let log = RequestLog::new();
    let mut f = fixture(log.clone(), SessionConfig::default()).await;
    f.open("/net.html").await;

    let blocked = text_of(
        &f.ok(json!({"command": "network", "action": "block", "url": "*/ads/*"}))
            .await,
    );
    assert!(
        blocked.contains("failing requests to URLs matching \"*/ads/*\""),
        "{blocked}"
    );
    press(&mut f, "Load ad", "ad failed TypeError").await;

    f.ok(json!({"command": "network", "action": "mock", "url": "/api/price", "body": "{\"price\": 99}"}))
        .await;
    press(&mut f, "Load price", "price 99").await;

    let listed = text_of(&f.ok(json!({"command": "network"})).await);
    assert!(
        listed.contains("failed (net::ERR_BLOCKED_BY_CLIENT"),
        "{listed}"
    );
    // The secret-looking query value is not shown.
    assert!(listed.contains("/api/price?token=<redacted>"), "{listed}");
    assert!(!listed.contains("s3cret"), "{listed}");
    let failed = text_of(
        &f.ok(json!({"command": "network", "all": true, "status": 0}))
            .await,
    );
    assert!(failed.starts_with("1 request kept"), "{failed}");

    // Cleared, the server answers again.
    let cleared = text_of(&f.ok(json!({"command": "network", "action": "clear"})).await);
    assert!(
        cleared.contains("dropped 2 block and mock rules"),
        "{cleared}"
    );
    press(&mut f, "Load price", "price 10").await;
    f.close().await;

    let asked: Vec<String> = log.requests().iter().map(|r| r.path.clone()).collect();
    assert!(!asked.iter().any(|p| p.starts_with("/ads/")), "{asked:?}");
    assert_eq!(
        asked.iter().filter(|p| *p == "/api/price").count(),
        1,
        "only the call after clear reached the server: {asked:?}"
    );
}

#[tokio::test]
async fn a_mock_body_comes_only_from_the_allowed_roots_and_a_har_is_written() {
    let roots = rove_testkit::scratch_dir("network-roots");
    let output = rove_testkit::scratch_dir("network-output");
    std::fs::write(roots.join("price.json"), r#"{"price": 7}"#).expect("write");
    let outside = rove_testkit::scratch_dir("network-outside");
    std::fs::write(outside.join("secret.json"), "{}").expect("write");
    let config = SessionConfig {
        upload_roots: vec![roots.clone()],
        output_dir: Some(output.clone()),
        ..SessionConfig::default()
    };
    let mut f = fixture(RequestLog::new(), config).await;
    f.open("/net.html").await;

    let denied = f
        .fails(
            json!({"command": "network", "action": "mock", "url": "/api/price",
            "file": outside.join("secret.json").to_string_lossy()}),
        )
        .await;
    assert_eq!(code(&denied), "UPLOAD_DENIED");
    f.ok(
        json!({"command": "network", "action": "mock", "url": "/api/price",
        "file": roots.join("price.json").to_string_lossy()}),
    )
    .await;
    press(&mut f, "Load price", "price 7").await;
    press(&mut f, "Load items", "items apple").await;

    // A model names a file, not a path: it lands in the output folder.
    let refused = f
        .fails(json!({"command": "network", "action": "har", "file": "/tmp/x.har"}))
        .await;
    assert_eq!(code(&refused), "COMMAND_REJECTED");
    let wrote = text_of(
        &f.ok(json!({"command": "network", "action": "har", "file": "run.har"}))
            .await,
    );
    assert!(wrote.contains("(HAR 1.2)"), "{wrote}");
    let har: Value = serde_json::from_str(
        &std::fs::read_to_string(output.join("run.har")).expect("the HAR file"),
    )
    .expect("JSON");
    assert_eq!(har["log"]["version"], "1.2");
    let entries = har["log"]["entries"].as_array().expect("entries");
    let items = entries
        .iter()
        .find(|e| {
            e["request"]["url"]
                .as_str()
                .is_some_and(|u| u.ends_with("/api/items"))
        })
        .expect("the items request");
    assert_eq!(items["request"]["method"], "POST");
    assert_eq!(items["response"]["status"], 200);
    assert!(
        items["request"]["postData"].is_null(),
        "no body unless asked"
    );
    f.ok(json!({"command": "network", "action": "har", "file": "bodies.har", "bodies": true}))
        .await;
    let with_bodies: Value = serde_json::from_str(
        &std::fs::read_to_string(output.join("bodies.har")).expect("the HAR file"),
    )
    .expect("JSON");
    let posted = with_bodies["log"]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| {
            e["request"]["url"]
                .as_str()
                .is_some_and(|u| u.ends_with("/api/items"))
        })
        .expect("the items request");
    assert_eq!(posted["request"]["postData"]["text"], "{\"q\":\"all\"}");
    let price = entries
        .iter()
        .find(|e| {
            e["request"]["url"]
                .as_str()
                .is_some_and(|u| u.contains("/api/price"))
        })
        .expect("the mocked request");
    assert_eq!(price["response"]["status"], 200);
    f.close().await;
}

/// `?` in a URL pattern is itself, for the network rules as for `wait`
/// (docs/commands.md): a rule whose `?` would only match as "any one
/// character" leaves the request alone, and the browser still pauses what
/// a rule with a plain `?` matches.
#[tokio::test]
async fn a_question_mark_in_a_url_pattern_is_itself() {
    let log = RequestLog::new();
    let mut f = fixture(log.clone(), SessionConfig::default()).await;
    f.open("/net.html?x=1").await;

    f.ok(json!({"command": "network", "action": "mock", "url": "*/api/price?token=s3cre?", "body": "{\"price\": 5}"}))
        .await;
    press(&mut f, "Load price", "price 10").await;
    f.ok(json!({"command": "network", "action": "mock", "url": "*/api/price?token=*", "body": "{\"price\": 42}"}))
        .await;
    press(&mut f, "Load price", "price 42").await;
    f.ok(json!({"command": "network", "action": "mock", "url": "/api/price?token=s3cret", "body": "{\"price\": 43}"}))
        .await;
    press(&mut f, "Load price", "price 43").await;

    f.ok(json!({"command": "wait", "url": "*/net.html?x=1"}))
        .await;
    f.ok(json!({"command": "wait", "url": "/net.html?x="}))
        .await;
    let missed = f
        .fails(json!({"command": "wait", "url": "*/net.html?x=?", "ms": 300}))
        .await;
    assert_eq!(code(&missed), "TIMEOUT");
    f.close().await;

    let asked = log
        .requests()
        .iter()
        .filter(|r| r.path == "/api/price")
        .count();
    assert_eq!(asked, 1, "only the first price reached the server");
}

#[tokio::test]
async fn requests_cleared_are_not_blamed_on_the_cap() {
    let mut f = fixture(RequestLog::new(), SessionConfig::default()).await;
    f.open("/net.html").await;
    press(&mut f, "Load items", "items apple,pear").await;
    f.ok(json!({"command": "network", "action": "clear"})).await;
    press(&mut f, "Load price", "price 10").await;
    let kept = text_of(&f.ok(json!({"command": "network", "all": true})).await);
    assert!(kept.starts_with("1 request kept"), "{kept}");
    assert!(kept.contains("/api/price"), "{kept}");
    assert!(!kept.contains("dropped"), "{kept}");
    f.close().await;
}
