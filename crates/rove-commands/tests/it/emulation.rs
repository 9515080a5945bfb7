//! The emulation group: `set` changes what pages see on every tab of the
//! session (viewport, device, media, network state, extra headers, time
//! zone, locale, position), and the answer says what changed.

use crate::support;

use rove_localserver::RequestLog;
use serde_json::{Value, json};
use support::{Fixture, code};

fn text_of(out: &rove_commands::Outcome) -> String {
    out.data_text().expect("set answers with text").to_owned()
}

/// What the page sees of its screen and input.
async fn screen(f: &mut Fixture) -> Value {
    f.eval("({width: innerWidth, ratio: devicePixelRatio, coarse: matchMedia('(pointer: coarse)').matches, agent: navigator.userAgent})")
        .await
}

#[tokio::test]
async fn viewport_and_device_change_what_every_tab_sees() {
    let mut f = Fixture::start().await;
    f.open("/emulate.html").await;

    let said = text_of(
        &f.ok(
            json!({"command": "set", "what": "viewport", "width": 500, "height": 400, "scale": 2}),
        )
        .await,
    );
    assert!(said.contains("500×400"), "{said}");
    let seen = screen(&mut f).await;
    assert_eq!(seen["width"], 500, "{seen}");
    assert_eq!(seen["ratio"], 2, "{seen}");
    assert_eq!(seen["coarse"], false, "{seen}");

    // A full-page capture at scale 2 is cut to what the browser can
    // encode in image pixels, not in CSS pixels.
    f.eval("document.body.style.height = '30000px'").await;
    let shot = f
        .ok(json!({"command": "screenshot", "full_page": true}))
        .await;
    let png = shot.image.expect("an inline image").bytes;
    let side = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    assert_eq!((side(16), side(20)), (1000, 16_384), "width and height");

    let said = text_of(
        &f.ok(json!({"command": "set", "what": "device", "value": "iPhone 15"}))
            .await,
    );
    assert!(
        said.contains("iPhone 15") && said.contains("touch"),
        "{said}"
    );
    let seen = screen(&mut f).await;
    assert_eq!(seen["width"], 393, "{seen}");
    assert_eq!(seen["ratio"], 3, "{seen}");
    assert_eq!(seen["coarse"], true, "{seen}");
    assert!(
        seen["agent"]
            .as_str()
            .expect("a user agent")
            .contains("iPhone"),
        "{seen}"
    );

    // Clicks still land on a touch device.
    let tap = f.find("Tap me", "button").await;
    f.ok(json!({"command": "click", "ref": tap})).await;
    assert_eq!(
        f.eval("document.getElementById('out').textContent").await,
        "tapped"
    );

    // A tab opened later gets the same device.
    let url = f.url("/emulate.html");
    f.ok(json!({"command": "tab", "action": "new", "url": url}))
        .await;
    let seen = screen(&mut f).await;
    assert_eq!(seen["width"], 393, "{seen}");
    assert_eq!(seen["coarse"], true, "{seen}");
    assert!(
        seen["agent"]
            .as_str()
            .expect("a user agent")
            .contains("iPhone"),
        "{seen}"
    );

    // desktop undoes it: the session's size, a mouse, the browser's agent.
    f.ok(json!({"command": "set", "what": "device", "value": "desktop"}))
        .await;
    let seen = screen(&mut f).await;
    assert_eq!(seen["width"], 1280, "{seen}");
    assert_eq!(seen["ratio"], 1, "{seen}");
    assert_eq!(seen["coarse"], false, "{seen}");
    assert!(
        !seen["agent"]
            .as_str()
            .expect("a user agent")
            .contains("iPhone"),
        "{seen}"
    );

    let unknown = f
        .fails(json!({"command": "set", "what": "device", "value": "Nokia 3310"}))
        .await;
    assert_eq!(code(&unknown), "COMMAND_REJECTED");
    assert!(
        unknown
            .to_string()
            .contains("iPhone 15, Pixel 8, iPad, desktop")
    );
    f.close().await;
}

