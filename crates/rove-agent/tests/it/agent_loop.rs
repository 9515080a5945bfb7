//! The agent loop against a local server that speaks OpenAI's Chat
//! Completions wire format and plays a scripted model (it reads the views
//! in the requests to pick refs, as a model would), on fixture pages served
//! on 127.0.0.1 in real Chromium.

use crate::support;

use std::sync::{Arc, Mutex};

use rove_agent::{AgentConfig, Ending, run};
use rove_commands::{Command, OpenArgs, Session, SessionConfig};
use serde_json::json;

use support::*;

#[tokio::test]
async fn a_multi_step_login_completes() {
    let script: Script = login_script();
    let mut env = Env::start(script).await;
    let result = run(
        "Log in as ada",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert_eq!(result.steps.len(), 3);
    assert_eq!(result.usage.input, 300);
    let bodies = env.bodies.lock().expect("lock").clone();
    let first = bodies[0]["messages"][1]["content"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        first.contains("Task: Log in as ada") && first.contains("button \"Log in\""),
        "{first}"
    );
    assert!(
        bodies[0]["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["function"]["name"] == "done"))
    );
    env.browser.close().await;
}

#[tokio::test]
async fn invalid_arguments_go_back_to_the_model_which_corrects_them() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![(
            "click",
            json!({"target": ref_in(body, "button \"Log in\"")}),
        )],
        2 => vec![("click", json!({"ref": ref_in(body, "button \"Log in\"")}))],
        _ => vec![("done", json!({"text": "clicked", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let result = run(
        "Press log in",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert!(result.steps[0].actions[0].failed);
    assert!(!result.steps[1].actions[0].failed);
    // The call that never ran has no time split; the click that ran has
    // one whose parts add up to its total.
    assert_eq!(result.steps[0].actions[0].timing, None);
    let t = result.steps[1].actions[0]
        .timing
        .expect("the click's split");
    assert!(t.total_ms > 0.0 && t.cdp_ms > 0.0, "{t:?}");
    assert!(
        (t.cdp_ms + t.settle_ms + t.rove_ms - t.total_ms).abs() < 0.2,
        "{t:?}"
    );
    // What the model was told before its second try (checked here, after
    // the run: a panic in the fake model's handler would only look like a
    // dropped connection, retried).
    let told = last_text(&env.bodies.lock().expect("lock")[1]);
    assert!(told.contains("invalid arguments for click"), "{told}");
    env.browser.close().await;
}

#[tokio::test]
async fn consecutive_failures_end_the_run_with_the_count() {
    let script: Script = Arc::new(|n, _| {
        if n <= 3 {
            vec![("click", json!({"ref": "e999"}))]
        } else {
            vec![("done", json!({"text": "gave up", "success": false}))]
        }
    });
    let mut env = Env::start(script).await;
    let three = AgentConfig {
        max_failures: 3,
        ..config()
    };
    let result = run(
        "Click something gone",
        &mut env.session,
        &env.llm,
        &three,
        |_| {},
    )
    .await
    .expect("run");
    assert!(
        matches!(
            &result.ending,
            Ending::Failures {
                failed: 3,
                limit: 3,
                ..
            }
        ),
        "{:?}",
        result.ending
    );
    assert!(result.steps[0].actions[0].result.contains("REF_NOT_FOUND"));
    // A command that ran and failed keeps its split too.
    assert!(result.steps[0].actions[0].timing.is_some());
    let shown: Vec<String> = result
        .steps
        .iter()
        .filter_map(|s| s.failure.as_ref().map(ToString::to_string))
        .collect();
    assert_eq!(
        shown,
        ["1/3", "2/3", "3/3"].map(|k| format!("failure {k}: every action failed"))
    );
    // The one call after the limit asked for a final answer.
    let bodies = env.bodies.lock().expect("lock").clone();
    assert_eq!(bodies.len(), 4, "three failed steps and the final call");
    let told = last_text(&bodies[3]);
    assert!(told.contains("3 steps in a row failed"), "{told}");
    env.browser.close().await;
}

#[tokio::test]
async fn a_navigation_ends_the_sequence_of_calls() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![
            ("click", json!({"ref": ref_in(body, "link \"Elsewhere\"")})),
            ("click", json!({"ref": ref_in(body, "button \"Log in\"")})),
        ],
        _ => vec![("done", json!({"text": "moved", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let result = run(
        "Go elsewhere",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    let actions = &result.steps[0].actions;
    assert!(
        !actions[0].failed && actions[0].result.contains("navigated to"),
        "{actions:?}"
    );
    assert!(
        actions[1].failed && actions[1].result.starts_with("not run"),
        "{actions:?}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn the_step_limit_ends_a_run_that_never_finishes() {
    let script: Script =
        Arc::new(|_, body| vec![("hover", json!({"ref": ref_in(body, "button \"Log in\"")}))]);
    let mut env = Env::start(script).await;
    let limited = AgentConfig {
        max_steps: 2,
        ..config()
    };
    let result = run(
        "Hover forever",
        &mut env.session,
        &env.llm,
        &limited,
        |_| {},
    )
    .await
    .expect("run");
    assert!(
        matches!(result.ending, Ending::MaxSteps { .. }),
        "{:?}",
        result.ending
    );
    assert_eq!(result.steps.len(), 2);
    env.browser.close().await;
}

#[tokio::test]
async fn repeating_an_action_that_changes_nothing_is_a_loop() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let script: Script = {
        let seen = seen.clone();
        Arc::new(move |_, body| {
            seen.lock().expect("lock").push(last_text(body));
            vec![("hover", json!({"ref": ref_in(body, "button \"Log in\"")}))]
        })
    };
    let mut env = Env::start(script).await;
    let result = run("Hover", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect("run");
    assert_eq!(
        result.ending,
        Ending::Loop,
        "{:?}",
        result
            .steps
            .iter()
            .map(|s| &s.actions[0].result)
            .collect::<Vec<_>>()
    );
    assert_eq!(
        result.steps.len(),
        3,
        "a nudge after the second, a stop after the third"
    );
    let seen = seen.lock().expect("lock").clone();
    assert!(seen[2].contains("You repeated the same action"), "{seen:?}");
}

#[tokio::test]
async fn a_secret_is_typed_but_never_reaches_the_model_or_the_history() {
    let script = token_script();
    let mut env = Env::start(script).await;
    let secrets = rove_agent::Secrets(vec![
        rove_agent::Secret::parse("TOKEN@127.0.0.1=tok-9f8e7d").expect("secret"),
    ]);
    env.restart_session(
        SessionConfig {
            secrets,
            ..SessionConfig::default()
        },
        "/echo",
    )
    .await;
    let result = run(
        "Show the token",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    // The page got the real value…
    let shown = env
        .session
        .execute(&Command::Eval(rove_commands::EvalArgs {
            js: "document.getElementById('o').textContent".into(),
            target: None,
        }))
        .await
        .expect("eval");
    assert!(shown.text().contains("tok-9f8e7d"));
    // …the model saw only the placeholder, and the history has no value.
    let bodies = env.bodies.lock().expect("lock").clone();
    let sent = serde_json::to_string(&bodies).expect("json");
    assert!(!sent.contains("tok-9f8e7d"), "a request carried the secret");
    assert!(sent.contains("<secret>TOKEN</secret>"));
    let history = serde_json::to_string(&result).expect("json");
    assert!(
        !history.contains("tok-9f8e7d"),
        "the history carries the secret: {history}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn a_secret_scoped_to_another_domain_is_not_typed() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![(
            "fill",
            json!({"ref": ref_in(body, "textbox \"Username\""), "text": "<secret>PW</secret>"}),
        )],
        _ => vec![("done", json!({"text": "refused", "success": false}))],
    });
    let mut env = Env::start(script).await;
    let secrets = rove_agent::Secrets(vec![
        rove_agent::Secret::parse("PW@example.com=pw-1234").expect("secret"),
    ]);
    env.restart_session(
        SessionConfig {
            secrets,
            ..SessionConfig::default()
        },
        "/login",
    )
    .await;
    let result = run("Try", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect("run");
    let action = &result.steps[0].actions[0];
    assert!(
        action.failed && action.result.contains("may only be typed on example.com"),
        "{action:?}"
    );
    let value = env
        .session
        .execute(&Command::Eval(rove_commands::EvalArgs {
            js: "document.getElementById('u').value".into(),
            target: None,
        }))
        .await
        .expect("eval");
    assert!(!value.text().contains("pw-1234"));
    env.browser.close().await;
}

#[tokio::test]
async fn the_same_task_runs_over_anthropics_wire_format() {
    let script: Script = login_script();
    let mut env = Env::start_with(script, "anthropic", None).await;
    let result = run(
        "Log in as ada",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert_eq!(result.steps.len(), 3);
    let bodies = env.bodies.lock().expect("lock").clone();
    // Both tool results of step 1 went back in one user turn.
    let turn = &bodies[1]["messages"][2];
    assert_eq!(turn["role"], "user");
    assert_eq!(turn["content"].as_array().map(Vec::len), Some(2));
    env.browser.close().await;
}

#[tokio::test]
async fn with_vision_each_step_shows_a_screenshot() {
    let script: Script = Arc::new(|_, _| vec![("done", json!({"text": "seen", "success": true}))]);
    let mut env = Env::start(script).await;
    let dir = std::env::temp_dir().join(format!("rove-screens-{}", std::process::id()));
    let seeing = AgentConfig {
        vision: rove_agent::Vision::On,
        screenshot_dir: Some(dir.clone()),
        ..config()
    };
    let result = run("Look", &mut env.session, &env.llm, &seeing, |_| {})
        .await
        .expect("run");
    assert!(result.succeeded());
    let bodies = env.bodies.lock().expect("lock").clone();
    // The screenshot comes after the page's text, before the run's status.
    let last = bodies[0]["messages"]
        .as_array()
        .and_then(|m| m.iter().rev().nth(1))
        .cloned()
        .unwrap_or_default();
    let url = last["content"][1]["image_url"]["url"]
        .as_str()
        .unwrap_or_default();
    assert!(url.starts_with("data:image/jpeg;base64,/9j/"), "{last}");
    let history = serde_json::to_string(&result).expect("json");
    assert!(
        !history.contains("base64"),
        "images are not inlined in the history"
    );
    let kept = result.steps[0]
        .screenshot
        .clone()
        .expect("the screenshot's path");
    assert!(
        std::fs::read(&kept)
            .expect("saved")
            .starts_with(b"\xff\xd8\xff")
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn the_same_task_runs_over_every_wire_format() {
    for wire in ["openai", "openai-responses", "anthropic", "gemini"] {
        let script: Script = login_script();
        let mut env = Env::start_with(script, wire, None).await;
        let result = run(
            "Log in as ada",
            &mut env.session,
            &env.llm,
            &config(),
            |_| {},
        )
        .await
        .expect("run");
        assert!(result.succeeded(), "{wire}: {:?}", result.ending);
        assert_eq!(result.steps.len(), 3, "{wire}");
        assert_eq!(result.usage.output, 30, "{wire}: usage from every response");
        env.browser.close().await;
    }
}

#[tokio::test]
async fn a_navigation_outside_the_allowed_domains_is_refused() {
    let script: Script = Arc::new(|n, _| match n {
        1 => vec![("open", json!({"url": "http://localhost:1/elsewhere"}))],
        _ => vec![("done", json!({"text": "refused", "success": false}))],
    });
    let mut env = Env::start(script).await;
    let limited = Session::start(
        &env.browser,
        SessionConfig {
            policy: rove_browser::DomainPolicy::from_lists(Some(["127.0.0.1"]), [""; 0])
                .expect("policy"),
            ..SessionConfig::default()
        },
    )
    .await
    .expect("session");
    env.session = limited;
    let result = run(
        "Go elsewhere",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    let action = &result.steps[0].actions[0];
    assert!(
        action.failed && action.result.contains("NAVIGATION_BLOCKED"),
        "{action:?}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn a_429_then_success_continues_the_run() {
    let script: Script = Arc::new(|n, _| match n {
        1 => vec![(
            "__http",
            json!({"status": 429, "body": {"error": {"message": "slow down"}}}),
        )],
        _ => vec![("done", json!({"text": "after the wait", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let result = run(
        "Wait your turn",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert_eq!(
        env.bodies.lock().expect("lock").len(),
        2,
        "the 429 was retried"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn server_errors_exhaust_retries_then_the_fallback_model_finishes_the_run() {
    let script: Script = Arc::new(|n, _| match n {
        1..=4 => vec![("__http", json!({"status": 503}))],
        _ => vec![(
            "done",
            json!({"text": "the fallback did it", "success": true}),
        )],
    });
    let mut env = Env::start_full(script, "openai", None, true).await;
    let result = run(
        "Survive an outage",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    assert_eq!(env.llm.current().provider, "anthropic");
    env.browser.close().await;
}

#[tokio::test]
async fn a_truncated_answer_is_a_failed_step_that_keeps_its_typed_error() {
    let script: Script = Arc::new(|_, _| {
        vec![(
            "__http",
            json!({"status": 200, "body": {"model": "m", "choices": [{"finish_reason": "length", "message": {"role": "assistant", "content": "half"}}]}}),
        )]
    });
    let mut env = Env::start(script).await;
    let two = AgentConfig {
        max_failures: 2,
        ..config()
    };
    let result = run("Say a lot", &mut env.session, &env.llm, &two, |_| {})
        .await
        .expect("a model error is no error of the run");
    assert!(
        matches!(
            result.ending,
            Ending::Failures {
                failed: 2,
                limit: 2,
                answer: None
            }
        ),
        "{:?}",
        result.ending
    );
    assert!(
        matches!(
            result.model_error,
            Some(rove_llm::LlmError::Truncated { .. })
        ),
        "{:?}",
        result.model_error
    );
    let why = result.steps[0].failure.as_ref().map(|f| f.why.clone());
    assert!(
        why.as_deref()
            .is_some_and(|w| w.contains("cut the answer at its output limit")),
        "{why:?}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn log_in_search_and_pick_a_result() {
    let script: Script = Arc::new(|n, body| match n {
        1 | 2 => login_calls(n, body),
        3 => vec![
            (
                "fill",
                json!({"ref": ref_in(body, "textbox \"Search\""), "text": "tomato"}),
            ),
            ("click", json!({"ref": ref_in(body, "button \"Search\"")})),
        ],
        4 => vec![(
            "click",
            json!({"ref": ref_in(body, "link \"Cherry tomatoes\"")}),
        )],
        _ => {
            let arrived = last_text(body).contains("h1 \"Cherry tomatoes\"");
            vec![(
                "done",
                json!({"text": "Cherry tomatoes: in stock", "success": arrived}),
            )]
        }
    });
    let mut env = Env::start(script).await;
    env.session
        .execute(&Command::Open(OpenArgs {
            url: env._pages.url("/shop"),
            new_tab: false,
        }))
        .await
        .expect("open");
    let result = run(
        "Log in, search for tomatoes and open the second result",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    assert!(
        result.succeeded(),
        "{:?} {:?}",
        result.ending,
        result.steps.iter().map(|s| &s.actions).collect::<Vec<_>>()
    );
    assert_eq!(result.steps.len(), 5);
    env.browser.close().await;
}
