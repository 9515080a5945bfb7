//! `rove test`'s live progress: on a terminal (a pseudo-terminal from
//! util-linux's `script`, as a person's shell would give) a bar with
//! attempts done, running, not passed, tokens, elapsed and ETA is drawn on
//! stderr while the attempts' lines still come out; without a terminal
//! there is no bar, only the plain lines. Asserted after the runs.

use std::time::Duration;

use rove_localserver::{LocalServer, Request, Response, Routes};
use serde_json::json;
use tokio::process::Command;

async fn model() -> LocalServer {
    LocalServer::start(Routes::new().handle("/v1/chat/completions", |_: &Request| {
        let call = json!({"id": "c1", "type": "function", "function": {"name": "done", "arguments": json!({"text": "done", "success": true}).to_string()}});
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 10, "completion_tokens": 2}});
        Response::with_type(200, "application/json", reply.to_string().into_bytes())
    }))
    .await
    .expect("model")
}

#[tokio::test]
async fn a_terminal_gets_a_live_bar_and_a_pipe_gets_plain_lines() {
    let model = model().await;
    let dir = rove_testkit::scratch_dir("rove-test-progress");
    let file = dir.join("tasks.yaml");
    std::fs::write(
        &file,
        "- {name: a, task: Say done, repeat: 3, verify: [{answer: '^done$'}]}\n",
    )
    .expect("suite");
    let rove = env!("CARGO_BIN_EXE_rove");
    let command = format!(
        "stty cols 120 rows 40; {rove} test {} -j 2 --model openai:scripted --vision off",
        file.display()
    );
    let transcript = dir.join("tty.txt");
    let on_terminal = tokio::time::timeout(
        Duration::from_secs(120),
        Command::new("script")
            .args(["-qec", &command])
            .arg(&transcript)
            .env("TERM", "xterm")
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env_remove("ROVE_CDP_URL")
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("finished")
    .expect("script (util-linux) runs");
    assert_eq!(on_terminal.status.code(), Some(0));
    let shown = std::fs::read_to_string(&transcript).expect("transcript");
    assert!(shown.contains("/3 attempts · "), "no bar:\n{shown}");
    assert!(
        shown.contains("not passed") && shown.contains("ETA"),
        "{shown}"
    );
    assert!(
        shown.contains("[3/3] passed"),
        "the attempts' lines still show:\n{shown}"
    );
    assert!(shown.contains("PASSED"), "{shown}");

    let piped = Command::new(rove)
        .args(["test", file.to_str().expect("utf-8"), "-j", "2"])
        .args(["--model", "openai:scripted", "--vision", "off"])
        .env("OPENAI_API_KEY", "sk-test")
        .env("OPENAI_BASE_URL", model.url("/v1"))
        .env_remove("ROVE_CDP_URL")
        .kill_on_drop(true)
        .output()
        .await
        .expect("ran");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&piped.stdout),
        String::from_utf8_lossy(&piped.stderr),
    );
    assert!(stdout.contains("[3/3] passed"), "{stdout}");
    assert!(
        !stdout.contains("ETA") && !stderr.contains("ETA") && !stderr.contains('\u{1b}'),
        "no bar without a terminal:\n{stdout}\n{stderr}"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
