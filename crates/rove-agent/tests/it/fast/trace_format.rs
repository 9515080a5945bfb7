//! The run trace writer against the one trace format, without a browser:
//! records with every optional part set (and with none) are written by
//! [`Trace`] and read back as `TraceLine`s that serialize to the very JSON
//! written; a step's line holds what its history record holds (only the
//! screenshots differ: inlined, or named as left out past the budget); and
//! every ending, verdict and attempt end the writers are given is written
//! as the agent's own types serialize it.

use rove_agent::{
    ActionRecord, Ending, FailureKind, Judgement, Seen, SeenConsole, SeenRequest, StepFailure,
    StepRecord, Target, Trace, Verdict,
};
use rove_commands::Timing;
use rove_commands::trace_format::{
    AttemptCheck, AttemptEnd, AttemptJudgement, RunEnding, RunFailure, RunHead, TraceLine,
};
use rove_errors::{ActionSent, ErrorCode, Report, Retry, SideEffect};
use rove_llm::Usage;
use serde_json::{Value, json};

fn usage() -> Usage {
    Usage {
        input: 120,
        output: 7,
        cached: 64,
    }
}

/// A step with every optional part set, its screenshots files in `dir`.
fn full_step(dir: &std::path::Path) -> StepRecord {
    let before = dir.join("step-1.jpg");
    let after = dir.join("step-1-after.jpg");
    std::fs::write(&before, b"0123456789").expect("screenshot");
    std::fs::write(&after, b"abcdefghij").expect("screenshot");
    StepRecord {
        number: 1,
        model: None,
        thought: "Press Go & see".into(),
        actions: vec![ActionRecord {
            tool: "drag".into(),
            arguments: json!({"from": "e1", "to": "e2"}),
            target: Some(Target {
                role: "button".into(),
                name: "Go".into(),
            }),
            other_targets: vec![
                None,
                Some(Target {
                    role: "list".into(),
                    name: "Bin".into(),
                }),
            ],
            result: "{\"code\":\"REF_NOT_FOUND\"}\nview".into(),
            failed: true,
            unchanged: false,
            timing: Some(Timing {
                total_ms: 12.5,
                cdp_ms: 4.0,
                settle_ms: 8.0,
                rove_ms: 0.5,
            }),
            pointer: Some([260.0, 120.0]),
            tab: Some("t1".into()),
        }],
        usage: usage(),
        screenshot: Some(before.display().to_string()),
        ms: 40.5,
        model_ms: 30.25,
        failure: Some(StepFailure {
            count: 1,
            limit: 5,
            kind: FailureKind::Actions,
            why: "every action failed".into(),
        }),
        seen: Seen {
            observation: Some("the view".into()),
            console: vec![SeenConsole {
                tab: "t1".into(),
                level: "error".into(),
                source: "exception".into(),
                text: "boom".into(),
                location: Some("http://127.0.0.1/a.js:1:2".into()),
            }],
            network: vec![SeenRequest {
                tab: "t1".into(),
                method: "GET".into(),
                url: "http://127.0.0.1/api".into(),
                resource_type: "Fetch".into(),
                status: Some(404),
                state: "finished".into(),
                ms: Some(3.5),
            }],
            left_out: 3,
            screenshot_after: Some(after.display().to_string()),
            // Written as lines of their own (`Trace::step`), not in the
            // step's line.
            frames: Vec::new(),
        },
    }
}

/// A step with nothing optional.
fn bare_step() -> StepRecord {
    StepRecord {
        number: 2,
        model: None,
        thought: String::new(),
        actions: vec![ActionRecord {
            tool: "done".into(),
            arguments: json!({"text": "ok", "success": true}),
            target: None,
            other_targets: Vec::new(),
            result: "done".into(),
            failed: false,
            unchanged: true,
            timing: None,
            pointer: None,
            tab: None,
        }],
        usage: Usage::default(),
        screenshot: None,
        ms: 1.0,
        model_ms: 0.0,
        failure: None,
        seen: Seen::default(),
    }
}

fn judgement() -> Judgement {
    Judgement {
        verdict: Verdict::Fail,
        reasoning: "the cart is empty".into(),
        failure_reason: "nothing was added".into(),
        impossible_task: false,
        reached_captcha: true,
        error: None,
        model: "openai:judge".into(),
        screenshots: 2,
        usage: usage(),
        seconds: 1.5,
    }
}

/// Every line of the file, checked against the format; as JSON.
fn read_back(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("the trace");
    text.lines()
        .map(|raw| {
            let line = TraceLine::parse(raw).unwrap_or_else(|e| panic!("{e}: {raw}"));
            assert!(!matches!(line, TraceLine::Unknown), "{raw}");
            if let TraceLine::Step(step) = &line {
                assert!(step.actions.iter().all(|a| a.extra.is_empty()), "{raw}");
            }
            let written: Value = serde_json::from_str(raw).expect("JSON");
            assert_eq!(serde_json::to_value(&line).expect("serializes"), written);
            written
        })
        .collect()
}

/// `value` without the named fields.
fn without(mut value: Value, fields: &[&str]) -> Value {
    for field in fields {
        value.as_object_mut().expect("an object").remove(*field);
    }
    value
}