#[tokio::test]
async fn media_offline_timezone_locale_and_position() {
    let mut f = Fixture::start().await;
    f.open("/emulate.html").await;
    let dark = "matchMedia('(prefers-color-scheme: dark)').matches";

    f.ok(json!({"command": "set", "what": "media", "value": "dark"}))
        .await;
    assert_eq!(f.eval(dark).await, true);
    // Print media keeps the colour scheme chosen.
    let said = text_of(
        &f.ok(json!({"command": "set", "what": "media", "value": "print"}))
            .await,
    );
    assert!(said.contains("print, color scheme dark"), "{said}");
    assert_eq!(f.eval("matchMedia('print').matches").await, true);
    assert_eq!(f.eval(dark).await, true);
    f.ok(json!({"command": "set", "what": "media", "value": "light"}))
        .await;
    assert_eq!(f.eval(dark).await, false);

    // Offline: a fetch fails; back online it succeeds.
    let fetch = "fetch('/emulate.html?' + Math.random()).then(r => r.status, e => 'failed')";
    f.ok(json!({"command": "set", "what": "offline", "value": "on"}))
        .await;
    assert_eq!(f.eval(fetch).await, "failed");
    f.ok(json!({"command": "set", "what": "offline", "value": "off"}))
        .await;
    assert_eq!(f.eval(fetch).await, 200);

    f.ok(json!({"command": "set", "what": "timezone", "value": "Asia/Tokyo"}))
        .await;
    assert_eq!(
        f.eval("Intl.DateTimeFormat().resolvedOptions().timeZone")
            .await,
        "Asia/Tokyo"
    );
    // The offset the page computes follows the zone (Tokyo has no DST).
    assert_eq!(f.eval("new Date(0).getTimezoneOffset()").await, -540);
    let bad = f
        .fails(json!({"command": "set", "what": "timezone", "value": "Mars/Olympus"}))
        .await;
    assert_eq!(code(&bad), "COMMAND_REJECTED");
    // The refused zone left the one before in place.
    assert_eq!(
        f.eval("Intl.DateTimeFormat().resolvedOptions().timeZone")
            .await,
        "Asia/Tokyo"
    );

    f.ok(json!({"command": "set", "what": "locale", "value": "fr-FR"}))
        .await;
    assert_eq!(
        f.eval("Intl.NumberFormat().resolvedOptions().locale").await,
        "fr-FR"
    );
    let bad = f
        .fails(json!({"command": "set", "what": "locale", "value": "not a locale"}))
        .await;
    assert_eq!(code(&bad), "COMMAND_REJECTED");

    let said = text_of(
        &f.ok(json!({"command": "set", "what": "geo", "latitude": 48.8584, "longitude": 2.2945}))
            .await,
    );
    assert!(
        said.contains("48.8584, 2.2945 (granted to http://127.0.0.1:"),
        "{said}"
    );
    let position = f
        .eval("new Promise((ok, no) => navigator.geolocation.getCurrentPosition(p => ok([p.coords.latitude, p.coords.longitude]), e => ok(e.message), {timeout: 5000}))")
        .await;
    assert_eq!(position, json!([48.8584, 2.2945]));
    f.close().await;
}

