//! The Rust text of the generated protocol modules, written as `rustfmt`
//! leaves it so that `cargo fmt` and the staleness test agree.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::model::{Domain, Enum, Field, Struct};
use super::names;

/// How wide a doc comment's text runs before it wraps.
const WIDTH: usize = 96;

/// rustfmt's width: a longer line of code is written as rustfmt breaks it.
const MAX_LINE: usize = 100;

/// rustfmt's width of an attribute's arguments on one line.
const MAX_ATTR_ARGS: usize = 70;

/// Every generated file, by path under `src/protocol/generated/`.
pub(super) fn files(domains: &BTreeMap<String, Domain>, source: &str) -> BTreeMap<String, String> {
    let provenance = provenance(source);
    let mut files = BTreeMap::new();
    let mut root = String::new();
    line(
        &mut root,
        "//! Chromium's DevTools protocol, as far as rove uses it: one module per domain.",
    );
    line(&mut root, "//!");
    doc(&mut root, "//! ", &provenance);
    root.push('\n');
    // By module name, as rustfmt orders them.
    let mut modules: Vec<(String, &Domain)> = domains
        .values()
        .map(|d| (names::snake(&d.name), d))
        .collect();
    modules.sort_by(|a, b| a.0.cmp(&b.0));
    for (module, d) in modules {
        let _ = writeln!(root, "pub mod {module};");
        files.extend(domain(d, &provenance));
    }
    files.insert("mod.rs".to_owned(), root);
    files
}

fn provenance(source: &str) -> String {
    format!(
        "Generated from Chromium's protocol definition ({source}, in \
         crates/rove-cdp/protocol/) for the commands, events and types named in \
         crates/rove-cdp/protocol/uses.txt. Do not edit: change the list and run \
         `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`."
    )
}

fn domain(d: &Domain, provenance: &str) -> BTreeMap<String, String> {
    let dir = names::snake(&d.name);
    let mut files = BTreeMap::new();
    let mut module = String::new();
    let title = if d.doc.is_empty() {
        format!("The `{}` domain.", d.name)
    } else {
        format!("The `{}` domain: {}", d.name, d.doc)
    };
    doc(&mut module, "//! ", &title);
    line(&mut module, "//!");
    doc(&mut module, "//! ", provenance);
    module.push('\n');
    let mut parts = Vec::new();
    if !d.commands.is_empty() {
        parts.push("commands");
        files.insert(format!("{dir}/commands.rs"), commands(d, provenance));
    }
    if !d.events.is_empty() {
        parts.push("events");
        files.insert(format!("{dir}/events.rs"), events(d, provenance));
    }
    if !(d.aliases.is_empty() && d.enums.is_empty() && d.structs.is_empty()) {
        parts.push("types");
        files.insert(format!("{dir}/types.rs"), types(d, provenance));
    }
    for part in &parts {
        let _ = writeln!(module, "mod {part};");
    }
    module.push('\n');
    for part in &parts {
        let _ = writeln!(module, "pub use {part}::*;");
    }
    files.insert(format!("{dir}/mod.rs"), module);
    files
}

fn header(out: &mut String, what: &str, d: &Domain, provenance: &str) {
    doc(
        out,
        "//! ",
        &format!("The {what} of the `{}` domain that rove uses.", d.name),
    );
    line(out, "//!");
    doc(out, "//! ", provenance);
}

fn commands(d: &Domain, provenance: &str) -> String {
    let mut out = String::new();
    header(&mut out, "commands", d, provenance);
    for c in &d.commands {
        out.push('\n');
        structure(&mut out, &c.params, Derive::Params);
        let answer = c
            .answer
            .as_ref()
            .map_or("crate::protocol::Empty".to_owned(), |a| a.name.clone());
        out.push('\n');
        let _ = writeln!(
            out,
            "impl crate::protocol::Command for {} {{",
            c.params.name
        );
        let _ = writeln!(out, "    const METHOD: &'static str = \"{}\";", c.method);
        let _ = writeln!(out, "    type Response = {answer};");
        line(&mut out, "}");
        if let Some(answer) = &c.answer {
            out.push('\n');
            structure(&mut out, answer, Derive::Answer);
        }
    }
    out
}

fn events(d: &Domain, provenance: &str) -> String {
    let mut out = String::new();
    header(&mut out, "events", d, provenance);
    for e in &d.events {
        out.push('\n');
        structure(&mut out, &e.params, Derive::Answer);
        out.push('\n');
        let _ = writeln!(
            out,
            "impl crate::protocol::EventType for {} {{",
            e.params.name
        );
        let _ = writeln!(out, "    const METHOD: &'static str = \"{}\";", e.method);
        line(&mut out, "}");
    }
    out
}

fn types(d: &Domain, provenance: &str) -> String {
    let mut out = String::new();
    header(&mut out, "types", d, provenance);
    for (name, (text, rust)) in &d.aliases {
        out.push('\n');
        doc(&mut out, "/// ", if text.is_empty() { name } else { text });
        let _ = writeln!(out, "pub type {name} = {rust};");
    }
    for e in d.enums.values() {
        out.push('\n');
        enumeration(&mut out, e);
    }
    for s in d.structs.values() {
        out.push('\n');
        structure(&mut out, s, Derive::Both);
    }
    out
}

/// Which way a struct travels.
#[derive(Clone, Copy, PartialEq)]
enum Derive {
    /// Sent only: a command's parameters.
    Params,
    /// Received only: an answer or an event.
    Answer,
    /// A type of the domain, which may go either way.
    Both,
}

