//! `rove trace show FILE [-o OUT.html]`: a trace as one static HTML page
//! that opens offline (no script, no request: screenshots are inlined): the
//! run's task, model and ending; a timeline with a bar per step, as long as
//! the step took and red when it failed; then each step, expandable (a
//! failed one open), with the model's text, its token counts, the time
//! split into the model's and the rest, each action with its arguments,
//! target and result, an error shown with its code, message and hint, and
//! the screenshot the model saw; for a traced run also what the model was
//! shown, the console messages and requests of the step and the screenshot
//! after its actions (`trace_html_seen.rs`). A `rove test` attempt's trace
//! shows its status and reason beside the ending.

use std::fmt::Write as _;
use std::path::PathBuf;

use rove_base::text::html_escaped as esc;
use serde_json::Value;

use crate::cli_side::TraceShowArgs;
use crate::failure::Failure;
use crate::output::Output;

/// Writes the page; the exit status.
pub fn show(args: &TraceShowArgs, out: Output) -> u8 {
    let failed = |message: String, hint: &str| {
        let failure = Failure::new(rove_errors::ErrorCode::CommandRejected, message, hint);
        out.failure(&failure, None);
        failure.exit_status()
    };
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => {
            return failed(
                format!("reading {}: {e}", args.file.display()),
                "give the file rove run --trace wrote",
            );
        }
    };
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let commands = crate::trace_html_cmd::is_command_trace(&lines);
    if !commands && !lines.iter().any(|l| l["kind"] == "run") {
        return failed(
            format!("{} is not a rove trace", args.file.display()),
            "give the file rove run --trace wrote",
        );
    }
    let target: PathBuf = args
        .out
        .clone()
        .unwrap_or_else(|| args.file.with_extension("html"));
    let page = match commands {
        true => crate::trace_html_cmd::render(&lines),
        false => render(&lines),
    };
    if let Err(e) = std::fs::write(&target, page) {
        return failed(
            format!("writing {}: {e}", target.display()),
            "choose a writable path with -o",
        );
    }
    out.line(&format!("wrote {}", target.display()));
    out.success(serde_json::json!({"path": target}));
    0
}

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}\
h1{font-size:1.3em}.meta{color:#555}.timeline{display:flex;gap:2px;height:2.2em;margin:1em 0}\
.bar{background:#4a8;color:#fff;text-decoration:none;text-align:center;line-height:2.2em;min-width:1.6em;border-radius:3px}\
.bar.failed{background:#c44}section{border-top:1px solid #ddd;padding:.4em 0}summary{cursor:pointer;font-weight:600}\
.failed>details>summary{color:#b22}.thought{white-space:pre-wrap;color:#333}ol{padding-left:1.4em}\
li.failed .result{border-left:3px solid #c44}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em;margin:.3em 0;max-height:30em;overflow:auto}\
.error{color:#b22}.hint{color:#555}img{max-width:100%;border:1px solid #ccc;margin-top:.5em}code{background:#f0f0f0;padding:0 .2em}";

/// The page for a trace's lines.
pub fn render(lines: &[Value]) -> String {
    let run = lines
        .iter()
        .find(|l| l["kind"] == "run")
        .cloned()
        .unwrap_or_default();
    let end = lines.iter().find(|l| l["kind"] == "end").cloned();
    let steps: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "step").collect();
    let task = text(&run["task"]);
    let mut page = format!(
        "<!doctype html><html><head><meta charset=utf-8><link rel=icon href=\"data:,\"><title>rove trace: {}</title><style>{STYLE}{}</style></head><body>\n<h1>{}</h1>\n",
        esc(&task),
        crate::trace_html_seen::STYLE,
        esc(&task)
    );
    let ending = end
        .as_ref()
        .map(|e| e["ending"].clone())
        .unwrap_or_default();
    let _ = writeln!(
        page,
        "<p class=meta>{} · start {} · {} steps · {} · tokens {} in, {} out · ending: {}</p>",
        esc(&text(&run["model"])),
        esc(&text(&run["start_url"])),
        steps.len(),
        end.as_ref()
            .and_then(|e| e["seconds"].as_f64())
            .map_or_else(|| "time unknown".to_owned(), |s| format!("{s:.1} s")),
        end.as_ref()
            .map_or(0, |e| e["usage"]["input"].as_u64().unwrap_or(0)),
        end.as_ref()
            .map_or(0, |e| e["usage"]["output"].as_u64().unwrap_or(0)),
        esc(&ending_text(&ending)),
    );
    // A `rove test` attempt: which one, and what came of it.
    if let Some(status) = end.as_ref().and_then(|e| e["status"].as_str()) {
        let _ = writeln!(
            page,
            "<p class=\"meta attempt\">{} #{} · status: <b class=\"status {}\">{}</b>{}</p>",
            esc(&text(&run["name"])),
            run["attempt"].as_u64().unwrap_or(0),
            esc(status),
            esc(status),
            end.as_ref()
                .and_then(|e| e["reason"].as_str())
                .map(|r| format!(" — {}", esc(r)))
                .unwrap_or_default()
        );
    }
    page.push_str("<nav class=timeline>");
    for step in &steps {
        let n = step["number"].as_u64().unwrap_or(0);
        let ms = step["ms"].as_f64().unwrap_or(0.0).max(1.0);
        let class = if step["failure"].is_null() {
            "bar"
        } else {
            "bar failed"
        };
        let _ = write!(
            page,
            "<a class=\"{class}\" href=\"#step-{n}\" style=\"flex-grow:{ms:.0}\" title=\"step {n}: {ms:.0} ms\">{n}</a>"
        );
    }
    page.push_str("</nav>\n");
    for step in &steps {
        step_html(&mut page, step);
    }
    page.push_str("</body></html>\n");
    page
}

fn step_html(page: &mut String, step: &Value) {
    let n = step["number"].as_u64().unwrap_or(0);
    let failed = !step["failure"].is_null();
    let tools: Vec<String> = step["actions"]
        .as_array()
        .map(|a| a.iter().map(|x| text(&x["tool"])).collect())
        .unwrap_or_default();
    let ms = step["ms"].as_f64().unwrap_or(0.0);
    let model_ms = step["model_ms"].as_f64().unwrap_or(0.0);
    let _ = writeln!(
        page,
        "<section id=\"step-{n}\" class=\"step{}\"><details{}><summary>step {n} · {} · {ms:.0} ms (model {model_ms:.0} ms, rove and the page {:.0} ms){}</summary>",
        if failed { " failed" } else { "" },
        if failed { " open" } else { "" },
        esc(&if tools.is_empty() {
            "no action".to_owned()
        } else {
            tools.join(", ")
        }),
        (ms - model_ms).max(0.0),
        if failed {
            format!(" · {}", esc(&failure_text(&step["failure"])))
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        page,
        "<p class=meta>tokens: {} in ({} cached), {} out</p>",
        step["usage"]["input"].as_u64().unwrap_or(0),
        step["usage"]["cached"].as_u64().unwrap_or(0),
        step["usage"]["output"].as_u64().unwrap_or(0)
    );
    let thought = text(&step["thought"]);
    if !thought.is_empty() {
        let _ = writeln!(page, "<p class=thought>{}</p>", esc(&thought));
    }
    crate::trace_html_seen::observation(page, step);
    page.push_str("<ol class=actions>");
    for action in step["actions"].as_array().into_iter().flatten() {
        let failed = action["failed"].as_bool().unwrap_or(false);
        let target = if action["target"].is_null() {
            String::new()
        } else {
            format!(
                " on {} \"{}\"",
                esc(&text(&action["target"]["role"])),
                esc(&text(&action["target"]["name"]))
            )
        };
        let _ = write!(
            page,
            "<li{}><b>{}</b> <code>{}</code>{target}",
            if failed { " class=failed" } else { "" },
            esc(&text(&action["tool"])),
            esc(&action["arguments"].to_string())
        );
        if action["timing"].is_object() {
            let _ = write!(
                page,
                " <span class=meta>{}</span>",
                esc(&crate::trace_html_cmd::split_text(&action["timing"]))
            );
        }
        let result = text(&action["result"]);
        if let Some(error) = error_of(&result) {
            let _ = write!(
                page,
                "<p class=error>{}: {}</p><p class=hint>hint: {}</p>",
                esc(&text(&error["code"])),
                esc(&text(&error["message"])),
                esc(&text(&error["hint"]))
            );
        }
        let _ = write!(page, "<pre class=result>{}</pre>", esc(&result));
        crate::trace_html_seen::extra_fields(page, action);
        page.push_str("</li>\n");
    }
    page.push_str("</ol>\n");
    crate::trace_html_seen::console_and_network(page, step);
    crate::trace_html_seen::screenshots(page, step);
    page.push_str("</details></section>\n");
}

/// A failed action's typed error, when its result starts with one.
fn error_of(result: &str) -> Option<Value> {
    let first = result.lines().next()?;
    let value: Value = serde_json::from_str(first).ok()?;
    value.get("code").is_some().then_some(value)
}

fn failure_text(failure: &Value) -> String {
    format!(
        "failure {}/{}: {}",
        failure["count"].as_u64().unwrap_or(0),
        failure["limit"].as_u64().unwrap_or(0),
        text(&failure["why"])
    )
}

fn ending_text(ending: &Value) -> String {
    match ending["reason"].as_str() {
        Some("done") => format!(
            "done ({}): {}",
            if ending["success"].as_bool().unwrap_or(false) {
                "success"
            } else {
                "no success"
            },
            text(&ending["text"])
        ),
        Some(reason) => reason.replace('_', " "),
        None => "unknown".into(),
    }
}

/// A JSON string as text; anything else as JSON (empty for null).
pub(crate) fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn page_text_is_escaped_and_a_failed_step_shows_its_error_open() {
        let lines = vec![
            json!({"kind": "run", "task": "<script>alert(1)</script>", "model": "openai:m"}),
            json!({"kind": "step", "number": 1, "thought": "a & b", "ms": 40.0, "model_ms": 30.0,
                "usage": {"input": 5, "output": 1},
                "failure": {"count": 1, "limit": 5, "why": "every action failed"},
                "actions": [{"tool": "click", "arguments": {"ref": "e9"}, "failed": true,
                    "result": "{\"code\":\"REF_NOT_FOUND\",\"message\":\"no e9\",\"hint\":\"take a snapshot\"}\nview"}]}),
            json!({"kind": "end", "ending": {"reason": "max_steps"}, "seconds": 1.0, "usage": {"input": 5, "output": 1}}),
        ];
        let page = render(&lines);
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("&lt;script&gt;") && page.contains("a &amp; b"));
        assert!(page.contains("<details open>") && page.contains("REF_NOT_FOUND: no e9"));
        assert!(page.contains("hint: take a snapshot") && page.contains("model 30 ms"));
        assert!(page.contains("ending: max steps"));
    }
}
