//! `rove run --gif` (and `--trace-screencast`, whose frames its trace
//! holds) and `rove trace export --gif` with the real binary, a
//! scripted model (OpenAI's wire format on 127.0.0.1) and real Chromium: a
//! frame per step and one for the answer, each the page with text written
//! on it; the same from the run's trace; the output path judged as every
//! output's is (a FIFO, a link refused; an existing file replaced); a
//! missing font or no font a typed error; WebM refused with its reason.

use crate::support;

use std::path::Path;
use std::time::Duration;

use rove_localserver::{LocalServer, Response, Routes};
use support::scratch;
use tokio::process::Command;

/// Each frame of a GIF as RGBA, and the GIF's size.
fn frames_of(path: &Path) -> (u16, u16, Vec<Vec<u8>>) {
    let file = std::fs::File::open(path).expect("the GIF");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(file).expect("a GIF");
    let (w, h) = (decoder.width(), decoder.height());
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        assert_eq!((frame.width, frame.height), (w, h), "a whole frame");
        frames.push(frame.buffer.to_vec());
    }
    (w, h, frames)
}

/// How many pixels of the rows `rows` are the caption's colour (a warm
/// yellow on the dark band): text was written there.
fn text_pixels(frame: &[u8], width: u16, rows: std::ops::Range<usize>) -> usize {
    let w = usize::from(width);
    rows.flat_map(|y| (0..w).map(move |x| (y * w + x) * 4))
        .filter(|&at| frame[at] > 200 && frame[at + 1] > 170 && frame[at + 2] < 170)
        .count()
}

async fn rove(args: &[&std::ffi::OsStr]) -> std::process::Output {
    support::finished(
        Duration::from_secs(60),
        Command::new(env!("CARGO_BIN_EXE_rove")).args(args),
    )
    .await
}

#[tokio::test]
async fn a_run_leaves_a_gif_of_its_steps_and_its_trace_exports_the_same() {
    let pages = LocalServer::start(Routes::new().page(
        "/go",
        Response::html("<title>Go</title><button onclick=\"this.textContent='Gone'\">Go</button>"),
    ))
    .await
    .expect("pages");
    let model = crate::trace::model().await;
    let dir = scratch("run-gif");
    let gif_path = dir.join("run.gif");
    let trace = dir.join("run.trace");
    let output = support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["run", "Press Go", "--model", "openai:scripted"])
            .args(["--start-url", &pages.url("/go")])
            .arg("--gif")
            .arg(&gif_path)
            .arg("--trace")
            .arg(&trace)
            .arg("--trace-screenshots")
            .arg("--trace-screencast")
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_LOG"),
    )
    .await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("wrote ") && stderr.contains("4 frames"),
        "{stderr}"
    );

    // Three steps and the answer; the page in each, text under it.
    let (w, h, frames) = frames_of(&gif_path);
    assert_eq!(frames.len(), 4);
    assert_eq!(w, 800);
    let bottom = usize::from(h) - 40..usize::from(h);
    for (i, frame) in frames.iter().enumerate() {
        assert!(
            text_pixels(frame, w, bottom.clone()) > 50,
            "frame {i} has no caption"
        );
        // The page (white, with its button) fills the middle.
        let middle = (usize::from(h) / 2 * usize::from(w) + 400) * 4;
        assert!(frame[middle] > 200, "frame {i} shows no page");
    }
    // The trace holds the page's screencast: frames come before the step
    // they came up to, and the first before step 1 (the start page).
    let lines = support::trace_lines(&trace);
    let kinds: Vec<&str> = lines.iter().filter_map(|l| l["kind"].as_str()).collect();
    let first_frame = kinds
        .iter()
        .position(|k| *k == "frame")
        .expect("a frame line");
    let first_step = kinds
        .iter()
        .position(|k| *k == "step")
        .expect("a step line");
    assert!(first_frame < first_step, "{kinds:?}");
    for frame in lines.iter().filter(|l| l["kind"] == "frame") {
        assert!(
            frame["image"]
                .as_str()
                .is_some_and(|i| i.starts_with("data:image/jpeg;base64,")),
            "{}",
            frame["at"]
        );
    }
    run_filmstrip_shown(&trace, &lines).await;
    // The last frame says something else than the steps: the answer.
    assert_ne!(frames[3], frames[2]);
    assert!(
        !dir.join("run.screens").exists()
            || std::fs::read_dir(dir.join("run.screens"))
                .map(|d| d.count())
                .unwrap_or(0)
                == 0,
        "screenshots kept only for the GIF and trace are removed"
    );

    exports_of(&dir, &trace).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// `rove trace export` of the run's trace: the same frames; an existing
