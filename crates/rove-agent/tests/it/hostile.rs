//! The agent's fault suite: a hostile page that echoes a typed secret back
//! in disguise must not get any form of it to the model, the history or the
//! judge.

use crate::support;

use std::sync::Arc;

use base64::Engine;
use serde_json::json;
use support::*;

#[tokio::test]
async fn a_secret_echoed_in_disguise_never_reaches_the_model() {
    let value = "tok-9f8e7d-Kq";
    let script = token_script();
    let mut env = Env::with_token(script, value, "/disguise").await;
    let result = env.run_to_success("Show the token").await;
    // The page did show the disguises…
    let shown = env
        .eval_text("document.getElementById('o').textContent")
        .await;
    let b64 = base64::engine::general_purpose::STANDARD;
    let disguises = [
        value.to_owned(),
        value.chars().rev().collect::<String>(),
        value.to_uppercase(),
        b64.encode(value),
        b64.encode(format!("user:{value}")),
        value
            .bytes()
            .map(|b| format!("{b:02x}"))
            .collect::<String>(),
    ];
    for form in &disguises {
        assert!(shown.contains(form.as_str()), "the page shows {form}");
    }
    // …and none of them, nor the spaced-out or URL-encoded ones, reached the
    // model or the history.
    let sent = serde_json::to_string(&env.bodies.lock().expect("lock").clone()).expect("json");
    let history = serde_json::to_string(&result).expect("json");
    let spaced = value
        .chars()
        .map(String::from)
        .collect::<Vec<_>>()
        .join(" ");
    for form in disguises.iter().chain([&spaced]) {
        let core = &form[1..form.len() - 1];
        assert!(!sent.contains(core), "a request carried {form}");
        assert!(!history.contains(core), "the history carries {form}");
    }
    assert!(sent.contains("<secret>TOKEN</secret>"));
    env.browser.close().await;
}

#[tokio::test]
async fn the_history_holds_no_secret_anywhere() {
    let value = "Kq7 tok!en-42";
    let script: Script = Arc::new(move |n, body| match n {
        1 => vec![(
            "fill",
            json!({"ref": ref_in(body, "textbox \"Token\""), "text": "<secret>TOKEN</secret>"}),
        )],
        2 => vec![("click", json!({"ref": ref_in(body, "button \"Show\"")}))],
        // A model that read the value off a screenshot writes it in its
        // thought and its arguments, and gets it back in an error.
        3 => vec![
            (
                "__text",
                json!({"text": format!("The screen says {value}")}),
            ),
            ("click", json!({"ref": ref_in(body, "button \"Copy")})),
            ("wait", json!({"text_gone": value, "ms": 300})),
        ],
        _ => vec![(
            "done",
            json!({"text": format!("The token is {value}"), "success": true}),
        )],
    });
    let mut env = Env::with_token(script, value, "/shout").await;
    let result = env.run_to_success("Show the token").await;
    // The page did echo it: into the heading, the button's name and the URL.
    let url = env
        .eval_text("location.search + ' ' + document.getElementById('h').textContent")
        .await;
    assert!(
        url.contains("Kq7+tok%21en-42") && url.contains("Kq7%20tok!en-42"),
        "{url}"
    );
    assert!(url.contains(&format!("Hello {value}")), "{url}");
    let step3 = &result.steps[2];
    assert_eq!(step3.actions.len(), 2, "{:?}", step3.actions);
    assert!(step3.actions[1].failed, "the wait timed out on the value");
    let target = step3.actions[0].target.as_ref().expect("target");
    assert_eq!(target.name, "Copy <secret>TOKEN</secret>");
    // The whole history, as `rove run --history` writes it.
    let history = serde_json::to_string_pretty(&result).expect("json");
    for form in [
        value.to_owned(),
        value.to_uppercase(),
        "Kq7+tok%21en-42".to_owned(),
        "Kq7%20tok!en-42".to_owned(),
    ] {
        let core = &form[1..form.len() - 1];
        assert!(
            !history.contains(core),
            "the history carries {form}:\n{history}"
        );
    }
    for place in [
        "The screen says <secret>TOKEN</secret>",
        "The token is <secret>TOKEN</secret>",
        "\"text_gone\": \"<secret>TOKEN</secret>\"",
        "Hello <secret>TOKEN</secret>",
        "?t=<secret>TOKEN</secret>&u=<secret>TOKEN</secret>",
    ] {
        assert!(history.contains(place), "{place} missing:\n{history}");
    }
    env.browser.close().await;
}