fn structure(out: &mut String, s: &Struct, derive: Derive) {
    doc(out, "/// ", if s.doc.is_empty() { &s.name } else { &s.doc });
    let (traits, serde) = match derive {
        Derive::Params => ("serde::Serialize", "rename_all = \"camelCase\""),
        Derive::Answer => ("serde::Deserialize", "default, rename_all = \"camelCase\""),
        Derive::Both => (
            "PartialEq, serde::Serialize, serde::Deserialize",
            "default, rename_all = \"camelCase\"",
        ),
    };
    let _ = writeln!(out, "#[derive(Debug, Clone, Default, {traits})]");
    let _ = writeln!(out, "#[serde({serde})]");
    if s.fields.is_empty() {
        let _ = writeln!(out, "pub struct {} {{}}", s.name);
        return;
    }
    let _ = writeln!(out, "pub struct {} {{", s.name);
    for f in &s.fields {
        field(out, f, derive);
    }
    line(out, "}");
}

fn field(out: &mut String, f: &Field, derive: Derive) {
    doc(
        out,
        "    /// ",
        if f.doc.is_empty() { &f.json } else { &f.doc },
    );
    let mut attrs = Vec::new();
    if names::serde_camel(&f.rust) != f.json {
        attrs.push(format!("rename = \"{}\"", f.json));
    }
    if f.optional && derive != Derive::Answer {
        attrs.push("skip_serializing_if = \"Option::is_none\"".to_owned());
    }
    // A value that may be anything keeps an explicit `null` as `Some(Null)`
    // (serde would read it as absent): JavaScript's null is a value.
    if f.optional && f.ty == "serde_json::Value" && derive != Derive::Params {
        attrs.push("deserialize_with = \"crate::protocol::null_is_a_value\"".to_owned());
    }
    let args = attrs.join(", ");
    let one_line = format!("    #[serde({args})]");
    if one_line.len() <= MAX_LINE && args.len() <= MAX_ATTR_ARGS {
        if !attrs.is_empty() {
            line(out, &one_line);
        }
    } else {
        line(out, "    #[serde(");
        let _ = writeln!(out, "        {}", attrs.join(",\n        "));
        line(out, "    )]");
    }
    let ty = if f.boxed {
        format!("Box<{}>", f.ty)
    } else {
        f.ty.clone()
    };
    let ty = if f.optional {
        format!("Option<{ty}>")
    } else {
        ty
    };
    let _ = writeln!(out, "    pub {}: {ty},", f.rust);
}

fn enumeration(out: &mut String, e: &Enum) {
    doc(out, "/// ", if e.doc.is_empty() { &e.name } else { &e.doc });
    line(out, "#[derive(");
    line(
        out,
        "    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,",
    );
    line(out, ")]");
    let _ = writeln!(out, "pub enum {} {{", e.name);
    let variants: Vec<(String, &String)> =
        e.values.iter().map(|v| (names::variant(v), v)).collect();
    for (variant, value) in &variants {
        let _ = writeln!(out, "    /// `{value}`.");
        let _ = writeln!(out, "    #[serde(rename = \"{value}\")]");
        let _ = writeln!(out, "    {variant},");
    }
    line(
        out,
        "    /// A value this version of the protocol does not know (or none).",
    );
    line(out, "    #[default]");
    line(out, "    #[serde(other)]");
    line(out, "    Unrecognized,");
    line(out, "}");
    out.push('\n');
    let _ = writeln!(out, "impl {} {{", e.name);
    line(
        out,
        "    /// The value as the protocol writes it (empty for `Unrecognized`).",
    );
    line(out, "    pub fn as_str(self) -> &'static str {");
    line(out, "        match self {");
    for (variant, value) in &variants {
        let arm = format!("            Self::{variant} => \"{value}\",");
        if arm.len() <= MAX_LINE {
            line(out, &arm);
        } else {
            let _ = writeln!(out, "            Self::{variant} => {{");
            let _ = writeln!(out, "                \"{value}\"");
            line(out, "            }");
        }
    }
    line(out, "            Self::Unrecognized => \"\",");
    line(out, "        }");
    line(out, "    }");
    line(out, "}");
}

fn line(out: &mut String, text: &str) {
    out.push_str(text);
    out.push('\n');
}

/// `text` as doc comment lines starting with `prefix`, one paragraph per
/// blank line of the text, each wrapped at [`WIDTH`]. A line never starts
/// with what Markdown reads as a list item or a heading, except a
/// paragraph's first, whose next lines are then indented under it.
fn doc(out: &mut String, prefix: &str, text: &str) {
    let blank = prefix.trim_end();
    let width = WIDTH.saturating_sub(prefix.len()).max(40);
    for (n, paragraph) in text
        .split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .enumerate()
    {
        if n > 0 {
            line(out, blank);
        }
        let mut words = paragraph.split_whitespace().peekable();
        let indent = match words.peek() {
            Some(first) if is_marker(first) => " ".repeat(first.len() + 1),
            _ => String::new(),
        };
        let mut current = String::new();
        let mut first_line = true;
        for word in words {
            if !current.is_empty() && current.len() + 1 + word.len() > width && !is_marker(word) {
                let _ = writeln!(out, "{prefix}{current}");
                current.clear();
                first_line = false;
            }
            if current.is_empty() {
                if !first_line {
                    current.push_str(&indent);
                }
            } else {
                current.push(' ');
            }
            current.push_str(word);
        }
        if !current.is_empty() {
            let _ = writeln!(out, "{prefix}{current}");
        }
    }
}

/// Whether Markdown reads `word` at a line's start as a list item, a
/// heading or a quote.
fn is_marker(word: &str) -> bool {
    let numbered = word
        .strip_suffix('.')
        .or_else(|| word.strip_suffix(')'))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    numbered || matches!(word, "-" | "*" | "+") || word.starts_with('#') || word.starts_with('>')
}
