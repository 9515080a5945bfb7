//! The loop from the model's side, read off the requests rove sends to a
//! local server that speaks OpenAI's wire format and plays a scripted
//! model, on fixture pages in real Chromium: the budget every turn and the
//! last word at a limit; a system prompt that teaches the loop; notes and
//! found facts that survive compaction; batches that stop after a failed
//! call but not at a tab switch; side research in a second tab, each action
//! recorded with its tab; errors in the terms of the tools offered;
//! a plain-text answer kept; a table read by its ref as a table.

use crate::support;

use std::sync::Arc;

use rove_agent::{AgentConfig, Ending, run};
use serde_json::{Value, json};

use support::*;

/// The tool results a request carries, in order.
fn tool_results(body: &Value) -> Vec<String> {
    turns(body)
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(text_of)
        .collect()
}

/// The system prompt a request carries (OpenAI's first message).
fn system_of(body: &Value) -> String {
    let first = &turns(body)[0];
    assert_eq!(first["role"], "system", "{first}");
    text_of(first)
}

#[tokio::test]
async fn every_request_says_the_step_and_the_limit_asks_once_for_the_answer() {
    let script: Script = Arc::new(|n, body| match n {
        1 | 2 => vec![("hover", json!({"ref": ref_in(body, "button \"Log in\"")}))],
        _ => vec![(
            "done",
            json!({"text": "partial: the form has a Log in button", "success": false}),
        )],
    });
    let mut env = Env::start(script).await;
    let two = AgentConfig {
        max_steps: 2,
        ..config()
    };
    let result = run("Look around", &mut env.session, &env.llm, &two, |_| {})
        .await
        .expect("run");
    assert_eq!(
        result.ending,
        Ending::MaxSteps {
            answer: Some("partial: the form has a Log in button".into())
        }
    );
    let bodies = env.bodies.lock().expect("lock").clone();
    assert_eq!(bodies.len(), 3, "two steps and one call for the answer");
    let first = status_of(&bodies[0]);
    assert!(
        first.starts_with("Step 1 of 2; at most 5 tool calls per step."),
        "{first}"
    );
    assert!(!first.contains("last step"), "{first}");
    let second = status_of(&bodies[1]);
    assert!(
        second.starts_with("Step 2 of 2;") && second.contains("This is the last step"),
        "{second}"
    );
    let asked = last_text(&bodies[2]);
    assert!(
        asked.contains("You have used all 2 steps") && asked.contains("Call done now"),
        "{asked}"
    );
    assert_eq!(bodies[2]["tool_choice"]["function"]["name"], "done");
    env.browser.close().await;
}

