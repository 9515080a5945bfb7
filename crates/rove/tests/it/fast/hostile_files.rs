//! Files the environment names, planted as a FIFO or `/dev/zero` (issue
//! 37, items 11 to 13), without a browser: a service account's key
//! (`GOOGLE_APPLICATION_CREDENTIALS`), AWS's shared files
//! (`AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE`), a CA bundle
//! (`--cdp-ca`, `ROVE_CDP_CA`) and a log file (`ROVE_LOG_FILE`). Opening
//! a FIFO without a writer waited for ever (and held off SIGTERM); reading
//! `/dev/zero` grew without end. Each is refused at once, naming the file
//! and what it is.

use std::path::Path;
use std::time::{Duration, Instant};

use tokio::process::Command;

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

/// rove with `args` and `env`, which must end within 20 s.
async fn ends(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
    command
        .args(args)
        .env_remove("ROVE_CDP_URL")
        .env_remove("ROVE_MODEL")
        .env_remove("ROVE_LOG_FILE")
        .env_remove("ROVE_LOG_DIR")
        .env("ROVE_BROWSER", "/nonexistent/chromium")
        .kill_on_drop(true);
    for (name, value) in env {
        command.env(name, value);
    }
    let started = Instant::now();
    let output = tokio::time::timeout(Duration::from_secs(20), command.output())
        .await
        .unwrap_or_else(|_| panic!("{args:?} {env:?} did not end within 20 s"))
        .expect("ran");
    assert!(started.elapsed() < Duration::from_secs(20));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code(), said)
}

#[tokio::test]
async fn credential_ca_and_log_files_that_are_a_fifo_or_a_device_are_refused_at_once() {
    let dir = rove_testkit::scratch_dir("hostile-env-files");
    let pipe = dir.join("pipe");
    mkfifo(&pipe);
    let pipe = pipe.display().to_string();
    for named in [pipe.as_str(), "/dev/zero"] {
        // The model's credentials: set up before anything starts.
        let run = ["run", "go", "--max-steps", "1"];
        for (model, env) in [
            ("vertex:m", vec![("GOOGLE_APPLICATION_CREDENTIALS", named)]),
            (
                "bedrock:m",
                vec![
                    ("AWS_SHARED_CREDENTIALS_FILE", named),
                    ("AWS_REGION", "us-east-1"),
                ],
            ),
            (
                "bedrock:m",
                vec![("AWS_CONFIG_FILE", named), ("HOME", "/nonexistent")],
            ),
        ] {
            let mut args = run.to_vec();
            args.extend(["--model", model]);
            let (status, said) = ends(&args, &env).await;
            assert_eq!(status, Some(2), "{model} {env:?}: {said}");
            assert!(said.contains(named), "{model} {env:?}: {said}");
            assert!(
                said.contains("not a regular file"),
                "{model} {env:?}: {said}"
            );
        }
        // The browser's CA bundle, by flag and by variable.
        for (args, env) in [
            (
                vec![
                    "doctor",
                    "--cdp-url",
                    "https://127.0.0.1:9",
                    "--cdp-ca",
                    named,
                ],
                vec![],
            ),
            (
                vec!["doctor", "--cdp-url", "https://127.0.0.1:9"],
                vec![("ROVE_CDP_CA", named)],
            ),
        ] {
            let (status, said) = ends(&args, &env).await;
            assert_eq!(status, Some(2), "{args:?} {env:?}: {said}");
            assert!(
                said.contains("--cdp-ca") && said.contains("not a regular file"),
                "{said}"
            );
        }
        // The log file: doctor says what it finds at once, and the log's
        // problem with it.
        let (status, said) = ends(&["doctor"], &[("ROVE_LOG_FILE", named)]).await;
        assert_eq!(status, Some(6), "{said}");
        assert!(said.contains("FAIL find browser"), "{said}");
        assert!(
            said.contains(named) && said.contains("not a regular file"),
            "{said}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
