//! The vocabulary as tools a model calls: the CLI's command names, the same
//! argument names everywhere, a sentence or two on when to use each, and
//! schemas with only what a model needs. The MCP server lists these and the
//! agent offers them, so both stay small and in step with [`Command`]
//! (a test checks every tool parses as a command).
//!
//! [`Command`]: crate::Command

use std::sync::OnceLock;

use serde_json::{Map, Value, json};

/// One tool: a command of the vocabulary as a model sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDescription {
    /// The command's name.
    pub name: &'static str,
    /// When to use it.
    pub description: &'static str,
    /// JSON Schema of its arguments.
    pub parameters: Value,
}

/// One argument: name, JSON type, a short note (may be empty), required.
type Arg = (&'static str, Kind, &'static str, bool);

#[derive(Clone, Copy)]
enum Kind {
    Str,
    Bool,
    Int,
    Strs,
    OneOf(&'static [&'static str]),
}

const REF: Arg = (
    "ref",
    Kind::Str,
    "element ref from a snapshot, e.g. e7",
    true,
);

/// Every tool, built once.
pub fn tools() -> &'static [ToolDescription] {
    static TOOLS: OnceLock<Vec<ToolDescription>> = OnceLock::new();
    TOOLS.get_or_init(build)
}

fn build() -> Vec<ToolDescription> {
    vec![
        tool(
            "open",
            "Go to a URL in the current tab (or a new one). Returns the page's view with refs.",
            &[
                ("url", Kind::Str, "", true),
                ("new_tab", Kind::Bool, "", false),
            ],
        ),
        tool(
            "snapshot",
            "The page as text: roles, names, values, refs. Use mode diff after acting elsewhere, interactive for controls only.",
            &[
                (
                    "mode",
                    Kind::OneOf(&["full", "interactive", "diff"]),
                    "",
                    false,
                ),
                ("scope", Kind::Str, "only the subtree under this ref", false),
                (
                    "after",
                    Kind::Str,
                    "next part of a cut view, after this ref",
                    false,
                ),
                ("budget", Kind::Int, "max tokens, 0 for no limit", false),
            ],
        ),
        tool(
            "find",
            "Refs of elements whose name, value or text contains text, with context. Use when the element is not in the view.",
            &[
                ("text", Kind::Str, "", true),
                ("role", Kind::Str, "button, link, textbox…", false),
            ],
        ),
        tool(
            "click",
            "Click an element. Returns what changed.",
            &[
                REF,
                (
                    "button",
                    Kind::OneOf(&["left", "right", "middle"]),
                    "",
                    false,
                ),
                ("double", Kind::Bool, "", false),
                ("modifiers", Kind::Strs, "Alt, Control, Meta, Shift", false),
            ],
        ),
        tool(
            "hover",
            "Move the pointer over an element (menus, tooltips).",
            &[REF],
        ),
        tool(
            "type",
            "Type text at the end of a field, key by key (no ref: into whatever has the focus).",
            &[
                (
                    "ref",
                    Kind::Str,
                    "the field; leave out to type into the focused element",
                    false,
                ),
                ("text", Kind::Str, "", true),
                ("submit", Kind::Bool, "press Enter after", false),
            ],
        ),
        tool(
            "fill",
            "Replace a field's value.",
            &[
                REF,
                ("text", Kind::Str, "", true),
                ("submit", Kind::Bool, "press Enter after", false),
            ],
        ),
        tool(
            "press",
            "Press a key chord such as Enter, Escape, Control+A.",
            &[
                ("keys", Kind::Str, "", true),
                ("ref", Kind::Str, "focus this element first", false),
            ],
        ),
        tool(
            "select",
            "Choose options in a select, listbox or combobox by label.",
            &[REF, ("values", Kind::Strs, "", true)],
        ),
        tool("check", "Check a checkbox, switch or radio.", &[REF]),
        tool("uncheck", "Uncheck a checkbox or switch.", &[REF]),
        tool(
            "scroll",
            "Scroll the page or an element; with only a ref, bring it into view.",
            &[
                ("ref", Kind::Str, "", false),
                (
                    "direction",
                    Kind::OneOf(&["up", "down", "left", "right"]),
                    "",
                    false,
                ),
                ("pixels", Kind::Int, "", false),
            ],
        ),
        tool(
            "drag",
            "Drag one element onto another.",
            &[
                ("from", Kind::Str, "ref", true),
                ("to", Kind::Str, "ref", true),
            ],
        ),
        tool(
            "upload",
            "Give files to a file input or to the chooser an element opens.",
            &[REF, ("paths", Kind::Strs, "absolute paths", true)],
        ),
        tool(
            "dialog",
            "Answer the alert, confirm or prompt that blocks the page.",
            &[
                ("accept", Kind::Bool, "", true),
                ("text", Kind::Str, "prompt answer", false),
            ],
        ),
        tool(
            "tab",
            "List, open, switch to or close tabs.",
            &[
                (
                    "action",
                    Kind::OneOf(&["list", "new", "switch", "close"]),
                    "",
                    false,
                ),
                ("tab", Kind::Str, "tab id, e.g. t2", false),
                ("url", Kind::Str, "for new", false),
            ],
        ),
        tool(
            "screenshot",
            "An image of the viewport, the full page or one element. Use when layout or pictures matter.",
            &[
                ("ref", Kind::Str, "", false),
                ("full_page", Kind::Bool, "", false),
            ],
        ),
        tool(
            "read",
            "The page (or an element) as markdown, for reading long text.",
            &[("ref", Kind::Str, "", false)],
        ),
        tool(
            "wait",
            "Wait for text to appear or go, for the URL, or for ms milliseconds.",
            &[
                ("text", Kind::Str, "", false),
                ("text_gone", Kind::Str, "", false),
                ("url", Kind::Str, "substring or * glob", false),
                ("ms", Kind::Int, "alone: time to wait; else max wait", false),
            ],
        ),
        tool(
            "eval",
            "Run JavaScript in the page: an expression, or a function (called with the element when ref is given). Returns JSON.",
            &[("js", Kind::Str, "", true), ("ref", Kind::Str, "", false)],
        ),
        tool("back", "Go back in history.", &[]),
        tool("forward", "Go forward in history.", &[]),
        tool("reload", "Reload the page.", &[]),
    ]
}

fn tool(name: &'static str, description: &'static str, args: &[Arg]) -> ToolDescription {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (arg, kind, note, needed) in args {
        let mut schema = match kind {
            Kind::Str => json!({"type": "string"}),
            Kind::Bool => json!({"type": "boolean"}),
            Kind::Int => json!({"type": "integer"}),
            Kind::Strs => json!({"type": "array", "items": {"type": "string"}}),
            Kind::OneOf(values) => json!({"enum": values}),
        };
        if !note.is_empty() {
            schema["description"] = Value::String((*note).to_owned());
        }
        properties.insert((*arg).to_owned(), schema);
        if *needed {
            required.push(Value::String((*arg).to_owned()));
        }
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    ToolDescription {
        name,
        description,
        parameters: Value::Object(schema),
    }
}
