//! The `verify:` checks against real Chromium and pages served on
//! 127.0.0.1: each kind holding, and each kind failing with a reason that
//! says what it found.

use rove_commands::{Command, OpenArgs, Session, SessionConfig, SnapshotArgs};
use rove_eval::{Check, CheckResult, FileCheck, Final, HttpCheck, TextCheck, run_checks};
use rove_localserver::{LocalServer, Response, Routes};
use serde_json::json;
use sha2::Digest;

const REPORT: &str = "quarterly numbers\n";

async fn server() -> LocalServer {
    LocalServer::start(
        Routes::new()
            .page(
                "/shop/done",
                Response::html(
                    "<title>Shop</title><h1>Order 42 placed</h1>\
                     <a href=\"/file.txt\">Get the report</a>",
                ),
            )
            .page(
                "/api/state",
                Response::with_type(
                    200,
                    "application/json",
                    json!({"orders": [{"item": "lamp", "qty": 1}]})
                        .to_string()
                        .into_bytes(),
                ),
            )
            .page("/api/broken", Response::status(500))
            // Answers long after the check's deadline.
            .page(
                "/api/slow",
                Response::text("{}").delayed(std::time::Duration::from_secs(600)),
            )
            .page("/api/html", Response::html("<p>not json</p>"))
            .page(
                "/file.txt",
                Response::text(REPORT)
                    .header("Content-Disposition", "attachment; filename=\"report.txt\""),
            ),
    )
    .await
    .expect("server")
}

/// A session on the final page, with the report downloaded by a real click.
async fn final_page(browser: &rove_browser::Browser, server: &LocalServer) -> Session {
    let mut session = Session::start(browser, SessionConfig::default())
        .await
        .expect("session");
    session
        .execute(&Command::Open(OpenArgs {
            url: server.url("/shop/done"),
            new_tab: false,
        }))
        .await
        .expect("opened");
    let view = session
        .execute(&Command::Snapshot(SnapshotArgs::default()))
        .await
        .expect("view")
        .text();
    let link = view
        .lines()
        .find(|l| l.contains("link \"Get the report\""))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no link in {view}"))
        .to_owned();
    let click: Command =
        serde_json::from_value(json!({"command": "click", "ref": link})).expect("a click");
    let clicked = session.execute(&click).await.expect("clicked");
    assert_eq!(clicked.downloads.len(), 1, "{}", clicked.text());
    session
}

fn text(contains: Option<&str>, lacks: Option<&str>) -> Check {
    Check::Text(TextCheck {
        contains: contains.map(str::to_owned),
        lacks: lacks.map(str::to_owned),
    })
}

fn http(url: String, pointer: &str, equals: serde_json::Value) -> Check {
    Check::Http(HttpCheck {
        url,
        pointer: pointer.into(),
        equals,
    })
}

fn file(name: Option<&str>) -> FileCheck {
    FileCheck {
        name: name.map(str::to_owned),
        size: None,
        min_size: None,
        sha256: None,
        contains: None,
    }
}

fn answer(text: &str) -> Final {
    Final {
        answer: Some(text.to_owned()),
    }
}

#[tokio::test]
async fn every_kind_of_check_holds_on_a_page_that_meets_it() {
    let server = server().await;
    let browser = rove_testkit::launch().await;
    let mut session = final_page(&browser, &server).await;
    let sha: String = sha2::Sha256::digest(REPORT.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let checks = vec![
        Check::Url("^http://127\\.0\\.0\\.1:\\d+/shop/done$".into()),
        text(Some("Order 42 placed"), Some("Error")),
        Check::Js("document.title === 'Shop' && location.pathname === '/shop/done'".into()),
        Check::Js("async () => (await fetch('/api/state')).ok".into()),
        http(server.url("/api/state"), "/orders/0/item", json!("lamp")),
        http(server.url("/api/state"), "/orders/0/qty", json!(1)),
        Check::File(FileCheck {
            size: Some(REPORT.len() as u64),
            min_size: Some(5),
            sha256: Some(sha.to_uppercase()),
            contains: Some("quarterly".into()),
            ..file(Some("report.txt"))
        }),
        Check::File(file(None)),
        Check::Answer("(?i)order \\d+".into()),
    ];
    let results = run_checks(&checks, &mut session, &answer("Placed ORDER 42")).await;
    session.close().await.expect("closed");
    browser.close().await;
    let failed: Vec<&CheckResult> = results.iter().filter(|r| !r.passed).collect();
    assert!(failed.is_empty(), "{failed:#?}");
    let kinds: Vec<&str> = results.iter().map(|r| r.check.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "url", "text", "js", "js", "http", "http", "file", "file", "answer"
        ]
    );
    assert!(
        results[6].detail.contains("report.txt (18 bytes)"),
        "{:?}",
        results[6]
    );
}

