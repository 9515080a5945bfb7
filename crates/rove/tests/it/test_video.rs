//! `rove test --video`: with the real binary, real Chromium, the shop of
//! `test_traces.rs` on 127.0.0.1 and its scripted model, the failed
//! attempt leaves a GIF beside its trace (a frame per step and one for
//! the answer), report.html links it and JUnit attaches it as CI systems
//! read attachments; the passed attempt leaves none; with
//! `--trace-screencast` the attempt's trace holds the page's frames. `--video` without
//! the traces it is made of is refused before anything runs.

use std::path::Path;

use rove_localserver::RequestLog;
use serde_json::Value;

use crate::test_traces::{SUITE, finished, model, rove_test, scratch, shop, shown};

fn frames_in(path: &Path) -> usize {
    let file = std::fs::File::open(path).expect("the GIF");
    let mut decoder = gif::DecodeOptions::new().read_info(file).expect("a GIF");
    let mut n = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        n += 1;
    }
    n
}

#[tokio::test]
async fn a_failed_attempt_leaves_a_video_linked_from_the_report_and_junit() {
    let shop = shop().await;
    let model = model(RequestLog::new(), false).await;
    let dir = scratch("video");
    std::fs::write(dir.join("shop.yaml"), SUITE).expect("suite");
    let out = dir.join("out");
    let junit = dir.join("junit.xml");
    let mut command = rove_test(
        &shop,
        &model,
        &[
            dir.to_str().expect("utf-8"),
            "-j",
            "2",
            "--video",
            "on-failure",
            "--trace-screencast",
        ],
    );
    command
        .args(["--vision", "off", "--out"])
        .arg(&out)
        .arg("--junit")
        .arg(&junit);
    let (status, said) = finished(command).await;
    assert_eq!(status, 1, "the desk fails its check:\n{said}");

    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results.json"))
            .expect("JSON");
    let attempts = results["attempts"].as_array().expect("attempts");
    let of = |task: &str| {
        attempts
            .iter()
            .find(|a| a["task"] == task)
            .unwrap_or_else(|| panic!("no {task}"))
    };
    let (lamp, desk) = (of("lamp"), of("desk"));
    assert_eq!(desk["status"], "failed");
    assert!(
        lamp.get("video").is_none(),
        "a passed attempt has no video: {lamp}"
    );
    let video = desk["video"].as_str().expect("the desk's video");
    assert_eq!(Path::new(video), out.join("traces").join("desk-1.gif"));
    // Three steps (a failed click, the click, done) and the answer.
    assert_eq!(frames_in(Path::new(video)), 4);

    // Its trace holds the page's screencast, frames before the steps.
    let trace = crate::support::trace_lines(Path::new(desk["trace"].as_str().expect("a trace")));
    let kinds: Vec<&str> = trace.iter().filter_map(|l| l["kind"].as_str()).collect();
    let first_frame = kinds.iter().position(|k| *k == "frame");
    assert!(
        first_frame.is_some_and(|f| kinds.iter().position(|k| *k == "step") > Some(f)),
        "{kinds:?}"
    );

    // JUnit attaches it to the failed case.
    let xml = std::fs::read_to_string(&junit).expect("junit");
    assert!(
        xml.contains(&format!("<system-out>[[ATTACHMENT|{video}]]</system-out>")),
        "{xml}"
    );
    assert_eq!(xml.matches("[[ATTACHMENT|").count(), 1, "{xml}");

    // report.html, in Chromium, links it beside the trace, and it loads.
    let facts = shown(
        &out,
        "/report.html",
        "(async () => { const a = document.querySelector('a.video'); \
          const r = a && await fetch(a.href); \
          return JSON.stringify({href: a && a.getAttribute('href'), \
            type: r && r.headers.get('content-type'), bytes: r && (await r.arrayBuffer()).byteLength, \
            links: document.querySelectorAll('a.video').length}); })()",
    )
    .await;
    assert_eq!(facts["href"], "traces/desk-1.gif", "{facts}");
    assert_eq!(facts["links"], 1, "{facts}");
    let size = std::fs::metadata(video).expect("video").len();
    assert_eq!(facts["bytes"].as_u64(), Some(size), "{facts}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn video_without_the_traces_it_is_made_of_is_refused() {
    let shop = shop().await;
    let model = model(RequestLog::new(), false).await;
    let dir = scratch("video-refused");
    std::fs::write(dir.join("shop.yaml"), SUITE).expect("suite");
    let out = dir.join("out");
    for (args, says) in [
        (
            vec!["--video", "always", "--traces", "failed"],
            "keeps too few",
        ),
        (
            vec!["--video", "on-failure", "--traces", "off"],
            "keeps too few",
        ),
    ] {
        let mut command = rove_test(&shop, &model, &[dir.to_str().expect("utf-8")]);
        command.args(&args).arg("--out").arg(&out);
        let (status, said) = finished(command).await;
        assert_eq!(status, 2, "{args:?}: {said}");
        assert!(said.contains(says), "{args:?}: {said}");
    }
    let mut command = rove_test(&shop, &model, &[dir.to_str().expect("utf-8")]);
    command.args(["--video", "on-failure"]);
    let (status, said) = finished(command).await;
    assert_eq!(status, 2, "{said}");
    assert!(said.contains("--out"), "{said}");
    assert!(!out.exists(), "nothing ran");
    let _ = std::fs::remove_dir_all(&dir);
}