#[tokio::test]
async fn failed_steps_in_a_row_are_counted_in_the_status() {
    let script: Script = Arc::new(|n, _| match n {
        1 => vec![("click", json!({"ref": "e999"}))],
        _ => vec![("done", json!({"text": "gave up", "success": false}))],
    });
    let mut env = Env::start(script).await;
    run(
        "Click something gone",
        &mut env.session,
        &env.llm,
        &config(),
        |_| {},
    )
    .await
    .expect("run");
    let bodies = env.bodies.lock().expect("lock").clone();
    let second = status_of(&bodies[1]);
    assert!(
        second.contains("1 step(s) in a row failed; 5 in a row end the run"),
        "{second}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn the_system_prompt_teaches_the_loop_and_can_be_replaced_or_extended() {
    let script: Script = Arc::new(|_, _| vec![("done", json!({"text": "ok", "success": true}))]);
    let mut env = Env::start(script).await;
    env.run_to_success("Say ok").await;
    let taught = system_of(&env.bodies.lock().expect("lock")[0]);
    for lesson in [
        "Each tab has its own refs",
        "If a call fails, the calls after it are not run",
        "Switching tabs does not end it",
        "fill a form and submit it in one turn",
        "tab(action=new, url=",
        "tab(action=switch, tab=t1)",
        "dialog(accept=true)",
        "<secret>NAME</secret>",
        "more rows like the above",
        "Use find",
        "read with a table's ref",
        "before done, check",
        "exact answer in done",
        "text you write is not an action",
        "also what is scrolled out of sight",
        "only the viewport",
        "note",
    ] {
        assert!(
            taught.contains(lesson),
            "{lesson:?} is not taught: {taught}"
        );
    }
    let own = AgentConfig {
        system_prompt: Some("You are a careful shopper.".into()),
        extend_system_prompt: Some("Prices are in euros.".into()),
        ..config()
    };
    env.bodies.lock().expect("lock").clear();
    let result = run("Say ok", &mut env.session, &env.llm, &own, |_| {})
        .await
        .expect("run");
    assert!(result.succeeded());
    let replaced = system_of(&env.bodies.lock().expect("lock")[0]);
    assert_eq!(
        replaced,
        "You are a careful shopper.\n\nPrices are in euros."
    );
    env.browser.close().await;
}

#[tokio::test]
async fn found_facts_and_notes_survive_compaction() {
    let script: Script = Arc::new(|n, _| match n {
        1 => vec![("find", json!({"text": "PX-912"}))],
        2 => vec![("note", json!({"text": "plan: report the price of PX-912"}))],
        3..=6 => vec![("snapshot", json!({}))],
        _ => vec![("done", json!({"text": "4.20", "success": true}))],
    });
    let mut env = Env::start(script).await;
    env.restart_session(rove_commands::SessionConfig::default(), "/parts")
        .await;
    let small = AgentConfig {
        history_budget: 300,
        ..config()
    };
    let result = run(
        "Find the price of PX-912",
        &mut env.session,
        &env.llm,
        &small,
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    let bodies = env.bodies.lock().expect("lock").clone();
    let found = &tool_results(&bodies[1])[0];
    assert!(found.contains("PX-912 Bolt 4.20"), "{found}");
    // By step 7 the history is over its budget: the old views are cut to
    // their first line, the find keeps its matched line.
    let late = &bodies[6];
    let results = tool_results(late);
    assert!(
        results[2].ends_with("(older, left out to save tokens)"),
        "an old view is cut: {results:?}"
    );
    assert!(
        results[0].contains("PX-912 Bolt 4.20"),
        "the find's matched line is kept: {results:?}"
    );
    let status = status_of(late);
    assert!(
        status.contains("Your notes (kept whole every step):\n- plan: report the price of PX-912"),
        "{status}"
    );
    assert!(
        tool_results(&bodies[2])[1].starts_with("noted"),
        "{:?}",
        tool_results(&bodies[2])
    );
    env.browser.close().await;
}

#[tokio::test]
async fn a_failed_call_stops_the_batch_and_a_tab_switch_does_not() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![
            (
                "fill",
                json!({"ref": ref_in(body, "textbox \"Username\""), "text": "ada"}),
            ),
            ("click", json!({"ref": "e999"})),
            (
                "fill",
                json!({"ref": ref_in(body, "textbox \"Password\""), "text": "pw"}),
            ),
        ],
        2 => vec![
            ("tab", json!({"action": "new"})),
            ("tab", json!({"action": "switch", "tab": "t1"})),
            (
                "fill",
                json!({"ref": ref_in(body, "textbox \"Username\""), "text": "bob"}),
            ),
            ("click", json!({"ref": ref_in(body, "button \"Log in\"")})),
        ],
        _ => vec![("done", json!({"text": "logged in", "success": true}))],
    });
    let mut env = Env::start(script).await;
    env.run_to_success("Log in").await;
    let bodies = env.bodies.lock().expect("lock").clone();
    let first = tool_results(&bodies[1]);
    assert!(first[1].contains("REF_NOT_FOUND"), "{first:?}");
    assert!(
        first[2].starts_with("not run: call 2 (click) failed"),
        "the fill after the failed click did not run: {first:?}"
    );
    let password = env
        .eval_text("'[' + document.getElementById('p').value + ']'")
        .await;
    assert!(
        password.contains("[]"),
        "the password was filled: {password}"
    );
    let second: Vec<String> = tool_results(&bodies[2]).split_off(3);
    assert_eq!(second.len(), 4, "{second:?}");
    assert!(
        second.iter().all(|r| !r.starts_with("not run")),
        "every call after the tab switch ran: {second:?}"
    );
    assert!(second[3].contains("Welcome bob"), "{second:?}");
    env.browser.close().await;
}

#[tokio::test]
async fn side_research_in_a_second_tab_is_recorded_action_by_action() {
    let script: Script = Arc::new(|n, body| match n {
        1 => {
            // The task's page (/login) is on the same server as the parts list.
            let seen = text_of(&turns(body)[1]);
            let origin = seen
                .split_whitespace()
                .find_map(|w| w.strip_suffix("/login"))
                .unwrap_or_default()
                .to_owned();
            vec![(
                "tab",
                json!({"action": "new", "url": format!("{origin}/parts")}),
            )]
        }
        2 => vec![("find", json!({"text": "PX-912"}))],
        3 => vec![("tab", json!({"action": "switch", "tab": "t1"}))],
        _ => vec![(
            "done",
            json!({"text": "PX-912 costs 4.20", "success": true}),
        )],
    });
    let mut env = Env::start(script).await;
    let result = env.run_to_success("Find the price of PX-912").await;
    let tabs: Vec<Vec<&str>> = result
        .steps
        .iter()
        .map(|s| {
            s.actions
                .iter()
                .map(|a| a.tab.as_deref().unwrap_or("none"))
                .collect()
        })
        .collect();
    assert_eq!(tabs, [["t2"], ["t2"], ["t1"], ["t1"]], "{:?}", result.steps);
    assert!(
        result.steps[1].actions[0].result.contains("4.20"),
        "the search ran in the second tab: {}",
        result.steps[1].actions[0].result
    );
    let history = serde_json::to_value(&result).expect("serializes");
    assert_eq!(history["steps"][1]["actions"][0]["tab"], "t2");
    env.browser.close().await;
}

