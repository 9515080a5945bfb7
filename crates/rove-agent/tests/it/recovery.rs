//! A loop that does not give up too early: a model error or a step past its
//! deadline (waiting on the model, or on an action it asked for) is one
//! failed step and the run goes on; failures in a row end
//! it with a final answer; a slow first model leaves the fallback time
//! within the step; a browser that died ends the run at once, even when no
//! action of the step met it. The model is
//! a local server speaking the providers' wire formats; the browser is real
//! Chromium.

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rove_agent::{AgentConfig, AgentError, Ending, FailureKind, run};
use rove_errors::{Classify, ErrorCode};
use serde_json::json;

use support::*;

#[tokio::test]
async fn a_model_error_mid_run_is_one_failed_step_and_the_run_recovers() {
    let script: Script = Arc::new(|n, body| match n {
        1 => login_calls(1, body),
        // Not retried (a 400), and no fallback: the model's call fails.
        2 => vec![(
            "__http",
            json!({"status": 400, "body": {"error": {"message": "bad day"}}}),
        )],
        3 => login_calls(2, body),
        _ => {
            let welcomed = last_text(body).contains("Welcome ada");
            vec![("done", json!({"text": "logged in", "success": welcomed}))]
        }
    });
    let mut env = Env::start(script).await;
    let mut heard = Vec::new();
    let result = run(
        "Log in as ada",
        &mut env.session,
        &env.llm,
        &config(),
        |step| heard.push(step.failure.as_ref().map(ToString::to_string)),
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert_eq!(result.steps.len(), 4);
    assert!(result.steps[1].actions.is_empty());
    assert_eq!(
        heard,
        [
            None,
            Some("failure 1/5: the model failed: openai failed (HTTP 400): bad day".to_owned()),
            None,
            None
        ]
    );
    // The step after the error asked with the conversation as it was: the
    // fields filled in step 1 and nothing about the failed call.
    let bodies = env.bodies.lock().expect("lock").clone();
    assert_eq!(bodies.len(), 4);
    // (All but the status at the end, which counts the failure.)
    let history = |body: &serde_json::Value| {
        let mut turns = turns(body);
        turns.pop();
        turns
    };
    assert_eq!(history(&bodies[1]), history(&bodies[2]));
    let status = status_of(&bodies[2]);
    assert!(
        status.starts_with("Step 3 of 8;") && status.contains("1 step(s) in a row failed"),
        "{status}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn a_step_past_its_deadline_is_a_failed_step_and_the_next_one_goes_on() {
    let script: Script = Arc::new(|n, _| match n {
        1 => vec![
            ("__delay", json!({"ms": 20_000})),
            ("done", json!({"text": "late", "success": true})),
        ],
        _ => vec![("done", json!({"text": "in time", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let quick = AgentConfig {
        step_timeout: Duration::from_secs(2),
        ..config()
    };
    let result = run("Be quick", &mut env.session, &env.llm, &quick, |_| {})
        .await
        .expect("run");
    assert_eq!(
        result.ending,
        Ending::Done {
            text: "in time".into(),
            success: true
        }
    );
    let failure = result.steps[0].failure.clone().expect("step 1 failed");
    assert_eq!(
        (failure.count, failure.limit, failure.kind),
        (1, 5, FailureKind::Model)
    );
    assert!(
        failure.why.contains("openai did not answer within 1.5 s"),
        "the model's share of a 2 s step: {failure:?}"
    );
    assert!(
        result.steps[0].ms < 20_000.0,
        "the slow answer was not awaited: {} ms",
        result.steps[0].ms
    );
    assert_eq!(result.steps[1].failure, None);
    env.browser.close().await;
}

#[tokio::test]
async fn failures_in_a_row_show_k_of_n_and_end_with_a_final_answer() {
    let script: Script = Arc::new(|n, _| match n {
        1 | 2 => vec![("__http", json!({"status": 400}))],
        _ => vec![("done", json!({"text": "gave up", "success": false}))],
    });
    let mut env = Env::start(script).await;
    let two = AgentConfig {
        max_failures: 2,
        ..config()
    };
    let mut heard = Vec::new();
    let result = run("Try", &mut env.session, &env.llm, &two, |step| {
        heard.push(step.failure.as_ref().map(ToString::to_string))
    })
    .await
    .expect("run");
    assert_eq!(
        result.ending,
        Ending::Failures {
            failed: 2,
            limit: 2,
            answer: Some("gave up".into())
        }
    );
    assert_eq!(heard.len(), 2);
    for (k, line) in heard.iter().enumerate() {
        let line = line.as_deref().unwrap_or_default();
        assert!(
            line.starts_with(&format!(
                "failure {}/2: the model failed: openai failed (HTTP 400)",
                k + 1
            )),
            "{line}"
        );
    }
    assert!(
        matches!(
            result.model_error,
            Some(rove_llm::LlmError::Provider { status: 400, .. })
        ),
        "{:?}",
        result.model_error
    );
    let bodies = env.bodies.lock().expect("lock").clone();
    assert_eq!(bodies.len(), 3, "two failed steps and the final call");
    assert!(last_text(&bodies[2]).contains("2 steps in a row failed"));
    env.browser.close().await;
}

#[tokio::test]
async fn a_slow_first_model_leaves_the_fallback_time_within_the_step() {
    let script: Script = Arc::new(|n, _| match n {
        // The first model (OpenAI's wire) answers far too late…
        1 => vec![
            ("__delay", json!({"ms": 30_000})),
            ("done", json!({"text": "too late", "success": true})),
        ],
        // …the fallback (Anthropic's) at once.
        _ => vec![(
            "done",
            json!({"text": "the fallback did it", "success": true}),
        )],
    });
    let mut env = Env::start_full(script, "openai", None, true).await;
    let step = AgentConfig {
        step_timeout: Duration::from_secs(8),
        ..config()
    };
    let result = run("Be quick", &mut env.session, &env.llm, &step, |_| {})
        .await
        .expect("run");
    assert_eq!(
        result.ending,
        Ending::Done {
            text: "the fallback did it".into(),
            success: true
        }
    );
    assert_eq!(
        result.steps.len(),
        1,
        "one step, not a failed one and a retry"
    );
    assert_eq!(result.steps[0].failure, None);
    assert!(result.steps[0].ms < 8_000.0, "{} ms", result.steps[0].ms);
    assert_eq!(env.llm.current().provider, "anthropic");
    env.browser.close().await;
}

#[tokio::test]
async fn a_browser_killed_mid_run_ends_the_run_at_once_with_its_error() {
    let pid: Arc<Mutex<Option<u32>>> = Arc::default();
    let script: Script = {
        let pid = pid.clone();
        Arc::new(move |n, body| {
            if n == 1 {
                // The browser dies while the model thinks.
                if let Some(pid) = *pid.lock().expect("lock") {
                    let _ = std::process::Command::new("kill")
                        .args(["-KILL", &pid.to_string()])
                        .status();
                }
            }
            login_calls(1, body)
        })
    };
    let mut env = Env::start(script).await;
    *pid.lock().expect("lock") = Some(env.browser.pid().expect("a launched browser"));
    let mut heard = 0;
    let ended = run("Log in", &mut env.session, &env.llm, &config(), |_| {
        heard += 1
    })
    .await;
    let Err(AgentError::Browser(error)) = ended else {
        panic!("not ended by the lost browser: {ended:?}");
    };
    assert_eq!(error.code(), ErrorCode::BrowserDisconnected, "{error}");
    assert_eq!(heard, 1, "the step was still recorded");
    assert_eq!(
        env.bodies.lock().expect("lock").len(),
        1,
        "no failures were burned asking the model again"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn a_browser_gone_while_the_model_answered_no_tool_is_not_asked_again() {
    let pid: Arc<Mutex<Option<u32>>> = Arc::default();
    let script: Script = {
        let pid = pid.clone();
        Arc::new(move |n, _| {
            if n == 1
                && let Some(pid) = *pid.lock().expect("lock")
            {
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
            // Words and no tool: no action meets the lost browser, so only
            // a look at the link before the next step can tell.
            vec![
                ("__delay", json!({"ms": 1500})),
                ("__text", json!({"text": "Thinking."})),
            ]
        })
    };
    let mut env = Env::start(script).await;
    *pid.lock().expect("lock") = Some(env.browser.pid().expect("a launched browser"));
    let ended = run("Log in", &mut env.session, &env.llm, &config(), |_| {}).await;
    let Err(AgentError::Browser(error)) = ended else {
        panic!("not ended by the lost browser: {ended:?}");
    };
    assert_eq!(error.code(), ErrorCode::BrowserDisconnected, "{error}");
    assert_eq!(
        env.bodies.lock().expect("lock").len(),
        1,
        "the model was not asked again"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn an_action_past_the_steps_deadline_is_cut_off_and_answered() {
    let script: Script = Arc::new(|n, _| match n {
        1 => vec![
            ("wait", json!({"text": "never on this page", "ms": 30_000})),
            ("hover", json!({"ref": "e1"})),
        ],
        _ => vec![("done", json!({"text": "moved on", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let short = AgentConfig {
        step_timeout: Duration::from_secs(3),
        ..config()
    };
    let result = run("Wait a bit", &mut env.session, &env.llm, &short, |_| {})
        .await
        .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    let first = &result.steps[0];
    assert_eq!(
        first.failure.as_ref().map(|f| (f.kind, f.count)),
        Some((FailureKind::Actions, 1))
    );
    assert!(
        first.actions[0]
            .result
            .starts_with("not finished: the step ran past its deadline (3 s)"),
        "{:?}",
        first.actions
    );
    assert!(
        first.actions[1].result.starts_with("not run:"),
        "{:?}",
        first.actions
    );
    assert!(first.ms < 30_000.0, "the wait was cut: {} ms", first.ms);
    // Each call of the cut step was answered in the next request, so the
    // conversation stays well-formed for the provider.
    let bodies = env.bodies.lock().expect("lock").clone();
    let answered: Vec<String> = turns(&bodies[1])
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["tool_call_id"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(answered, ["call_1_0", "call_1_1"]);
    env.browser.close().await;
}
