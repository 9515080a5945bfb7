//! The model's own memory: what it writes with the `note` tool is shown
//! back at the end of every request, whole, however much older results
//! were cut to fit the history's budget.

use rove_llm::ToolSpec;
use serde_json::json;

/// The most characters the notes hold together: they ride on every
/// request, so they are bounded like one view.
pub(crate) const NOTES_LIMIT: usize = 4_000;

/// The notes so far, oldest first.
#[derive(Debug, Default, Clone)]
pub(crate) struct Notes {
    items: Vec<String>,
}

impl Notes {
    /// Adds `text` (or, with `replace`, makes it the only note); what would
    /// pass the limit is refused with the reason, for the model.
    pub(crate) fn write(&mut self, text: &str, replace: bool) -> Result<String, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("note: the text is empty".into());
        }
        let kept: usize = if replace {
            0
        } else {
            self.items.iter().map(|n| n.chars().count()).sum()
        };
        if kept + text.chars().count() > NOTES_LIMIT {
            return Err(format!(
                "note: your notes would pass {NOTES_LIMIT} characters; call note with replace=true and only what you still need"
            ));
        }
        if replace {
            self.items.clear();
        }
        self.items.push(text.to_owned());
        Ok(format!("noted ({} in all)", self.items.len()))
    }

    /// The notes as the model reads them, or `None` when there are none.
    pub(crate) fn shown(&self) -> Option<String> {
        if self.items.is_empty() {
            return None;
        }
        let mut shown = "Your notes (kept whole every step):".to_owned();
        for item in &self.items {
            shown.push_str("\n- ");
            shown.push_str(item);
        }
        Some(shown)
    }
}

/// The `note` tool, the agent's own beside `done`.
pub(crate) fn note_spec() -> ToolSpec {
    ToolSpec {
        name: "note".into(),
        description: "Save facts and your plan.".into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "replace": {"type": "boolean", "description": "Replace all notes."}
            },
            "required": ["text"],
            "additionalProperties": false,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_add_up_replace_and_refuse_past_the_limit() {
        let mut notes = Notes::default();
        assert_eq!(notes.shown(), None);
        notes.write("PX-912 costs 4.20", false).expect("first");
        notes.write("plan: check PX-913", false).expect("second");
        let shown = notes.shown().expect("shown");
        assert!(
            shown.contains("- PX-912 costs 4.20\n- plan: check PX-913"),
            "{shown}"
        );
        assert!(notes.write(&"x".repeat(NOTES_LIMIT), false).is_err());
        notes.write("only this", true).expect("replace");
        assert_eq!(
            notes.shown().as_deref(),
            Some("Your notes (kept whole every step):\n- only this")
        );
        assert!(notes.write("  ", false).is_err());
    }
}
