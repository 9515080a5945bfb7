//! The tools the model is offered (the vocabulary's, plus the agent's own
//! `done` and `note`) and one call of them run as a command, its errors in
//! the model's terms: the names and the argument shapes it was offered.

use rove_commands::{Command, Deadline, Effect, Happened, Outcome, Session};
use rove_errors::Classify;
use rove_llm::{ToolCall, ToolSpec};
use serde_json::{Value, json};

/// What came of one tool call.
pub(crate) struct CallResult {
    /// The result text the model reads.
    pub text: String,
    /// Whether it failed.
    pub failed: bool,
    /// Whether it changed the page under the next calls (a navigation), so
    /// later refs of the same answer are stale.
    pub moved: bool,
    /// Whether it succeeded and nothing visible changed.
    pub unchanged: bool,
    /// The error, when the browser is gone.
    pub lost: Option<rove_commands::CommandError>,
    /// Where the command's time went, when it ran.
    pub timing: Option<rove_commands::Timing>,
    /// Where it clicked or pressed (CSS pixels of the viewport).
    pub pointer: Option<[f64; 2]>,
}

impl CallResult {
    /// A call refused before it ran.
    fn refused(text: String) -> CallResult {
        CallResult {
            text,
            failed: true,
            moved: false,
            unchanged: false,
            lost: None,
            timing: None,
            pointer: None,
        }
    }
}

/// Runs one tool call as a command: its arguments are validated by parsing
/// them into the vocabulary, and what is wrong goes back to the model in
/// the terms of `offered`, the tools it was given.
pub(crate) async fn act(
    session: &mut Session,
    call: &ToolCall,
    offered: &[ToolSpec],
) -> CallResult {
    let caps = session.config().caps;
    let spec = offered.iter().find(|t| t.name == call.name);
    // A tool of a group the run was not given is answered with the flag
    // that gives it (the vocabulary's typed report, below); any other name
    // not offered (`close` among them) with the tools that are.
    let of_another_group =
        rove_commands::tool(&call.name).is_some_and(|t| !caps.contains(t.capability));
    if spec.is_none() && !of_another_group {
        let names: Vec<&str> = offered.iter().map(|t| t.name.as_str()).collect();
        return CallResult::refused(format!(
            "{:?}: there is no such tool; your tools are {}",
            rove_base::text::char_prefix(&rove_base::text::one_line(&call.name), 100),
            names.join(", ")
        ));
    }
    let command = match Command::from_tool_call_within(&call.name, Some(&call.arguments), caps) {
        Ok(c) => c,
        // Not the arguments' fault: the typed report, which names the flag.
        Err(e @ rove_commands::CommandError::NotOffered { .. }) => {
            return CallResult::refused(json!(e.report()).to_string());
        }
        Err(e) => {
            let shape = spec
                .map(|spec| format!(" Call it as {}", signature(spec)))
                .unwrap_or_default();
            return CallResult::refused(format!("invalid arguments for {e}.{shape}"));
        }
    };
    match session.execute(&command).await {
        Ok(outcome) => CallResult {
            text: outcome.text(),
            failed: false,
            moved: changed_page(&command, &outcome),
            unchanged: outcome
                .saw(|h| matches!(h, Happened::NothingChanged | Happened::NothingChangedInPart)),
            lost: None,
            timing: Some(outcome.timing),
            pointer: outcome.pressed_at(),
        },
        Err(e) => {
            let mut text = json!(e.report()).to_string();
            if let Some(view) = e.fresh_view() {
                text.push('\n');
                text.push_str(view);
            }
            let moved = e.code() == rove_errors::ErrorCode::NavigationFailed;
            let lost = (e.code() == rove_errors::ErrorCode::BrowserDisconnected).then_some(e);
            CallResult {
                text,
                failed: true,
                moved,
                unchanged: false,
                lost,
                timing: session.last_timing(),
                pointer: None,
            }
        }
    }
}

/// Whether later refs of the same answer can no longer be trusted: the
/// page under them was replaced. A tab switch is not such a change (each
/// tab keeps its refs, and a ref of another tab fails by name), nor is a
/// new tab: the batch goes on.
fn changed_page(command: &Command, outcome: &Outcome) -> bool {
    loads_a_page(command) || outcome.saw(|h| matches!(h, Happened::Navigated { loaded: true, .. }))
}

