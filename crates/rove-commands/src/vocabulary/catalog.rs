//! The vocabulary as tools a model calls. Each tool comes from one entry of
//! the command list (`vocabulary!` in `command.rs`, [`entries`]): its name, a title, a
//! sentence or two on when to use it, what it does to the world (MCP's
//! annotations), and a JSON Schema derived from the argument type by
//! `schemars` and then reduced to the portable subset every host accepts:
//! one `type` per schema (an optional argument is simply not `required`),
//! `enum`s of strings that carry `"type": "string"`, objects closed with
//! `additionalProperties: false`, everything inlined (no `$ref`), and no
//! keywords some hosts refuse (`format`, `default`, numeric bounds,
//! `oneOf`/`anyOf`). The MCP server lists these, the agent offers them, and
//! [`Command::from_tool_call`] parses what comes back, so all three read one
//! definition.
//!
//! [`Command::from_tool_call`]: crate::Command::from_tool_call

use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;

use crate::vocabulary::entry::{Effect, Entry};

/// MCP's hints about a tool (all four are given, never left to defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// It does not change the page or the browser.
    pub read_only_hint: bool,
    /// It may do something that cannot be undone (whatever the page wires
    /// to a click).
    pub destructive_hint: bool,
    /// Calling it twice with the same arguments does no more than once.
    pub idempotent_hint: bool,
    /// It reaches the web beyond the page on screen.
    pub open_world_hint: bool,
}

impl Effect {
    fn annotations(self) -> Annotations {
        let (read_only, destructive, idempotent, open_world) = match self {
            Effect::Reads => (true, false, true, false),
            Effect::Navigates => (false, false, true, true),
            Effect::Moves => (false, false, false, true),
            Effect::Sets | Effect::Configures => (false, false, true, true),
            // Ending the session loses its tabs and cookies: hosts ask
            // first, as for input to a page.
            Effect::Acts | Effect::Ends => (false, true, false, true),
        };
        Annotations {
            read_only_hint: read_only,
            destructive_hint: destructive,
            idempotent_hint: idempotent,
            open_world_hint: open_world,
        }
    }
}

/// One tool: a command of the vocabulary as a model sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDescription {
    /// The command's name.
    pub name: &'static str,
    /// A short human-readable title.
    pub title: &'static str,
    /// When to use it.
    pub description: &'static str,
    /// JSON Schema of its arguments (the portable subset, see the module).
    pub parameters: Value,
    /// MCP's hints about what it does.
    pub annotations: Annotations,
    /// The group that offers it to a model (see [`crate::Caps`]).
    pub capability: crate::vocabulary::caps::Capability,
}

/// Every command's entry, in the order of the list.
pub fn entries() -> &'static [Entry] {
    crate::vocabulary::command::ENTRIES
}

/// The entry of the command of this name.
pub fn entry(name: &str) -> Option<&'static Entry> {
    entries().iter().find(|e| e.name == name)
}

/// Every tool, built once, in the order of the command list.
pub fn tools() -> &'static [ToolDescription] {
    static TOOLS: OnceLock<Vec<ToolDescription>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        entries()
            .iter()
            .map(|entry| ToolDescription {
                name: entry.name,
                title: entry.title,
                description: entry.description,
                parameters: parameters(entry).clone(),
                annotations: entry.effect.annotations(),
                capability: entry.capability,
            })
            .collect()
    })
}

/// The JSON Schema of one command's arguments, built the first time it is
/// asked for. The shell needs one command's schema per start, and building
/// every schema took about a third of the CLI's start-up.
pub fn parameters(entry: &'static Entry) -> &'static Value {
    static SCHEMAS: OnceLock<Vec<OnceLock<Value>>> = OnceLock::new();
    static NONE: Value = Value::Null;
    let schemas = SCHEMAS.get_or_init(|| entries().iter().map(|_| OnceLock::new()).collect());
    // An entry is always one of the list's; the null schema would only
    // answer a caller that built an entry of its own.
    match entries().iter().position(|e| std::ptr::eq(e, entry)) {
        Some(at) => match schemas.get(at) {
            Some(schema) => schema.get_or_init(|| (entry.schema)()),
            None => &NONE,
        },
        None => &NONE,
    }
}

/// The tools a model is offered with `caps`, in the order of the list.
pub fn tools_within(
    caps: crate::vocabulary::caps::Caps,
) -> impl Iterator<Item = &'static ToolDescription> {
    tools().iter().filter(move |t| caps.contains(t.capability))
}

/// The tool of this name.
pub fn tool(name: &str) -> Option<&'static ToolDescription> {
    tools().iter().find(|t| t.name == name)
}
