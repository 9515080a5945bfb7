//! The Python package's command methods, written from the vocabulary: one
//! method per tool on `rove.Session` (and an `async` one on
//! `rove.AsyncSession`), keyword arguments named as the tool's arguments,
//! type hints and docstrings from its schema and reference. The package
//! holds no second list of commands: `python/rove/_commands.py` and its
//! stub `_commands.pyi` are this module's output, and a test fails while
//! they are stale (`ROVE_WRITE_PYTHON=1 cargo test -p rove --bin rove
//! python_api` writes them again).

use std::fmt::Write as _;

use rove_commands::{ToolDescription, entries, tools};
use rove_errors::ErrorCode;
use serde_json::Value;

/// Where the generated files live, from the repository's root.
pub const MODULE: &str = "python/rove/_commands.py";
/// The stub beside it (type checkers and editors read it).
pub const STUB: &str = "python/rove/_commands.pyi";
/// The exception classes, one per error code under one per exit class.
pub const ERRORS: &str = "python/rove/_errors.py";

/// The exception class of each exit status (`ErrorCode::exit_status`),
/// whose codes subclass it: `except rove.PageStateError` catches
/// `rove.RefNotFound` and `rove.DialogOpen`.
const CLASSES: &[(u8, &str, &str)] = &[
    (
        2,
        "BadInputError",
        "The call was wrong: fix its arguments (exit status 2).",
    ),
    (
        3,
        "PageStateError",
        "The page was not as the call assumed: look again (exit status 3).",
    ),
    (
        4,
        "NavigationError",
        "A navigation failed or was refused (exit status 4).",
    ),
    (
        5,
        "DeadlineError",
        "A deadline passed; `action_sent` says whether the action may have happened (exit status 5).",
    ),
    (
        6,
        "BrowserError",
        "The browser or its tab is missing, gone or did not start (exit status 6).",
    ),
    (
        7,
        "ModelError",
        "The language model failed (exit status 7).",
    ),
    (70, "InternalError", "A bug in rove (exit status 70)."),
];

/// Python's reserved words an argument may collide with (`drag`'s
/// `from`): such an argument is spelled with a trailing underscore.
const RESERVED: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The exception classes: `RoveError` is hand-written (`_error.py`: its
/// fields and how it is made from an answer); these subclass it.
pub fn errors() -> String {
    let mut out = String::from(
        "# Written from rove's error codes (crates/rove/src/python_api.rs): do not edit.\n\
         \"\"\"rove's error codes as exceptions: one class per exit class, one per code under it.\"\"\"\n\n\
         from __future__ import annotations\n\n\
         from ._error import RoveError\n\n\n",
    );
    for (status, class, doc) in CLASSES {
        let _ = writeln!(out, "class {class}(RoveError):\n    \"\"\"{doc}\"\"\"\n\n");
        for code in ErrorCode::ALL.iter().filter(|c| c.exit_status() == *status) {
            let _ = writeln!(
                out,
                "class {}({class}):\n    \"\"\"{}\"\"\"\n\n    code = {:?}\n\n",
                camel(code.as_str()),
                code.as_str(),
                code.as_str()
            );
        }
    }
    out.push_str(
        "#: Each code's class, for `RoveError.of`.\nBY_CODE: dict[str, type[RoveError]] = {\n",
    );
    for code in ErrorCode::ALL {
        let _ = writeln!(out, "    {:?}: {},", code.as_str(), camel(code.as_str()));
    }
    out.push_str("}\n");
    out
}

/// `REF_NOT_FOUND` as `RefNotFound`.
fn camel(code: &str) -> String {
    code.split('_')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_string() + &chars.as_str().to_lowercase(),
                None => String::new(),
            }
        })
        .collect()
}

/// Whether a file is the runtime module or its stub.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Module,
    Stub,
}

/// The generated file.
pub fn generate(form: Form) -> String {
    let mut out = String::new();
    out.push_str(
        "# Written from rove's command vocabulary (crates/rove/src/python_api.rs):\n\
         # do not edit. `ROVE_WRITE_PYTHON=1 cargo test -p rove --bin rove python_api`\n\
         # writes it again.\n\
         \"\"\"One method per rove command, for `rove.Session` and `rove.AsyncSession`.\"\"\"\n\n\
         from __future__ import annotations\n\n\
         from typing import Any, Literal, Mapping, Sequence\n\n\
         from ._result import Result\n\n\n",
    );
    if form == Form::Module {
        out.push_str(
            "def _given(arguments: dict[str, Any]) -> dict[str, Any]:\n    \
             \"\"\"The arguments the caller gave (None is not given).\"\"\"\n    \
             return {k: v for k, v in arguments.items() if v is not None}\n\n\n",
        );
    }
    for asynchronous in [false, true] {
        class(&mut out, form, asynchronous);
    }
    // One blank line at the end, as formatters leave a file.
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn class(out: &mut String, form: Form, asynchronous: bool) {
    let (name, what) = if asynchronous {
        ("AsyncCommands", "awaitable")
    } else {
        ("Commands", "blocking")
    };
    let _ = writeln!(out, "class {name}:");
    let _ = writeln!(
        out,
        "    \"\"\"rove's commands as {what} methods; each returns a `Result` or raises `RoveError`.\"\"\"\n"
    );
    let call = if asynchronous { "async def" } else { "def" };
    match form {
        Form::Module => {
            let _ = writeln!(
                out,
                "    {call} _call(self, tool: str, arguments: dict[str, Any]) -> Result:\n        \
                 raise NotImplementedError\n"
            );
        }
        Form::Stub => {
            let _ = writeln!(
                out,
                "    {call} _call(self, tool: str, arguments: dict[str, Any]) -> Result: ...\n"
            );
        }
    }
    for (entry, tool) in entries().iter().zip(tools()) {
        method(out, form, asynchronous, tool, entry.shell.reference);
    }
    out.push('\n');
}

/// One argument of a tool, as Python spells it.
struct Parameter<'a> {
    name: &'a str,
    python: String,
    annotation: String,
    description: Option<&'a str>,
    required: bool,
}