#[test]
fn a_run_trace_reads_back_as_written_and_its_steps_hold_the_history() {
    let dir = rove_testkit::scratch_dir("agent-trace-format");
    let path = dir.join("run.trace");
    let steps = [full_step(&dir), bare_step()];
    let head = RunHead {
        task: "Buy <a lamp>".into(),
        name: Some("lamp".into()),
        attempt: Some(2),
        start_url: None,
        model: "openai:m".into(),
        ..RunHead::default()
    };
    // Room for the first screenshot, not the second.
    let trace = Trace::start(&path, head, None, 15).expect("starts");
    for step in &steps {
        trace.step(step);
    }
    let attempt = AttemptEnd {
        status: "self-reported".into(),
        reason: None,
        answer: Some("done".into()),
        checks: vec![AttemptCheck {
            check: "url".into(),
            passed: true,
            detail: "at /cart".into(),
        }],
        judge: Some(AttemptJudgement::from(&judgement())),
        divergence: true,
    };
    let ending = RunEnding::from(&Ending::Done {
        text: "ok".into(),
        success: true,
    });
    trace.end(&ending, steps.len(), 2.5, usage(), Some(attempt));

    let lines = read_back(&path);
    let kinds: Vec<&str> = lines.iter().filter_map(|l| l["kind"].as_str()).collect();
    assert_eq!(kinds, ["run", "step", "step", "end"]);
    assert_eq!(lines[0]["version"], 1);
    assert!(lines[0]["start_url"].is_null() && lines[0]["attempt"] == 2);
    // A step's line is its history record, its screenshots inlined or
    // named as left out.
    for (line, step) in lines[1..3].iter().zip(&steps) {
        let record = serde_json::to_value(step).expect("record");
        let shots = ["kind", "screenshot", "screenshot_after"];
        assert_eq!(without(line.clone(), &shots), without(record, &shots));
    }
    assert_eq!(
        lines[1]["screenshot"],
        "data:image/jpeg;base64,MDEyMzQ1Njc4OQ=="
    );
    assert!(lines[1]["screenshot_after"]["left_out"].is_string());
    assert!(lines[2].get("screenshot").is_none() && lines[2].get("console").is_none());
    // The end: the ending as the agent's type writes it, the judge's
    // verdict as results.json does.
    assert_eq!(
        lines[3]["ending"],
        json!({"reason": "done", "text": "ok", "success": true})
    );
    assert_eq!(
        lines[3]["judge"],
        serde_json::to_value(judgement()).expect("judgement")
    );
    assert_eq!(
        lines[3]["usage"],
        json!({"input": 120, "output": 7, "cached": 64})
    );
    assert!(lines[3]["reason"].is_null() && lines[3]["status"] == "self-reported");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_ending_is_written_as_before_and_reads_back() {
    // The agent's own endings: as its type serializes them (what the trace
    // held before the format had a type).
    let agent = [
        Ending::Done {
            text: "t".into(),
            success: false,
        },
        Ending::MaxSteps { answer: None },
        Ending::Failures {
            failed: 5,
            limit: 5,
            answer: None,
        },
        Ending::Timeout,
        Ending::Loop,
    ];
    for ending in &agent {
        assert_eq!(
            serde_json::to_value(RunEnding::from(ending)).expect("ending"),
            serde_json::to_value(ending).expect("ending")
        );
    }
    // And those of a run stopped from outside, as rove run and rove test
    // write them.
    let report = Report {
        code: ErrorCode::BrowserDisconnected,
        message: "the browser exited".into(),
        hint: "run it again".into(),
        retry: Retry::Retry,
        action_sent: ActionSent::PossiblySent,
        side_effect: SideEffect::Uncertain,
        facts: Some(json!({"pid": 7})),
    };
    let outside = [
        (
            RunEnding::Error {
                error: RunFailure::Report(report.clone()),
            },
            json!({"reason": "error", "error": report}),
        ),
        (
            RunEnding::Error {
                error: RunFailure::Text("no context".into()),
            },
            json!({"reason": "error", "error": "no context"}),
        ),
        (
            RunEnding::Timeout {
                seconds: Some(30.0),
            },
            json!({"reason": "timeout", "seconds": 30.0}),
        ),
        (
            RunEnding::Interrupted { signal: Some(2) },
            json!({"reason": "interrupted", "signal": 2}),
        ),
        (
            RunEnding::Interrupted { signal: None },
            json!({"reason": "interrupted"}),
        ),
    ];
    for (ending, written) in &outside {
        assert_eq!(&serde_json::to_value(ending).expect("ending"), written);
    }
    // Each, as the end line of a trace, reads back as written.
    let dir = rove_testkit::scratch_dir("agent-trace-endings");
    let path = dir.join("endings.trace");
    let trace = Trace::start(&path, RunHead::default(), None, 0).expect("starts");
    let endings = agent
        .iter()
        .map(RunEnding::from)
        .chain(outside.into_iter().map(|(e, _)| e));
    for ending in endings {
        trace.end(&ending, 0, 0.0, Usage::default(), None);
    }
    let lines = read_back(&path);
    assert_eq!(lines.len(), 1 + agent.len() + 5);
    let _ = std::fs::remove_dir_all(&dir);
}
