//! docs/commands.md's per-command reference, written from the vocabulary's
//! entries: each section's table (the command, its arguments from its
//! schema, what its entry's reference says) and its shell spellings with
//! examples, and the table of capability groups. The prose around them is
//! the file's own; only the blocks between the markers are written here.

use std::fmt::Write as _;

use crate::vocabulary::catalog::{ToolDescription, entries, tools};
use crate::vocabulary::shell::{Count, Fills, Kind, Section, Shell, ShellOnly, Spelling};

/// A block's first line; its name follows.
const BEGIN: &str = "<!-- generated from the vocabulary: ";
/// A block's last line.
const END: &str = "<!-- end of the generated block -->";

/// One command as the reference shows it.
#[derive(Debug, Clone, Copy)]
struct Documented {
    /// The command's tool.
    tool: &'static ToolDescription,
    /// Its shell spelling and reference.
    shell: &'static Shell,
}

/// The commands, in the vocabulary's order.
fn documented() -> Vec<Documented> {
    entries()
        .iter()
        .zip(tools())
        .map(|(entry, tool)| Documented {
            tool,
            shell: entry.shell,
        })
        .collect()
}

/// `doc` with every generated block written afresh; a block whose name is
/// unknown is an error.
pub fn refreshed(doc: &str) -> Result<String, String> {
    let mut out = String::with_capacity(doc.len());
    let mut lines = doc.split_inclusive('\n');
    while let Some(line) = lines.next() {
        out.push_str(line);
        let Some(name) = line
            .trim_end()
            .strip_prefix(BEGIN)
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        let block = block(name).ok_or_else(|| format!("no generated block is named {name:?}"))?;
        out.push_str(&block);
        let end = lines.by_ref().find(|l| l.trim_end() == END);
        let Some(end) = end else {
            return Err(format!("the block {name:?} has no end marker"));
        };
        out.push_str(end);
    }
    Ok(out)
}

/// The block of this name: a section's commands, or the groups' table.
fn block(name: &str) -> Option<String> {
    let all = documented();
    if name == "capability groups" {
        return Some(groups_table(&all));
    }
    let section: Vec<Documented> = match name {
        "navigation" => in_section(&all, Section::Navigation),
        "reading" => in_section(&all, Section::Reading),
        "acting" => in_section(&all, Section::Acting),
        "tabs and dialogs" => in_section(&all, Section::TabsAndDialogs),
        group => all
            .iter()
            .filter(|d| d.tool.capability.name() == group && d.shell.section == Section::Group)
            .copied()
            .collect(),
    };
    (!section.is_empty()).then(|| section_block(&section))
}

fn in_section(all: &[Documented], section: Section) -> Vec<Documented> {
    all.iter()
        .filter(|d| d.shell.section == section)
        .copied()
        .collect()
}

fn section_block(commands: &[Documented]) -> String {
    let mut text = String::from("| command | arguments | notes |\n|---|---|---|\n");
    for d in commands {
        let _ = writeln!(
            text,
            "| `{}` | {} | {} |",
            d.tool.name,
            arguments(d.tool, d.shell),
            d.shell.reference
        );
    }
    text.push_str("\nAt the shell:\n\n");
    for d in commands {
        let spellings = std::iter::once((d.tool.name, &d.shell.spelling))
            .chain(d.shell.aliases.iter().map(|a| (a.name, &a.spelling)));
        for (name, spelling) in spellings {
            let examples: Vec<String> = spelling
                .examples
                .iter()
                .map(|e| match e.1 {
                    "" => format!("`{}`", e.0),
                    remark => format!("`{}` ({})", e.0, remark.trim_matches(['(', ')'])),
                })
                .collect();
            let _ = writeln!(
                text,
                "- `{}`: {}",
                usage(name, spelling),
                examples.join("; ")
            );
        }
    }
    text
}

