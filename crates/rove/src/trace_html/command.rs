//! The page `rove trace show` writes for a trace of commands (`rove --trace
//! FILE <command>`, `rove trace start`, `rove mcp --trace`): a timeline
//! with a bar per command, as long as it took and red when it failed; then
//! each command, expandable (a failed one open), with its arguments, the
//! time split as a bar (CDP, settle, rove), its error with code and hint,
//! the text it answered, the screenshots before and after, and the console
//! messages and requests of its interval; under them the screencast's
//! filmstrip when the trace recorded one (`film.rs`). Static and offline
//! like the run page (`trace_html/mod.rs`): no script, images inlined.

use std::fmt::Write as _;

use rove_base::text::html_escaped as esc;
use rove_commands::Timing;
use rove_commands::trace_format::{
    CallerKind, CommandsEnd, TraceEnd, TraceHead, TraceLine, TraceScreenshot, TracedCommand,
    TracedFrame,
};

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}\
h1{font-size:1.3em}.meta{color:#555}.timeline{display:flex;gap:2px;height:2.2em;margin:1em 0}\
.bar{background:#4a8;color:#fff;text-decoration:none;text-align:center;line-height:2.2em;min-width:1.6em;border-radius:3px;overflow:hidden}\
.bar.failed{background:#c44}section{border-top:1px solid #ddd;padding:.4em 0}summary{cursor:pointer;font-weight:600}\
.failed>details>summary{color:#b22}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em;margin:.3em 0;max-height:30em;overflow:auto}\
.error{color:#b22}.hint{color:#555}img{max-width:48%;border:1px solid #ccc;margin:.5em .5em 0 0}code{background:#f0f0f0;padding:0 .2em}\
.split{display:flex;height:1em;width:30em;max-width:100%;border:1px solid #ccc;margin:.3em 0}.split span{display:block;height:100%}\
.cdp{background:#58c}.settle{background:#e93}.rove{background:#999}.key span{display:inline-block;width:.8em;height:.8em;margin:0 .2em 0 .6em}\
table{border-collapse:collapse;font-size:13px}td,th{border-bottom:1px solid #eee;padding:.1em .5em;text-align:left;vertical-align:top}td.url{word-break:break-all}";

/// Whether the lines are a trace of commands (its first line says so).
pub fn is_command_trace(lines: &[TraceLine]) -> bool {
    lines.iter().any(|l| matches!(l, TraceLine::Trace(_)))
}

/// The page for a command trace's lines.
pub fn render(lines: &[TraceLine]) -> String {
    let head = lines
        .iter()
        .find_map(|l| match l {
            TraceLine::Trace(head) => Some(head.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let end: Option<&CommandsEnd> = lines.iter().find_map(|l| match l {
        TraceLine::End(TraceEnd::Commands(end)) => Some(end),
        _ => None,
    });
    let commands: Vec<&TracedCommand> = lines
        .iter()
        .filter_map(|l| match l {
            TraceLine::Command(command) => Some(&**command),
            _ => None,
        })
        .collect();
    let frames: Vec<&TracedFrame> = lines
        .iter()
        .filter_map(|l| match l {
            TraceLine::Frame(frame) => Some(frame),
            _ => None,
        })
        .collect();
    let marks: Vec<crate::trace_html::film::Mark> = commands
        .iter()
        .enumerate()
        .map(|(i, c)| crate::trace_html::film::command_mark(i + 1, c))
        .collect();
    let (film, anchors) = crate::trace_html::film::filmstrip(&frames, &marks);
    let title = title_of(&head);
    let mut page = format!(
        "<!doctype html><html><head><meta charset=utf-8><link rel=icon href=\"data:,\"><title>{}</title><style>{STYLE}{}{}</style></head><body>\n<h1>{}</h1>\n",
        esc(&title),
        crate::trace_html::seen::STYLE,
        crate::trace_html::film::STYLE,
        esc(&title)
    );
    let failed = commands.iter().filter(|c| !c.ok).count();
    let total: f64 = commands.iter().map(|c| c.ms).sum();
    let _ = writeln!(
        page,
        "<p class=meta>{} commands · {failed} failed · {total:.0} ms in commands · {}</p>",
        commands.len(),
        esc(&end.map_or_else(
            || "no end line: the trace is still running, or its writer stopped".to_owned(),
            |e| format!("ended: {}", e.reason)
        )),
    );
    page.push_str("<nav class=timeline>");
    for (i, command) in commands.iter().enumerate() {
        let n = i + 1;
        let ms = command.ms.max(1.0);
        let class = if command.ok { "bar" } else { "bar failed" };
        let _ = write!(
            page,
            "<a class=\"{class}\" href=\"#cmd-{n}\" style=\"flex-grow:{ms:.0}\" title=\"{n}: {} {ms:.0} ms\">{n}</a>",
            esc(&command.name)
        );
    }
    page.push_str("</nav>\n<p class=\"meta key\">time split: <span class=cdp></span>CDP <span class=settle></span>page settle <span class=rove></span>rove</p>\n");
    for (i, command) in commands.iter().enumerate() {
        command_html(&mut page, i + 1, command, anchors[i].as_deref());
    }
    page.push_str(&film);
    page.push_str("</body></html>\n");
    page
}

/// `rove trace: session NAME`, or the face without a session.
fn title_of(head: &TraceHead) -> String {
    match head.origin.session.as_deref() {
        Some(session) if !session.is_empty() => format!("rove trace: session {session}"),
        _ => format!("rove trace: {}", head.origin.face),
    }
}

fn command_html(page: &mut String, n: usize, command: &TracedCommand, frame: Option<&str>) {
    let failed = !command.ok;
    let code = command.error.as_ref().map(|e| e.code.as_str());
    let ms = command.ms;
    let _ = writeln!(
        page,
        "<section id=\"cmd-{n}\" class=\"command{}\"><details{}><summary>{n} · {} · {ms:.0} ms{}</summary>",
        if failed { " failed" } else { "" },
        if failed { " open" } else { "" },
        esc(&command.name),
        if failed {
            format!(" · {}", esc(code.unwrap_or_default()))
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        page,
        "<p><code>{}</code> <span class=meta>by the {} · tab {}</span></p>",
        esc(&command.args.to_string()),
        match command.caller {
            CallerKind::Model => "model",
            CallerKind::Person => "person",
        },
        esc(command.tab.as_deref().unwrap_or_default())
    );
    page.push_str(&split_html(&command.timing));
    if let Some(frame) = frame {
        let _ = writeln!(
            page,
            "<p class=meta><a class=to-frame href=\"#{frame}\">its frame in the screencast</a></p>"
        );
    }
    if let (true, Some(error)) = (failed, &command.error) {
        let _ = writeln!(
            page,
            "<p class=error>{}: {}</p><p class=hint>hint: {}</p>",
            esc(error.code.as_str()),
            esc(&error.message),
            esc(&error.hint)
        );
    }
    if let Some(answered) = command.text.as_deref().filter(|t| !t.is_empty()) {
        let _ = writeln!(page, "<pre class=result>{}</pre>", esc(answered));
    }
    if let Some(shots) = &command.screenshots {
        page.push_str("<div class=shots>");
        // In the order the page has always shown them.
        let named = [("after", &shots.after), ("before", &shots.before)];
        for (name, shot) in named {
            match shot {
                Some(TraceScreenshot::Inlined(url))
                    if url.starts_with("data:image/jpeg;base64,") =>
                {
                    let _ = write!(
                        page,
                        "<img alt=\"{name} command {n}\" title=\"{name}\" src=\"{}\">",
                        esc(url)
                    );
                }
                Some(TraceScreenshot::LeftOut { left_out }) => {
                    let _ = write!(
                        page,
                        "<p class=meta>screenshot {name}: {}</p>",
                        esc(left_out)
                    );
                }
                Some(TraceScreenshot::Inlined(_)) => {
                    let _ = write!(page, "<p class=meta>screenshot {name}: </p>");
                }
                None => {}
            }
        }
        page.push_str("</div>\n");
    }
    // The same console and network parts as a traced agent step's.
    crate::trace_html::seen::console_and_network(
        page,
        &command.console,
        &command.network,
        command.left_out,
    );
    page.push_str("</details></section>\n");
}

/// The time split as a bar of three colours, with the numbers.
fn split_html(timing: &Timing) -> String {
    let total = timing.total_ms;
    let (cdp, settle, rove) = (timing.cdp_ms, timing.settle_ms, timing.rove_ms);
    let width = |ms: f64| {
        if total > 0.0 { ms / total * 100.0 } else { 0.0 }
    };
    format!(
        "<div class=split title=\"CDP {cdp:.1} ms, settle {settle:.1} ms, rove {rove:.1} ms\"><span class=cdp style=\"width:{:.1}%\"></span><span class=settle style=\"width:{:.1}%\"></span><span class=rove style=\"width:{:.1}%\"></span></div><p class=meta>{}</p>\n",
        width(cdp),
        width(settle),
        width(rove),
        esc(&split_text(timing))
    )
}

/// The split in words: `total 120 ms: CDP 40, settle 60, rove 20`.
pub fn split_text(timing: &Timing) -> String {
    format!(
        "total {:.0} ms: CDP {:.0}, settle {:.0}, rove {:.0}",
        timing.total_ms, timing.cdp_ms, timing.settle_ms, timing.rove_ms
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn commands_show_escaped_with_their_split_error_and_logs() {
        let lines = [
            json!({"kind": "trace", "face": "cli", "session": "s<1>"}),
            json!({"kind": "command", "name": "click", "args": {"ref": "e1"}, "ok": true, "ms": 50.0,
                "timing": {"total_ms": 50.0, "cdp_ms": 20.0, "settle_ms": 25.0, "rove_ms": 5.0},
                "text": "clicked <b>", "console": [{"tab": "t1", "level": "log", "source": "console", "text": "hi & bye"}],
                "network": [{"tab": "t1", "method": "GET", "url": "http://x/?a=<1>", "resource_type": "Fetch",
                    "status": 200, "state": "finished", "ms": 3.0}],
                "screenshots": {"before": "data:image/jpeg;base64,AAAA", "after": {"left_out": "over budget"}}}),
            json!({"kind": "command", "name": "click", "args": {"ref": "e9"}, "ok": false, "ms": 10.0,
                "error": {"code": "REF_NOT_FOUND", "message": "no e9", "hint": "take a snapshot",
                    "retry": "reobserve", "action_sent": "not_sent", "side_effect": "none"}}),
            json!({"kind": "end", "reason": "stopped", "commands": 2}),
        ];
        let text: Vec<String> = lines.iter().map(Value::to_string).collect();
        let lines = crate::trace_html::read_lines(&text.join("\n"));
        assert_eq!(lines.len(), 4);
        let page = render(&lines);
        assert!(page.contains("session s&lt;1&gt;"), "{page}");
        assert!(page.contains("clicked &lt;b&gt;") && !page.contains("clicked <b>"));
        assert!(page.contains("total 50 ms: CDP 20, settle 25, rove 5"));
        assert!(page.contains("width:40.0%") && page.contains("width:50.0%"));
        assert!(page.contains("<details open>") && page.contains("REF_NOT_FOUND: no e9"));
        assert!(page.contains("hint: take a snapshot") && page.contains("hi &amp; bye"));
        assert!(page.contains("src=\"data:image/jpeg;base64,AAAA\""));
        assert!(page.contains("screenshot after: over budget"));
        assert!(page.contains("ended: stopped"));
    }
}
