//! `rove run --judge-model` with the real binary: the agent's model and the
//! judge each behind a local server speaking OpenAI's wire format. The
//! judge's verdict is printed and kept in the history beside the agent's own
//! report; a disagreement is a divergence; `--judge-base-url` sends the
//! judge's call to its own server and none to the agent's; the judge gets
//! at most `--judge-screenshots` images; the agent's own model as judge is
//! warned about; a judge that fails leaves the run unjudged. Everything is
//! asserted after the run, from what the binary wrote and the servers saw.
//! A bad judge model, refused before anything runs: `crate::fast::run_judge`.

use std::time::Duration;

use rove_localserver::{LocalServer, Request, RequestLog, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

fn reply(call: Value) -> Response {
    let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 50, "completion_tokens": 5}});
    Response::with_type(200, "application/json", reply.to_string().into_bytes())
}

fn verdict(args: Value) -> Response {
    reply(
        json!({"id": "v1", "type": "function", "function": {"name": "verdict", "arguments": args.to_string()}}),
    )
}

fn pass() -> Response {
    verdict(
        json!({"reasoning": "The button says Gone.", "verdict": "pass", "failure_reason": "", "impossible_task": false, "reached_captcha": false}),
    )
}

/// Whether a request offered the judge's tool.
fn asks_for_verdict(body: &Value) -> bool {
    body["tools"]
        .as_array()
        .is_some_and(|t| t.iter().any(|t| t["function"]["name"] == "verdict"))
}

fn body(request: &Request) -> Value {
    serde_json::from_slice(&request.body).expect("json body")
}

/// The agent's model: clicks Go, then says done with success. Asked as a
/// judge (its request offers `verdict`), it says pass.
pub(crate) async fn agent_model(log: RequestLog) -> LocalServer {
    agent_model_answering(log, "pressed Go").await
}

/// The agent's model, whose final answer is `answer`.
async fn agent_model_answering(log: RequestLog, answer: &'static str) -> LocalServer {
    LocalServer::start(Routes::new().log_requests(log).handle("/v1/chat/completions", move |request: &Request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        if asks_for_verdict(&body) {
            return pass();
        }
        let acted = body["messages"].as_array().into_iter().flatten().any(|m| m["role"] == "assistant");
        if acted {
            return reply(json!({"id": "c2", "type": "function", "function": {"name": "done", "arguments": json!({"text": answer, "success": true}).to_string()}}));
        }
        let view = body["messages"][1]["content"].as_str().unwrap_or_default();
        let button = view
            .lines()
            .find(|l| l.contains("button \"Go\""))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or("e0")
            .to_owned();
        reply(json!({"id": "c1", "type": "function", "function": {"name": "click", "arguments": json!({"ref": button}).to_string()}}))
    }))
    .await
    .expect("agent model")
}

/// A judge's server answering every request with `answer`.
async fn judge_model(log: RequestLog, answer: Response) -> LocalServer {
    LocalServer::start(
        Routes::new()
            .log_requests(log)
            .page("/v1/chat/completions", answer),
    )
    .await
    .expect("judge model")
}

pub(crate) async fn pages() -> LocalServer {
    LocalServer::start(Routes::new().page(
        "/go",
        Response::html("<title>Go</title><button onclick=\"this.textContent='Gone'\">Go</button>"),
    ))
    .await
    .expect("pages")
}

/// `rove run "Press Go"` with the agent's model behind `agent` (as
/// OPENAI_BASE_URL), `extra` flags; exit status, stdout, stderr.
pub(crate) async fn rove_run(
    agent: &LocalServer,
    page: &str,
    extra: &[&str],
) -> (i32, String, String) {
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args([
                "run",
                "Press Go",
                "--model",
                "openai:scripted",
                "--start-url",
                page,
            ])
            .args(extra)
            .env("OPENAI_API_KEY", "sk-test")
            .env("OPENAI_BASE_URL", agent.url("/v1"))
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_MODEL"),
    )
    .await;
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn history_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("rove-judge-{name}-{}.json", std::process::id()))
}

fn read_history(path: &std::path::Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("history")).expect("json")
}

