//! The command line against the vocabulary: every argument of every tool
//! can be given at the shell, and every flag of a session command is an
//! argument of its tool (or one of the few shell-only conveniences named
//! here), so the CLI cannot drift from the one definition in
//! `rove_commands`.

use std::collections::BTreeSet;

use clap::CommandFactory;

use crate::cli::Cli;

/// Where the shell spells an argument differently: (tool, argument, the
/// subcommand and its clap argument that carry it).
const SPELLED: &[(&str, &str, &str, &str)] = &[
    ("snapshot", "mode", "snapshot", "interactive"),
    ("click", "ref", "click", "target"),
    ("click", "double", "click", "double"),
    ("hover", "ref", "hover", "target"),
    ("check", "ref", "check", "target"),
    ("uncheck", "ref", "uncheck", "target"),
    ("type", "ref", "type", "words"),
    ("type", "text", "type", "words"),
    ("type", "delay_ms", "type", "delay"),
    ("fill", "ref", "fill", "target"),
    ("select", "ref", "select", "target"),
    ("scroll", "ref", "scroll", "words"),
    ("scroll", "direction", "scroll", "words"),
    ("scroll", "pixels", "scroll", "words"),
    ("upload", "ref", "upload", "target"),
    ("dialog", "accept", "dialog", "answer"),
    ("tab", "tab", "tab", "target"),
    ("tab", "url", "tab", "target"),
    ("screenshot", "full_page", "screenshot", "full"),
    ("screenshot", "format", "screenshot", "jpeg"),
    ("wait", "text_gone", "wait", "gone"),
    ("network", "id", "network", "target"),
    ("set", "value", "set", "values"),
    ("set", "width", "set", "values"),
    ("set", "height", "set", "values"),
    ("set", "latitude", "set", "values"),
    ("set", "longitude", "set", "values"),
    ("set", "headers", "set", "values"),
    ("get", "ref", "get", "words"),
    ("get", "name", "get", "words"),
    ("mouse", "x", "mouse", "words"),
    ("mouse", "y", "mouse", "words"),
    ("mouse", "dx", "mouse", "words"),
    ("mouse", "dy", "mouse", "words"),
];

/// Flags of the shell alone: how the shell runs a command, not what it asks.
const SHELL_ONLY: &[(&str, &str)] = &[
    ("open", "stay"),
    ("open", "timeout"),
    ("type", "focused"),
    ("snapshot", "diff"),
    ("mouse", "at"),
    ("click", "at"),
];

#[test]
fn every_tool_argument_can_be_given_at_the_shell() {
    let cli = Cli::command();
    let mut missing = Vec::new();
    for tool in rove_commands::tools() {
        let properties = tool.parameters["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for argument in properties.keys() {
            let (sub, id) = SPELLED
                .iter()
                .find(|(t, a, _, _)| *t == tool.name && a == argument)
                .map(|(_, _, s, i)| (*s, *i))
                .unwrap_or((tool.name, argument.as_str()));
            let found = cli
                .find_subcommand(sub)
                .is_some_and(|c| c.get_arguments().any(|a| a.get_id() == id));
            if !found {
                missing.push(format!(
                    "{}.{argument} (looked for `rove {sub}` {id})",
                    tool.name
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not reachable from the shell: {missing:#?}"
    );
}

#[test]
fn every_session_flag_is_a_tool_argument() {
    let cli = Cli::command();
    let globals: BTreeSet<String> = cli
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let mut strays = Vec::new();
    for tool in rove_commands::tools() {
        let Some(sub) = cli.find_subcommand(tool.name) else {
            strays.push(format!("no `rove {}`", tool.name));
            continue;
        };
        let properties = tool.parameters["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for arg in sub.get_arguments() {
            let id = arg.get_id().as_str();
            let known = globals.contains(id)
                || id == "help"
                || properties.contains_key(id)
                || SPELLED
                    .iter()
                    .any(|(t, _, s, i)| *t == tool.name && *s == tool.name && *i == id)
                || SHELL_ONLY.contains(&(tool.name, id));
            if !known {
                strays.push(format!("rove {} {id}", tool.name));
            }
        }
    }
    assert!(
        strays.is_empty(),
        "flags with no tool argument: {strays:#?}"
    );
}
