//! The challenge watchdog in `rove run`'s loop, with the scripted model:
//! a challenge on the page is solved by the solver plugin (two at once,
//! each tracked), or waited for while a person solves it, or ends the run
//! with a typed ending, before any model step is spent on it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rove_agent::{AgentConfig, Ending};
use rove_commands::{Command, OpenArgs, Session, SessionConfig};
use rove_localserver::{LocalServer, Routes};
use serde_json::json;

use crate::support::{Env, Script, config, judge_like, text_of, turns};

/// A plugins folder with one plugin answering a token.
fn token_plugin(folder: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = rove_testkit::scratch_dir(folder);
    let path = dir.join("token.sh");
    std::fs::write(
        &path,
        "#!/bin/sh\ncat > /dev/null\necho '{\"token\": \"03AFcWeA-watchdog\"}'\n",
    )
    .expect("plugin");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("mode");
    dir
}

fn done_at_once() -> Script {
    Arc::new(|_, _| vec![("done", json!({"text": "ok", "success": true}))])
}

/// The env's model, with a session under `plugins` on a challenge page.
async fn on_challenge(script: Script, plugins: PathBuf, path: &str) -> (Env, LocalServer) {
    let mut env = Env::start(script).await;
    let pages = LocalServer::start(rove_testkit::challenge_routes(Routes::new()))
        .await
        .expect("pages");
    let config = SessionConfig {
        plugins: Some(plugins),
        ..SessionConfig::default()
    };
    let mut session = Session::start(&env.browser, config).await.expect("session");
    session
        .execute(&Command::Open(OpenArgs {
            url: pages.url(path),
            new_tab: false,
        }))
        .await
        .expect("open");
    env.session = session;
    (env, pages)
}

#[tokio::test]
async fn two_challenges_at_once_are_each_solved_by_the_plugin_before_the_model_is_asked() {
    let plugins = token_plugin("watchdog-two");
    let (mut env, _pages) = on_challenge(done_at_once(), plugins, "/two-challenges.html").await;
    let result = rove_agent::run("Sign up", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    let met: Vec<(&str, Option<&str>)> = result
        .challenges
        .iter()
        .map(|c| (c.kind.as_str(), c.solved_by.as_deref()))
        .collect();
    assert_eq!(
        met,
        [
            ("recaptcha-v2", Some("plugin token.sh")),
            ("hcaptcha", Some("plugin token.sh"))
        ]
    );
    assert!(result.challenges.iter().all(|c| c.step == 0));
    // The model's one request already tells it, and shows the page solved.
    let bodies = env.bodies.lock().expect("lock").clone();
    assert_eq!(bodies.len(), 1, "no model step was spent on the challenges");
    let asked: String = turns(&bodies[0]).iter().map(text_of).collect();
    assert!(
        asked.contains("rove's challenge watchdog: solved"),
        "{asked}"
    );
    assert!(asked.contains("kind=hcaptcha state=solved"), "{asked}");
    let history = serde_json::to_value(&result).expect("serializes");
    assert_eq!(history["challenges"][1]["solved_by"], "plugin token.sh");
    env.browser.close().await;
}

#[tokio::test]
async fn headless_without_a_solver_the_run_ends_on_the_challenge_without_asking_the_model() {
    let plugins = rove_testkit::scratch_dir("watchdog-none");
    let (mut env, _pages) = on_challenge(done_at_once(), plugins, "/recaptcha.html").await;
    let result = rove_agent::run("Sign up", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect("run");
    match &result.ending {
        Ending::Challenge {
            kind, step, why, ..
        } => {
            assert_eq!((kind.as_str(), *step), ("recaptcha-v2", 1));
            assert!(why.contains("no solver plugin"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        env.bodies.lock().expect("lock").is_empty(),
        "the model was asked"
    );
    assert_eq!(result.challenges.len(), 1);
    assert_eq!(result.challenges[0].solved_by, None);
    env.browser.close().await;
}

#[tokio::test]
async fn with_a_window_a_person_solving_it_is_waited_for_and_recorded() {
    let plugins = rove_testkit::scratch_dir("watchdog-person");
    let (mut env, _pages) = on_challenge(done_at_once(), plugins, "/recaptcha.html").await;
    // The person: the token arrives 1.5 s after the run starts.
    env.eval_text(
        "setTimeout(() => { document.querySelector('[name=g-recaptcha-response]').value = 'by-hand'; }, 1500)",
    )
    .await;
    let config = AgentConfig {
        headed: true,
        captcha_wait: Duration::from_secs(20),
        ..config()
    };
    let result = rove_agent::run("Sign up", &mut env.session, &env.llm, &config, |_| {})
        .await
        .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    let record = &result.challenges[0];
    assert_eq!(record.solved_by.as_deref(), Some("person"));
    assert!(record.seconds >= 1.0, "{record:?}");
    env.browser.close().await;
}

#[tokio::test]
async fn the_judge_records_reached_captcha_from_the_views_not_its_own_words() {
    // The scripted judge says no captcha; the run's views showed one.
    let script: Script = Arc::new(|_, body| {
        let judging = body["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["function"]["name"] == "verdict"));
        if judging {
            return vec![(
                "verdict",
                json!({"reasoning": "signed up", "verdict": "pass", "failure_reason": "", "impossible_task": false, "reached_captcha": false}),
            )];
        }
        vec![("done", json!({"text": "ok", "success": true}))]
    });
    let plugins = token_plugin("watchdog-judge");
    let (mut env, _pages) = on_challenge(script, plugins, "/recaptcha.html").await;
    let result = rove_agent::run("Sign up", &mut env.session, &env.llm, &config(), |_| {})
        .await
        .expect("run");
    let judge = judge_like(&env.llm);
    let about = rove_agent::About {
        task: "Sign up",
        ..rove_agent::About::default()
    };
    let judged = judge.judge_run(&mut env.session, &result, about).await;
    assert!(judged.reached_captcha, "{judged:?}");
    env.browser.close().await;
}

#[tokio::test]
async fn a_person_typing_an_image_captchas_answer_is_waited_for_to_the_last_letter() {
    let plugins = rove_testkit::scratch_dir("watchdog-typing");
    let (mut env, _pages) = on_challenge(done_at_once(), plugins, "/image-captcha.html").await;
    // The person types W7KP, a letter every 400 ms, from the start.
    env.eval_text(
        "(() => { const f = document.querySelector('[name=captcha_code]'); let n = 0; const t = setInterval(() => { f.value += 'W7KP'[n++]; if (n === 4) clearInterval(t); }, 400); })()",
    )
    .await;
    let config = AgentConfig {
        headed: true,
        captcha_wait: Duration::from_secs(20),
        ..config()
    };
    let result = rove_agent::run(
        "Post a comment",
        &mut env.session,
        &env.llm,
        &config,
        |_| {},
    )
    .await
    .expect("run");
    assert!(result.succeeded(), "{:?}", result.ending);
    let record = &result.challenges[0];
    assert_eq!(
        (record.kind.as_str(), record.solved_by.as_deref()),
        ("image", Some("person"))
    );
    // The model is asked once the answer is whole, not at its first letter.
    let bodies = env.bodies.lock().expect("lock").clone();
    let asked: String = turns(&bodies[0]).iter().map(text_of).collect();
    assert!(asked.contains("W7KP"), "{asked}");
    env.browser.close().await;
}
