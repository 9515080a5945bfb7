//! What a traced step records besides its actions, in real Chromium with a
//! scripted model: the text the model was shown, the console messages and
//! requests of the step (the newest within the bound, the rest counted;
//! passwords, credential parameters hidden), read without taking them from
//! the `console` command's "since the last call"; and nothing at all when
//! the run is not traced.

use crate::support;

use std::sync::Arc;

use rove_agent::{AgentConfig, Seen, run};
use rove_commands::{Command, ConsoleArgs, SessionConfig};
use serde_json::json;
use support::{Env, Script, config, ref_in};

#[tokio::test]
async fn a_traced_step_keeps_the_newest_messages_and_its_requests_redacted() {
    let script: Script = Arc::new(|n, body| match n {
        1 => vec![(
            "click",
            json!({"ref": ref_in(body, "button \"Make noise\"")}),
        )],
        _ => vec![("done", json!({"text": "noisy", "success": true}))],
    });
    let mut env = Env::start(script).await;
    env.restart_session(SessionConfig::default(), "/noisy")
        .await;
    let traced = AgentConfig {
        trace: true,
        ..config()
    };
    let result = run("Make noise", &mut env.session, &env.llm, &traced, |_| {})
        .await
        .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    let click = &result.steps[0].seen;
    assert!(
        click.observation.as_deref().is_some_and(
            |o| o.starts_with("Task: Make noise") && o.contains("button \"Make noise\"")
        ),
        "{click:?}"
    );
    // 121 messages: the newest 50 kept, the error last.
    assert_eq!(click.console.len(), 50, "{click:?}");
    assert_eq!(click.console[0].text, "noise 71");
    let error = &click.console[49];
    assert_eq!((error.level.as_str(), error.tab.as_str()), ("error", "t1"));
    assert!(
        !error.text.contains("pw1234") && !error.text.contains("abc123"),
        "{error:?}"
    );
    assert!(
        error
            .text
            .starts_with("see http://ada:<redacted>@x.test/a?token=<redacted>"),
        "{error:?}"
    );
    let request = click
        .network
        .iter()
        .find(|r| r.url.contains("/item?token="))
        .unwrap_or_else(|| panic!("no request: {click:?}"));
    assert_eq!(
        (request.method.as_str(), request.resource_type.as_str()),
        ("GET", "Fetch")
    );
    assert!(!request.url.contains("abc123"), "{request:?}");
    assert!(click.left_out >= 71, "{click:?}");
    // The next step saw what the click changed, and nothing was logged.
    let done = &result.steps[1].seen;
    assert!(
        done.observation
            .as_deref()
            .is_some_and(|o| o.starts_with("clicked")),
        "{done:?}"
    );
    assert!(
        done.console.is_empty() && done.network.is_empty(),
        "{done:?}"
    );

    // The trace took nothing from the console command's "since the last
    // call".
    let since = env
        .session
        .execute(&Command::Console(ConsoleArgs::default()))
        .await
        .expect("console")
        .text();
    assert!(
        since.contains("121 console messages since the last call") && since.contains("\"noise 0\""),
        "{since}"
    );

    // Without a trace, a step records none of it.
    let plain = run("Make noise", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect("run");
    assert!(plain.steps.iter().all(|s| s.seen == Seen::default()));
}
