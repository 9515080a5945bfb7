//! `rove run --judge-model` refusing a bad judge model before the run
//! starts, so before any browser does; a missing key named by the flag
//! of the model that lacks it (`--api-key`, `--fallback-api-key`,
//! `--judge-api-key`, the last for `rove test` too); waits in seconds that
//! are not (`--step-timeout`, `--captcha-wait`).

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

/// Seconds that are not seconds (0 for a step, a negative or NaN wait for
/// a person to solve a challenge) are refused before the run starts; a
/// wait of 0 for the person was taken before as the default of minutes.
#[tokio::test]
async fn waits_that_are_not_seconds_are_refused_before_the_run_starts() {
    let pages = pages().await;
    let agent_log = RequestLog::new();
    let agent = agent_model(agent_log.clone()).await;
    for (given, said) in [
        (
            "--step-timeout=0",
            "--step-timeout 0 is not a number of seconds above 0",
        ),
        (
            "--captcha-wait=-1",
            "--captcha-wait -1 is not a number of seconds 0 or more",
        ),
        (
            "--captcha-wait=NaN",
            "--captcha-wait NaN is not a number of seconds 0 or more",
        ),
    ] {
        let (status, stdout, _) = rove_run(&agent, &pages.url("/go"), &["--json", given]).await;
        assert_eq!(status, 2, "{given}: {stdout}");
        let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
        assert_eq!(report["error"]["code"], "COMMAND_REJECTED", "{given}");
        assert_eq!(report["error"]["message"], said, "{given}");
    }
    assert!(agent_log.requests().is_empty(), "the agent never started");
}

/// `rove ARGS` with no Mistral key anywhere: exit status and stdout.
async fn without_mistral_key(args: &[&str]) -> (i32, String) {
    let output = crate::support::finished(
        std::time::Duration::from_secs(60),
        tokio::process::Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(args)
            .env("OPENAI_API_KEY", "sk-test")
            .env_remove("MISTRAL_API_KEY")
            .env_remove("ROVE_MODEL")
            .env_remove("ROVE_CDP_URL"),
    )
    .await;
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[tokio::test]
async fn a_missing_key_names_the_flag_of_the_model_that_lacks_it() {
    let task = std::env::temp_dir().join(format!("rove-key-flags-{}.yaml", std::process::id()));
    std::fs::write(&task, "name: go\ntask: Press Go\n").expect("task file");
    let task_path = task.to_str().expect("utf-8");
    let run = ["run", "Press Go", "--json", "--model", "openai:agent"];
    let cases: [(Vec<&str>, &str); 4] = [
        (
            vec!["run", "Press Go", "--json", "--model", "mistral:m"],
            "mistral needs a key: set MISTRAL_API_KEY (or pass it with --api-key)",
        ),
        (
            [&run[..], &["--fallback-model", "mistral:m"]].concat(),
            "--fallback-model: mistral needs a key: set MISTRAL_API_KEY (or pass it with --fallback-api-key)",
        ),
        (
            [&run[..], &["--judge-model", "mistral:m"]].concat(),
            "--judge-model: mistral needs a key: set MISTRAL_API_KEY (or pass it with --judge-api-key)",
        ),
        (
            vec![
                "test",
                task_path,
                "--json",
                "--model",
                "openai:agent",
                "--judge-model",
                "mistral:m",
            ],
            "--judge-model: mistral needs a key: set MISTRAL_API_KEY (or pass it with --judge-api-key)",
        ),
    ];
    for (args, message) in cases {
        let (status, stdout) = without_mistral_key(&args).await;
        assert_eq!(status, 2, "{args:?}: {stdout}");
        let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
        assert_eq!(report["error"]["code"], "COMMAND_REJECTED", "{report}");
        assert_eq!(report["error"]["message"], message, "{args:?}");
    }
    std::fs::remove_file(&task).expect("cleanup");
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
