//! The step-level API: an application runs one step, looks at what it
//! did, steers (a word to the model, a new task) and finishes; what it
//! said is read off the requests the scripted model received.

use crate::support;

use std::sync::Arc;

use rove_agent::{Agent, Ending};
use serde_json::json;

use support::*;

#[tokio::test]
async fn an_application_steps_looks_steers_and_finishes() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![("hover", json!({"ref": ref_in(body, "button \"Log in\"")}))],
        2 => vec![("note", json!({"text": "the form has a Log in button"}))],
        _ => vec![("done", json!({"text": "stopped early", "success": false}))],
    });
    let mut env = Env::start(script).await;
    let config = config();
    let mut agent = Agent::start("Look around", &mut env.session, &env.llm, &config).await;
    let first = agent.step().await.expect("step").expect("a step ran");
    assert_eq!(first.number, 1);
    assert_eq!(first.actions[0].tool, "hover");
    assert!(agent.ending().is_none());
    agent.tell("Do not log in.");
    agent.set_task("Say what the form has");
    agent.step().await.expect("step").expect("a step ran");
    assert_eq!(
        agent
            .notes()
            .as_deref()
            .map(|n| n.contains("Log in button")),
        Some(true)
    );
    // Stopped between steps: the model is asked once for its answer.
    let result = agent.finish().await;
    assert_eq!(
        result.ending,
        Ending::MaxSteps {
            answer: Some("stopped early".into())
        }
    );
    assert_eq!(result.steps.len(), 2);
    let bodies = env.bodies.lock().expect("lock").clone();
    assert_eq!(bodies.len(), 3, "two steps and the last word");
    let second = serde_json::to_string(&bodies[1]).expect("json");
    assert!(
        second.contains("Note from the user: Do not log in.")
            && second.contains("The task is now: Say what the form has"),
        "{second}"
    );
    let first_request = serde_json::to_string(&bodies[0]).expect("json");
    assert!(!first_request.contains("Note from the user"));
    let asked = last_text(&bodies[2]);
    assert!(asked.contains("The user stops the run here."), "{asked}");
    env.browser.close().await;
}

#[tokio::test]
async fn a_step_after_the_end_runs_nothing() {
    let script: Script = Arc::new(|_, _| vec![("done", json!({"text": "ok", "success": true}))]);
    let mut env = Env::start(script).await;
    let config = config();
    let mut agent = Agent::start("Say ok", &mut env.session, &env.llm, &config).await;
    agent.step().await.expect("step");
    assert_eq!(
        agent.ending(),
        Some(&Ending::Done {
            text: "ok".into(),
            success: true
        })
    );
    assert!(agent.step().await.expect("no step").is_none());
    let result = agent.finish().await;
    assert!(result.succeeded());
    assert_eq!(
        env.bodies.lock().expect("lock").len(),
        1,
        "no request after done"
    );
    env.browser.close().await;
}