#[tokio::test]
async fn every_kind_of_check_fails_saying_what_it_found() {
    let server = server().await;
    // A port nothing listens on: bound, then let go.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a port")
        .local_addr()
        .expect("its address");
    let browser = rove_testkit::launch().await;
    let mut session = final_page(&browser, &server).await;
    let cases: Vec<(Check, &str)> = vec![
        (
            Check::Url("/checkout$".into()),
            "does not match \"/checkout$\"",
        ),
        (
            text(Some("Thank you"), None),
            "does not contain \"Thank you\"",
        ),
        (text(None, Some("Order 42")), "contains \"Order 42\""),
        (
            Check::Js("document.title === 'Cart'".into()),
            "returned false, not true",
        ),
        (Check::Js("1".into()), "returned 1, not true"),
        (Check::Js("no_such_thing.x".into()), "the script failed"),
        (
            http(server.url("/api/state"), "/orders/0/item", json!("desk")),
            "is \"lamp\", not \"desk\"",
        ),
        (
            http(server.url("/api/state"), "/orders/5", json!(1)),
            "has nothing at \"/orders/5\"",
        ),
        (
            http(server.url("/api/broken"), "", json!(1)),
            "answered 500",
        ),
        (
            http(server.url("/api/html"), "", json!(1)),
            "did not answer JSON",
        ),
        (http(format!("http://{closed}/api"), "", json!(1)), "failed"),
        (
            http(server.url("/api/slow"), "", json!(1)),
            "did not answer within 10 s",
        ),
        (
            Check::File(file(Some("invoice.pdf"))),
            "no download named \"invoice.pdf\" was made",
        ),
        (
            Check::File(FileCheck {
                size: Some(3),
                ..file(None)
            }),
            "has 18 bytes, not 3",
        ),
        (
            Check::File(FileCheck {
                min_size: Some(1000),
                ..file(None)
            }),
            "fewer than 1000",
        ),
        (
            Check::File(FileCheck {
                sha256: Some("0".repeat(64)),
                ..file(None)
            }),
            "has SHA-256",
        ),
        (
            Check::File(FileCheck {
                contains: Some("revenue".into()),
                ..file(None)
            }),
            "does not contain \"revenue\"",
        ),
        (Check::Answer("^\\d+$".into()), "does not match"),
    ];
    let checks: Vec<Check> = cases.iter().map(|(c, _)| c.clone()).collect();
    let results = run_checks(&checks, &mut session, &answer("forty-two")).await;
    let none = run_checks(
        &[Check::Answer(".".into())],
        &mut session,
        &Final::default(),
    )
    .await;
    session.close().await.expect("closed");
    browser.close().await;
    assert_eq!(results.len(), cases.len());
    for (result, (check, expected)) in results.iter().zip(&cases) {
        assert!(!result.passed, "{check:?} passed: {result:?}");
        assert!(
            result.detail.contains(expected),
            "{check:?}: {:?} lacks {expected:?}",
            result.detail
        );
    }
    assert!(
        !none[0].passed && none[0].detail.contains("no final answer"),
        "{none:?}"
    );
}

/// A server whose one answer is a download whose body stops half-way for
/// `pause`: Chromium has begun the download, and not finished it, for that
/// long.
fn slow_download(pause: std::time::Duration) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = listener.local_addr().expect("its address");
    // Every connection is served on its own: Chromium may open a spare one
    // first (a preconnect that sends nothing) and ask on the next.
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else {
                return;
            };
            std::thread::spawn(move || {
                let mut request = [0u8; 4096];
                if !matches!(stream.read(&mut request), Ok(n) if n > 0) {
                    return;
                }
                // Chromium sniffs up to a few hundred bytes before it calls
                // a response a download: the first part is past that.
                let head = "-".repeat(2048);
                let tail = "quarterly numbers\n";
                let _ = stream.write_all(
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\
                         Content-Disposition: attachment; filename=\"late.txt\"\r\nConnection: close\r\n\r\n",
                        head.len() + tail.len()
                    )
                    .as_bytes(),
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.flush();
                std::thread::sleep(pause);
                let _ = stream.write_all(tail.as_bytes());
            });
        }
    });
    format!("http://{addr}/late.txt")
}

#[tokio::test]
async fn a_file_check_waits_for_a_download_still_running() {
    let server = server().await;
    let browser = rove_testkit::launch().await;
    let mut session = final_page(&browser, &server).await;
    let late = slow_download(std::time::Duration::from_millis(2_000));
    // Begun after the command that caused it has answered, as a page's
    // timer would: no command waits for it.
    let start: Command = serde_json::from_value(json!({
        "command": "eval",
        "js": format!("setTimeout(() => {{ location.href = {late:?}; }}, 100); 1"),
    }))
    .expect("an eval");
    session.execute(&start).await.expect("evaluated");
    // Until Chromium has begun it (and the server holds back its end).
    let begun = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        while session.downloads_running() == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(begun.is_ok(), "the download never began");
    let results = run_checks(
        &[Check::File(FileCheck {
            contains: Some("quarterly".into()),
            ..file(Some("late.txt"))
        })],
        &mut session,
        &Final::default(),
    )
    .await;
    assert!(results[0].passed, "{results:?}");
    session.close().await.expect("closed");
    browser.close().await;
}
