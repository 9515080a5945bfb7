//! The vocabulary as tools a model calls. Each tool comes from one entry of
//! the command list (`vocabulary!` in `command.rs`): its name, a title, a
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

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// What a command does to the world, which decides its MCP annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Only looks (views, reads, waits): safe to repeat.
    Reads,
    /// Loads a page: repeating it lands on the same page.
    Navigates,
    /// Moves through history or the page: repeating it goes further.
    Moves,
    /// Sets a state to a value (checked, unchecked): repeating it changes
    /// nothing more.
    Sets,
    /// Input to the page, which may do anything the page wires to it
    /// (submit, delete, pay).
    Acts,
}

/// One entry of the command list, as `vocabulary!` writes it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spec {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub effect: Effect,
    pub capability: crate::vocabulary::caps::Capability,
    pub schema: fn() -> Value,
}

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
            Effect::Sets => (false, false, true, true),
            Effect::Acts => (false, true, false, true),
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

/// Every tool, built once, in the order of the command list.
pub fn tools() -> &'static [ToolDescription] {
    static TOOLS: OnceLock<Vec<ToolDescription>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        crate::vocabulary::command::specs()
            .into_iter()
            .map(|spec| ToolDescription {
                name: spec.name,
                title: spec.title,
                description: spec.description,
                parameters: (spec.schema)(),
                annotations: spec.effect.annotations(),
                capability: spec.capability,
            })
            .collect()
    })
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

/// The portable schema of an argument type.
pub(crate) fn schema_of<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let root = generator.into_root_schema_for::<T>();
    let mut schema = portable(root.to_value());
    if let Value::Object(map) = &mut schema {
        // The root's title and description are the Rust type's; the tool has
        // its own.
        map.remove("title");
        map.remove("description");
    }
    schema
}

/// Reduces a schema to the portable subset (see the module).
fn portable(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return schema;
    };
    for key in [
        "$schema", "default", "format", "minimum", "maximum", "title",
    ] {
        map.remove(key);
    }
    // `Option<T>` as `anyOf: [T, null]`: the argument is optional, not null.
    if let Some(Value::Array(choices)) = map.remove("anyOf") {
        let mut kept: Vec<Value> = choices.into_iter().filter(|c| !is_null(c)).collect();
        if kept.len() == 1 {
            if let Value::Object(inner) = portable(kept.remove(0)) {
                for (k, v) in inner {
                    map.entry(k).or_insert(v);
                }
            }
        } else {
            map.insert("anyOf".into(), Value::Array(kept));
        }
    }
    // A documented unit enum comes as `oneOf` of `const`s: one string enum.
    if let Some(Value::Array(choices)) = map.remove("oneOf") {
        let values: Option<Vec<Vec<Value>>> = choices.iter().map(constant).collect();
        match values {
            Some(values) => {
                map.insert("type".into(), json!("string"));
                map.insert("enum".into(), Value::Array(values.concat()));
            }
            None => {
                map.insert("oneOf".into(), Value::Array(choices));
            }
        }
    }
    if let Some(c) = map.remove("const") {
        map.insert("enum".into(), json!([c]));
    }
    // `Option<T>` as `type: [T, "null"]`.
    if let Some(Value::Array(types)) = map.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if kept.len() == 1 {
            map.insert("type".into(), kept[0].clone());
        }
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.retain(|v| !v.is_null());
        if !map.contains_key("type") {
            map.insert("type".into(), json!("string"));
        }
    }
    if let Some(Value::Object(props)) = map.remove("properties") {
        let props: Map<String, Value> = props.into_iter().map(|(k, v)| (k, portable(v))).collect();
        map.insert("properties".into(), Value::Object(props));
    }
    if let Some(items) = map.remove("items") {
        map.insert("items".into(), portable(items));
    }
    // Last: an argument that hides its description (an empty one) must not
    // take its type's from the merges above.
    if map.get("description").is_some_and(|d| d == "") {
        map.remove("description");
    }
    if map.get("type") == Some(&json!("object")) {
        map.entry("properties").or_insert_with(|| json!({}));
        map.insert("additionalProperties".into(), json!(false));
        if map
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
        {
            map.remove("required");
        }
    }
    Value::Object(map)
}

fn is_null(schema: &Value) -> bool {
    schema.get("type") == Some(&json!("null")) || schema.get("const") == Some(&Value::Null)
}

/// The values a `oneOf` branch stands for, when it is only constants.
fn constant(branch: &Value) -> Option<Vec<Value>> {
    if let Some(c) = branch.get("const") {
        return Some(vec![c.clone()]);
    }
    branch.get("enum").and_then(Value::as_array).cloned()
}