#[tokio::test]
async fn the_judge_is_shown_no_secret_either() {
    let value = "Kq7tok-en42";
    let script: Script = Arc::new(move |n, body| {
        let judging = body["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["function"]["name"] == "verdict"));
        if judging {
            return vec![(
                "verdict",
                json!({"reasoning": "shown", "verdict": "pass", "failure_reason": "", "impossible_task": false, "reached_captcha": false}),
            )];
        }
        match n {
            1 => vec![(
                "fill",
                json!({"ref": ref_in(body, "textbox \"Token\""), "text": "<secret>TOKEN</secret>"}),
            )],
            2 => vec![("click", json!({"ref": ref_in(body, "button \"Show\"")}))],
            _ => vec![(
                "done",
                json!({"text": format!("The token is {value}"), "success": true}),
            )],
        }
    });
    let mut env = Env::with_token(script, value, "/shout").await;
    let result = env.run_to_success("Show the token").await;
    let judge = support::judge_like(&env.llm);
    let about = rove_agent::About {
        task: "Show the token",
        ..rove_agent::About::default()
    };
    let judged = judge.judge_run(&mut env.session, &result, about).await;
    assert_eq!(judged.verdict, rove_agent::Verdict::Pass, "{judged:?}");
    // The page put the value into its URL; the judge got the placeholder
    // there, in the steps and in the answer, and the value nowhere.
    let bodies = env.bodies.lock().expect("lock").clone();
    let asked = serde_json::to_string(bodies.last().expect("the judge's request")).expect("json");
    assert!(
        asked.contains("\"verdict\""),
        "the last request is the judge's"
    );
    for form in [value.to_owned(), value.to_uppercase()] {
        assert!(!asked.contains(&form), "the judge was sent {form}");
    }
    assert!(asked.contains("Final URL: ") && asked.contains("?t=<secret>TOKEN</secret>"));
    assert!(asked.contains("The token is <secret>TOKEN</secret>"));
    env.browser.close().await;
}

/// The judge reads screenshots, where a page may show a typed secret in
/// plain sight; what it writes back (its reasoning, its failure reason)
/// goes to the terminal, the results and the history, so it is redacted
/// like the agent's own words.
#[tokio::test]
async fn what_the_judge_read_off_a_screenshot_is_redacted() {
    let value = "Kq7tok-en42";
    let script: Script = Arc::new(move |n, body| {
        let judging = body["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["function"]["name"] == "verdict"));
        if judging {
            return vec![(
                "verdict",
                json!({"reasoning": format!("The screenshot shows the token {value}."), "verdict": "fail",
                    "failure_reason": format!("it showed {} in clear", value.to_uppercase()),
                    "impossible_task": false, "reached_captcha": false}),
            )];
        }
        match n {
            1 => vec![(
                "fill",
                json!({"ref": ref_in(body, "textbox \"Token\""), "text": "<secret>TOKEN</secret>"}),
            )],
            2 => vec![("click", json!({"ref": ref_in(body, "button \"Show\"")}))],
            _ => vec![("done", json!({"text": "shown", "success": true}))],
        }
    });
    let mut env = Env::with_token(script, value, "/shout").await;
    let result = env.run_to_success("Show the token").await;
    let judge = support::judge_like(&env.llm);
    let about = rove_agent::About {
        task: "Show the token",
        ..rove_agent::About::default()
    };
    let judged = judge.judge_run(&mut env.session, &result, about).await;
    assert_eq!(judged.verdict, rove_agent::Verdict::Fail, "{judged:?}");
    let written = serde_json::to_string(&judged).expect("json");
    for form in [value.to_owned(), value.to_uppercase()] {
        assert!(!written.contains(&form), "the judgement carries {form}");
    }
    assert_eq!(
        judged.reasoning,
        "The screenshot shows the token <secret>TOKEN</secret>."
    );
    assert_eq!(
        judged.failure_reason,
        "it showed <secret>TOKEN</secret> in clear"
    );
    env.browser.close().await;
}
