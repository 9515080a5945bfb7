//! Replaying a recorded run: every ref the history recorded is found
//! again by the role and name the view showed, and a replay stops where
//! that no longer names exactly one element (real Chromium, fixture pages
//! and the scripted model of agent_loop.rs's tests).

use crate::support;

use std::sync::Arc;

use rove_agent::run;
use rove_commands::{Command, Session, SessionConfig};
use serde_json::{Value, json};

use support::*;

/// `history` replayed in a fresh session of `env`'s browser, from `path`.
async fn replay_on(
    env: &Env,
    history: &Value,
    path: &str,
) -> (
    Session,
    Result<rove_agent::Replayed, rove_agent::ReplayError>,
) {
    let mut session = Session::start(&env.browser, SessionConfig::default())
        .await
        .expect("session");
    let url = env._pages.url(path);
    let replayed = rove_agent::replay(history, &mut session, Some(&url)).await;
    (session, replayed)
}

/// What `js` evaluates to on `session`'s page.
async fn value(session: &mut Session, js: &str) -> Value {
    session
        .execute(&Command::Eval(rove_commands::EvalArgs {
            js: js.into(),
            target: None,
        }))
        .await
        .expect("eval")
        .result()
        .expect("a value")
        .clone()
}

#[tokio::test]
async fn a_recorded_run_replays_with_refs_found_again_by_role_and_name() {
    let script: Script = Arc::new(|n, body| match n {
        1 | 2 => login_calls(n, body),
        _ => vec![("done", json!({"text": "in", "success": true}))],
    });
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
    assert!(result.succeeded());
    assert_eq!(
        result.steps[1].actions[0]
            .target
            .as_ref()
            .map(|t| t.name.as_str()),
        Some("Log in")
    );
    let history = serde_json::to_value(&result).expect("history");

    // A fresh session on a page where every ref has moved.
    let (mut again, replayed) = replay_on(&env, &history, "/login2").await;
    let replayed = replayed.expect("replayed");
    assert_eq!(replayed.actions, 3);
    assert!(replayed.refound >= 1, "{replayed:?}");
    let shown = value(&mut again, "document.getElementById('out').textContent").await;
    assert_eq!(shown, "Welcome ada");

    // Where the button is gone, the replay stops at that step, typed.
    let (_, stopped) = replay_on(&env, &history, "/nologin").await;
    let stopped = stopped.expect_err("no button");
    assert!(
        matches!(&stopped, rove_agent::ReplayError::NotFound { step: 2, name, .. } if name == "Log in"),
        "{stopped}"
    );
    env.browser.close().await;
}

#[tokio::test]
async fn a_replay_aims_every_field_of_a_fill_form_again() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![(
            "fill-form",
            json!({"fields": [
                {"ref": ref_in(body, "textbox \"Username\""), "value": "ada"},
                {"ref": ref_in(body, "textbox \"Password\""), "value": "secret"},
            ]}),
        )],
        2 => vec![("click", json!({"ref": ref_in(body, "button \"Log in\"")}))],
        _ => vec![("done", json!({"text": "in", "success": true}))],
    });
    let mut env = Env::start(script).await;
    let forms = SessionConfig {
        caps: rove_commands::Caps::default().with(rove_commands::Capability::Forms),
        ..SessionConfig::default()
    };
    env.restart_session(forms, "/login").await;
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
    let filled = &result.steps[0].actions[0];
    assert!(!filled.failed, "{}", filled.result);
    assert_eq!(
        filled.target.as_ref().map(|t| t.name.as_str()),
        Some("Username")
    );
    let others: Vec<Option<&str>> = filled
        .other_targets
        .iter()
        .map(|t| t.as_ref().map(|t| t.name.as_str()))
        .collect();
    assert_eq!(others, [Some("Password")]);
    let history = serde_json::to_value(&result).expect("history");

    // On a page where every ref has moved, both fields are found again:
    // the password goes into Password, not into whatever holds its old ref.
    let (mut again, replayed) = replay_on(&env, &history, "/login2").await;
    let replayed = replayed.expect("replayed");
    assert_eq!(replayed.actions, 2);
    assert_eq!(replayed.refound, 3, "{replayed:?}");
    let values = value(
        &mut again,
        "[document.getElementById('u').value, document.getElementById('p').value, document.getElementById('out').textContent]",
    )
    .await;
    assert_eq!(values, json!(["ada", "secret", "Welcome ada"]));
    env.browser.close().await;
}

