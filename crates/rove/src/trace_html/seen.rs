//! The parts of a traced step's section beyond its actions: what the model
//! was shown (folded, as it can be long), the console messages and
//! requests of the step, the screenshots before (what the model saw) and
//! after its actions, and any field an action carries that the page does
//! not know by name (shown as it is, so additions to the trace appear
//! without a change here). Everything is escaped: the page wrote most of it.

use std::fmt::Write as _;

use rove_base::text::html_escaped as esc;
use rove_commands::trace_format::{SeenConsole, SeenRequest, TraceScreenshot, TracedStep};
use serde_json::{Map, Value};

/// Styles of the parts below, added to the page's.
pub const STYLE: &str = ".seen{margin:.4em 0}.seen summary{font-weight:400;color:#333}\
.console li.error{color:#b22}.console li.warning{color:#8a6100}\
table.network{border-collapse:collapse;font-size:.9em}table.network td{border-bottom:1px solid #eee;padding:.1em .5em;vertical-align:top;word-break:break-all}\
.shots{display:flex;gap:1em;flex-wrap:wrap}.shots figure{margin:0;flex:1 1 30em}figcaption{color:#555;font-size:.9em}\
.status.passed{color:#186a18}.status.failed,.status.error{color:#b22}.status.unjudged,.status.self-reported{color:#8a6100}\
dl.extra{margin:.2em 0;font-size:.9em}dl.extra dt{font-weight:600;display:inline}dl.extra dd{display:inline;margin:0 1em 0 .3em}";

/// What the model was shown at the step, folded.
pub fn observation(page: &mut String, step: &TracedStep) {
    let Some(text) = step.observation.as_deref() else {
        return;
    };
    let _ = writeln!(
        page,
        "<details class=\"seen observation\"><summary>what the model was shown ({} lines)</summary><pre>{}</pre></details>",
        text.lines().count(),
        esc(text)
    );
}

/// An action's fields beyond the ones the trace format knows, as JSON.
pub fn extra_fields(page: &mut String, fields: &Map<String, Value>) {
    let extra: Vec<(&String, &Value)> = fields.iter().filter(|(_, v)| !v.is_null()).collect();
    if extra.is_empty() {
        return;
    }
    page.push_str("<dl class=extra>");
    for (key, value) in extra {
        let _ = write!(
            page,
            "<dt>{}</dt><dd><code>{}</code></dd>",
            esc(key),
            esc(&value.to_string())
        );
    }
    page.push_str("</dl>");
}

/// The console messages and requests of the step, each list folded
/// (open when it holds an error or a failed request), and how many more
/// were not kept (`left_out`).
pub fn console_and_network(
    page: &mut String,
    console: &[SeenConsole],
    network: &[SeenRequest],
    left_out: usize,
) {
    if !console.is_empty() {
        let errors = console.iter().any(|m| m.level == "error");
        let _ = write!(
            page,
            "<details class=\"seen console\"{}><summary>console: {} message{}</summary><ul class=console>",
            if errors { " open" } else { "" },
            console.len(),
            if console.len() == 1 { "" } else { "s" }
        );
        for m in console {
            let source = &m.source;
            let _ = write!(
                page,
                "<li class=\"{}\">[{}{}] {}{} <span class=meta>({})</span></li>",
                esc(&m.level),
                esc(&m.level),
                if source == "console" || source.is_empty() {
                    String::new()
                } else {
                    format!(" {}", esc(source))
                },
                esc(&m.text),
                m.location
                    .as_deref()
                    .map(|l| format!(" at {}", esc(l)))
                    .unwrap_or_default(),
                esc(&m.tab)
            );
        }
        page.push_str("</ul></details>\n");
    }
    if !network.is_empty() {
        let failed = network
            .iter()
            .any(|r| r.state.starts_with("failed") || r.status >= Some(400));
        let _ = write!(
            page,
            "<details class=\"seen network\"{}><summary>network: {} request{}</summary><table class=network>",
            if failed { " open" } else { "" },
            network.len(),
            if network.len() == 1 { "" } else { "s" }
        );
        for r in network {
            let _ = write!(
                page,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&r.method),
                esc(&r.url),
                esc(&r.resource_type),
                r.status.map(|s| s.to_string()).unwrap_or_default(),
                esc(&r.state),
                r.ms.map(|ms| format!("{ms:.0} ms")).unwrap_or_default(),
                esc(&r.tab)
            );
        }
        page.push_str("</table></details>\n");
    }
    if left_out > 0 {
        let _ = writeln!(
            page,
            "<p class=meta>{left_out} more console messages and requests of this step were not kept</p>"
        );
    }
}