#[tokio::test]
async fn errors_speak_of_the_tools_offered_and_plain_text_is_kept_as_the_answer() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![("close", json!({}))],
        2 => vec![(
            "click",
            json!({"target": ref_in(body, "button \"Log in\"")}),
        )],
        3 => vec![(
            "__text",
            json!({"text": "The form asks for a username and a password."}),
        )],
        _ => vec![(
            "__http",
            json!({"status": 400, "body": {"error": {"message": "no"}}}),
        )],
    });
    let mut env = Env::start(script).await;
    let three = AgentConfig {
        max_failures: 3,
        ..config()
    };
    let result = run(
        "Describe the form",
        &mut env.session,
        &env.llm,
        &three,
        |_| {},
    )
    .await
    .expect("run");
    assert_eq!(
        result.ending,
        Ending::Failures {
            failed: 3,
            limit: 3,
            answer: Some("The form asks for a username and a password.".into())
        }
    );
    let bodies = env.bodies.lock().expect("lock").clone();
    let unknown = &tool_results(&bodies[1])[0];
    assert!(
        unknown.contains("\"close\": there is no such tool; your tools are")
            && unknown.contains(", note, done")
            && !unknown.contains(" close,"),
        "{unknown}"
    );
    let invalid = tool_results(&bodies[2])[1].clone();
    assert!(
        invalid.contains("invalid arguments for click")
            && invalid.contains("Call it as click(ref: string"),
        "{invalid}"
    );
    assert!(!invalid.contains("\"properties\""), "{invalid}");
    // After the plain text, before the call for the answer: the nudge.
    let texts: Vec<String> = turns(&bodies[3]).iter().map(text_of).collect();
    let nudged = &texts[texts.len() - 2];
    assert!(
        nudged.starts_with("Plain text is not an action"),
        "{nudged}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn a_table_read_by_its_ref_is_a_table() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![("read", json!({"ref": ref_in(body, "table")}))],
        _ => vec![("done", json!({"text": "1.20", "success": true}))],
    });
    let mut env = Env::start(script).await;
    env.restart_session(rove_commands::SessionConfig::default(), "/prices")
        .await;
    env.run_to_success("What does PX-101 cost?").await;
    let bodies = env.bodies.lock().expect("lock").clone();
    let read = &tool_results(&bodies[1])[0];
    assert!(
        read.contains("| Code | Description | Unit price |\n| --- | --- | --- |\n| PX-101 | Bolt | 1.20 |\n| PX-102 | Nut | 0.40 |"),
        "{read}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn hints_name_tabs_as_tool_calls() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![
            ("tab", json!({"action": "new"})),
            ("click", json!({"ref": ref_in(body, "button \"Log in\"")})),
        ],
        _ => vec![("done", json!({"text": "ok", "success": true}))],
    });
    let mut env = Env::start(script).await;
    env.run_to_success("Press log in from another tab").await;
    let bodies = env.bodies.lock().expect("lock").clone();
    let refused = &tool_results(&bodies[1])[1];
    assert!(
        refused.contains("tab(action=switch, tab=t1)") && !refused.contains("tab switch t1"),
        "{refused}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn collapsed_rows_are_counted_in_the_plural_and_a_password_keeps_its_length_hidden() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![(
            "fill",
            json!({"ref": ref_in(body, "textbox \"Password\""), "text": "nine-char"}),
        )],
        _ => vec![("done", json!({"text": "ok", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let seeing = AgentConfig {
        vision: rove_agent::Vision::On,
        max_steps: 1,
        ..config()
    };
    run(
        "Fill the password",
        &mut env.session,
        &env.llm,
        &seeing,
        |_| {},
    )
    .await
    .expect("run");
    let bodies = env.bodies.lock().expect("lock").clone();
    let filled = &tool_results(&bodies[1])[0];
    assert!(
        filled.contains("textbox \"Password\" [focused]: [hidden]")
            && !filled.contains("characters"),
        "{filled}"
    );
    // The screenshot's caption says what it shows, beside the text view.
    let sent = serde_json::to_string(&bodies[0]).expect("json");
    assert!(
        sent.contains("only what is on screen; the text view covers the whole page"),
        "{sent}"
    );
    env.restart_session(rove_commands::SessionConfig::default(), "/parts")
        .await;
    env.bodies.lock().expect("lock").clear();
    run("Look", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect("run");
    let view = text_of(&turns(&env.bodies.lock().expect("lock")[0])[1]);
    assert!(
        view.contains("… 90 more listitems like the above (find reaches them)"),
        "{view}"
    );
    env.browser.close().await;
}
