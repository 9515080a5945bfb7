//! `Endpoint::parse`: every form of a `--cdp-url`.
//! (A test module: its parent includes it under #[cfg(test)].)

use super::*;

fn parsed(text: &str) -> Endpoint {
    Endpoint::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn a_pathless_websocket_address_asks_for_the_root() {
    let e = parsed("ws://farm.test:3000?token=T0KEN");
    assert_eq!(e.as_str(), "ws://farm.test:3000/?token=T0KEN");
    assert_eq!(e.path(), "/");
    assert_eq!(e.query(), Some("token=T0KEN"));
    assert_eq!((e.host(), e.port()), ("farm.test".to_owned(), 3000));
}

#[test]
fn every_scheme_has_its_port_and_tls() {
    let cases = [
        ("ws://h:9222/devtools/browser/x", 9222, false, true),
        ("wss://cloud.test?apiKey=K", 443, true, true),
        ("http://127.0.0.1:9222", 9222, false, false),
        ("https://cloud.test/?token=T", 443, true, false),
        ("http://[::1]:9222", 9222, false, false),
    ];
    for (text, port, tls, ws) in cases {
        let e = parsed(text);
        assert_eq!(e.port(), port, "{text}");
        assert_eq!(e.is_tls(), tls, "{text}");
        assert_eq!(e.is_websocket(), ws, "{text}");
    }
    assert_eq!(parsed("http://[::1]:9222").host(), "::1");
    assert_eq!(parsed("http://[::1]:9222").authority(), "[::1]:9222");
}

#[test]
fn malformed_addresses_are_refused_with_the_token_hidden() {
    for bad in [
        "ftp://h:1/?token=SECRETVALUE",
        "http://h:99999?token=SECRETVALUE",
        "h:9222?token=SECRETVALUE",
        "ws://?token=SECRETVALUE",
        "ws://h:1/#x?token=SECRETVALUE",
        "",
    ] {
        let error = Endpoint::parse(bad).expect_err(bad);
        assert!(!error.contains("SECRETVALUE"), "{error}");
    }
}

#[test]
fn a_reported_debugger_url_keeps_the_users_host_and_query() {
    let user = parsed("http://farm.test:3000?token=T0KEN");
    // A path-less report, without the token (farms leave it out).
    let ws = user.websocket_for("ws://0.0.0.0:3000").expect("joins");
    assert_eq!(ws.as_str(), "ws://farm.test:3000/?token=T0KEN");
    // Chromium's usual report: its path, the user's query.
    let ws = user
        .websocket_for("ws://127.0.0.1:9222/devtools/browser/abc")
        .expect("joins");
    assert_eq!(
        ws.as_str(),
        "ws://farm.test:3000/devtools/browser/abc?token=T0KEN"
    );
    // A report with its own query keeps it.
    let ws = user
        .websocket_for("ws://inside:1/devtools/browser/abc?token=OTHER")
        .expect("joins");
    assert_eq!(ws.query(), Some("token=OTHER"));
    // TLS stays TLS.
    let ws = parsed("https://u:p@cloud.test?token=T")
        .websocket_for("ws://x/devtools/browser/1")
        .expect("joins");
    assert_eq!(
        ws.as_str(),
        "wss://u:p@cloud.test/devtools/browser/1?token=T"
    );
    assert!(user.websocket_for("http://x/").is_err());
    assert!(user.websocket_for("not a url").is_err());
}

#[test]
fn credentials_are_hidden_in_every_shown_form() {
    for (text, secret) in [
        ("ws://h:1/?token=S3CRETTOKEN", "S3CRETTOKEN"),
        ("wss://h/?apiKey=S3CRETTOKEN&x=1", "S3CRETTOKEN"),
        ("wss://h/?api_key=S3CRETTOKEN", "S3CRETTOKEN"),
        ("wss://h/?key=S3CRETTOKEN", "S3CRETTOKEN"),
        ("wss://h/?auth=S3CRETTOKEN", "S3CRETTOKEN"),
        ("wss://h/?password=S3CRETTOKEN", "S3CRETTOKEN"),
        ("wss://user:S3CRETTOKEN@h/", "S3CRETTOKEN"),
        ("wss://S3CRETTOKEN@h/", "S3CRETTOKEN"),
    ] {
        let e = parsed(text);
        for shown in [e.redacted(), format!("{e}"), format!("{e:?}")] {
            assert!(!shown.contains(secret), "{shown}");
            assert!(shown.contains(HIDDEN), "{shown}");
        }
    }
    assert_eq!(parsed("ws://h:1/x?y=2").redacted(), "ws://h:1/x?y=2");
}

#[test]
fn headers_are_parsed_and_never_shown() {
    let access = Access::new(
        &[
            "Authorization: Bearer HEADERSECRET1".into(),
            "X-Farm:  a:b ".into(),
        ],
        None,
    )
    .expect("parses");
    assert_eq!(
        access.headers(),
        [
            (
                "Authorization".to_owned(),
                "Bearer HEADERSECRET1".to_owned()
            ),
            ("X-Farm".to_owned(), "a:b".to_owned())
        ]
    );
    assert!(access.has_header("authorization"));
    let shown = format!("{access:?}");
    assert!(!shown.contains("HEADERSECRET1"), "{shown}");
    assert!(!rove_base::redact::scrub("sent HEADERSECRET1").contains("HEADERSECRET1"));
    for bad in [
        "no colon",
        ": empty name",
        "Bad Name: x",
        "X: a\r\nInjected: y",
    ] {
        assert!(Access::new(&[bad.into()], None).is_err(), "{bad:?}");
    }
}

#[test]
fn a_ca_file_must_hold_certificates() {
    let missing = Access::new(&[], Some(Path::new("/nonexistent/ca.pem")));
    assert!(
        missing
            .expect_err("missing")
            .contains("/nonexistent/ca.pem")
    );
    let dir = std::env::temp_dir().join(format!("rove-ca-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let empty = dir.join("empty.pem");
    std::fs::write(&empty, "not a certificate").expect("write");
    assert!(Access::new(&[], Some(&empty)).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_key_in_the_path_is_hidden_from_the_logs_once_parsed() {
    let key = "K7pathkey4f2c9e1b3d5a";
    let line = format!("the socket to wss://farm.test/ws/{key} failed: {key} refused");
    assert!(
        rove_base::redact::scrub(&line).contains(key),
        "not yet known"
    );
    let endpoint = parsed(&format!("wss://farm.test/ws/{key}"));
    assert_eq!(endpoint.redacted(), "wss://farm.test/ws/<redacted>");
    assert!(!rove_base::redact::scrub(&line).contains(key), "{line}");
}
