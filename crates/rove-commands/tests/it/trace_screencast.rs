//! The page's screencast in a command trace (`rove trace start
//! --screencast`), on a real session in real Chromium over pages on
//! 127.0.0.1: frames come while the page changes, no faster than five a
//! second, with the boxes of a shown secret painted out; a page that never
//! stops moving fills the trace's cap and then one line says frames are
//! dropped; a still page gives a frame or two, not a stream; a 4K
//! viewport is sent scaled down.

use crate::support;

use rove_commands::trace_format::{TraceLine, TraceOrigin, TraceScreenshot, TracedFrame};
use rove_commands::{FrameCaps, Secret, Secrets, SessionConfig, TraceWants, Traces};
use rove_localserver::{Response, Routes};
use serde_json::json;
use support::Fixture;

const SECRET: &str = "tok-frame-93ab71";

/// A page that shows the secret as text and moves a box on every frame
/// the browser paints: it never stops changing.
/// Beside it, a page that never changes once shown.
fn routes() -> Routes {
    let page = format!(
        "<!doctype html><title>Moving</title>\
         <style>body{{margin:0;background:#fff}} #box{{position:absolute;top:80px;width:80px;height:80px;background:#c22}}</style>\
         <p id=shown style='font:32px sans-serif'>your token is {SECRET}</p><div id=box></div>\
         <script>let x = 0; (function move() {{ x = (x + 7) % 1000; document.getElementById('box').style.left = x + 'px'; requestAnimationFrame(move); }})();</script>"
    );
    Routes::new().page("/moving", Response::html(page)).page(
        "/still",
        Response::html("<!doctype html><title>Still</title><h1>Nothing moves here</h1>"),
    )
}

fn origin() -> TraceOrigin {
    TraceOrigin {
        face: "test".into(),
        ..TraceOrigin::default()
    }
}

fn frames_of(path: &std::path::Path) -> Vec<TracedFrame> {
    std::fs::read_to_string(path)
        .expect("the trace")
        .lines()
        .filter_map(|l| match TraceLine::parse(l).expect("a trace line") {
            TraceLine::Frame(f) => Some(f),
            _ => None,
        })
        .collect()
}

fn kept(frames: &[TracedFrame]) -> Vec<&TracedFrame> {
    frames
        .iter()
        .filter(|f| matches!(f.image, Some(TraceScreenshot::Inlined(_))))
        .collect()
}

/// A JPEG's width and height, from its frame header.
fn jpeg_size(data_url: &str) -> (u32, u32) {
    use base64::Engine;
    let b64 = data_url
        .strip_prefix("data:image/jpeg;base64,")
        .expect("a JPEG data URL");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .expect("base64");
    let mut i = 2;
    while i + 9 < bytes.len() {
        let (marker, len) = (
            bytes[i + 1],
            usize::from(bytes[i + 2]) << 8 | usize::from(bytes[i + 3]),
        );
        if (0xC0..=0xC2).contains(&marker) {
            let h = u32::from(bytes[i + 5]) << 8 | u32::from(bytes[i + 6]);
            let w = u32::from(bytes[i + 7]) << 8 | u32::from(bytes[i + 8]);
            return (w, h);
        }
        i += 2 + len;
    }
    panic!("no frame header in the JPEG");
}

async fn traced(
    name: &str,
    caps: FrameCaps,
    secrets: Secrets,
) -> (Fixture, Traces, std::path::PathBuf) {
    let dir = rove_testkit::scratch_dir(name);
    let path = dir.join("cast.trace");
    let traces = Traces::default();
    let config = SessionConfig {
        secrets,
        traces: traces.clone(),
        ..SessionConfig::default()
    };
    let f = Fixture::with(routes(), config).await;
    let wants = TraceWants {
        screenshots: false,
        budget: 0,
        screencast: Some(caps),
    };
    traces
        .start_with(&path, wants, origin())
        .expect("trace starts");
    (f, traces, path)
}