/// The screenshots before (what the model saw) and after the actions,
/// side by side; one left out of the trace's budget says so.
pub fn screenshots(page: &mut String, step: &TracedStep) {
    let n = step.number;
    let shots = [
        (
            &step.screenshot,
            "before: what the model saw",
            "what the model saw at step",
        ),
        (
            &step.screenshot_after,
            "after the actions",
            "after the actions of step",
        ),
    ];
    if shots.iter().all(|(shot, _, _)| shot.is_none()) {
        return;
    }
    page.push_str("<div class=shots>");
    for (shot, caption, alt) in shots {
        match shot {
            Some(TraceScreenshot::Inlined(url)) if url.starts_with("data:image/") => {
                let _ = write!(
                    page,
                    "<figure><img alt=\"{alt} {n}\" src=\"{}\"><figcaption>{caption}</figcaption></figure>",
                    esc(url)
                );
            }
            Some(TraceScreenshot::LeftOut { left_out }) => {
                let _ = write!(
                    page,
                    "<figure><p class=meta>{caption}: {}</p></figure>",
                    esc(left_out)
                );
            }
            _ => {}
        }
    }
    page.push_str("</div>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use rove_commands::trace_format::TracedAction;
    use serde_json::json;

    #[test]
    fn page_written_parts_are_escaped_and_unknown_action_fields_shown() {
        let step = json!({"number": 2, "observation": "<b>view</b>\nline 2",
            "console": [{"tab": "t1", "level": "error", "source": "console", "text": "<i>boom</i>"}],
            "network": [{"tab": "t1", "method": "GET", "url": "http://x.test/a?<q>", "resource_type": "Fetch", "status": 500, "state": "finished", "ms": 3.0}],
            "left_out": 4,
            "screenshot": {"left_out": "over the trace's 1 MiB of screenshots"},
            "screenshot_after": "data:image/jpeg;base64,AAAA"});
        let step: TracedStep = serde_json::from_value(step).expect("a step");
        let action: TracedAction = serde_json::from_value(json!({"tool": "click", "result": "ok",
            "timing": {"total_ms": 3.0, "cdp_ms": 3.0, "settle_ms": 0.0, "rove_ms": 0.0}, "retried": 2}))
        .expect("an action");
        let mut page = String::new();
        observation(&mut page, &step);
        console_and_network(&mut page, &step.console, &step.network, step.left_out);
        screenshots(&mut page, &step);
        extra_fields(&mut page, &action.extra);
        assert!(
            !page.contains("<b>view") && !page.contains("<i>boom"),
            "{page}"
        );
        assert!(page.contains("(2 lines)") && page.contains("&lt;i&gt;boom"));
        assert!(page.contains("console\" open") && page.contains("network\" open"));
        assert!(page.contains("4 more console messages"));
        assert!(page.contains("before: what the model saw: over the trace"));
        assert!(page.contains("alt=\"after the actions of step 2\""));
        assert!(page.contains("<dt>retried</dt>"), "{page}");
        assert!(!page.contains("<dt>tool</dt>") && !page.contains("<dt>timing</dt>"));
    }
}
