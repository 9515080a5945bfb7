//! `rove run --headed --captcha-wait` with the real binary, its browser in
//! a window on the test desktop's display: a challenge on the page is left
//! to the person at the window, waited for up to the flag's seconds (a
//! person who solves it in time: the run goes on and the history says who
//! solved it; nobody: the run ends on it when the wait is over), and no
//! model step is spent on it. Asserted after the run from the binary's exit,
//! stderr and history.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rove_localserver::{LocalServer, Request, RequestLog, Response, Routes};
use serde_json::Value;
use tokio::process::Command;

use crate::support::suite::done_model;

struct Ran {
    status: Option<i32>,
    stderr: String,
    history: Value,
    took: Duration,
}

/// `rove run --headed --captcha-wait WAIT` on `page` with no solver plugin.
/// The moment rove's stderr asks a person to solve a challenge, `asked` is
/// set (the page's person acts on it).
async fn headed_run(
    name: &str,
    page: &str,
    wait: &str,
    agent: &LocalServer,
    asked: Arc<AtomicBool>,
) -> Ran {
    use tokio::io::AsyncBufReadExt;
    let dir = rove_testkit::scratch_dir(name);
    let history = dir.join("history.json");
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(["--headed", "--plugins"])
        .arg(dir.join("no-plugins"))
        .args([
            "run",
            "Sign up",
            "--model",
            "openai:scripted",
            "--captcha-wait",
            wait,
        ])
        .args(["--start-url", page, "--history"])
        .arg(&history)
        .env("OPENAI_API_KEY", "sk-test")
        .env("OPENAI_BASE_URL", agent.url("/v1"))
        .env_remove("ROVE_CDP_URL")
        .env_remove("ROVE_MODEL")
        .env_remove("ROVE_PLUGINS")
        // The ask must come from the run's own line, not from a log.
        .env_remove("RUST_LOG")
        .env_remove("ROVE_LOG")
        .env_remove("ROVE_LOG_FILE")
        .env_remove("ROVE_LOG_DIR")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("rove starts");
    let stderr = child.stderr.take().expect("stderr");
    let read = async {
        let mut lines = tokio::io::BufReader::new(stderr).lines();
        let mut all = String::new();
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("please solve it in the browser window") {
                asked.store(true, Ordering::SeqCst);
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    };
    let (stderr, status) = tokio::time::timeout(Duration::from_secs(120), async {
        tokio::join!(read, child.wait())
    })
    .await
    .expect("rove finished within 120 s");
    let took = started.elapsed();
    let written =
        std::fs::read(&history).unwrap_or_else(|e| panic!("no history ({e}); stderr:\n{stderr}"));
    Ran {
        status: status.ok().and_then(|s| s.code()),
        history: serde_json::from_slice(&written).expect("history is JSON"),
        stderr,
        took,
    }
}

#[tokio::test]
async fn a_person_at_the_window_solves_the_challenge_within_the_wait() {
    // The person comes when rove asks for one, a second later.
    let asked = Arc::new(AtomicBool::new(false));
    let asked_at = Arc::new(std::sync::Mutex::new(None::<Instant>));
    let person = {
        let asked = asked.clone();
        move |_: &Request| {
            let mut at = asked_at.lock().expect("lock");
            if asked.load(Ordering::SeqCst)
                && at.get_or_insert_with(Instant::now).elapsed() >= Duration::from_secs(1)
            {
                return Response::text("go");
            }
            Response::text("not yet")
        }
    };
    let pages = LocalServer::start(rove_testkit::challenge_routes(
        Routes::new().handle("/person", person),
    ))
    .await
    .expect("pages");
    let log = RequestLog::new();
    let model = done_model(log.clone()).await;
    let ran = headed_run(
        "headed-person",
        &pages.url("/recaptcha-by-hand.html"),
        "30",
        &model,
        asked,
    )
    .await;
    assert_eq!(ran.status, Some(0), "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("please solve it in the browser window; rove waits up to 30 s"),
        "one line asks the person: {}",
        ran.stderr
    );
    let met = &ran.history["challenges"][0];
    assert_eq!(met["kind"], "recaptcha-v2", "{met}");
    assert_eq!(met["solved_by"], "person", "{met}");
    assert!(met["seconds"].as_f64().unwrap_or(0.0) >= 1.0, "{met}");
    assert_eq!(ran.history["ending"]["reason"], "done");
    assert_eq!(log.requests().len(), 1, "one model step, after the wait");
}

#[tokio::test]
async fn nobody_at_the_window_ends_the_run_when_the_wait_is_over() {
    let pages = LocalServer::start(rove_testkit::challenge_routes(Routes::new()))
        .await
        .expect("pages");
    let log = RequestLog::new();
    let model = done_model(log.clone()).await;
    let asked = Arc::new(AtomicBool::new(false));
    let ran = headed_run(
        "headed-nobody",
        &pages.url("/recaptcha.html"),
        "2",
        &model,
        asked.clone(),
    )
    .await;
    assert!(asked.load(Ordering::SeqCst), "{}", ran.stderr);
    assert_ne!(ran.status, Some(0), "{}", ran.stderr);
    assert_eq!(ran.history["ending"]["reason"], "challenge");
    let why = ran.history["ending"]["why"].as_str().unwrap_or_default();
    assert_eq!(why, "no one solved it in the browser window within 2 s");
    let met = &ran.history["challenges"][0];
    assert!(met["solved_by"].is_null(), "{met}");
    let waited = met["seconds"].as_f64().unwrap_or(0.0);
    assert!((2.0..20.0).contains(&waited), "waited {waited} s: {met}");
    assert!(ran.took < Duration::from_secs(60), "{:?}", ran.took);
    assert!(log.requests().is_empty(), "the model was asked");
}