#[tokio::test]
async fn screencast_frames_come_at_a_capped_rate_with_the_secret_painted_out() {
    let secrets = Secrets(vec![
        Secret::parse(&format!("TOKEN@127.0.0.1={SECRET}")).expect("secret"),
    ]);
    let (mut f, traces, path) = traced("cast-rate", FrameCaps::default(), secrets).await;
    f.open("/moving").await;
    let waited = std::time::Instant::now();
    f.ok(json!({"command": "wait", "ms": 3000})).await;
    let watched = waited.elapsed().as_secs_f64();
    f.ok(json!({"command": "press", "keys": "Tab"})).await;
    traces.stop_all("stopped");
    f.close().await;

    let text = std::fs::read_to_string(&path).expect("the trace");
    assert!(!text.contains(SECRET), "the secret is in the trace's text");
    let head = text.lines().next().expect("a head");
    assert!(head.contains("\"screencast\":true"), "{head}");
    let frames = frames_of(&path);
    let kept = kept(&frames);
    // The page moves all the time: frames came all along, but no more than
    // five a second (and one at the start).
    assert!(kept.len() >= 8, "{} frames in {watched:.1} s", kept.len());
    let span = kept.last().map(|f| f.at).unwrap_or(0.0) - kept[0].at;
    assert!(
        (kept.len() as f64) <= span * 5.0 + 2.0,
        "{} frames in {span:.2} s: over five a second",
        kept.len()
    );
    for pair in kept.windows(2) {
        assert!(pair[1].at >= pair[0].at, "frames out of order");
    }
    // Frames sit between the commands they came among, in time order.
    let commands: Vec<(f64, f64)> = text
        .lines()
        .filter_map(|l| match TraceLine::parse(l).ok()? {
            TraceLine::Command(c) => Some((c.started, c.started + c.ms / 1000.0)),
            _ => None,
        })
        .collect();
    let opened = commands[0].1;
    for frame in &kept {
        assert_eq!(frame.tab, "t1");
        assert!(
            frame.view[0] > 100.0 && frame.view[1] > 100.0,
            "{:?}",
            frame.view
        );
        // Once the page is there the secret shows on every frame: its box
        // was painted out of each (a frame of the blank tab before has none).
        if frame.at > opened {
            assert!(frame.masked >= 1, "a frame kept unmasked at {}", frame.at);
        }
    }
    let wait = commands[1];
    let during_wait = kept
        .iter()
        .filter(|f| f.at >= wait.0 && f.at <= wait.1)
        .count();
    assert!(during_wait >= 5, "{during_wait} frames during the 3 s wait");
}

#[tokio::test]
async fn a_page_that_never_stops_moving_fills_the_cap_then_frames_are_dropped_with_a_note() {
    let caps = FrameCaps {
        frames: 4,
        bytes: 64 << 20,
    };
    let (mut f, traces, path) = traced("cast-cap", caps, Secrets::default()).await;
    f.open("/moving").await;
    f.ok(json!({"command": "wait", "ms": 2500})).await;
    f.ok(json!({"command": "press", "keys": "Tab"})).await;
    traces.stop_all("stopped");
    f.close().await;

    let frames = frames_of(&path);
    assert_eq!(kept(&frames).len(), 4, "{frames:?}");
    // One line says frames are dropped, and it is the last frame line.
    let notes: Vec<&TracedFrame> = frames
        .iter()
        .filter(|f| matches!(f.image, Some(TraceScreenshot::LeftOut { .. })))
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    match &frames.last().and_then(|f| f.image.clone()) {
        Some(TraceScreenshot::LeftOut { left_out }) => {
            assert!(left_out.contains("dropped"), "{left_out}")
        }
        other => panic!("the last frame line is {other:?}"),
    }
    // The byte cap holds too.
    let bytes_cap = FrameCaps {
        frames: 10_000,
        bytes: 1,
    };
    let (mut f, traces, path) = traced("cast-bytes", bytes_cap, Secrets::default()).await;
    f.open("/moving").await;
    f.ok(json!({"command": "wait", "ms": 800})).await;
    traces.stop_all("stopped");
    f.close().await;
    let frames = frames_of(&path);
    assert_eq!(kept(&frames).len(), 0, "{frames:?}");
    assert_eq!(frames.len(), 1, "one note, then nothing");
}

#[tokio::test]
async fn a_4k_viewport_is_sent_scaled_down() {
    let (mut f, traces, path) = traced("cast-4k", FrameCaps::default(), Secrets::default()).await;
    f.ok(json!({"command": "set", "what": "viewport", "width": 3840, "height": 2160}))
        .await;
    f.open("/moving").await;
    f.ok(json!({"command": "wait", "ms": 1000})).await;
    traces.stop_all("stopped");
    f.close().await;

    let frames = frames_of(&path);
    let kept = kept(&frames);
    // The first frame may show the tab before the viewport changed.
    let big: Vec<&&TracedFrame> = kept.iter().filter(|f| f.view == [3840.0, 2160.0]).collect();
    assert!(
        !big.is_empty(),
        "{:?}",
        kept.iter().map(|f| f.view).collect::<Vec<_>>()
    );
    for frame in kept {
        let Some(TraceScreenshot::Inlined(url)) = &frame.image else {
            continue;
        };
        let (w, h) = jpeg_size(url);
        assert!(w <= 1024 && h <= 1024, "a frame of {w}x{h}");
        if frame.view == [3840.0, 2160.0] {
            assert!(
                w >= 1000,
                "a frame of {w}x{h}: scaled down more than needed"
            );
        }
    }
}

#[tokio::test]
async fn a_still_page_gives_a_frame_or_two_not_a_stream() {
    let (mut f, traces, path) =
        traced("cast-still", FrameCaps::default(), Secrets::default()).await;
    f.open("/still").await;
    f.ok(json!({"command": "wait", "ms": 2000})).await;
    traces.stop_all("stopped");
    f.close().await;
    // Chromium paints it once (and the blank tab before, perhaps): over
    // the two seconds, at five a second, a stream would be ten frames.
    let kept = kept(&frames_of(&path)).len();
    assert!((1..=3).contains(&kept), "{kept} frames of a still page");
}