#[tokio::test]
async fn extra_headers_reach_the_server_and_credentials_are_not_echoed() {
    let log = RequestLog::new();
    let routes = support::fixture_routes().log_requests(log.clone());
    let mut f = Fixture::with(routes, rove_commands::SessionConfig::default()).await;
    f.open("/emulate.html").await;

    let said = text_of(
        &f.ok(json!({"command": "set", "what": "headers",
            "headers": ["X-Rove-Test: hello", "Authorization: Bearer s3cret-token"]}))
            .await,
    );
    assert!(said.contains("X-Rove-Test: hello"), "{said}");
    assert!(said.contains("Authorization: (hidden)"), "{said}");
    assert!(!said.contains("s3cret"), "{said}");

    f.open("/emulate.html?after").await;
    let after: Vec<_> = log
        .requests()
        .into_iter()
        .filter(|r| r.query == "after")
        .collect();
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(after[0].header("x-rove-test"), Some("hello"));
    assert_eq!(
        after[0].header("authorization"),
        Some("Bearer s3cret-token")
    );

    // No headers: the extra ones stop.
    f.ok(json!({"command": "set", "what": "headers"})).await;
    f.open("/emulate.html?cleared").await;
    let cleared: Vec<_> = log
        .requests()
        .into_iter()
        .filter(|r| r.query == "cleared")
        .collect();
    assert_eq!(cleared.len(), 1, "{cleared:?}");
    assert_eq!(cleared[0].header("x-rove-test"), None);

    let bad = f
        .fails(json!({"command": "set", "what": "headers", "headers": ["Authorization Bearer s3cret"]}))
        .await;
    assert!(!bad.to_string().contains("s3cret"), "{bad}");

    // A header that makes Chromium fail every request is refused, and the
    // headers in force stay as they were: pages still load.
    f.ok(json!({"command": "set", "what": "headers", "headers": ["X-Rove-Test: kept"]}))
        .await;
    for header in [
        "Host: evil.test",
        "Transfer-Encoding: chunked",
        "Proxy-Authorization: x",
    ] {
        let refused = f
            .fails(json!({"command": "set", "what": "headers", "headers": ["X-Other: 1", header]}))
            .await;
        assert_eq!(code(&refused), "COMMAND_REJECTED", "{header}: {refused}");
        assert!(refused.to_string().contains("cannot be set"), "{refused}");
    }
    f.open("/emulate.html?kept").await;
    let kept: Vec<_> = log
        .requests()
        .into_iter()
        .filter(|r| r.query == "kept")
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].header("x-rove-test"), Some("kept"));
    assert_eq!(kept[0].header("x-other"), None);
    f.close().await;
}