fn parameters(tool: &'static ToolDescription) -> Vec<Parameter<'static>> {
    let schema = &tool.parameters;
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema["properties"].as_object() else {
        return Vec::new();
    };
    let parameter = |name: &'static str, property: &'static Value, required: bool| Parameter {
        name,
        python: if RESERVED.contains(&name) {
            format!("{name}_")
        } else {
            name.to_owned()
        },
        annotation: annotation(property),
        description: property["description"].as_str(),
        required,
    };
    // The required ones first, in the schema's order of `required`, so
    // they may be given by position; the rest by keyword only.
    let mut out: Vec<Parameter<'static>> = Vec::new();
    for name in &required {
        if let Some((name, property)) = properties.get_key_value(*name) {
            out.push(parameter(name, property, true));
        }
    }
    for (name, property) in properties {
        if !required.contains(&name.as_str()) {
            out.push(parameter(name, property, false));
        }
    }
    out
}

/// The Python type of a schema.
fn annotation(schema: &Value) -> String {
    if let Some(values) = schema["enum"].as_array() {
        let literals: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        return format!("Literal[{}]", literals.join(", "));
    }
    match schema["type"].as_str() {
        Some("string") => "str".into(),
        Some("integer") => "int".into(),
        // An integer is a number too, as JSON has it.
        Some("number") => "float".into(),
        Some("boolean") => "bool".into(),
        Some("array") => format!("Sequence[{}]", annotation(&schema["items"])),
        Some("object") => "Mapping[str, Any]".into(),
        _ => "Any".into(),
    }
}

fn method(
    out: &mut String,
    form: Form,
    asynchronous: bool,
    tool: &'static ToolDescription,
    reference: &str,
) {
    let parameters = parameters(tool);
    let mut signature = vec!["self".to_owned()];
    let mut keyword_only = false;
    for p in &parameters {
        if p.required {
            signature.push(format!("{}: {}", p.python, p.annotation));
        } else {
            if !keyword_only {
                signature.push("*".into());
                keyword_only = true;
            }
            signature.push(format!("{}: {} | None = None", p.python, p.annotation));
        }
    }
    let name = tool.name.replace('-', "_");
    let def = if asynchronous { "async def" } else { "def" };
    let _ = writeln!(out, "    {def} {name}({}) -> Result:", signature.join(", "));
    docstring(out, tool, reference, &parameters);
    match form {
        Form::Stub => out.push_str("        ...\n\n"),
        Form::Module => {
            let given: Vec<String> = parameters
                .iter()
                .map(|p| format!("{:?}: {}", p.name, p.python))
                .collect();
            let wait = if asynchronous { "await " } else { "" };
            let _ = writeln!(
                out,
                "        return {wait}self._call({:?}, _given({{{}}}))\n",
                tool.name,
                given.join(", ")
            );
        }
    }
}

fn docstring(out: &mut String, tool: &ToolDescription, reference: &str, parameters: &[Parameter]) {
    let mut text = tool.description.to_owned();
    if !reference.is_empty() {
        text.push_str("\n\n");
        text.push_str(reference);
    }
    if !parameters.is_empty() {
        text.push_str("\n\nArgs:");
        for p in parameters {
            let _ = write!(
                text,
                "\n    {}: {}",
                p.python,
                p.description.unwrap_or("see above.")
            );
        }
    }
    // The reference is markdown that may hold backslashes and quotes.
    let text = text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    out.push_str("        \"\"\"");
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.is_empty() {
                out.push_str("        ");
            }
        }
        out.push_str(line);
    }
    out.push_str("\n        \"\"\"\n");
}

#[cfg(test)]
mod tests {
    use super::{ERRORS, Form, MODULE, STUB, errors, generate};

    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    #[test]
    fn python_api_is_written_from_the_vocabulary() {
        let files = [
            (MODULE, generate(Form::Module)),
            (STUB, generate(Form::Stub)),
            (ERRORS, errors()),
        ];
        for (path, fresh) in files {
            let path = root().join(path);
            if std::env::var_os("ROVE_WRITE_PYTHON").is_some() {
                std::fs::write(&path, &fresh).expect("written");
                continue;
            }
            let held = std::fs::read_to_string(&path).expect("the generated file is there");
            assert!(
                held == fresh,
                "{} is stale: run ROVE_WRITE_PYTHON=1 cargo test -p rove --bin rove python_api",
                path.display()
            );
        }
    }

    #[test]
    fn every_error_code_has_its_class_under_its_exit_class() {
        let errors = errors();
        for code in rove_errors::ErrorCode::ALL {
            let name = super::camel(code.as_str());
            assert!(errors.contains(&format!("class {name}(")), "{name}");
            assert!(errors.contains(&format!("{:?}: {name},", code.as_str())));
        }
        assert!(errors.contains("class RefNotFound(PageStateError):"));
        assert!(errors.contains("class Timeout(DeadlineError):"));
    }

    #[test]
    fn every_tool_is_a_method_and_reserved_words_get_an_underscore() {
        let module = generate(Form::Module);
        for tool in rove_commands::tools() {
            let def = format!("    def {}(self", tool.name.replace('-', "_"));
            assert!(module.contains(&def), "no method for {}", tool.name);
        }
        assert!(module.contains("def drag(self, from_: str, to: str)"));
        assert!(module.contains("\"from\": from_"));
    }
}