#[tokio::test]
async fn the_judge_on_its_own_endpoint_says_fail_and_the_divergence_is_reported() {
    let pages = pages().await;
    let agent_log = RequestLog::new();
    let agent = agent_model(agent_log.clone()).await;
    let judge_log = RequestLog::new();
    let judge = judge_model(
        judge_log.clone(),
        verdict(
            json!({"reasoning": "The page was never checked.", "verdict": "fail", "failure_reason": "the button still says Go", "impossible_task": false, "reached_captcha": false}),
        ),
    )
    .await;
    let history = history_path("fail");
    let (status, stdout, stderr) = rove_run(
        &agent,
        &pages.url("/go"),
        &[
            "--judge-model",
            "openai:judge",
            "--judge-base-url",
            &judge.url("/v1"),
            "--judge-screenshots",
            "2",
            "--history",
            history.to_str().expect("utf-8"),
        ],
    )
    .await;
    // The exit status stays the agent's report.
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("done: success"), "{stdout}");
    assert!(
        stderr.contains("judge openai:judge: fail — the button still says Go"),
        "{stderr}"
    );
    assert!(
        stderr.contains("divergence: the agent reports success, the judge says fail"),
        "{stderr}"
    );
    assert!(!stderr.contains("agent's own model"), "{stderr}");

    // The history keeps both: the agent's ending and the judge's verdict.
    let saved = read_history(&history);
    assert_eq!(saved["ending"]["reason"], "done");
    assert_eq!(saved["ending"]["success"], true);
    assert_eq!(saved["judge"]["verdict"], "fail");
    assert_eq!(saved["judge"]["failure_reason"], "the button still says Go");
    assert_eq!(saved["judge"]["model"], "openai:judge");
    assert_eq!(saved["divergence"], true);

    // --judge-base-url: the judge's server got the one judge call, the
    // agent's server none.
    let judged = judge_log.requests();
    assert_eq!(judged.len(), 1);
    let asked = body(&judged[0]);
    assert_eq!(asked["model"], "judge");
    assert!(asks_for_verdict(&asked));
    assert_eq!(asked["tool_choice"]["function"]["name"], "verdict");
    let agent_bodies: Vec<Value> = agent_log.requests().iter().map(body).collect();
    assert_eq!(agent_bodies.len(), 2, "two steps of the agent");
    assert!(agent_bodies.iter().all(|b| !asks_for_verdict(b)));

    // The judge read the steps, and saw 2 screenshots of the 3 there were
    // (two steps, then the final page), the final page last.
    let text = asked["messages"][1]["content"].as_str().expect("text");
    assert!(
        text.contains("Task given to the agent:\nPress Go"),
        "{text}"
    );
    assert!(text.contains("click {\"ref\":\"e"), "{text}");
    assert!(text.contains("final answer:\n  | pressed Go"), "{text}");
    assert!(
        text.contains(&format!("Final URL: {}", pages.url("/go"))),
        "{text}"
    );
    let captions: Vec<&str> = asked["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter_map(|m| m["content"].as_array())
        .filter(|parts| parts.iter().any(|p| p["type"] == "image_url"))
        .filter_map(|parts| parts[0]["text"].as_str())
        .collect();
    assert_eq!(
        captions,
        [
            "Screenshot 1 of 2, before step 2:",
            "Screenshot 2 of 2, at the end:"
        ]
    );
    std::fs::remove_file(&history).expect("cleanup");
    let _ = std::fs::remove_dir_all(history.with_extension("screens"));
}

#[tokio::test]
async fn the_agents_own_model_or_fallback_as_judge_is_warned_about() {
    let pages = pages().await;
    let agent_log = RequestLog::new();
    let agent = agent_model(agent_log.clone()).await;
    let (status, stdout, stderr) = rove_run(
        &agent,
        &pages.url("/go"),
        &["--judge-model", "openai:scripted"],
    )
    .await;
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    let warning = stderr
        .find("warning: the judge is the agent's own model (openai:scripted)")
        .unwrap_or_else(|| panic!("no warning: {stderr}"));
    let first_step = stderr.find("step 1:").expect("step 1 note");
    assert!(warning < first_step, "warned at start: {stderr}");
    assert!(
        stderr.contains("judge openai:scripted: pass — The button says Gone."),
        "{stderr}"
    );
    assert!(!stderr.contains("divergence"), "{stderr}");
    // Without --judge-base-url the judge went where its provider points:
    // here the agent's server, after the agent's two calls.
    let bodies: Vec<Value> = agent_log.requests().iter().map(body).collect();
    assert_eq!(bodies.len(), 3);
    assert!(asks_for_verdict(&bodies[2]));

    // The agent's fallback counts as its own model too.
    let (status, stdout, stderr) = rove_run(
        &agent,
        &pages.url("/go"),
        &[
            "--fallback-model",
            "openai:backup",
            "--judge-model",
            "openai:backup",
        ],
    )
    .await;
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("warning: the judge is the agent's own model (openai:backup)"),
        "{stderr}"
    );
}

#[tokio::test]
async fn a_judge_that_fails_leaves_the_run_unjudged() {
    let pages = pages().await;
    let agent = agent_model(RequestLog::new()).await;
    let judge_log = RequestLog::new();
    let judge = judge_model(judge_log.clone(), Response::status(500)).await;
    let history = history_path("unjudged");
    let (status, stdout, stderr) = rove_run(
        &agent,
        &pages.url("/go"),
        &[
            "--json",
            "--judge-model",
            "openai:judge",
            "--judge-base-url",
            &judge.url("/v1"),
            "--history",
            history.to_str().expect("utf-8"),
        ],
    )
    .await;
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(report["success"], true);
    assert_eq!(report["judge"]["verdict"], "unjudged");
    assert!(
        report["judge"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("judge's call failed")),
        "{report}"
    );
    assert_eq!(
        report["divergence"], false,
        "unjudged disagrees with nothing"
    );
    let saved = read_history(&history);
    assert_eq!(saved["judge"]["verdict"], "unjudged");
    assert_eq!(saved["ending"]["success"], true);
    assert!(judge_log.requests().len() > 1, "the 500 was retried");
    std::fs::remove_file(&history).expect("cleanup");
    let _ = std::fs::remove_dir_all(history.with_extension("screens"));
}

