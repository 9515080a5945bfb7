//! The parts of a traced step's section beyond its actions: what the model
//! was shown (folded, as it can be long), the console messages and
//! requests of the step, the screenshots before (what the model saw) and
//! after its actions, and any field an action carries that the page does
//! not know by name (shown as it is, so additions to the trace appear
//! without a change here). Everything is escaped: the page wrote most of it.

use std::fmt::Write as _;

use rove_base::text::html_escaped as esc;
use serde_json::Value;

use crate::trace_html::text;

/// Styles of the parts below, added to the page's.
pub const STYLE: &str = ".seen{margin:.4em 0}.seen summary{font-weight:400;color:#333}\
.console li.error{color:#b22}.console li.warning{color:#8a6100}\
table.network{border-collapse:collapse;font-size:.9em}table.network td{border-bottom:1px solid #eee;padding:.1em .5em;vertical-align:top;word-break:break-all}\
.shots{display:flex;gap:1em;flex-wrap:wrap}.shots figure{margin:0;flex:1 1 30em}figcaption{color:#555;font-size:.9em}\
.status.passed{color:#186a18}.status.failed,.status.error{color:#b22}.status.unjudged,.status.self-reported{color:#8a6100}\
dl.extra{margin:.2em 0;font-size:.9em}dl.extra dt{font-weight:600;display:inline}dl.extra dd{display:inline;margin:0 1em 0 .3em}";

/// The fields of an action the page shows by name.
// `timing` has a line of its own (trace_html_cmd::split_text).
const KNOWN: &[&str] = &["tool", "arguments", "target", "result", "failed", "timing"];

/// What the model was shown at the step, folded.
pub fn observation(page: &mut String, step: &Value) {
    let Some(text) = step["observation"].as_str() else {
        return;
    };
    let _ = writeln!(
        page,
        "<details class=\"seen observation\"><summary>what the model was shown ({} lines)</summary><pre>{}</pre></details>",
        text.lines().count(),
        esc(text)
    );
}

/// An action's fields beyond the known ones, as JSON.
pub fn extra_fields(page: &mut String, action: &Value) {
    let Some(fields) = action.as_object() else {
        return;
    };
    let extra: Vec<(&String, &Value)> = fields
        .iter()
        .filter(|(k, v)| !KNOWN.contains(&k.as_str()) && !v.is_null())
        .collect();
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
/// (open when it holds an error or a failed request).
pub fn console_and_network(page: &mut String, step: &Value) {
    let empty = Vec::new();
    let console = step["console"].as_array().unwrap_or(&empty);
    let network = step["network"].as_array().unwrap_or(&empty);
    if !console.is_empty() {
        let errors = console.iter().any(|m| m["level"] == "error");
        let _ = write!(
            page,
            "<details class=\"seen console\"{}><summary>console: {} message{}</summary><ul class=console>",
            if errors { " open" } else { "" },
            console.len(),
            if console.len() == 1 { "" } else { "s" }
        );
        for m in console {
            let level = text(&m["level"]);
            let source = text(&m["source"]);
            let _ = write!(
                page,
                "<li class=\"{}\">[{}{}] {}{} <span class=meta>({})</span></li>",
                esc(&level),
                esc(&level),
                if source == "console" || source.is_empty() {
                    String::new()
                } else {
                    format!(" {}", esc(&source))
                },
                esc(&text(&m["text"])),
                m["location"]
                    .as_str()
                    .map(|l| format!(" at {}", esc(l)))
                    .unwrap_or_default(),
                esc(&text(&m["tab"]))
            );
        }
        page.push_str("</ul></details>\n");
    }
    if !network.is_empty() {
        let failed = network
            .iter()
            .any(|r| text(&r["state"]).starts_with("failed") || r["status"].as_u64() >= Some(400));
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
                esc(&text(&r["method"])),
                esc(&text(&r["url"])),
                esc(&text(&r["resource_type"])),
                r["status"]
                    .as_u64()
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
                esc(&text(&r["state"])),
                r["ms"]
                    .as_f64()
                    .map(|ms| format!("{ms:.0} ms"))
                    .unwrap_or_default(),
                esc(&text(&r["tab"]))
            );
        }
        page.push_str("</table></details>\n");
    }
    if let Some(n) = step["left_out"].as_u64().filter(|n| *n > 0) {
        let _ = writeln!(
            page,
            "<p class=meta>{n} more console messages and requests of this step were not kept</p>"
        );
    }
}

/// The screenshots before (what the model saw) and after the actions,
/// side by side; one left out of the trace's budget says so.
pub fn screenshots(page: &mut String, step: &Value) {
    let n = step["number"].as_u64().unwrap_or(0);
    let shots = [
        (
            &step["screenshot"],
            "before: what the model saw",
            "what the model saw at step",
        ),
        (
            &step["screenshot_after"],
            "after the actions",
            "after the actions of step",
        ),
    ];
    if shots.iter().all(|(shot, _, _)| shot.is_null()) {
        return;
    }
    page.push_str("<div class=shots>");
    for (shot, caption, alt) in shots {
        match shot {
            Value::String(url) if url.starts_with("data:image/") => {
                let _ = write!(
                    page,
                    "<figure><img alt=\"{alt} {n}\" src=\"{}\"><figcaption>{caption}</figcaption></figure>",
                    esc(url)
                );
            }
            Value::Object(o) => {
                let _ = write!(
                    page,
                    "<figure><p class=meta>{caption}: {}</p></figure>",
                    esc(&text(&o["left_out"]))
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
    use serde_json::json;

    #[test]
    fn page_written_parts_are_escaped_and_unknown_action_fields_shown() {
        let step = json!({"number": 2, "observation": "<b>view</b>\nline 2",
            "console": [{"tab": "t1", "level": "error", "source": "console", "text": "<i>boom</i>"}],
            "network": [{"tab": "t1", "method": "GET", "url": "http://x.test/a?<q>", "resource_type": "Fetch", "status": 500, "state": "finished", "ms": 3.0}],
            "left_out": 4,
            "screenshot": {"left_out": "over the trace's 1 MiB of screenshots"},
            "screenshot_after": "data:image/jpeg;base64,AAAA"});
        let mut page = String::new();
        observation(&mut page, &step);
        console_and_network(&mut page, &step);
        screenshots(&mut page, &step);
        extra_fields(
            &mut page,
            &json!({"tool": "click", "result": "ok", "timing": {"cdp_ms": 3}, "retried": 2}),
        );
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
