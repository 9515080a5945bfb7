//! `rove run --judge-model` refusing a bad judge model before the run
//! starts, so before any browser does.

use rove_localserver::RequestLog;
use serde_json::Value;

use crate::run_judge::{agent_model, pages, rove_run};

#[tokio::test]
async fn a_bad_judge_model_is_refused_before_the_run_starts() {
    let pages = pages().await;
    let agent_log = RequestLog::new();
    let agent = agent_model(agent_log.clone()).await;
    let (status, stdout, _) = rove_run(
        &agent,
        &pages.url("/go"),
        &["--json", "--judge-model", "nope:judge"],
    )
    .await;
    assert_eq!(status, 2, "{stdout}");
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(report["error"]["code"], "COMMAND_REJECTED");
    assert!(
        report["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("--judge-model: unknown provider")),
        "{report}"
    );
    assert!(agent_log.requests().is_empty(), "the agent never started");
}

#[tokio::test]
async fn bad_history_and_trace_paths_are_refused_before_the_run_starts() {
    let pages = pages().await;
    let agent_log = RequestLog::new();
    let agent = agent_model(agent_log.clone()).await;
    let dir = std::env::temp_dir().join(format!("rove-run-bad-paths-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").expect("a regular file");
    let folder = dir.to_str().expect("utf-8").to_owned();
    let under_file = format!("{}/trace.jsonl", file.display());
    // A folder as the history ran everything, then failed INTERNAL (exit
    // 70); a trace under a file exited 0 with a warning.
    for (flag, path, said) in [
        (
            "--history",
            folder.as_str(),
            "is a folder, not a regular file",
        ),
        ("--trace", under_file.as_str(), "Not a directory"),
    ] {
        let (status, stdout, _) =
            rove_run(&agent, &pages.url("/go"), &["--json", flag, path]).await;
        assert_eq!(status, 2, "{flag}: {stdout}");
        let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
        assert_eq!(report["error"]["code"], "COMMAND_REJECTED");
        let message = report["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with(&format!("{flag} {path}")) && message.contains(said),
            "{report}"
        );
    }
    assert!(agent_log.requests().is_empty(), "the agent never started");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