/// A replay never guesses between elements that look alike: a form of
/// unnamed fields below an unnamed search box (the first unnamed textbox is
/// the search box, where a "first match" replay typed the password).
#[tokio::test]
async fn a_replay_stops_where_the_element_it_aims_at_is_not_the_only_one_so_named() {
    let env = Env::start(Arc::new(|_, _| Vec::new())).await;
    let page = "<!doctype html><title>Form</title><input id=s>\
        <form><input id=u><input id=p type=password></form>";
    let pages = rove_localserver::LocalServer::start(
        rove_localserver::Routes::new().page("/form", rove_localserver::Response::html(page)),
    )
    .await
    .expect("pages");
    let unnamed = json!({"role": "textbox", "name": ""});
    let history = json!({"steps": [{
        "number": 1, "thought": "", "ms": 1.0,
        "usage": {"input": 0, "output": 0, "cached": 0},
        "actions": [{
            "tool": "fill-form",
            "arguments": {"fields": [{"ref": "e3", "value": "alice"}, {"ref": "e4", "value": "hunter2"}]},
            "target": unnamed, "other_targets": [unnamed],
            "result": "filled", "failed": false
        }]
    }]});
    let mut session = Session::start(&env.browser, SessionConfig::default())
        .await
        .expect("session");
    let url = pages.url("/form");
    let stopped = rove_agent::replay(&history, &mut session, Some(&url))
        .await
        .expect_err("three unnamed textboxes");
    assert!(
        matches!(
            &stopped,
            rove_agent::ReplayError::Ambiguous {
                step: 1,
                count: 3,
                ..
            }
        ),
        "{stopped}"
    );
    // Nothing was typed anywhere.
    let typed = value(
        &mut session,
        "['s', 'u', 'p'].map(id => document.getElementById(id).value).join('')",
    )
    .await;
    assert_eq!(typed, "");

    // A ref whose role and name the history does not hold (an older
    // history's second field) names nothing in this session: the replay
    // stops instead of typing into whatever has that number now.
    let mut older = history.clone();
    older["steps"][0]["actions"][0]["target"] = json!({"role": "textbox", "name": "Search"});
    older["steps"][0]["actions"][0]
        .as_object_mut()
        .expect("an action")
        .remove("other_targets");
    let page_named = "<!doctype html><title>Form</title><label>Search <input id=s></label>\
        <form><input id=u><input id=p type=password></form>";
    let named = rove_localserver::LocalServer::start(
        rove_localserver::Routes::new().page("/form", rove_localserver::Response::html(page_named)),
    )
    .await
    .expect("pages");
    let url = named.url("/form");
    let stopped = rove_agent::replay(&older, &mut session, Some(&url))
        .await
        .expect_err("the second field is not described");
    assert!(
        matches!(&stopped, rove_agent::ReplayError::Undescribed { step: 1, reference, .. } if reference == "e4"),
        "{stopped}"
    );
    let typed = value(
        &mut session,
        "['s', 'u', 'p'].map(id => document.getElementById(id).value).join('')",
    )
    .await;
    assert_eq!(typed, "", "nothing is typed before every target is aimed");
    env.browser.close().await;
}

/// A history that typed a secret is not replayed without it: typing the
/// placeholder would report a success the page never got. Given the
/// secret, the replay types its value.
#[tokio::test]
async fn a_replay_without_the_secrets_the_history_types_refuses_naming_them() {
    let script = token_script();
    let mut env = Env::start(script).await;
    let secrets = || {
        rove_agent::Secrets(vec![
            rove_agent::Secret::parse("TOKEN@127.0.0.1=tok-9f8e7d").expect("secret"),
        ])
    };
    env.restart_session(
        SessionConfig {
            secrets: secrets(),
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
    let history = serde_json::to_value(&result).expect("history");

    let (bare, stopped) = replay_on(&env, &history, "/echo").await;
    let stopped = stopped.expect_err("no secret given");
    assert!(
        matches!(&stopped, rove_agent::ReplayError::MissingSecrets { names } if names == &["TOKEN"]),
        "{stopped}"
    );
    assert!(
        stopped.to_string().contains("<secret>TOKEN</secret>"),
        "{stopped}"
    );
    // Refused before anything: the start page was not even opened.
    assert!(
        !bare.current_url().contains("/echo"),
        "{}",
        bare.current_url()
    );

    let mut given = Session::start(
        &env.browser,
        SessionConfig {
            secrets: secrets(),
            ..SessionConfig::default()
        },
    )
    .await
    .expect("session");
    let url = env._pages.url("/echo");
    let replayed = rove_agent::replay(&history, &mut given, Some(&url))
        .await
        .expect("replayed with the secret");
    assert_eq!(replayed.actions, 2);
    let shown = value(&mut given, "document.getElementById('o').textContent").await;
    assert!(
        shown.as_str().is_some_and(|s| s.contains("tok-9f8e7d")),
        "{shown}"
    );
    env.browser.close().await;
}