/// A model's words reach the person's terminal: an answer or a verdict a
/// page talked a model into may carry terminal escapes (an OSC 52 write to
/// the clipboard, a line erased to hide the divergence). None reaches the
/// terminal; the words around them do.
#[tokio::test]
async fn a_models_terminal_escapes_never_reach_the_terminal() {
    let pages = pages().await;
    let agent = agent_model_answering(
        RequestLog::new(),
        "pressed Go\u{1b}]52;c;cm0gLXJmIH4=\u{7}\u{1b}[2K\u{9b}1A",
    )
    .await;
    let judge = judge_model(
        RequestLog::new(),
        verdict(
            json!({"reasoning": "x", "verdict": "fail", "failure_reason": "not pressed\u{1b}[2K\r\u{1b}[1A", "impossible_task": false, "reached_captcha": false}),
        ),
    )
    .await;
    let (status, stdout, stderr) = rove_run(
        &agent,
        &pages.url("/go"),
        &[
            "--judge-model",
            "openai:judge",
            "--judge-base-url",
            &judge.url("/v1"),
        ],
    )
    .await;
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("pressed Go"), "{stdout}");
    assert!(stderr.contains("fail — not pressed"), "{stderr}");
    for (name, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        let bad: Vec<char> = text
            .chars()
            .filter(|c| c.is_control() && !matches!(c, '\n' | '\t'))
            .collect();
        assert!(bad.is_empty(), "{name} carries {bad:?}: {text:?}");
    }
}

#[tokio::test]
async fn ground_truth_and_the_judges_own_key_reach_the_judge_with_its_vetoes_and_its_cost_stays_apart()
 {
    let pages = pages().await;
    let agent_log = RequestLog::new();
    let agent = agent_model(agent_log.clone()).await;
    let judge_log = RequestLog::new();
    let judge = judge_model(judge_log.clone(), pass()).await;
    let prices =
        std::env::temp_dir().join(format!("rove-judge-prices-{}.json", std::process::id()));
    std::fs::write(
        &prices,
        r#"{"openai:scripted": {"input": 2.0, "output": 0.0}, "openai:judge": {"input": 1.0, "output": 10.0}}"#,
    )
    .expect("prices");
    let (status, stdout, stderr) = rove_run(
        &agent,
        &pages.url("/go"),
        &[
            "--json",
            "--prices",
            prices.to_str().expect("utf-8"),
            "--judge-model",
            "openai:judge",
            "--judge-base-url",
            &judge.url("/v1"),
            "--judge-api-key",
            "sk-judge-own",
            "--ground-truth",
            "The button reads Gone.",
        ],
    )
    .await;
    std::fs::remove_file(&prices).expect("cleanup");
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    // Each model's tokens at its own price: the agent's two steps of 50
    // tokens in, the judge's one call of 50 in and 5 out.
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    let cost = report["cost"].as_f64().expect("priced");
    let judge_cost = report["judge_cost"].as_f64().expect("judge priced");
    assert!((cost - 0.0002).abs() < 1e-12, "{report}");
    assert!((judge_cost - 0.0001).abs() < 1e-12, "{report}");
    let judged = judge_log.requests();
    assert_eq!(judged.len(), 1, "{stderr}");
    // The judge's key is its own; the agent keeps OPENAI_API_KEY.
    assert_eq!(
        judged[0].header("authorization"),
        Some("Bearer sk-judge-own")
    );
    assert!(
        agent_log
            .requests()
            .iter()
            .all(|r| r.header("authorization") == Some("Bearer sk-test"))
    );
    let asked = body(&judged[0]);
    let text = asked["messages"][1]["content"].as_str().expect("text");
    assert!(
        text.starts_with(
            "GROUND TRUTH (authoritative: where anything below disagrees, this wins):\nThe button reads Gone.\n\nTask given to the agent:\nPress Go"
        ),
        "{text}"
    );
    let system = asked["messages"][0]["content"].as_str().expect("system");
    for veto in [
        "a final answer that contradicts the ground truth fails",
        "an action the agent claims (in its answer or its thoughts) that the steps do not show it doing fails",
        "a captcha, bot check or login wall that stopped the task is never a pass: set reached_captcha for a captcha or bot check, impossible_task for a login the agent had no way through, and say fail",
    ] {
        assert!(system.contains(veto), "{veto} missing: {system}");
    }
}