/// Whether the vocabulary says `command` loads a document: it navigates,
/// or it moves through history. Both wait as long as a navigation; a
/// scroll also moves, but through the page it keeps.
fn loads_a_page(command: &Command) -> bool {
    match command.effect() {
        Effect::Navigates => true,
        Effect::Moves => command.entry().deadline == Deadline::Navigation,
        _ => false,
    }
}

/// A tool as a call with its arguments (`click(ref: string, button?:
/// "left"|"right"|"middle")`), from the schema the model was offered.
pub(crate) fn signature(spec: &ToolSpec) -> String {
    let required: Vec<&str> = spec.parameters["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let arguments: Vec<String> = spec.parameters["properties"]
        .as_object()
        .map(|props| {
            let mut props: Vec<(&String, &Value)> = props.iter().collect();
            // The required ones first, as a call would write them.
            props.sort_by_key(|(name, _)| !required.contains(&name.as_str()));
            props
                .into_iter()
                .map(|(name, schema)| {
                    let optional = if required.contains(&name.as_str()) {
                        ""
                    } else {
                        "?"
                    };
                    format!("{name}{optional}: {}", type_of(schema))
                })
                .collect()
        })
        .unwrap_or_default();
    format!("{}({})", spec.name, arguments.join(", "))
}

/// A property's type in a word, or its values when it has a few.
fn type_of(schema: &Value) -> String {
    if let Some(values) = schema["enum"].as_array() {
        return values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join("|");
    }
    match &schema["type"] {
        Value::String(t) if t == "array" => format!("{}[]", type_of(&schema["items"])),
        Value::String(t) => t.clone(),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect::<Vec<_>>()
            .join("|"),
        _ if schema["anyOf"].is_array() || schema["oneOf"].is_array() => "value".into(),
        _ => "object".into(),
    }
}

pub(crate) fn done_of(call: &ToolCall, secrets: &rove_commands::Secrets) -> crate::Ending {
    crate::Ending::Done {
        text: secrets.redact(call.arguments["text"].as_str().unwrap_or_default()),
        success: call.arguments["success"].as_bool().unwrap_or(false),
    }
}

/// The vocabulary's tools the agent never offers: `close`, since its
/// browser lives as long as the run; `screenshot`, since a tool result
/// reaches the model as text only (the image would be a line saying its
/// size), while a run with vision shows the model the viewport on every
/// step anyway; `solve`, since the loop's watchdog calls the solver
/// itself when a view shows a challenge, before a model step is spent on
/// it. Each definition is read on every request.
pub(crate) const NOT_OFFERED: &[&str] = &["close", "screenshot", "solve"];

/// The tools the agent offers its model by default: the vocabulary's core
/// group plus `note` and `done`.
pub fn tool_specs() -> Vec<ToolSpec> {
    tool_specs_within(rove_commands::Caps::default())
}

/// The tools the agent offers its model: the vocabulary's tools in `caps`
/// (the core group and what `rove run --caps` adds) plus `note` and
/// `done`.
pub fn tool_specs_within(caps: rove_commands::Caps) -> Vec<ToolSpec> {
    let mut specs: Vec<ToolSpec> = rove_commands::tools_within(caps)
        .filter(|t| !NOT_OFFERED.contains(&t.name))
        .map(|t| ToolSpec {
            name: t.name.to_owned(),
            description: t.description.to_owned(),
            parameters: t.parameters.clone(),
        })
        .collect();
    specs.push(crate::notes::note_spec());
    specs.push(ToolSpec {
        name: "done".into(),
        description: "End the run with your answer.".into(),
        parameters: json!({
            "type": "object",
            "properties": {"text": {"type": "string"}, "success": {"type": "boolean"}},
            "required": ["text", "success"],
            "additionalProperties": false,
        }),
    });
    specs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(name: &str, arguments: Value) -> Command {
        Command::from_tool_call_within(name, Some(&arguments), rove_commands::Caps::all())
            .expect("a command")
    }

    #[test]
    fn the_commands_that_load_a_page_are_the_vocabularys_navigations_and_history_moves() {
        for (name, arguments) in [
            ("open", json!({"url": "https://example.com"})),
            ("back", json!({})),
            ("forward", json!({})),
            ("reload", json!({})),
        ] {
            assert!(loads_a_page(&command(name, arguments)), "{name}");
        }
        for (name, arguments) in [
            ("scroll", json!({"direction": "down"})),
            ("click", json!({"ref": "e1"})),
            ("snapshot", json!({})),
            ("tab", json!({"action": "list"})),
        ] {
            assert!(!loads_a_page(&command(name, arguments)), "{name}");
        }
    }
}
