//! The fault suite for hostile pages and hostile models, at the command
//! layer every face goes through: each test is a scenario an attacker tried
//! (a page, or a model talked into asking), and asserts the promise held —
//! on the page, on disk, and in what the server received.

use crate::support;

// The scenarios about the text a model is shown (redaction, cleaning).
mod text;

// The scenarios about the devtools and state groups (logs, rules, files).
mod devtools;

// The scenario about a secret a page shows, in images of the page.
mod pixels;

// The scenarios about settling: globals replaced, busy lies, a blocked
// main thread.
mod settle;

use rove_browser::DomainPolicy;
use rove_commands::{Caller, Command, Data, Secret, Secrets, SessionConfig};
use rove_errors::Classify;
use rove_localserver::{RequestLog, Response, Routes};
use serde_json::json;
use support::{Fixture, code, fixture_routes};

fn policy(allowed: &[&str]) -> DomainPolicy {
    DomainPolicy::from_lists(Some(allowed), [""; 0]).expect("policy")
}

fn port_of(f: &Fixture) -> u16 {
    f.server.addr().port()
}

/// Requests that reached the server under the host name `localhost`.
fn localhost_requests(log: &RequestLog) -> Vec<String> {
    log.requests()
        .iter()
        .filter(|r| {
            r.header("host")
                .is_some_and(|h| h.to_ascii_lowercase().starts_with("localhost"))
        })
        .map(|r| format!("{} {}?{}", r.method, r.path, r.query))
        .collect()
}

#[tokio::test]
async fn open_refuses_schemes_that_read_the_disk_or_the_browser() {
    for config in [
        SessionConfig::default(),
        SessionConfig {
            policy: policy(&["127.0.0.1"]),
            ..SessionConfig::default()
        },
    ] {
        let mut f = Fixture::with(fixture_routes(), config).await;
        f.open("/home.html").await;
        for url in [
            "file:///etc/passwd",
            "FILE:///etc/passwd",
            "/etc/passwd",
            "view-source:file:///etc/passwd",
            "chrome://version",
            "chrome://settings",
            "chrome://crash",
            "chrome://hang",
            "chrome://kill",
            "devtools://devtools/bundled/inspector.html",
            "chrome-extension://abcdef/x.html",
        ] {
            let e = f.fails(json!({"command": "open", "url": url})).await;
            assert_eq!(code(&e), "NAVIGATION_BLOCKED", "{url}: {:?}", e.report());
            assert!(!e.to_string().contains("root:x"), "{url}: {e}");
            let e = f
                .fails(json!({"command": "tab", "action": "new", "url": url}))
                .await;
            assert_eq!(code(&e), "NAVIGATION_BLOCKED", "tab new {url}");
        }
        let e = f
            .fails(json!({"command": "open", "url": "javascript:alert(1)"}))
            .await;
        assert_eq!(code(&e), "COMMAND_REJECTED", "{:?}", e.report());
        assert!(e.to_string().contains("eval"), "{e}");
        // Nothing was opened, and the browser still answers.
        assert_eq!(f.session.context().tabs().len(), 1);
        let view = f
            .ok(json!({"command": "snapshot"}))
            .await
            .view
            .expect("view")
            .text;
        // The same document as before: the view names no URL again.
        assert!(view.starts_with("[t1] "), "{view}");
        assert!(!view.contains("root:"), "{view}");
        let url = f.session.current_url();
        assert!(url.ends_with("/home.html"), "{url}");
        f.close().await;
    }
}

