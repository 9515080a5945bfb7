//! Keeping the conversation within the model's budget: old views and
//! action results shrink to their first line, oldest first; what a reading
//! tool found (`find`'s matched lines, `read`'s text) keeps its facts up to
//! a bound. The model's own notes are never here: they ride on each
//! request whole (`notes.rs`).

use std::collections::HashMap;

use rove_llm::Message;

/// The tools whose results are facts the model asked for, not views that
/// a newer one replaces.
const READING_TOOLS: &[&str] = &[
    "find", "read", "get", "eval", "console", "network", "cookies", "storage",
];

/// How much of an old reading result stays, in characters after its
/// first line.
const FACTS_KEPT: usize = 1_500;

/// An old result cut to fit: its first line, and for a reading tool the
/// lines after it up to [`FACTS_KEPT`] characters.
fn shrink(text: &str, reading: bool) -> String {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let mut kept = first.to_owned();
    if reading {
        let mut room = FACTS_KEPT;
        for line in lines {
            let cost = line.chars().count() + 1;
            if cost > room {
                break;
            }
            room -= cost;
            kept.push('\n');
            kept.push_str(line);
        }
        if kept.len() == text.len() {
            return kept;
        }
    }
    format!("{kept} … (older, left out to save tokens)")
}

/// The conversation within about `budget` tokens (a third of its bytes):
/// the first message (task and first view) and the last three steps stay
/// whole; older tool results and views shrink to their first line, oldest
/// first, until it fits.
pub(crate) fn compact(messages: &[Message], budget: usize) -> Vec<Message> {
    let size = |m: &[Message]| -> usize {
        m.iter()
            .map(|m| match m {
                Message::User { text } | Message::Tool { text, .. } => text.len(),
                // An image costs the model about a thousand tokens.
                Message::Image { text, .. } => text.len() + 3_000,
                Message::Assistant { text, tool_calls } => {
                    text.len()
                        + tool_calls
                            .iter()
                            .map(|c| c.arguments.to_string().len() + c.name.len())
                            .sum::<usize>()
                }
            })
            .sum::<usize>()
            / 3
    };
    let mut out = messages.to_vec();
    if size(&out) <= budget {
        return out;
    }
    // Keep the last three assistant turns and what followed them whole.
    let keep_from = out
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m, Message::Assistant { .. }))
        .map(|(i, _)| i)
        .rev()
        .nth(2)
        .unwrap_or(out.len());
    // Which tool each result answers.
    let tool_of: HashMap<String, String> = out
        .iter()
        .flat_map(|m| match m {
            Message::Assistant { tool_calls, .. } => tool_calls
                .iter()
                .map(|c| (c.id.clone(), c.name.clone()))
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    for i in 1..keep_from {
        if size(&out) <= budget {
            break;
        }
        match &mut out[i] {
            Message::Tool { text, call_id, .. } if text.lines().count() > 1 => {
                let reading = tool_of
                    .get(call_id)
                    .is_some_and(|name| READING_TOOLS.contains(&name.as_str()));
                *text = shrink(text, reading);
            }
            Message::User { text } if text.lines().count() > 1 => {
                *text = shrink(text, false);
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rove_llm::ToolCall;
    use serde_json::json;

    #[test]
    fn compaction_shrinks_old_results_and_keeps_the_task_and_recent_steps() {
        let view = "[t1] Page\n".to_owned() + &"e1 button \"x\"\n".repeat(400);
        let mut messages = vec![Message::User {
            text: format!("Task: t\n{view}"),
        }];
        for i in 0..6 {
            messages.push(Message::Assistant {
                text: String::new(),
                tool_calls: vec![ToolCall {
                    id: format!("c{i}"),
                    name: "click".into(),
                    arguments: json!({"ref": "e1"}),
                }],
            });
            messages.push(Message::Tool {
                call_id: format!("c{i}"),
                text: view.clone(),
                is_error: false,
            });
        }
        let compacted = compact(&messages, 4_000);
        let text = |m: &Message| match m {
            Message::User { text } | Message::Tool { text, .. } | Message::Image { text, .. } => {
                text.clone()
            }
            Message::Assistant { .. } => String::new(),
        };
        assert_eq!(
            text(&compacted[0]),
            text(&messages[0]),
            "the task stays whole"
        );
        assert!(text(&compacted[2]).ends_with("(older, left out to save tokens)"));
        assert_eq!(text(&compacted[12]), view, "the last step stays whole");
        assert_eq!(
            compact(&messages, 1_000_000),
            messages,
            "under budget nothing changes"
        );
    }
}
