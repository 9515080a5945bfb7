//! The fault suite's scenarios about the devtools and state groups: a page
//! that floods the network log with giant requests, a state file that
//! plants cookies for domains the session may not visit, and a mock the
//! browser could never deliver.

use super::*;

fn text_of(out: &rove_commands::Outcome) -> String {
    out.data_text().expect("an answer as text").to_owned()
}

/// A page sends a 3 MB body, a 1 MB URL, a 200 kB header and a 100 kB
/// method; the log the daemon keeps for 500 such requests per tab would
/// take gigabytes, so each entry keeps a bounded part, and `network show`
/// still shows the body's first bytes and its whole size.
#[tokio::test]
async fn a_page_cannot_fill_the_network_log_with_giant_requests() {
    let page = "<title>Flood</title><button id=go>Flood</button><p id=out></p><script>\
        go.onclick = async () => {\
          const settle = (p) => p.then(() => 'ok', () => 'err');\
          await settle(fetch('/sink', {method: 'POST', body: 'x'.repeat(3000000)}));\
          await settle(fetch('/sink?pad=' + 'y'.repeat(1000000)));\
          await settle(fetch('/sink', {headers: {'X-Pad': 'z'.repeat(200000)}}));\
          await settle(fetch('/sink?m', {method: 'M'.repeat(100000)}));\
          out.textContent = 'flooded';\
        };</script>";
    let routes = fixture_routes()
        .page("/flood.html", Response::html(page))
        .handle("/sink", |_| Response::text("ok"));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    f.open("/flood.html").await;
    let go = f.find("Flood", "button").await;
    f.ok(json!({"command": "click", "ref": go})).await;
    f.ok(json!({"command": "wait", "text": "flooded"})).await;
    // Let the last request's events arrive.
    f.ok(json!({"command": "network"})).await;

    let tab = f
        .session
        .context()
        .tab(f.session.focused_id().expect("a focused tab"))
        .expect("the tab");
    let kept = tab.watch().await.expect("watch").network_kept();
    let sinks: Vec<_> = kept.iter().filter(|e| e.url.contains("/sink")).collect();
    assert_eq!(
        sinks.len(),
        4,
        "{:?}",
        kept.iter().map(|e| e.url.len()).collect::<Vec<_>>()
    );
    for e in &kept {
        let headers: usize = e
            .request_headers
            .iter()
            .chain(&e.response_headers)
            .map(|(k, v)| k.len() + v.len())
            .sum();
        let held = e.url.len()
            + e.post_data.as_ref().map_or(0, String::len)
            + headers
            + e.method.len()
            + e.status_text.len()
            + e.mime_type.len();
        assert!(
            held <= 64 * 1024,
            "r{} {} keeps {held} bytes",
            e.seq,
            e.method.chars().take(20).collect::<String>()
        );
    }
    // The body is still there for whoever asks for it.
    let post = sinks
        .iter()
        .find(|e| e.method == "POST")
        .expect("the POST is logged");
    let shown = text_of(
        &f.ok(json!({"command": "network", "action": "show", "id": post.seq}))
            .await,
    );
    assert!(shown.contains("request body (3.0 MB):"), "{shown}");
    assert!(shown.contains("  | xxxx"), "{shown}");
    f.close().await;
}