#[tokio::test]
async fn files_open_only_when_the_policy_names_their_scheme() {
    let dir = std::env::temp_dir().join(format!("rove-hostile-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let page = dir.join("local.html");
    std::fs::write(&page, "<title>Local</title><p>a local page</p>").expect("page");
    let url = format!("file://{}", page.display());
    let config = SessionConfig {
        policy: policy(&["*", "file:"]),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(fixture_routes(), config).await;
    let out = f.ok(json!({"command": "open", "url": url})).await;
    assert!(out.text().contains("a local page"), "{}", out.text());
    f.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// With `chrome:` allowed, `chrome://settings` killed the whole browser
/// (SIGSEGV); `crash`, `kill` and `hang` took the tab down. Measured on
/// Chromium 156 headless; the full lists are in rove-browser's policy.
#[tokio::test]
async fn chrome_pages_that_crash_headless_chromium_are_refused_even_when_chrome_is_allowed() {
    let config = SessionConfig {
        policy: policy(&["*", "chrome:"]),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(fixture_routes(), config).await;
    let out = f
        .ok(json!({"command": "open", "url": "chrome://version"}))
        .await;
    assert!(out.text().contains("chrome://version"), "{}", out.text());
    for url in [
        "chrome://settings",
        "chrome://settings/passwords",
        "chrome://history",
        "chrome://help",
        "chrome://password-manager",
        "chrome://extensions",
        "chrome://apps",
        "chrome://crash",
        "chrome://kill",
        "chrome://memory-exhaust",
        "chrome://checkcrash",
        "chrome://hang",
        "chrome://shorthang",
        // Spellings Chromium opens as the same pages (issue 37, item 10).
        "chrome:settings",
        "chrome:/settings",
        "CHROME:settings",
        "chrome:%73ettings",
        "chrome:history",
        "chrome:password-manager",
    ] {
        let e = f.fails(json!({"command": "open", "url": url})).await;
        assert_eq!(code(&e), "NAVIGATION_BLOCKED", "{url}: {:?}", e.report());
        assert!(
            e.to_string().contains("even where chrome: is allowed"),
            "{e}"
        );
        let e = f
            .fails(json!({"command": "tab", "action": "new", "url": url}))
            .await;
        assert_eq!(code(&e), "NAVIGATION_BLOCKED", "tab new {url}");
    }
    // A link from one of Chromium's pages is judged in the browser too.
    f.ok(json!({"command": "open", "url": "chrome://chrome-urls"}))
        .await;
    let _ = f
        .run(json!({"command": "eval", "js": "location.href = 'chrome://settings'; 1"}))
        .await;
    // The same browser answers, on the page it was on: nothing crashed.
    f.ok(json!({"command": "snapshot"})).await;
    let url = f.session.current_url();
    assert_eq!(url, "chrome://chrome-urls/");
    let out = f
        .ok(json!({"command": "open", "url": "chrome://version"}))
        .await;
    assert!(
        !out.text().contains("started a new one"),
        "the browser was never restarted: {}",
        out.text()
    );
    f.close().await;
}

#[tokio::test]
async fn every_spelling_of_a_forbidden_host_is_refused_before_any_request() {
    let log = RequestLog::new();
    let mut f = Fixture::with(
        fixture_routes().log_requests(log.clone()),
        SessionConfig {
            policy: policy(&["localhost"]),
            ..SessionConfig::default()
        },
    )
    .await;
    let port = port_of(&f);
    for host in [
        "127.0.0.1".to_owned(),
        "2130706433".to_owned(),
        "0x7f.1".to_owned(),
        "0177.0.0.1".to_owned(),
        "[::ffff:127.0.0.1]".to_owned(),
        "[::1]".to_owned(),
        "localhost@127.0.0.1".to_owned(),
        "localhost.127.0.0.1.nip.io".to_owned(),
    ] {
        let url = format!("http://{host}:{port}/home.html");
        let e = f.fails(json!({"command": "open", "url": url})).await;
        assert_eq!(code(&e), "NAVIGATION_BLOCKED", "{url}: {:?}", e.report());
    }
    assert!(log.requests().is_empty(), "{:?}", log.requests());
    f.close().await;
}

/// A page on an allowed host that tries every way out to a forbidden one.
fn escape_routes(log: &RequestLog) -> Routes {
    let away = |request: &rove_localserver::Request, path: &str| {
        let port = request
            .header("host")
            .and_then(|h| h.rsplit(':').next())
            .unwrap_or_default()
            .to_owned();
        format!("http://localhost:{port}{path}")
    };
    fixture_routes()
        .log_requests(log.clone())
        .handle("/escape.html", move |r| {
            let to = |what: &str| away(r, &format!("/leak?via={what}&q=SECRET"));
            Response::html(format!(
                "<title>Escape</title>\
                 <a href=\"{link}\">Link</a>\
                 <button onclick=\"window.open('{popup}')\">Popup</button>\
                 <a href=\"{blank}\" target=_blank>Blank</a>\
                 <button onclick=\"location.href='{script}'\">Script</button>\
                 <a href=\"javascript:location.assign('{jslink}')\">Jslink</a>\
                 <form action=\"{get}\"><input name=q value=1><button>Get</button></form>\
                 <form method=post action=\"{post}\"><input name=q value=1><button>Post</button></form>\
                 <button onclick=\"document.body.insertAdjacentHTML('beforeend', '<iframe src=&quot;{frame}&quot;></iframe>')\">Frame</button>",
                link = to("link"),
                popup = to("popup"),
                blank = to("blank"),
                script = to("script"),
                jslink = to("jslink"),
                get = to("get"),
                post = to("post"),
                frame = to("frame"),
            ))
        })
        .handle("/refresh.html", move |r| {
            Response::html(format!(
                "<meta http-equiv=refresh content=\"0; url={}\"><title>Refresh</title>",
                away(r, "/leak?via=refresh")
            ))
        })
        .handle("/bounce", move |r| {
            Response::redirect(&away(r, "/leak?via=redirect"))
        })
}

#[tokio::test]
async fn pages_cannot_lead_outside_the_allowed_hosts() {
    let log = RequestLog::new();
    let mut f = Fixture::with(
        escape_routes(&log),
        SessionConfig {
            policy: policy(&["127.0.0.1"]),
            ..SessionConfig::default()
        },
    )
    .await;
    for (name, role) in [
        ("Blank", "link"),
        ("Link", "link"),
        ("Popup", "button"),
        ("Script", "button"),
        ("Jslink", "link"),
        ("Get", "button"),
        ("Post", "button"),
        ("Frame", "button"),
    ] {
        f.open("/escape.html").await;
        let target = f.find(name, role).await;
        let out = f.ok(json!({"command": "click", "ref": target})).await;
        let said = out.happened_lines().join("\n");
        assert!(
            said.contains("blocked loading http://localhost")
                || said.contains("closed a tab opened at http://localhost"),
            "{name}: {said}"
        );
        assert_eq!(
            f.session.context().tabs().len(),
            1,
            "{name}: the popup is gone"
        );
        let here = f.eval("location.hostname").await;
        assert_eq!(here, "127.0.0.1", "{name}");
    }
    let e = f
        .fails(json!({"command": "open", "url": f.url("/bounce")}))
        .await;
    assert_eq!(code(&e), "NAVIGATION_BLOCKED", "{:?}", e.report());
    f.ok(json!({"command": "open", "url": f.url("/refresh.html")}))
        .await;
    f.ok(json!({"command": "wait", "ms": 500})).await;
    let here = f.eval("location.hostname").await;
    assert_eq!(here, "127.0.0.1");
    // The forbidden host never heard a thing: not even the popup's first
    // request, which leaves before anyone could close the window.
    assert_eq!(localhost_requests(&log), Vec::<String>::new());
    f.close().await;
}

#[tokio::test]
async fn uploads_come_only_from_explicit_roots() {
    let mut f = Fixture::start().await;
    f.open("/files.html").await;
    let input = f.find("Attachment", "file").await;
    // A file beside the test (the folder a daemon or MCP server might have
    // started in) and a system file: refused for a model.
    let here = std::env::current_dir().expect("cwd").join("Cargo.toml");
    for path in ["/etc/hostname".to_owned(), here.display().to_string()] {
        let e = f
            .fails(json!({"command": "upload", "ref": input, "paths": [path]}))
            .await;
        assert_eq!(code(&e), "UPLOAD_DENIED", "{path}: {:?}", e.report());
    }
    // The session's own upload folder works.
    let mine = f.session.upload_dir().join("hostile-upload.txt");
    std::fs::write(&mine, "ok").expect("write");
    f.ok(json!({"command": "upload", "ref": input, "paths": [mine]}))
        .await;
    // The person at the shell may upload from the folder they work in, but
    // `/` is never a root.
    let upload = |path: String| -> Command {
        serde_json::from_value(json!({"command": "upload", "ref": input, "paths": [path]}))
            .expect("command")
    };
    let cwd = here.parent().expect("dir").to_path_buf();
    f.session
        .execute_for(
            &upload(here.display().to_string()),
            Caller::Person { cwd: Some(cwd) },
        )
        .await
        .expect("the shell's own folder");
    let e = f
        .session
        .execute_for(
            &upload("/etc/hostname".into()),
            Caller::Person {
                cwd: Some("/".into()),
            },
        )
        .await
        .expect_err("/ is no root");
    assert_eq!(code(&e), "UPLOAD_DENIED");
    let _ = std::fs::remove_file(&mine);
    f.close().await;
}

#[tokio::test]
async fn a_model_cannot_choose_where_files_are_written() {
    let mut f = Fixture::start().await;
    f.open("/home.html").await;
    let outside =
        std::env::temp_dir().join(format!("rove-hostile-shot-{}.png", std::process::id()));
    for path in [
        outside.display().to_string(),
        "../escape.png".into(),
        "sub/dir.png".into(),
    ] {
        let e = f
            .fails(json!({"command": "screenshot", "path": path}))
            .await;
        assert_eq!(code(&e), "COMMAND_REJECTED", "{path}: {:?}", e.report());
    }
    assert!(!outside.exists(), "nothing was written outside");
    let out = f
        .ok(json!({"command": "screenshot", "path": "shot.png"}))
        .await;
    let Some(Data::Saved { path: written, .. }) = out.data else {
        panic!("screenshot answers with the file it saved: {:?}", out.data);
    };
    let runtime = rove_browser::runtime_dir();
    assert!(
        written.starts_with(&runtime.display().to_string()) && written.ends_with("/shot.png"),
        "{written}"
    );
    assert!(std::fs::metadata(&written).expect("written").len() > 100);
    // The person at the shell writes where they say; a folder that does not
    // exist is their mistake to fix (bad input, exit 2), not a bug in rove.
    let shot = |path: &str| -> Command {
        serde_json::from_value(json!({"command": "screenshot", "path": path})).expect("command")
    };
    f.session
        .execute_for(
            &shot(&outside.display().to_string()),
            Caller::Person { cwd: None },
        )
        .await
        .expect("the person's path");
    assert!(outside.exists());
    let e = f
        .session
        .execute_for(&shot("/no/such/folder/x.png"), Caller::Person { cwd: None })
        .await
        .expect_err("no folder");
    assert_eq!(code(&e), "COMMAND_REJECTED", "{:?}", e.report());
    assert_eq!(e.code().exit_status(), 2);
    let _ = std::fs::remove_file(&outside);
    f.close().await;
}

#[tokio::test]
async fn secrets_are_typed_only_into_fields_on_their_domain() {
    let value = "pw-7c1e9a";
    let log = RequestLog::new();
    let routes = fixture_routes()
        .log_requests(log.clone())
        .handle("/framed.html", |r| {
            let port = r
                .header("host")
                .and_then(|h| h.rsplit(':').next())
                .unwrap_or_default()
                .to_owned();
            Response::html(format!(
                "<title>Framed</title><label>Mine <input id=mine></label>\
                 <iframe title=Foreign src=\"http://localhost:{port}/field.html\"></iframe>"
            ))
        })
        .page("/leak", Response::html("<title>Leak</title>"))
        .page(
            "/field.html",
            Response::html("<title>Field</title><label>Theirs <input id=theirs></label>"),
        );
    let config = SessionConfig {
        secrets: Secrets(vec![
            Secret::parse(&format!("PW@127.0.0.1={value}")).expect("secret"),
        ]),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes, config).await;
    let port = port_of(&f);
    f.open("/framed.html").await;

    // Into a field of a page on its domain: the value.
    let mine = f.find("Mine", "textbox").await;
    f.ok(json!({"command": "fill", "ref": mine, "text": "<secret>PW</secret>"}))
        .await;
    assert_eq!(f.eval("document.getElementById('mine').value").await, value);

    // Into a field of a foreign frame inside that page: nothing typed.
    let theirs = f.find("Theirs", "textbox").await;
    let e = f
        .fails(json!({"command": "fill", "ref": theirs, "text": "<secret>PW</secret>"}))
        .await;
    assert_eq!(code(&e), "COMMAND_REJECTED", "{:?}", e.report());
    assert!(
        e.to_string().contains("may only be typed on 127.0.0.1"),
        "{e}"
    );

    // Into a URL, a tab's address or a script: the placeholder as written,
    // and the answer says so.
    let leak = format!("http://localhost:{port}/leak?x=<secret>PW</secret>");
    let out = f.ok(json!({"command": "open", "url": leak})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.contains("was sent as written")),
        "{:?}",
        out.happened_lines()
    );
    f.ok(json!({"command": "tab", "action": "new", "url": leak}))
        .await;
    let out = f
        .ok(json!({"command": "eval", "js": "fetch('/leak?via=eval&x=<secret>PW</secret>').then(r => r.status)"}))
        .await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.contains("was sent as written")),
        "{:?}",
        out.happened_lines()
    );
    let leaks: Vec<String> = log
        .requests()
        .iter()
        .filter(|r| r.path == "/leak")
        .map(|r| r.query.clone())
        .collect();
    assert_eq!(leaks.len(), 3, "{leaks:?}");
    for query in &leaks {
        assert!(!query.contains(value), "the value left: {query}");
        assert!(
            query.contains("secret%3EPW") || query.contains("secret>PW"),
            "{query}"
        );
    }
    f.close().await;
}

/// The refs a view shows, as numbers.
fn ref_numbers(view: &str) -> Vec<u32> {
    view.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|w| w.strip_prefix('e'))
        .filter_map(|n| n.parse().ok())
        .collect()
}

#[tokio::test]
async fn refs_and_tab_ids_are_never_reused_across_tabs_or_a_restart() {
    let config = SessionConfig::default();
    let mut f = Fixture::with(fixture_routes(), config.clone()).await;
    let first = f.open("/home.html").await.view.expect("view").text;
    let in_first = ref_numbers(&first);
    let status = f.find("Change status", "button").await;
    let url = f.url("/widgets.html");
    let second = f
        .ok(json!({"command": "tab", "action": "new", "url": url}))
        .await;
    let in_second = ref_numbers(&second.view.expect("view").text);
    let highest = *in_first.iter().max().expect("refs");
    assert!(
        in_second.iter().all(|n| *n > highest),
        "{in_first:?} then {in_second:?}"
    );
    // A ref of the other tab is not silently another element here.
    let e = f.fails(json!({"command": "click", "ref": status})).await;
    assert_eq!(code(&e), "REF_NOT_FOUND");
    assert!(e.to_string().contains("belongs to tab t1"), "{e}");

    // The session that replaces this one (a browser restart) goes on
    // counting: no old t1, t2 or e-number names anything new.
    let last_ref = config.numbering.refs.last();
    f.session = rove_commands::Session::start(&f.browser, config.clone())
        .await
        .expect("session");
    let again = f.open("/home.html").await;
    assert!(again.tab.0 > 2, "tab {} reused", again.tab);
    let in_again = ref_numbers(&again.view.expect("view").text);
    assert!(
        in_again.iter().all(|n| *n > last_ref),
        "{in_again:?} after {last_ref}"
    );
    let e = f.fails(json!({"command": "click", "ref": status})).await;
    assert_eq!(code(&e), "REF_NOT_FOUND");
    let e = f
        .fails(json!({"command": "tab", "action": "switch", "tab": "t1"}))
        .await;
    assert_eq!(code(&e), "NO_TAB");
    f.close().await;
}

#[tokio::test]
async fn input_is_refused_while_the_page_is_on_its_way_elsewhere() {
    let routes = fixture_routes()
        .page(
            "/later.html",
            Response::html(
                "<title>Later</title><label>Note <input id=n></label>\
                 <button onclick=\"setTimeout(() => { location.href = '/slow.html'; }, 150)\">Later</button>",
            ),
        )
        .page(
            "/slow.html",
            Response::html("<title>Slow</title><p>arrived</p>")
                .delayed(std::time::Duration::from_secs(5)),
        );
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    f.open("/later.html").await;
    let later = f.find("Later", "button").await;
    let note = f.find("Note", "textbox").await;
    f.ok(json!({"command": "click", "ref": later})).await;
    f.ok(json!({"command": "wait", "ms": 400})).await;
    let e = f
        .fails(json!({"command": "fill", "ref": note, "text": "lost"}))
        .await;
    assert_eq!(code(&e), "NAVIGATION_IN_PROGRESS", "{:?}", e.report());
    let report = e.report();
    assert_eq!(report.action_sent, rove_errors::ActionSent::NotSent);
    assert_eq!(report.retry, rove_errors::Retry::Retry);
    assert!(
        report.facts.expect("facts")["url"]
            .as_str()
            .is_some_and(|u| u.ends_with("/slow.html"))
    );
    f.ok(json!({"command": "wait", "load": "load", "ms": 10000}))
        .await;
    let view = f.ok(json!({"command": "snapshot"})).await.text();
    assert!(view.contains("arrived"), "{view}");
    f.close().await;
}

#[tokio::test]
async fn addresses_with_multibyte_characters_are_judged_not_panicked_on() {
    let mut f = Fixture::with(
        fixture_routes(),
        SessionConfig {
            policy: policy(&["127.0.0.1"]),
            ..SessionConfig::default()
        },
    )
    .await;
    f.open("/home.html").await;
    // Each puts a multibyte character across byte 11 of the address as
    // rove spells it (`https://ab😀…`, `http://aéé…`), where the check for
    // `javascript:` used to slice.
    for url in [
        "ab\u{1F600}cd",
        "http://a\u{e9}\u{e9}.test/",
        "javascrip\u{e9}t:alert(1)",
        "\u{1F600}\u{1F600}\u{1F600}",
    ] {
        let e = f.fails(json!({"command": "open", "url": url})).await;
        assert_eq!(code(&e), "NAVIGATION_BLOCKED", "{url}: {:?}", e.report());
    }
    for url in ["JavaScript:alert(1)", "javascript:\u{e9}\u{1F600}"] {
        let e = f.fails(json!({"command": "open", "url": url})).await;
        assert_eq!(code(&e), "COMMAND_REJECTED", "{url}: {:?}", e.report());
    }
    // A multibyte path on an allowed host is an ordinary navigation.
    let out = f
        .ok(json!({"command": "open", "url": f.url("/home.html?q=\u{e9}\u{1F600}")}))
        .await;
    assert!(out.text().contains("home.html"), "{}", out.text());
    f.close().await;
}

#[tokio::test]
async fn the_largest_budgets_and_waits_mean_no_limit_not_an_overflow() {
    let mut f = Fixture::start().await;
    f.open("/home.html").await;
    let most = u64::MAX;
    for mode in ["full", "interactive"] {
        let out = f
            .ok(json!({"command": "snapshot", "mode": mode, "budget": most}))
            .await;
        let view = out.view.expect("view").text;
        assert!(view.contains("Change status"), "{mode}: {view}");
        assert!(!view.contains("cut at the"), "{mode}: {view}");
    }
    let out = f.ok(json!({"command": "read", "budget": most})).await;
    let text = out.text();
    assert!(text.contains("home.html"), "{text}");
    assert!(!text.contains("cut at the"), "{text}");
    let status = f.find("Change status", "button").await;
    let out = f
        .ok(json!({"command": "read", "ref": status, "budget": most}))
        .await;
    assert!(out.text().contains("Change status"), "{}", out.text());
    // The longest wait for something already there ends at once.
    f.ok(json!({"command": "wait", "text": "Change status", "ms": most}))
        .await;
    f.close().await;
}

/// Width and height of a PNG, from its header (bytes 16..24).
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.starts_with(b"\x89PNG"), "not a PNG");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    (word(16), word(20))
}

