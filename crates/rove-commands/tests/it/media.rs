//! `<audio>` and `<video>` with the browser's controls appear in the view
//! with their state, and can be operated: Space on a video (by its ref)
//! plays or pauses it, a click on an audio player's play button does, and
//! `eval` on the ref (a user gesture) plays or pauses either.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::Fixture;

/// The full view, once the players know their length (their metadata loads
/// after the page does).
async fn view_when_loaded(f: &mut Fixture) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let out = f.ok(json!({"command": "snapshot"})).await;
        let text = out.view.expect("a view").text;
        if text.matches("/1:00").count() == 2 || tokio::time::Instant::now() > deadline {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn line_of<'a>(view: &'a str, marker: &str) -> &'a str {
    view.lines()
        .find(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("no {marker} in {view}"))
        .trim()
}

fn ref_at_start(line: &str) -> String {
    line.split_whitespace().next().expect("a ref").to_owned()
}

#[tokio::test]
async fn players_are_shown_with_their_state_and_can_be_played() {
    let mut f = Fixture::start().await;
    f.open("/media.html").await;
    let view = view_when_loaded(&mut f).await;
    let video = line_of(&view, "video \"Intro\"");
    assert!(
        video.ends_with("video \"Intro\": paused 0:00/1:00"),
        "{view}"
    );
    let audio = line_of(&view, "audio \"Theme song\"");
    assert!(
        audio.ends_with("audio \"Theme song\": paused 0:00/1:00"),
        "{view}"
    );
    // A video without controls is the page's own business: no line.
    assert_eq!(view.matches("video").count(), 1, "{view}");
    let video = ref_at_start(video);
    let audio = ref_at_start(audio);

    // Space on a video (rove focuses it first) plays it; the diff says so.
    let out = f
        .ok(json!({"command": "press", "ref": video, "keys": "Space"}))
        .await;
    let diff = out.view.expect("a diff").text;
    assert!(
        diff.contains("video \"Intro\" [focused]: playing (1:00)"),
        "{diff}"
    );
    assert_eq!(
        f.eval("document.getElementById('intro').paused").await,
        json!(false)
    );
    f.ok(json!({"command": "press", "keys": "Space"})).await;
    assert_eq!(
        f.eval("document.getElementById('intro').paused").await,
        json!(true)
    );

    // An audio player's play button is at its left end: a click there
    // (at coordinates, as a vision model would aim) plays it.
    let out = f
        .ok(json!({"command": "get", "what": "box", "ref": audio}))
        .await;
    let b = out.result().expect("a box").clone();
    let (x, y) = (
        b["x"].as_f64().expect("x") + 20.0,
        b["y"].as_f64().expect("y") + b["height"].as_f64().expect("height") / 2.0,
    );
    let out = f
        .ok(json!({"command": "mouse", "action": "click", "x": x, "y": y}))
        .await;
    let diff = out.view.expect("a diff").text;
    assert!(
        diff.contains("audio \"Theme song\"") && diff.contains("playing (1:00)"),
        "{diff}"
    );
    // And eval on the ref (a user gesture) pauses any player.
    f.ok(json!({"command": "eval", "ref": audio, "js": "(el) => el.pause()"}))
        .await;
    let out = f
        .ok(json!({"command": "snapshot", "mode": "interactive"}))
        .await;
    let text = out.view.expect("a view").text;
    assert!(
        line_of(&text, "Theme song").contains(": paused 0:0"),
        "{text}"
    );
    f.close().await;
}
