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