#[tokio::test]
async fn a_screenshot_of_a_huge_area_is_capped_and_the_browser_lives() {
    // Just over the cap (16,384 px a side), on a narrow viewport, so the
    // test renders a few million pixels, not gigapixels.
    let routes = fixture_routes().page(
        "/tall.html",
        Response::html(
            "<title>Tall</title><style>body{margin:0}</style>\
             <button id=tall style=\"display:block;width:120px;height:16500px\">Tall</button>",
        ),
    );
    let config = SessionConfig {
        viewport: Some(rove_browser::Viewport {
            width: 150,
            height: 200,
        }),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes, config).await;
    f.open("/tall.html").await;
    let tall = f.find("Tall", "button").await;
    for (args, want) in [
        (json!({"full_page": true}), (150, 16_384)),
        (json!({"ref": tall}), (120, 16_384)),
        (
            json!({"clip": {"x": 0, "y": 100, "width": 16_400, "height": 50}}),
            (16_384, 50),
        ),
    ] {
        let mut command = args.clone();
        command["command"] = json!("screenshot");
        let out = f.ok(command).await;
        let said = out.happened_lines().join("\n");
        assert!(
            said.contains("captured its top-left") && said.contains("clip"),
            "{args}: {said}"
        );
        let image = out.image.expect("image");
        assert_eq!(png_size(&image.bytes), want, "{args}");
    }
    // A viewport over the cap (8,200 CSS pixels wide at scale 2) is cut
    // the same way.
    f.ok(json!({"command": "set", "what": "viewport", "width": 8200, "height": 100, "scale": 2}))
        .await;
    let out = f.ok(json!({"command": "screenshot"})).await;
    let said = out.happened_lines().join("\n");
    assert!(said.contains("captured its top-left"), "viewport: {said}");
    let image = out.image.expect("image");
    assert_eq!(png_size(&image.bytes), (16_384, 200), "viewport");
    // The browser still answers.
    let view = f.ok(json!({"command": "snapshot"})).await.text();
    assert!(view.contains("Tall"), "{view}");
    f.close().await;
}

#[tokio::test]
async fn a_long_run_of_plain_siblings_cannot_stall_the_view() {
    // 12,000 spans of one shape that do not collapse: the walker rescanned
    // the run from each of them, a quadratic walk that outlasted the 5 s
    // watchdog and left the page without a view.
    let mut f = Fixture::start().await;
    let view = f.open("/plain-run.html").await.text();
    assert!(view.contains("button \"Before the run\""), "{view}");
    // The run itself is past the view's budget, and the view says so.
    assert!(view.contains("cut at the"), "{view}");
    f.close().await;
}