/// `state load` already leaves out the local storage of origins the domain
/// policy refuses; their cookies are left out too (a subresource of an
/// allowed page would carry them to a host the session may not visit).
#[tokio::test]
async fn state_load_plants_no_cookie_for_a_refused_domain() {
    let config = SessionConfig {
        policy: policy(&["127.0.0.1"]),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(fixture_routes(), config).await;
    f.open("/home.html").await;
    let state = json!({"cookies": [
        {"name": "ok", "value": "1", "domain": "127.0.0.1", "path": "/"},
        {"name": "planted", "value": "2", "domain": ".evil.test", "path": "/"},
        {"name": "by_url", "value": "3", "url": "https://other.test/"}
    ], "origins": []});
    let file = f.session.upload_dir().join("planted.json");
    std::fs::write(&file, state.to_string()).expect("state file");
    let loaded = text_of(
        &f.ok(json!({"command": "state", "action": "load", "file": file.to_str().expect("utf-8")}))
            .await,
    );
    assert!(loaded.starts_with("loaded 1 cookies"), "{loaded}");
    assert!(loaded.contains("evil.test"), "{loaded}");
    let listed = text_of(&f.ok(json!({"command": "cookies"})).await);
    assert!(listed.starts_with("1 cookie:"), "{listed}");
    assert!(listed.contains("ok=\"1\" domain=127.0.0.1"), "{listed}");
    // A model's own cookies set is refused for such a host too.
    let e = f
        .fails(json!({"command": "cookies", "action": "set", "name": "x", "value": "y", "domain": "evil.test"}))
        .await;
    assert_eq!(code(&e), "COMMAND_REJECTED", "{e:?}");
    assert!(
        !listed.contains("planted") && !listed.contains("by_url"),
        "{listed}"
    );
    f.close().await;
}

/// A status no HTTP response has cannot be delivered by the browser, which
/// would leave every matching request paused for good: refused up front.
#[tokio::test]
async fn a_mock_with_an_impossible_status_is_refused() {
    let mut f = Fixture::with(fixture_routes(), SessionConfig::default()).await;
    f.open("/home.html").await;
    for status in [0, 42, 600, 1000, 65535] {
        let e = f
            .fails(json!({"command": "network", "action": "mock", "url": "*/api/*", "status": status, "body": "{}"}))
            .await;
        assert_eq!(code(&e), "COMMAND_REJECTED", "status {status}: {e:?}");
    }
    let listed = text_of(&f.ok(json!({"command": "network", "action": "clear"})).await);
    assert!(
        listed.starts_with("dropped 0 block and mock rules"),
        "{listed}"
    );
    // A status in range that the browser still will not deliver (it knows
    // no reason phrase for 299) fails the request instead of leaving it
    // paused: the page's fetch settles.
    f.ok(json!({"command": "network", "action": "mock", "url": "*/api/odd*", "status": 299, "body": "{}"}))
        .await;
    f.eval(
        "fetch('/api/odd').then((r) => r.status, () => 'failed').then((s) => { document.body.append('settled ' + s); }), 1",
    )
    .await;
    f.ok(json!({"command": "wait", "text": "settled", "ms": 5000}))
        .await;
    f.close().await;
}

/// A state file whose "origins" carry paths is never reached by the tab
/// that restores local storage (its origin never equals the string), which
/// waited 5 s for each: thirty of them outlived the command's deadline, and
/// the guard's cut left the hidden tab open. They are refused up front, and
/// no tab is left behind.
#[tokio::test]
async fn state_load_of_unreachable_origins_ends_in_time_and_leaves_no_tab() {
    let config = SessionConfig {
        command_timeout: std::time::Duration::from_secs(20),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(fixture_routes(), config).await;
    f.open("/home.html").await;
    let base = f.url("");
    let base = base.trim_end_matches('/');
    let origins: Vec<_> = (0..30)
        .map(|i| json!({"origin": format!("{base}/x{i}"), "localStorage": [{"name": "k", "value": "v"}]}))
        .collect();
    let file = f.session.upload_dir().join("origins.json");
    std::fs::write(
        &file,
        json!({"cookies": [], "origins": origins}).to_string(),
    )
    .expect("state file");
    let pages = |targets: rove_cdp::protocol::target::GetTargetsResult| {
        targets
            .target_infos
            .iter()
            .filter(|t| t.kind == "page")
            .count()
    };
    let conn = f.browser.connection().await.expect("connection");
    let before = pages(
        conn.browser()
            .send(&rove_cdp::protocol::target::GetTargets::default())
            .await
            .expect("targets"),
    );
    let loaded = text_of(
        &f.ok(json!({"command": "state", "action": "load", "file": file.to_str().expect("utf-8")}))
            .await,
    );
    assert!(
        loaded.starts_with("loaded 0 cookies and the local storage of 0 origins"),
        "{loaded}"
    );
    assert!(loaded.contains("/x29"), "the refused are named: {loaded}");
    let after = pages(
        conn.browser()
            .send(&rove_cdp::protocol::target::GetTargets::default())
            .await
            .expect("targets"),
    );
    assert_eq!(before, after, "a tab was left behind");
    f.close().await;
}

/// A function may be named by a megabyte string; an error logged from
/// inside it carried that name in each of its stack frames, into the log
/// (a thousand messages per tab) and into what `console` returns.
#[tokio::test]
async fn a_giant_function_name_neither_fills_the_console_log_nor_the_answer() {
    let page = "<title>Names</title><p>names</p><script>\
        const name = 'f'.repeat(1000000);\
        const o = {[name]() { console.error('boom'); }, [name + 'g']() { o[name](); }};\
        o[name + 'g']();\
        </script>";
    let routes = fixture_routes().page("/names.html", Response::html(page));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    f.open("/names.html").await;
    let shown = text_of(&f.ok(json!({"command": "console"})).await);
    assert!(
        shown.contains("[error] \"boom\""),
        "{}",
        &shown[..shown.len().min(2_000)]
    );
    assert!(shown.contains("    at fff"), "the stack is shown");
    assert!(
        shown.len() < 20_000,
        "console returned {} bytes",
        shown.len()
    );
    f.close().await;
}

/// A page may fill its local storage with tens of thousands of entries;
/// `storage` showed every one, flooding the model's context. It shows the
/// first ones, says how many there are, and a key still reads any one.
#[tokio::test]
async fn a_page_full_of_storage_entries_does_not_flood_the_answer() {
    let page = "<title>Store</title><p>store</p><script>\
        for (let i = 0; i < 20000; i++) localStorage.setItem('key' + i, 'value ' + i);\
        </script>";
    let routes = fixture_routes().page("/store.html", Response::html(page));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    f.open("/store.html").await;
    let shown = text_of(&f.ok(json!({"command": "storage", "kind": "local"})).await);
    assert!(
        shown.starts_with("20000 localStorage entries"),
        "{}",
        &shown[..200]
    );
    assert!(
        shown.len() < 50_000,
        "storage returned {} bytes",
        shown.len()
    );
    assert!(shown.contains("more"), "the rest is counted");
    let one = text_of(
        &f.ok(json!({"command": "storage", "kind": "local", "key": "key19999"}))
            .await,
    );
    assert!(one.contains("\"key19999\" = \"value 19999\""), "{one}");
    f.close().await;
}

/// A saved state holds credentials and is written for its owner only; a
/// file already there (readable by everyone) kept its mode when rove wrote
/// the credentials into it.
#[tokio::test]
async fn a_state_saved_over_a_readable_file_is_made_private() {
    use std::os::unix::fs::PermissionsExt;
    let output = rove_testkit::scratch_dir("redteam-state-mode");
    let file = output.join("login.json");
    std::fs::write(&file, "{}").expect("an old file");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("mode");
    let config = SessionConfig {
        output_dir: Some(output.clone()),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(fixture_routes(), config).await;
    f.open("/home.html").await;
    f.ok(json!({"command": "cookies", "action": "set", "name": "sid", "value": "s3cret"}))
        .await;
    f.ok(json!({"command": "state", "action": "save", "file": "login.json"}))
        .await;
    let saved = std::fs::read_to_string(&file).expect("the state");
    assert!(saved.contains("s3cret"), "{saved}");
    let mode = std::fs::metadata(&file)
        .expect("metadata")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "mode {mode:o}");
    f.close().await;
}

/// A page's text may ask the model for "the whole response"; however many
/// bytes `network show` is asked for, one answer stays within a bound.
#[tokio::test]
async fn network_show_stays_bounded_whatever_it_is_asked_for() {
    let big = "line of a big answer\n".repeat(70_000);
    let routes = fixture_routes()
        .page(
            "/big.html",
            Response::html(
                "<title>Big</title><p id=o>big</p><script>fetch('/big.txt').then((r) => r.text()).then((t) => { o.textContent = 'got ' + t.length; });</script>",
            ),
        )
        .page("/big.txt", Response::text(big));
    let mut f = Fixture::with(routes, SessionConfig::default()).await;
    f.open("/big.html").await;
    f.ok(json!({"command": "wait", "text": "got 1470000"}))
        .await;
    let listed = text_of(&f.ok(json!({"command": "network"})).await);
    let id: u64 = listed
        .lines()
        .find(|l| l.contains("/big.txt"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|r| r[1..].parse().ok())
        .unwrap_or_else(|| panic!("no /big.txt in {listed}"));
    let shown = text_of(
        &f.ok(json!({"command": "network", "action": "show", "id": id, "max_bytes": 1_000_000_000u64}))
            .await,
    );
    assert!(
        shown.contains("response body (1.5 MB):"),
        "{}",
        &shown[..shown.len().min(1_000)]
    );
    assert!(
        shown.len() < 200_000,
        "network show returned {} bytes",
        shown.len()
    );
    assert!(shown.contains("cut at"), "the cut is said");
    f.close().await;
}

/// A HAR holds what the pages sent: request bodies (a login form's plain
/// password among them) and URLs. It is written for its owner only, like a
/// saved state.
#[tokio::test]
async fn a_har_is_written_for_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let output = rove_testkit::scratch_dir("redteam-har-mode");
    let config = SessionConfig {
        output_dir: Some(output.clone()),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(fixture_routes(), config).await;
    f.open("/home.html").await;
    f.ok(json!({"command": "network", "action": "har", "file": "run.har"}))
        .await;
    let mode = std::fs::metadata(output.join("run.har"))
        .expect("the HAR")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "mode {mode:o}");
    f.close().await;
}

/// A login form's body holds a plain password: `network har` exports no
/// body unless asked (`bodies`), and then the values of credential fields
/// (a form's `password`, a JSON `token`, a multipart `api_key`) are
/// redacted while the rest of each body stays.
#[tokio::test]
async fn a_har_holds_no_password_unless_bodies_are_asked_for_and_then_none_either() {
    let page = "<title>Login</title><button id=go>Log in</button><p id=out></p><script>\
        go.onclick = async () => {\
          await fetch('/login', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'},\
            body: 'user=ada&password=Hunter2-Zq&remember=1'});\
          await fetch('/api', {method: 'POST', headers: {'Content-Type': 'application/json'},\
            body: JSON.stringify({q: 'lamp', session: {refresh_token: 'tok-77aa-bb'}})});\
          const form = new FormData(); form.append('name', 'ada'); form.append('api_key', 'key-88cc-dd');\
          await fetch('/upload', {method: 'POST', body: form});\
          out.textContent = 'sent';\
        };</script>";
    let output = rove_testkit::scratch_dir("redteam-har-bodies");
    let config = SessionConfig {
        output_dir: Some(output.clone()),
        ..SessionConfig::default()
    };
    let routes = fixture_routes()
        .page("/login.html", Response::html(page))
        .handle("/login", |_| Response::text("ok"))
        .handle("/api", |_| Response::text("ok"))
        .handle("/upload", |_| Response::text("ok"));
    let mut f = Fixture::with(routes, config).await;
    f.open("/login.html").await;
    let go = f.find("Log in", "button").await;
    f.ok(json!({"command": "click", "ref": go})).await;
    f.ok(json!({"command": "wait", "text": "sent"})).await;
    let credentials = ["Hunter2-Zq", "tok-77aa-bb", "key-88cc-dd"];

    f.ok(json!({"command": "network", "action": "har", "file": "plain.har"}))
        .await;
    let plain = std::fs::read_to_string(output.join("plain.har")).expect("the HAR");
    assert!(
        !plain.contains("postData"),
        "no bodies unless asked: {plain}"
    );
    for credential in credentials {
        assert!(!plain.contains(credential), "{credential} in {plain}");
    }

    f.ok(json!({"command": "network", "action": "har", "file": "full.har", "bodies": true}))
        .await;
    let full = std::fs::read_to_string(output.join("full.har")).expect("the HAR");
    for credential in credentials {
        assert!(!full.contains(credential), "{credential} in {full}");
    }
    let har: serde_json::Value = serde_json::from_str(&full).expect("JSON");
    let body_of = |path: &str| -> String {
        har["log"]["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .find(|e| {
                e["request"]["url"]
                    .as_str()
                    .is_some_and(|u| u.ends_with(path))
            })
            .and_then(|e| e["request"]["postData"]["text"].as_str())
            .unwrap_or_else(|| panic!("no body of {path}: {full}"))
            .to_owned()
    };
    assert_eq!(body_of("/login"), "user=ada&password=<redacted>&remember=1");
    assert_eq!(body_of("/api"), r#"{"q":"lamp","session":"<redacted>"}"#);
    let upload = body_of("/upload");
    assert!(
        upload.contains("ada") && upload.contains("<redacted>"),
        "{upload}"
    );
    f.close().await;
}

/// The files a model may have `network mock` serve or `state load` read:
/// none outside the roots, by an absolute path, `..`, or a link planted in
/// the upload folder; and a FIFO there is refused at once rather than read
/// (a read would wait for a writer for good).
#[tokio::test]
async fn mock_and_state_files_stay_inside_the_roots_and_never_block() {
    let mut f = Fixture::with(fixture_routes(), SessionConfig::default()).await;
    f.open("/home.html").await;
    let uploads = f.session.upload_dir().to_path_buf();
    let tag = std::process::id();
    let link = uploads.join(format!("redteam-link-{tag}.json"));
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("/etc/passwd", &link).expect("link");
    let fifo = uploads.join(format!("redteam-fifo-{tag}.json"));
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let escape = format!("{}/../../../../etc/passwd", uploads.display());
    let paths = [
        "/proc/self/environ".to_owned(),
        "/etc/passwd".to_owned(),
        escape,
        link.display().to_string(),
        fifo.display().to_string(),
    ];
    for path in &paths {
        let started = std::time::Instant::now();
        let mock = f
            .fails(json!({"command": "network", "action": "mock", "url": "*/x", "file": path}))
            .await;
        assert_eq!(code(&mock), "UPLOAD_DENIED", "{path}: {mock:?}");
        let load = f
            .fails(json!({"command": "state", "action": "load", "file": path}))
            .await;
        assert_eq!(code(&load), "UPLOAD_DENIED", "{path}: {load:?}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{path} took {:?}",
            started.elapsed()
        );
    }
    let _ = std::fs::remove_file(&link);
    let _ = std::fs::remove_file(&fifo);
    f.close().await;
}

/// A state file may hold hundreds of thousands of cookies within its size
/// bound; the browser keeps a few thousand at most, and handing it every
/// one kept the browser busy past the call's deadline (the load failed).
/// The first ones are set, the rest counted.
#[tokio::test]
async fn a_state_file_of_300000_cookies_is_loaded_in_time() {
    let mut f = Fixture::with(fixture_routes(), SessionConfig::default()).await;
    f.open("/home.html").await;
    let cookies: Vec<_> = (0..300_000)
        .map(|i| json!({"name": format!("c{i}"), "value": "v", "domain": format!("d{}.test", i % 5000)}))
        .collect();
    let file = f
        .session
        .upload_dir()
        .join(format!("many-{}.json", std::process::id()));
    std::fs::write(&file, json!({"cookies": cookies}).to_string()).expect("state file");
    let loaded = text_of(
        &f.ok(json!({"command": "state", "action": "load", "file": file.to_str().expect("utf-8")}))
            .await,
    );
    let _ = std::fs::remove_file(&file);
    assert!(loaded.starts_with("loaded 5000 cookies"), "{loaded}");
    assert!(
        loaded.contains("left out 295000 cookies beyond the first 5000"),
        "{loaded}"
    );
    f.close().await;
}
