//! The command line against the vocabulary: the command line is built from
//! the entries, so these tests hold the entries' shell spellings to the
//! tools' schemas: the generated CLI reaches every argument of every tool,
//! fills no argument a tool does not have, and has every word and flag the
//! spellings name.

use std::collections::BTreeSet;

use crate::cli::vocabulary::{ShellName, choices, names, word_id};
use rove_commands::shell::{Fills, Kind, Literal, Spelling};

/// The arguments a spelling can fill, with the values it sets them to
/// (none for a value typed).
fn filled(spelling: &Spelling) -> Vec<(&'static str, Option<Literal>, Kind)> {
    let mut out = Vec::new();
    let fills = spelling
        .words
        .iter()
        .map(|w| w.fills)
        .chain(spelling.flags.iter().map(|f| f.fills));
    for fill in fills {
        match fill {
            Fills::Argument(a, kind) => out.push((a, None, kind)),
            Fills::Arguments(arguments, kind) => {
                out.extend(arguments.iter().map(|a| (*a, None, kind)));
            }
            Fills::Sets(a, value) => out.push((a, Some(value), Kind::Text)),
            Fills::Omits(_) | Fills::Shell(_) => {}
            Fills::InOrder(slots) | Fills::AnyOrder(slots) => {
                out.extend(slots.iter().map(|s| (s.argument, None, s.kind)));
            }
            Fills::ByValue { cases, .. } => out.extend(
                cases
                    .iter()
                    .flat_map(|c| c.slots)
                    .map(|s| (s.argument, None, s.kind)),
            ),
        }
    }
    out
}

fn properties(name: &ShellName) -> BTreeSet<String> {
    rove_commands::parameters(name.entry)["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_generated_cli_reaches_every_tool_argument() {
    let mut missing = Vec::new();
    for tool in rove_commands::tools() {
        let spelled: BTreeSet<&str> = names()
            .iter()
            .filter(|n| n.entry.name == tool.name)
            .flat_map(|n| filled(n.spelling))
            .map(|(argument, _, _)| argument)
            .collect();
        if spelled.is_empty() && tool.parameters["properties"] != serde_json::json!({}) {
            missing.push(format!("{}: no shell spelling", tool.name));
        }
        for argument in tool.parameters["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            if !spelled.contains(argument.as_str()) {
                missing.push(format!("{}.{argument}", tool.name));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not reachable from the shell: {missing:#?}"
    );
}

#[test]
fn every_spelled_argument_and_value_is_the_tools_own() {
    let mut strays = Vec::new();
    for name in names() {
        let known = properties(&name);
        let fixed = name.fixed.iter().map(|(a, v)| (*a, Some(*v), Kind::Text));
        for (argument, value, kind) in filled(name.spelling).into_iter().chain(fixed) {
            if !known.contains(argument) {
                strays.push(format!("rove {}: {argument}", name.typed));
                continue;
            }
            let values = choices(name.entry, argument);
            if let Some(Literal::Text(value)) = value
                && !values.contains(&value)
            {
                strays.push(format!("rove {}: {argument} = {value}", name.typed));
            }
            let named: Vec<&str> = match kind {
                Kind::Choice { aliases, .. } => aliases.iter().map(|(_, v)| *v).collect(),
                Kind::Among(among) => among.to_vec(),
                _ => Vec::new(),
            };
            if matches!(kind, Kind::Choice { .. }) && values.is_empty() {
                strays.push(format!("rove {}: {argument} has no values", name.typed));
            }
            for value in named.into_iter().filter(|v| !values.contains(v)) {
                strays.push(format!("rove {}: {argument} = {value}", name.typed));
            }
        }
        for word in name.spelling.words {
            if let Fills::ByValue { argument, cases } = word.fills {
                let values = choices(name.entry, argument);
                for value in cases.iter().flat_map(|c| c.values) {
                    if !values.contains(value) {
                        strays.push(format!("rove {}: case {argument} = {value}", name.typed));
                    }
                }
            }
        }
    }
    assert!(
        strays.is_empty(),
        "spellings naming what the tools lack: {strays:#?}"
    );
}

#[test]
fn every_word_and_flag_of_a_spelling_is_on_the_command_line() {
    let cli = crate::cli::command();
    let globals: BTreeSet<String> = cli
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let mut wrong = Vec::new();
    for name in names() {
        let Some(sub) = cli.find_subcommand(name.typed) else {
            wrong.push(format!("no `rove {}`", name.typed));
            continue;
        };
        let ids: Vec<&str> = name
            .spelling
            .words
            .iter()
            .map(word_id)
            .chain(name.spelling.flags.iter().map(|f| f.long))
            .collect();
        let unique: BTreeSet<&&str> = ids.iter().collect();
        if unique.len() != ids.len() {
            wrong.push(format!(
                "rove {}: two words or flags share an id",
                name.typed
            ));
        }
        for id in &ids {
            if globals.contains(*id) {
                wrong.push(format!("rove {}: {id} is a global option's id", name.typed));
            }
            let arg = sub.get_arguments().find(|a| a.get_id() == *id);
            if arg.is_none_or(|a| a.is_hide_set()) {
                wrong.push(format!("rove {}: {id} is not shown", name.typed));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
