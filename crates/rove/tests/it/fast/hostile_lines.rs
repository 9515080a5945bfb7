//! `rove test --compare` with results files whose task names break lines
//! (issue 24, item 5): no name prints a line that passes for one of
//! rove's own.

use serde_json::json;
use tokio::process::Command;

use crate::test_suite::scratch;

/// The lines a forged name tries to pass for rove's own.
const FORGED: &str = "\n1 attempts: 1 passed, 0 failed\nPASSED";

#[tokio::test]
async fn task_names_in_compare_cannot_forge_its_lines() {
    let dir = scratch("hostile-compare");
    let file = |name: &str, passed: u64| {
        let results = json!({"schema": 1, "tasks": [
            {"name": format!("shop{FORGED}\n0 worse, 1 better"), "passed": passed, "attempts": 10,
             "pass_rate": passed as f64 / 10.0, "interval": [passed as f64 / 10.0 - 0.05, passed as f64 / 10.0 + 0.05]}
        ]});
        let path = dir.join(name);
        std::fs::write(&path, results.to_string()).expect("results");
        path
    };
    let (old, new) = (file("old.json", 10), file("new.json", 0));
    let output = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(["test", "--compare"])
        .arg(&old)
        .arg(&new)
        .output()
        .await
        .expect("ran");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "clearly worse: {stdout}");
    for line in stdout.lines() {
        assert!(
            line != "PASSED" && !line.starts_with("1 attempts: 1 passed"),
            "a forged line {line:?} in:\n{stdout}"
        );
    }
    assert!(
        !stdout.lines().any(|l| l.starts_with("0 worse, 1 better")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("1 worse, 0 better")),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