/// file replaced; a named pipe or a link refused untouched; a missing font
/// or no font a typed error; WebM refused.
async fn exports_of(dir: &Path, trace: &Path) {
    // The trace exports to a GIF of the same frames.
    let exported = dir.join("exported.gif");
    let done = rove(&[
        "trace".as_ref(),
        "export".as_ref(),
        trace.as_os_str(),
        "--gif".as_ref(),
        exported.as_os_str(),
    ])
    .await;
    assert_eq!(done.status.code(), Some(0), "{done:?}");
    assert_eq!(frames_of(&exported).2.len(), 4);

    // An existing file is replaced.
    std::fs::write(&exported, b"old").expect("old file");
    let again = rove(&[
        "trace".as_ref(),
        "export".as_ref(),
        trace.as_os_str(),
        "--gif".as_ref(),
        exported.as_os_str(),
    ])
    .await;
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    assert_eq!(frames_of(&exported).2.len(), 4);

    // A named pipe is refused at once, untouched; so is a link.
    let fifo = dir.join("pipe.gif");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let refused = rove(&[
        "trace".as_ref(),
        "export".as_ref(),
        trace.as_os_str(),
        "--gif".as_ref(),
        fifo.as_os_str(),
    ])
    .await;
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("named pipe"),
        "{refused:?}"
    );
    let target = dir.join("elsewhere.txt");
    std::fs::write(&target, b"keep me").expect("target");
    let link = dir.join("link.gif");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let linked = rove(&[
        "trace".as_ref(),
        "export".as_ref(),
        trace.as_os_str(),
        "--gif".as_ref(),
        link.as_os_str(),
    ])
    .await;
    assert_eq!(linked.status.code(), Some(2), "{linked:?}");
    assert_eq!(std::fs::read(&target).expect("target"), b"keep me");

    // A font that is missing or is no font: a typed error naming it.
    for (font, says) in [
        (dir.join("missing.ttf"), "no font to write on the frames"),
        (trace.to_path_buf(), "not a TrueType or OpenType font"),
    ] {
        let output = support::finished(
            Duration::from_secs(60),
            Command::new(env!("CARGO_BIN_EXE_rove"))
                .args(["trace", "export"])
                .arg(trace)
                .arg("--gif")
                .arg(dir.join("fontless.gif"))
                .env("ROVE_FONT", &font),
        )
        .await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(says) && stderr.contains(&*font.to_string_lossy()),
            "{stderr}"
        );
    }

    // WebM: refused, saying why.
    let webm = rove(&[
        "trace".as_ref(),
        "export".as_ref(),
        trace.as_os_str(),
        "--webm".as_ref(),
        dir.join("run.webm").as_os_str(),
    ])
    .await;
    assert_eq!(webm.status.code(), Some(2), "{webm:?}");
    assert!(
        String::from_utf8_lossy(&webm.stderr).contains("system codec"),
        "{webm:?}"
    );
}

/// The run's trace page, in Chromium: a figure and a tick per frame kept,
/// each step's frame marked and linked from the step.
async fn run_filmstrip_shown(trace: &Path, lines: &[serde_json::Value]) {
    let frames = lines.iter().filter(|l| l["kind"] == "frame").count();
    let facts = support::trace_page_shown(
        trace,
        "JSON.stringify({figures: document.querySelectorAll('.frames figure').length, \
          ticks: document.querySelectorAll('nav.strip a.tick').length, \
          marked: [...document.querySelectorAll('nav.strip a.tick.act')].map(a => a.textContent), \
          linked: [...document.querySelectorAll('section.step a.to-frame')].map(a => a.getAttribute('href')), \
          dots: [...document.querySelectorAll('.frames .dot')].map(d => d.title), \
          decoded: [...document.querySelectorAll('.frames img')].filter(i => i.complete && i.naturalWidth > 0).length})",
    )
    .await;
    assert_eq!(facts["figures"], frames, "{facts}");
    assert_eq!(facts["ticks"], frames, "{facts}");
    assert_eq!(facts["decoded"], frames, "{facts}");
    // Every step came after a frame (the start page's at least).
    assert_eq!(facts["linked"].as_array().map(Vec::len), Some(3), "{facts}");
    assert!(
        facts["marked"]
            .as_array()
            .is_some_and(|m| !m.is_empty() && m.len() <= 3),
        "{facts}"
    );
    // Step 2 clicked Go: its line says where, and its frame shows the point.
    let clicked = lines
        .iter()
        .find(|l| l["kind"] == "step" && l["number"] == 2)
        .map(|l| l["actions"][0]["pointer"].clone())
        .expect("step 2");
    assert!(
        clicked
            .as_array()
            .is_some_and(|p| p.len() == 2 && p.iter().all(|c| c.as_f64().is_some_and(|c| c > 0.0))),
        "{clicked}"
    );
    assert!(
        facts["dots"].as_array().is_some_and(|d| d.len() == 1
            && d[0]
                .as_str()
                .is_some_and(|t| t.starts_with("step 2 (click)"))),
        "{facts}"
    );
}
