//! `rove trace show FILE [-o OUT.html]`: a trace as one static HTML page
//! that opens offline (no script, no request: screenshots are inlined): the
//! run's task, model and ending; a timeline with a bar per step, as long as
//! the step took and red when it failed; then each step, expandable (a
//! failed one open), with the model's text, its token counts, the time
//! split into the model's and the rest, each action with its arguments,
//! target and result, an error shown with its code, message and hint, and
//! the screenshot the model saw; for a traced run also what the model was
//! shown, the console messages and requests of the step and the screenshot
//! after its actions (`seen.rs`); with `--trace-screencast`, the page's
//! frames as a filmstrip under the steps (`film.rs`). A `rove test`
//! attempt's trace shows its status and reason beside the ending.

pub(crate) mod command;
pub(crate) mod export;
pub(crate) mod film;
pub(crate) mod seen;

use std::fmt::Write as _;
use std::path::PathBuf;

use rove_base::text::html_escaped as esc;
use rove_commands::trace_format::{
    RunEnd, RunEnding, RunHead, TraceEnd, TraceLine, TracedFailure, TracedStep,
};

use crate::cli::side::TraceShowArgs;
use crate::failure::Failure;
use crate::output::Output;

/// Writes the page; the exit status.
pub fn show(args: &TraceShowArgs, out: Output) -> u8 {
    let failed = |message: String, hint: &str| {
        let failure = Failure::new(rove_errors::ErrorCode::CommandRejected, message, hint);
        out.failure(&failure, None);
        failure.exit_status()
    };
    let text =
        match rove_base::user_file::read_text(&args.file, rove_base::limits::TRACE_FILE_BYTES) {
            Ok(text) => text,
            Err(e) => {
                return failed(
                    format!("reading {e}"),
                    "give the file rove run --trace wrote",
                );
            }
        };
    let lines = read_lines(&text);
    let commands = crate::trace_html::command::is_command_trace(&lines);
    if !commands && !lines.iter().any(|l| matches!(l, TraceLine::Run(_))) {
        return failed(
            format!("{} is not a rove trace", args.file.display()),
            "give the file rove run --trace wrote",
        );
    }
    let target: PathBuf = match &args.out {
        Some(out) if same_file(out, &args.file) => {
            return failed(
                format!("-o {} is the trace itself", out.display()),
                "give another file to -o: the page never replaces its trace",
            );
        }
        Some(out) => out.clone(),
        // A trace named `run.html` keeps its name: the page goes beside it.
        None => match args.file.with_extension("html") {
            beside if same_file(&beside, &args.file) => {
                let stem = args.file.file_stem().unwrap_or_default().to_string_lossy();
                args.file.with_file_name(format!("{stem}.trace.html"))
            }
            beside => beside,
        },
    };
    let page = match commands {
        true => crate::trace_html::command::render(&lines),
        false => render(&lines),
    };
    // Private as the trace it shows (what the pages showed), and never
    // written through a link planted at its path.
    if let Err(e) = rove_base::user_file::write(
        &target,
        page.as_bytes(),
        rove_base::user_file::Access::Private,
    ) {
        return failed(format!("writing {e}"), "choose a writable path with -o");
    }
    out.line(&format!("wrote {}", target.display()));
    out.success(serde_json::json!({"path": target}));
    0
}