/// The arguments of a tool: each name, with the values it takes when they
/// are few, or the fields of its objects.
fn arguments(tool: &ToolDescription, shell: &Shell) -> String {
    let mut properties: Vec<(&String, &serde_json::Value)> = tool.parameters["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .collect();
    // In the order the shell takes them, which puts the main ones first.
    let order = spelled_order(&shell.spelling);
    properties.sort_by_key(|(name, _)| order.iter().position(|a| a == name).unwrap_or(order.len()));
    let names: Vec<String> = properties
        .into_iter()
        .map(|(name, schema)| {
            let listed = |values: &serde_json::Value| -> Option<String> {
                let values: Vec<String> = values
                    .as_array()?
                    .iter()
                    .filter_map(|v| v.as_str())
                    .map(|v| format!("`{v}`"))
                    .collect();
                (!values.is_empty()).then(|| values.join(", "))
            };
            let fields = |object: &serde_json::Value| -> Option<String> {
                let keys: Vec<String> = object["properties"]
                    .as_object()?
                    .keys()
                    .map(|k| format!("`{k}`"))
                    .collect();
                Some(keys.join(", "))
            };
            let detail = listed(&schema["enum"])
                .or_else(|| fields(schema))
                .or_else(|| fields(&schema["items"]).map(|f| format!("each {f}")));
            match detail {
                Some(detail) => format!("`{name}` ({detail})"),
                None => format!("`{name}`"),
            }
        })
        .collect();
    names.join(", ")
}

/// The arguments a spelling fills, in the order of its words and flags.
fn spelled_order(spelling: &Spelling) -> Vec<&'static str> {
    let fills = spelling
        .words
        .iter()
        .map(|w| w.fills)
        .chain(spelling.flags.iter().map(|f| f.fills));
    let mut order = Vec::new();
    for fill in fills {
        match fill {
            Fills::Argument(a, _) | Fills::Sets(a, _) => order.push(a),
            Fills::Arguments(arguments, _) => order.extend(arguments.iter().copied()),
            Fills::InOrder(slots) | Fills::AnyOrder(slots) => {
                order.extend(slots.iter().map(|s| s.argument));
            }
            Fills::ByValue { cases, .. } => {
                order.extend(cases.iter().flat_map(|c| c.slots).map(|s| s.argument));
            }
            Fills::Omits(_) | Fills::Shell(_) => {}
        }
    }
    order
}

/// `rove NAME WORDS [FLAGS]`, as a synopsis.
pub fn usage(name: &str, spelling: &Spelling) -> String {
    let mut line = format!("rove {name}");
    for word in spelling.words {
        let shown = match word.count {
            Count::One | Count::OneUnless(_) => word.name.to_owned(),
            Count::Optional | Count::OrElse(_) | Count::Default(_) => format!("[{}]", word.name),
            Count::Many => format!("{}...", word.name),
            Count::Between(0, _) | Count::Any => format!("[{}...]", word.name),
            Count::Between(..) => format!("{}...", word.name),
        };
        let _ = write!(line, " {shown}");
    }
    for flag in spelling.flags {
        let value = match flag.fills {
            Fills::Argument(_, Kind::Switch)
            | Fills::Sets(..)
            | Fills::Omits(_)
            | Fills::Shell(ShellOnly::Stay) => String::new(),
            _ => format!(" {}", flag.value),
        };
        let _ = write!(line, " [--{}{value}]", flag.long);
    }
    line
}

/// The capability groups and their commands.
fn groups_table(all: &[Documented]) -> String {
    let mut text = String::from("| group | commands | offered by |\n|---|---|---|\n");
    for group in crate::vocabulary::caps::Capability::ALL {
        let names: Vec<String> = all
            .iter()
            .filter(|d| d.tool.capability == group)
            .map(|d| format!("`{}`", d.tool.name))
            .collect();
        let (commands, offered) = match group {
            crate::vocabulary::caps::Capability::Core => (names.join(", "), "always".to_owned()),
            other => (names.join(", "), format!("`--caps {other}`")),
        };
        let _ = writeln!(text, "| **{group}** | {commands} | {offered} |");
    }
    text
}

#[cfg(test)]
mod tests {
    /// Where the file is, from this crate.
    const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/commands.md");

    /// The reference is the entries': the file must hold what they say.
    /// `ROVE_WRITE_DOCS=1 cargo test -p rove-commands commands_doc` writes
    /// it.
    #[test]
    fn commands_doc_is_written_from_the_entries() {
        let doc = std::fs::read_to_string(DOC).expect("docs/commands.md");
        let fresh = super::refreshed(&doc).unwrap_or_else(|e| panic!("{e}"));
        if std::env::var_os("ROVE_WRITE_DOCS").is_some() {
            std::fs::write(DOC, &fresh).expect("written");
            return;
        }
        assert!(
            doc == fresh,
            "docs/commands.md is stale: run ROVE_WRITE_DOCS=1 cargo test -p rove-commands commands_doc"
        );
        for name in ["navigation", "acting", "capability groups", "forms"] {
            assert!(
                doc.contains(&format!("{}{name} -->", super::BEGIN)),
                "no block {name}"
            );
        }
    }

    #[test]
    fn a_block_is_replaced_whole_and_the_prose_around_it_kept() {
        let doc = format!(
            "intro\n{}reading -->\nstale text\n{}\noutro\n",
            super::BEGIN,
            super::END
        );
        let fresh = super::refreshed(&doc).expect("refreshed");
        assert!(fresh.starts_with("intro\n") && fresh.ends_with("\noutro\n"));
        assert!(!fresh.contains("stale text") && fresh.contains("| `snapshot` |"));
        assert!(fresh.contains("rove snapshot [--interactive] [--diff] [--scope REF]"));
        let unknown = format!("{}nothing -->\n{}\n", super::BEGIN, super::END);
        assert!(super::refreshed(&unknown).is_err());
    }
}
