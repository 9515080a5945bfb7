//! `report.html`: one static file with no script and no request to
//! anywhere (styles inline, screenshots as data URIs, an empty icon so the
//! browser does not ask for /favicon.ico), so it opens from a
//! CI artifact as it is. The suite's table first, then each attempt with
//! its checks and its timeline: per step the model's thought, each action
//! with its arguments and result (the page's diff), tokens, time and the
//! screenshot the model saw; links to its trace when it has one.
//! Everything shown is escaped: a page's text
//! reaches the report through the results, and must not become markup.

use std::fmt::Write as _;

use base64::Engine;
use rove_agent::StepRecord;

use crate::attempt::{AttemptResult, Status};
use crate::results::SuiteResults;
use rove_base::text::{ellipsized, html_escaped as esc};

/// Action results longer than this are cut in the report.
const RESULT_CHARS: usize = 4_000;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}\
.passed{color:#186a18}.failed,.error{color:#a61b1b}.skipped,.self-reported,.unjudged{color:#8a6100}\
pre{white-space:pre-wrap;margin:0;max-width:70em}details{margin:.6em 0}summary{cursor:pointer}\
img{max-width:480px;border:1px solid #ccc}";

/// The report of `results`; each attempt's steps are read from its
/// history file (an attempt without one shows no timeline).
pub fn report_html(results: &SuiteResults) -> String {
    let mut html = String::with_capacity(16_384);
    let verdict = if results.met { "PASSED" } else { "FAILED" };
    let _ = write!(
        html,
        "<!doctype html><html><head><meta charset=utf-8><link rel=icon href=\"data:,\"><title>rove test: {verdict}</title><style>{STYLE}</style></head><body>"
    );
    let s = &results.suite;
    let _ = write!(
        html,
        "<h1 class={}>rove test: {verdict}</h1><p id=suite>{} · {} attempts: {} passed, {} failed, {} skipped, {} self-reported, {} error{} · pass rate {} ({}–{}) · {}/{} tokens · {:.1} s{}{}</p>",
        if results.met { "passed" } else { "failed" },
        esc(&results.model),
        s.attempts,
        s.passed,
        s.failed,
        s.skipped,
        s.self_reported,
        s.error,
        results.findings_summary(),
        rate(s.pass_rate),
        pct(s.interval[0]),
        pct(s.interval[1]),
        s.tokens_in,
        s.tokens_out,
        results.seconds,
        results
            .shard
            .as_ref()
            .map(|sh| format!(" · shard {}", esc(sh)))
            .unwrap_or_default(),
        if results.interrupted {
            " · interrupted"
        } else {
            ""
        },
    );
    html.push_str("<table id=tasks><tr><th>task</th><th>passed</th><th>rate</th><th>95% interval</th><th>threshold</th><th>median steps</th><th>tokens in/out</th><th>time</th><th>why not</th></tr>");
    for t in &results.tasks {
        let s = &t.totals;
        let _ = write!(
            html,
            "<tr class={}><td>{}</td><td>{}/{}</td><td>{}</td><td>{}–{}</td><td>{}</td><td>{}</td><td>{}/{}</td><td>{:.1} s</td><td>{}</td></tr>",
            if t.met { "passed" } else { "failed" },
            esc(&t.name),
            s.passed,
            s.attempts,
            rate(s.pass_rate),
            pct(s.interval[0]),
            pct(s.interval[1]),
            pct(t.threshold),
            s.median_steps
                .map(|m| m.to_string())
                .unwrap_or_else(|| "-".into()),
            s.tokens_in,
            s.tokens_out,
            s.seconds,
            t.reasons
                .iter()
                .map(|r| esc(r))
                .collect::<Vec<_>>()
                .join("<br>"),
        );
    }
    html.push_str("</table><h2>Attempts</h2>");
    for a in &results.attempts {
        attempt(&mut html, a);
    }
    html.push_str("</body></html>\n");
    html
}

fn attempt(html: &mut String, a: &AttemptResult) {
    let status = a.status.as_str();
    let _ = write!(
        html,
        "<details class=attempt{}><summary><b class={status}>{status}</b> {} #{} · {} steps · {}/{} tokens · {:.1} s{}</summary>",
        if a.status == Status::Passed {
            ""
        } else {
            " open"
        },
        esc(&a.task),
        a.attempt,
        a.steps,
        a.tokens_in,
        a.tokens_out,
        a.seconds,
        a.reason
            .as_ref()
            .map(|r| match a.error_code {
                Some(code) => format!(" — <code>{}</code> {}", code.as_str(), esc(r)),
                None => format!(" — {}", esc(r)),
            })
            .unwrap_or_default(),
    );
    if let Some(answer) = &a.answer {
        let _ = write!(html, "<p>answer: {}</p>", esc(answer));
    }
    if let Some(step) = a.reached_captcha {
        let _ = write!(
            html,
            "<p class=challenge>met a challenge {}</p>",
            if step == 0 {
                "on the first page".to_owned()
            } else {
                format!("before step {step}")
            }
        );
    }
    if let Some(j) = &a.judge {
        let verdict = j.verdict.as_str();
        let said = match &j.error {
            Some(error) => error.clone(),
            None if j.failure_reason.is_empty() => j.reasoning.clone(),
            None => format!("{} ({})", j.failure_reason, j.reasoning),
        };
        let _ = write!(
            html,
            "<p class=judge>judge {}: <b class={}>{verdict}</b>{}{}{} — {}</p>",
            esc(&j.model),
            if verdict == "pass" {
                "passed"
            } else if verdict == "fail" {
                "failed"
            } else {
                "unjudged"
            },
            if a.divergence {
                " · divergence: the agent says otherwise"
            } else {
                ""
            },
            if j.impossible_task {
                " · impossible task"
            } else {
                ""
            },
            if j.reached_captcha {
                " · reached a captcha"
            } else {
                ""
            },
            esc(&said),
        );
    }
    if !a.checks.is_empty() {
        html.push_str("<ul class=checks>");
        for c in &a.checks {
            let _ = write!(
                html,
                "<li class={}>{} {}: {}</li>",
                if c.passed { "passed" } else { "failed" },
                if c.passed { "✓" } else { "✗" },
                c.check,
                esc(&c.detail)
            );
        }
        html.push_str("</ul>");
    }
    trace_links(html, a);
    let steps = a.history.as_deref().map(steps_of).unwrap_or_default();
    if !steps.is_empty() {
        html.push_str("<table class=timeline><tr><th>step</th><th>thought and actions</th><th>tokens in/out</th><th>time</th><th>what the model saw</th></tr>");
        for step in &steps {
            timeline_row(html, step);
        }
        html.push_str("</table>");
    }
    html.push_str("</details>");
}

fn timeline_row(html: &mut String, step: &StepRecord) {
    let _ = write!(html, "<tr><td>{}</td><td>", step.number);
    if !step.thought.trim().is_empty() {
        let _ = write!(html, "<p><i>{}</i></p>", esc(&step.thought));
    }
    for action in &step.actions {
        let _ = write!(
            html,
            "<p class={}><b>{}</b> {}</p><pre>{}</pre>",
            if action.failed { "failed" } else { "passed" },
            esc(&action.tool),
            esc(&action.arguments.to_string()),
            esc(&ellipsized(&action.result, RESULT_CHARS)),
        );
    }
    let _ = write!(
        html,
        "</td><td>{}/{}</td><td>{:.1} s</td><td>",
        step.usage.input,
        step.usage.output,
        step.ms / 1000.0
    );
    if let Some(bytes) = step
        .screenshot
        .as_deref()
        .and_then(|p| std::fs::read(p).ok())
    {
        let _ = write!(
            html,
            "<img alt=\"step {} screenshot\" src=\"data:image/jpeg;base64,{}\">",
            step.number,
            base64::engine::general_purpose::STANDARD.encode(bytes)
        );
    }
    html.push_str("</td></tr>");
}

/// Links to the attempt's trace, its page, the raw file and its video, relative to
/// the report (both live in `traces/` beside it), so the folder can be
/// moved or unpacked from a CI artifact as a whole.
fn trace_links(html: &mut String, a: &AttemptResult) {
    let name = |path: &str| {
        std::path::Path::new(path)
            .file_name()
            .map(|n| format!("traces/{}", n.to_string_lossy()))
    };
    let Some(raw) = a.trace.as_deref().and_then(name) else {
        return;
    };
    html.push_str("<p class=trace>trace: ");
    if let Some(view) = a.trace_view.as_deref().and_then(name) {
        let _ = write!(
            html,
            "<a class=trace-view href=\"{}\">steps</a> · ",
            esc(&view)
        );
    }
    let _ = write!(
        html,
        "<a class=trace-raw href=\"{}\">JSON lines</a>",
        esc(&raw)
    );
    if let Some(video) = a.video.as_deref().and_then(name) {
        let _ = write!(
            html,
            " · <a class=video href=\"{}\">video (GIF)</a>",
            esc(&video)
        );
    }
    html.push_str("</p>");
}

/// The steps in a history file; none when it cannot be read.
fn steps_of(path: &str) -> Vec<StepRecord> {
    #[derive(serde::Deserialize)]
    struct History {
        #[serde(default)]
        steps: Vec<StepRecord>,
    }
    std::fs::read(path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<History>(&bytes).ok())
        .map(|h| h.steps)
        .unwrap_or_default()
}

fn rate(r: Option<f64>) -> String {
    r.map(pct).unwrap_or_else(|| "-".into())
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}
