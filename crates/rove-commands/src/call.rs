//! Tool calls into commands: the one parser the MCP server, the agent and
//! replay share, so a call means the same thing whichever face received it.

use serde_json::{Map, Value};

use crate::{Command, CommandError};

impl Command {
    /// The command a tool call asks for: the tool's name and its arguments
    /// (a JSON object, or nothing for a tool without arguments).
    ///
    /// A `null` argument counts as left out: hosts in strict mode send every
    /// argument and null the ones not used. Refs and tab ids are checked
    /// here, so a malformed one is refused before anything runs.
    pub fn from_tool_call(name: &str, arguments: Option<&Value>) -> Result<Command, CommandError> {
        Command::from_tool_call_within(name, arguments, crate::Caps::all())
    }

    /// [`Command::from_tool_call`] for a face that offers only the groups in
    /// `caps`: a tool of another group is refused with
    /// [`CommandError::NotOffered`], which names the flag that enables it.
    pub fn from_tool_call_within(
        name: &str,
        arguments: Option<&Value>,
        caps: crate::Caps,
    ) -> Result<Command, CommandError> {
        // The entry, not the tool: a call builds its own command's schema
        // only (the shell makes one call per start).
        if let Some(entry) = crate::entry(name).filter(|e| !caps.contains(e.capability)) {
            return Err(CommandError::NotOffered {
                tool: entry.name.to_owned(),
                capability: entry.capability,
            });
        }
        let Some(entry) = crate::entry(name) else {
            let names: Vec<&str> = crate::entries()
                .iter()
                .filter(|e| caps.contains(e.capability))
                .map(|e| e.name)
                .collect();
            return Err(CommandError::Rejected(format!(
                "{}: there is no such tool; the tools are {}",
                crate::answer::quote_line(name),
                names.join(", ")
            )));
        };
        let parameters = crate::parameters(entry);
        let mut request = match arguments {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(map)) => map.clone(),
            Some(other) => {
                return Err(CommandError::Rejected(format!(
                    "{name}: the arguments must be a JSON object, not {}",
                    kind_of(other)
                )));
            }
        };
        request.retain(|_, v| !v.is_null());
        // Serde lets a command without arguments ignore any it is given;
        // the schema says none are allowed, and so does the parser.
        if let Some(unknown) = request
            .keys()
            .find(|k| parameters["properties"].get(k.as_str()).is_none())
        {
            let known: Vec<String> = parameters["properties"]
                .as_object()
                .map(|p| p.keys().map(|k| format!("`{k}`")).collect())
                .unwrap_or_default();
            let expected = if known.is_empty() {
                "it takes none".to_owned()
            } else {
                format!("expected one of {}", known.join(", "))
            };
            return Err(CommandError::Rejected(format!(
                "{name}: unknown field `{unknown}`, {expected}"
            )));
        }
        request.insert("command".into(), Value::String(name.to_owned()));
        serde_json::from_value(Value::Object(request))
            .map_err(|e| CommandError::Rejected(format!("{name}: {e}")))
    }

    /// The command as a tool call's arguments (what [`Command::from_tool_call`]
    /// reads back): its fields without the name.
    pub fn tool_arguments(&self) -> Value {
        let mut value = serde_json::to_value(self).unwrap_or(Value::Null);
        if let Value::Object(map) = &mut value {
            map.remove("command");
        }
        value
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
