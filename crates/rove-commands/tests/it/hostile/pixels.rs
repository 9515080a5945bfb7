//! The fault suite's scenario about a secret a page shows as text: in an
//! image of the page (a screenshot a model or a judge sees, a trace's
//! shot), its boxes are painted out, and the answer says so.

use super::*;

const VALUE: &str = "tok-9Qz7-Vw3x";

/// How dark each element's box is in `image` (the share of its pixels near
/// black), read back by the browser itself: the image drawn on a canvas of
/// the page, at the element's place (scroll 0, scale 1, so CSS pixels of
/// the page are the image's).
async fn darkness(f: &mut Fixture, image: &[u8], mime: &str, ids: &[&str]) -> Vec<f64> {
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(image);
    let js = format!(
        "(async () => {{
            const img = new Image();
            img.src = 'data:{mime};base64,{data}';
            await img.decode();
            const c = document.createElement('canvas');
            c.width = img.width; c.height = img.height;
            const ctx = c.getContext('2d');
            ctx.drawImage(img, 0, 0);
            return {ids:?}.map((id) => {{
                const r = document.getElementById(id).getBoundingClientRect();
                const d = ctx.getImageData(r.left + 2, r.top + 2, r.width - 4, r.height - 4).data;
                let dark = 0;
                for (let i = 0; i < d.length; i += 4) if (d[i] < 48 && d[i + 1] < 48 && d[i + 2] < 48) dark++;
                return dark / (d.length / 4);
            }});
        }})()"
    );
    let value = f.eval(&js).await;
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_f64().expect("a number"))
        .collect()
}

/// A page that shows the secret: as text, as a field's value, and split
/// over two elements in another case.
fn echo_page() -> String {
    format!(
        "<title>Echo</title><style>body{{margin:0;font:28px monospace;background:#fff;color:#000}}\
         input{{font:28px monospace;width:420px;border:0}}</style>\
         <p id=hello>Hello there, welcome back</p>\
         <p>Your token is <span id=token>{VALUE}</span></p>\
         <p><input id=field value=\"{VALUE}\"></p>\
         <p id=split>again tok-9Q<b>z7-VW3X</b></p>"
    )
}

#[tokio::test]
async fn a_secret_the_page_shows_is_masked_out_of_its_screenshots() {
    let routes = fixture_routes().page("/echo.html", Response::html(echo_page()));
    let config = SessionConfig {
        secrets: Secrets(vec![
            Secret::parse(&format!("PW@127.0.0.1={VALUE}")).expect("secret"),
        ]),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes, config).await;
    f.open("/echo.html").await;
    let ids = ["token", "field", "split", "hello"];
    for (args, mime) in [
        (json!({}), "image/png"),
        (json!({"full_page": true}), "image/png"),
        (json!({"format": "jpeg", "quality": 70}), "image/jpeg"),
        (
            json!({"clip": {"x": 0, "y": 0, "width": 700, "height": 400}}),
            "image/png",
        ),
    ] {
        let mut command = args.clone();
        command["command"] = json!("screenshot");
        let out = f.ok(command).await;
        let said = out.happened_lines().join("\n");
        let image = out.image.expect("an image");
        assert_eq!(image.mime, mime);
        let dark = darkness(&mut f, &image.bytes, mime, &ids).await;
        // The text, the field's value and the text split over two
        // elements are painted out; the rest of the page is as it was.
        for (id, share) in ids.iter().zip(&dark) {
            if *id == "hello" {
                assert!(*share < 0.5, "{args}: {id} was painted over: {dark:?}");
            } else {
                assert!(*share > 0.97, "{args}: {id} shows: {dark:?}");
            }
        }
        assert!(
            said.contains("masked 3 regions of the image that showed a secret's value"),
            "{args}: {said}"
        );
    }
    f.close().await;
}

#[tokio::test]
async fn a_traces_screenshots_have_the_secret_masked_out() {
    let routes = fixture_routes().page("/echo.html", Response::html(echo_page()));
    let traces = rove_commands::Traces::default();
    let config = SessionConfig {
        secrets: Secrets(vec![
            Secret::parse(&format!("PW@127.0.0.1={VALUE}")).expect("secret"),
        ]),
        traces: traces.clone(),
        ..SessionConfig::default()
    };
    let dir = rove_testkit::scratch_dir("pixels-trace");
    let path = dir.join("session.trace");
    let mut f = Fixture::with(routes, config).await;
    f.open("/echo.html").await;
    let id = traces
        .start(
            &path,
            true,
            4_000_000,
            rove_commands::trace_format::TraceOrigin {
                face: "test".into(),
                ..Default::default()
            },
        )
        .expect("trace starts");
    f.ok(json!({"command": "press", "keys": "Tab"})).await;
    traces.stop(id, "stopped").expect("it ran");
    let text = std::fs::read_to_string(&path).expect("the trace");
    let shot = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|l| l["kind"] == "command")
        .and_then(|c| c["screenshots"]["after"].as_str().map(str::to_owned))
        .unwrap_or_else(|| panic!("no screenshot after the press: {text}"));
    use base64::Engine;
    let jpeg = base64::engine::general_purpose::STANDARD
        .decode(shot.trim_start_matches("data:image/jpeg;base64,"))
        .expect("base64");
    let dark = darkness(&mut f, &jpeg, "image/jpeg", &["token", "hello"]).await;
    assert!(dark[0] > 0.97, "the token shows in the trace: {dark:?}");
    assert!(dark[1] < 0.5, "more than the token was painted: {dark:?}");
    f.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
