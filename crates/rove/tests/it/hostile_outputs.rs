//! What `rove test --out` and `rove trace show` leave on disk (issue 37,
//! items 5, 22 and 23), with the real binary and real Chromium: every
//! page that shows a trace or an attempt (`report.html`, `traces/*.html`,
//! `trace show`'s page) and every history is its owner's alone, as the
//! traces beside them are; `trace show` never writes through a link
//! planted at its output path; and a run that passes removes only the
//! trace it wrote, never the one an earlier run left in the same place.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use rove_localserver::{LocalServer, Routes};
use tokio::process::Command;

use crate::support::suite::done;

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// `rove test` of one task `t` whose answer must match `answer`, into
/// `out`, keeping only failed attempts' traces (the default).
async fn rove_test(dir: &Path, model: &LocalServer, answer: &str) -> std::process::Output {
    let suite = dir.join("suite.yaml");
    std::fs::write(
        &suite,
        format!("- {{name: t, task: 'Answer done', verify: [{{answer: '{answer}'}}]}}\n"),
    )
    .expect("suite");
    crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .arg("test")
            .arg(&suite)
            .args(["--model", "openai:scripted", "--vision", "off", "--out"])
            .arg(dir.join("out"))
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_MODEL"),
    )
    .await
}

#[tokio::test]
async fn pages_of_traces_are_private_never_follow_a_link_and_an_earlier_runs_trace_stays() {
    let model = LocalServer::start(Routes::new().page("/v1/chat/completions", done()))
        .await
        .expect("model");
    let dir = rove_testkit::scratch_dir("hostile-outputs");
    let out = dir.join("out");

    // A failed attempt: its trace and its page are kept.
    let failed = rove_test(&dir, &model, "^nope$").await;
    assert_eq!(failed.status.code(), Some(1), "{failed:?}");
    let trace = out.join("traces").join("t-1.trace");
    let page = trace.with_extension("html");
    let history = out.join("attempts").join("t-1.json");
    for private in [&trace, &page, &history, &out.join("report.html")] {
        assert_eq!(mode(private), 0o600, "{}", private.display());
    }
    let earlier = std::fs::read(&trace).expect("trace");

    // The same attempt passes: the run writes no trace for it, and the
    // failure the earlier run kept stays as it was.
    let passed = rove_test(&dir, &model, "^done$").await;
    assert_eq!(passed.status.code(), Some(0), "{passed:?}");
    assert_eq!(std::fs::read(&trace).expect("kept"), earlier);
    assert!(page.exists(), "the earlier page stays");
    let leftovers: Vec<String> = std::fs::read_dir(out.join("traces"))
        .expect("traces")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // `trace show`: its page is private; a link planted where it writes
    // is refused and its target left as it was.
    let shown = dir.join("shown.html");
    let output = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(["trace", "show"])
        .arg(&trace)
        .arg("-o")
        .arg(&shown)
        .output()
        .await
        .expect("ran");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(mode(&shown), 0o600);
    let target = dir.join("bashrc");
    std::fs::write(&target, "kept").expect("target");
    let link = dir.join("link.html");
    std::os::unix::fs::symlink(&target, &link).expect("link");
    let beside = out.join("traces").join("t-1.html");
    std::fs::remove_file(&beside).expect("page");
    std::os::unix::fs::symlink(&target, &beside).expect("link beside");
    for args in [vec!["-o".to_owned(), link.display().to_string()], vec![]] {
        let output = Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["trace", "show"])
            .arg(&trace)
            .args(&args)
            .output()
            .await
            .expect("ran");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("a symbolic link"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&target).expect("target"), "kept");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
