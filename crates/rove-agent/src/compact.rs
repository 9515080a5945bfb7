//! Keeping the conversation within the model's budget: old tool results
//! and views shrink to their first line, oldest first.

use rove_llm::Message;

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
    for i in 1..keep_from {
        if size(&out) <= budget {
            break;
        }
        let shrink = |text: &str| {
            let first = text.lines().next().unwrap_or_default();
            format!("{first} … (older, left out to save tokens)")
        };
        match &mut out[i] {
            Message::Tool { text, .. } | Message::User { text } if text.lines().count() > 1 => {
                *text = shrink(text);
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