#[tokio::test]
async fn emulation_and_network_rules_are_made_again_when_the_browser_is_started_again() {
    use rove_commands::{Command, Host, SessionConfig};
    let server = rove_localserver::LocalServer::start(support::fixture_routes())
        .await
        .expect("server");
    let url = server.url("/emulate.html");
    let mut host = Host::new(SessionConfig::default());
    let launch = || async { Ok(rove_testkit::launch().await) };
    let run = async |host: &mut Host, command: Value| {
        let command: Command = serde_json::from_value(command).expect("a command");
        host.session()
            .expect("a session")
            .execute(&command)
            .await
            .unwrap_or_else(|e| panic!("{:?}", e.report()))
    };
    let value = async |host: &mut Host, js: &str| {
        run(host, json!({"command": "eval", "js": js}))
            .await
            .result()
            .expect("data")
            .clone()
    };
    let seen = async |host: &mut Host| {
        let js = "({width: innerWidth, dark: matchMedia('(prefers-color-scheme: dark)').matches})";
        value(host, js).await
    };
    assert!(host.ensure(launch).await.expect("a session").is_empty());
    run(&mut host, json!({"command": "open", "url": url})).await;
    run(
        &mut host,
        json!({"command": "set", "what": "viewport", "width": 500, "height": 400}),
    )
    .await;
    run(
        &mut host,
        json!({"command": "set", "what": "media", "value": "dark"}),
    )
    .await;
    assert_eq!(seen(&mut host).await, json!({"width": 500, "dark": true}));
    run(
        &mut host,
        json!({"command": "set", "what": "geo", "latitude": 48.8584, "longitude": 2.2945}),
    )
    .await;
    run(
        &mut host,
        json!({"command": "network", "action": "mock", "url": "/api/answer", "body": "mocked"}),
    )
    .await;

    // Chromium dies; the next command's session is on a new browser.
    let pid = host.browser_pid().expect("a launched browser");
    rove_testkit::kill(pid);
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    let notes = loop {
        let notes = host.ensure(launch).await.expect("a session again");
        if !notes.is_empty() || tokio::time::Instant::now() > deadline {
            break notes;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_ne!(host.browser_pid(), Some(pid), "{notes:?}");
    assert!(notes[0].starts_with("the browser had died"), "{notes:?}");
    assert_eq!(
        notes[1], "the emulation set before (geo, media, metrics) is made again",
        "{notes:?}"
    );
    assert_eq!(
        notes[2], "the 1 block and mock rule is in force again",
        "{notes:?}"
    );
    run(&mut host, json!({"command": "open", "url": url})).await;
    assert_eq!(seen(&mut host).await, json!({"width": 500, "dark": true}));
    // The position, and the permission to read it, without asking again
    // (headless, a prompt nobody answers would time the read out).
    let position = value(
        &mut host,
        "new Promise(ok => navigator.geolocation.getCurrentPosition(p => ok([p.coords.latitude, p.coords.longitude]), e => ok(e.message), {timeout: 5000}))",
    )
    .await;
    assert_eq!(position, json!([48.8584, 2.2945]));
    // The mock still answers in place of the server.
    let fetched = value(&mut host, "fetch('/api/answer').then(r => r.text())").await;
    assert_eq!(fetched, json!("mocked"));
    // A tab opened after the restart gets it too.
    run(
        &mut host,
        json!({"command": "tab", "action": "new", "url": url}),
    )
    .await;
    assert_eq!(seen(&mut host).await, json!({"width": 500, "dark": true}));
    // A launched browser leaves no contexts behind: nothing is reached.
    host.end(Some((launch, std::time::Duration::from_secs(1))))
        .await;
}

#[tokio::test]
async fn a_popup_sees_the_emulation_from_its_first_script() {
    popup_sees_the_emulation(Fixture::start().await).await;
}

/// The same under a domain policy, whose popups the guard holds (and
/// intercepts) before they run: they get the emulation there too.
#[tokio::test]
async fn a_guarded_popup_sees_the_emulation_from_its_first_script() {
    let config = rove_commands::SessionConfig {
        policy: rove_browser::DomainPolicy::from_lists(Some(["127.0.0.1"]), [""; 0])
            .expect("policy"),
        ..rove_commands::SessionConfig::default()
    };
    popup_sees_the_emulation(Fixture::with(support::fixture_routes(), config).await).await;
}

async fn popup_sees_the_emulation(mut f: Fixture) {
    f.open("/popup-opener.html").await;
    f.ok(json!({"command": "set", "what": "viewport", "width": 500, "height": 400}))
        .await;
    f.ok(json!({"command": "set", "what": "media", "value": "dark"}))
        .await;
    let button = f.find("Open a popup", "button").await;
    let out = f.ok(json!({"command": "click", "ref": button})).await;
    assert!(
        out.happened_lines()
            .iter()
            .any(|l| l.starts_with("switched to")),
        "{:?}",
        out.happened_lines()
    );
    assert_eq!(
        f.eval("window.first").await,
        json!({"width": 500, "dark": true})
    );
    // The session that held the popup let go of it when the tab's own
    // watch made the same emulation: the page still has it.
    let now = "({width: innerWidth, dark: matchMedia('(prefers-color-scheme: dark)').matches})";
    assert_eq!(f.eval(now).await, json!({"width": 500, "dark": true}));
    // And a later setting reaches it (the two sessions do not fight).
    f.ok(json!({"command": "set", "what": "viewport", "width": 600, "height": 400}))
        .await;
    f.ok(json!({"command": "set", "what": "media", "value": "light"}))
        .await;
    assert_eq!(f.eval(now).await, json!({"width": 600, "dark": false}));
    f.close().await;
}