/// Whether `a` and `b` name one file (by path, or through a link: the same
/// device and inode).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if a == b {
        return true;
    }
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}\
h1{font-size:1.3em}.meta{color:#555}.timeline{display:flex;gap:2px;height:2.2em;margin:1em 0}\
.bar{background:#4a8;color:#fff;text-decoration:none;text-align:center;line-height:2.2em;min-width:1.6em;border-radius:3px}\
.bar.failed{background:#c44}section{border-top:1px solid #ddd;padding:.4em 0}summary{cursor:pointer;font-weight:600}\
.failed>details>summary{color:#b22}.thought{white-space:pre-wrap;color:#333}ol{padding-left:1.4em}\
li.failed .result{border-left:3px solid #c44}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em;margin:.3em 0;max-height:30em;overflow:auto}\
.error{color:#b22}.hint{color:#555}img{max-width:100%;border:1px solid #ccc;margin-top:.5em}code{background:#f0f0f0;padding:0 .2em}";

/// The lines of a trace file. A line that cannot be read (one cut by a
/// crash, a line of another file) is left out and said in the log: the
/// rest still shows.
pub fn read_lines(text: &str) -> Vec<TraceLine> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .filter_map(|(i, l)| match TraceLine::parse(l) {
            Ok(line) => Some(line),
            Err(e) => {
                tracing::warn!(line = i + 1, error = %e, "a trace line is left out");
                None
            }
        })
        .collect()
}

/// The page for a trace's lines.
pub fn render(lines: &[TraceLine]) -> String {
    let run = lines
        .iter()
        .find_map(|l| match l {
            TraceLine::Run(head) => Some(head.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let end: Option<&RunEnd> = lines.iter().find_map(|l| match l {
        TraceLine::End(TraceEnd::Run(end)) => Some(&**end),
        _ => None,
    });
    let steps: Vec<&TracedStep> = lines
        .iter()
        .filter_map(|l| match l {
            TraceLine::Step(step) => Some(&**step),
            _ => None,
        })
        .collect();
    let (film, anchors) = run_filmstrip(lines);
    let task = &run.task;
    let mut page = format!(
        "<!doctype html><html><head><meta charset=utf-8><link rel=icon href=\"data:,\"><title>rove trace: {}</title><style>{STYLE}{}{}</style></head><body>\n<h1>{}</h1>\n",
        esc(task),
        crate::trace_html::seen::STYLE,
        crate::trace_html::film::STYLE,
        esc(task)
    );
    let _ = writeln!(
        page,
        "<p class=meta>{} · start {} · {} steps · {} · tokens {} in, {} out · ending: {}</p>",
        esc(&run.model),
        esc(run.start_url.as_deref().unwrap_or_default()),
        steps.len(),
        end.map_or_else(
            || "time unknown".to_owned(),
            |e| format!("{:.1} s", e.seconds)
        ),
        end.map_or(0, |e| e.usage.input),
        end.map_or(0, |e| e.usage.output),
        esc(&end.map_or_else(|| "unknown".to_owned(), |e| ending_text(&e.ending))),
    );
    // A `rove test` attempt: which one, and what came of it.
    if let Some(attempt) = end.and_then(|e| e.attempt.as_ref()) {
        attempt_html(&mut page, &run, &attempt.status, attempt.reason.as_deref());
    }
    page.push_str("<nav class=timeline>");
    for step in &steps {
        let n = step.number;
        let ms = step.ms.max(1.0);
        let class = match step.failure {
            None => "bar",
            Some(_) => "bar failed",
        };
        let _ = write!(
            page,
            "<a class=\"{class}\" href=\"#step-{n}\" style=\"flex-grow:{ms:.0}\" title=\"step {n}: {ms:.0} ms\">{n}</a>"
        );
    }
    page.push_str("</nav>\n");
    for (step, frame) in steps.iter().zip(&anchors) {
        step_html(&mut page, step, frame.as_deref());
    }
    page.push_str(&film);
    page.push_str("</body></html>\n");
    page
}

/// The filmstrip of a run traced with `--trace-screencast`: each step's
/// frame is the last written before its line. The section, and each
/// step's anchor.
fn run_filmstrip(lines: &[TraceLine]) -> (String, Vec<Option<String>>) {
    use crate::trace_html::film::{Mark, Place};
    let mut frames = Vec::new();
    let mut marks = Vec::new();
    for line in lines {
        match line {
            TraceLine::Frame(frame) => frames.push(frame),
            TraceLine::Step(step) => {
                let tools: Vec<&str> = step.actions.iter().map(|a| a.tool.as_str()).collect();
                marks.push(Mark {
                    tick: step.number.to_string(),
                    label: format!("step {} ({})", step.number, tools.join(", ")),
                    pointers: step.actions.iter().filter_map(|a| a.pointer).collect(),
                    place: Place::After(frames.len()),
                });
            }
            _ => {}
        }
    }
    crate::trace_html::film::filmstrip(&frames, &marks)
}

fn attempt_html(page: &mut String, run: &RunHead, status: &str, reason: Option<&str>) {
    let _ = writeln!(
        page,
        "<p class=\"meta attempt\">{} #{} · status: <b class=\"status {}\">{}</b>{}</p>",
        esc(run.name.as_deref().unwrap_or_default()),
        run.attempt.unwrap_or(0),
        esc(status),
        esc(status),
        reason.map(|r| format!(" — {}", esc(r))).unwrap_or_default()
    );
}

fn step_html(page: &mut String, step: &TracedStep, frame: Option<&str>) {
    let n = step.number;
    let failed = step.failure.is_some();
    let tools: Vec<&str> = step.actions.iter().map(|a| a.tool.as_str()).collect();
    let (ms, model_ms) = (step.ms, step.model_ms);
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
        step.failure
            .as_ref()
            .map(|f| format!(" · {}", esc(&failure_text(f))))
            .unwrap_or_default()
    );
    let _ = writeln!(
        page,
        "<p class=meta>tokens: {} in ({} cached), {} out</p>",
        step.usage.input, step.usage.cached, step.usage.output
    );
    if !step.thought.is_empty() {
        let _ = writeln!(page, "<p class=thought>{}</p>", esc(&step.thought));
    }
    if let Some(frame) = frame {
        let _ = writeln!(
            page,
            "<p class=meta><a class=to-frame href=\"#{frame}\">its frame in the screencast</a></p>"
        );
    }
    crate::trace_html::seen::observation(page, step);
    page.push_str("<ol class=actions>");
    for action in &step.actions {
        let target = action
            .target
            .as_ref()
            .map(|t| format!(" on {} \"{}\"", esc(&t.role), esc(&t.name)))
            .unwrap_or_default();
        let tab = action
            .tab
            .as_ref()
            .map(|t| format!(" <span class=meta>in {}</span>", esc(t)))
            .unwrap_or_default();
        let _ = write!(
            page,
            "<li{}><b>{}</b> <code>{}</code>{target}{tab}",
            if action.failed { " class=failed" } else { "" },
            esc(&action.tool),
            esc(&action.arguments.to_string())
        );
        if let Some(timing) = &action.timing {
            let _ = write!(
                page,
                " <span class=meta>{}</span>",
                esc(&crate::trace_html::command::split_text(timing))
            );
        }
        if let Some(error) = error_of(&action.result) {
            let _ = write!(
                page,
                "<p class=error>{}: {}</p><p class=hint>hint: {}</p>",
                esc(error.code.as_str()),
                esc(&error.message),
                esc(&error.hint)
            );
        }
        let _ = write!(page, "<pre class=result>{}</pre>", esc(&action.result));
        crate::trace_html::seen::extra_fields(page, &action.extra);
        page.push_str("</li>\n");
    }
    page.push_str("</ol>\n");
    crate::trace_html::seen::console_and_network(page, &step.console, &step.network, step.left_out);
    crate::trace_html::seen::screenshots(page, step);
    page.push_str("</details></section>\n");
}

/// A failed action's typed error, when its result starts with one.
fn error_of(result: &str) -> Option<rove_errors::Report> {
    serde_json::from_str(result.lines().next()?).ok()
}

fn failure_text(failure: &TracedFailure) -> String {
    format!(
        "failure {}/{}: {}",
        failure.count, failure.limit, failure.why
    )
}

fn ending_text(ending: &RunEnding) -> String {
    match ending {
        RunEnding::Done { text, success } => format!(
            "done ({}): {text}",
            if *success { "success" } else { "no success" }
        ),
        RunEnding::MaxSteps => "max steps".into(),
        RunEnding::Failures { .. } => "failures".into(),
        RunEnding::Timeout { .. } => "timeout".into(),
        RunEnding::Loop => "loop".into(),
        RunEnding::Challenge { kind, why, .. } => format!("challenge ({kind}): {why}"),
        RunEnding::Error { .. } => "error".into(),
        RunEnding::Interrupted { .. } => "interrupted".into(),
        RunEnding::Other => "unknown".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn page_text_is_escaped_and_a_failed_step_shows_its_error_open() {
        let lines = [
            json!({"kind": "run", "task": "<script>alert(1)</script>", "model": "openai:m"}),
            json!({"kind": "step", "number": 1, "thought": "a & b", "ms": 40.0, "model_ms": 30.0,
                "usage": {"input": 5, "output": 1},
                "failure": {"count": 1, "limit": 5, "why": "every action failed"},
                "actions": [{"tool": "click", "arguments": {"ref": "e9"}, "failed": true,
                    "result": "{\"code\":\"REF_NOT_FOUND\",\"message\":\"no e9\",\"hint\":\"take a snapshot\",\"retry\":\"reobserve\",\"action_sent\":\"not_sent\",\"side_effect\":\"none\"}\nview"}]}),
            json!({"kind": "end", "ending": {"reason": "max_steps"}, "seconds": 1.0, "usage": {"input": 5, "output": 1}}),
        ];
        // Read as a file is: lines lacking fields still show.
        let text: Vec<String> = lines.iter().map(Value::to_string).collect();
        let page = render(&read_lines(&text.join("\n")));
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("&lt;script&gt;") && page.contains("a &amp; b"));
        assert!(page.contains("<details open>") && page.contains("REF_NOT_FOUND: no e9"));
        assert!(page.contains("hint: take a snapshot") && page.contains("model 30 ms"));
        assert!(page.contains("ending: max steps"));
    }
}
