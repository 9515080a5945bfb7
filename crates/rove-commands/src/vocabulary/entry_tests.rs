//! The entries' properties against what the session and the faces rely
//! on: which commands act, act on elements, need the page, and how long
//! they may run; and every entry names only arguments its tool has.
//! (A test module: its parent includes it under #[cfg(test)].)

use serde_json::{Value, json};

use super::{Deadline, WorksOn};
use crate::vocabulary::shell::Literal;
use crate::{Command, entries, tool};

/// A call of `name` with these arguments.
fn call(name: &str, arguments: Value) -> Command {
    Command::from_tool_call(name, Some(&arguments))
        .unwrap_or_else(|e| panic!("{name} {arguments}: {e}"))
}

/// A call of every command with only its required arguments.
fn every_command() -> Vec<Command> {
    let sample = |name: &str, schema: &Value| match (name, schema["type"].as_str()) {
        (_, _) if schema["enum"].is_array() => schema["enum"][0].clone(),
        ("ref" | "from" | "to", _) => json!("e7"),
        (_, Some("boolean")) => json!(true),
        (_, Some("array")) => json!([]),
        (_, Some("integer" | "number")) => json!(1),
        _ => json!("x"),
    };
    entries()
        .iter()
        .map(|entry| {
            let schema = &tool(entry.name).expect("a tool").parameters;
            let arguments: serde_json::Map<String, Value> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|k| (k.to_owned(), sample(k, &schema["properties"][k])))
                .collect();
            call(entry.name, Value::Object(arguments))
        })
        .collect()
}

fn names(commands: &[Command], keep: impl Fn(&Command) -> bool) -> Vec<&'static str> {
    commands
        .iter()
        .filter(|c| keep(c))
        .map(Command::name)
        .collect()
}

#[test]
fn what_commands_do_and_work_on_comes_from_their_entries() {
    let all = every_command();
    // `tab` without arguments lists the tabs, `desktop` the applications.
    assert_eq!(
        names(&all, |c| !c.acts()),
        [
            "snapshot",
            "find",
            "tab",
            "desktop",
            "screenshot",
            "read",
            "wait",
            "close",
            "console",
            "network",
            "cookies",
            "storage",
            "state",
            "set",
            "pdf",
            "get"
        ]
    );
    assert_eq!(
        names(&all, Command::acts_on_elements),
        [
            "click",
            "hover",
            "type",
            "fill",
            "press",
            "select",
            "check",
            "uncheck",
            "scroll",
            "drag",
            "upload",
            "solve",
            "mouse",
            "fill-form"
        ]
    );
    assert_eq!(
        names(&all, |c| !c.works_on().needs_page()),
        ["dialog", "tab", "desktop", "close"]
    );
    // One argument's value changes them: `tab list` only reads, `open`
    // in a new tab needs no page.
    assert!(!call("tab", json!({"action": "list"})).acts());
    assert!(call("tab", json!({"action": "new"})).acts());
    assert!(!call("desktop", json!({"action": "apps"})).acts());
    assert!(call("desktop", json!({"action": "open", "target": "x"})).acts());
    let new_tab = call("open", json!({"url": "a.test", "new_tab": true}));
    assert_eq!(new_tab.works_on(), WorksOn::Browser);
    assert_eq!(
        call("open", json!({"url": "a.test"})).works_on(),
        WorksOn::Tab
    );
    // A dialog refuses what needs the page's scripts; the rest the browser
    // answers itself.
    assert_eq!(
        names(&all, |c| !c.works_on().blocked_by_dialog()),
        [
            "open", "snapshot", "dialog", "tab", "desktop", "close", "console", "network",
            "cookies", "set"
        ]
    );
    assert!(
        call("state", json!({"action": "save", "file": "s.json"}))
            .works_on()
            .blocked_by_dialog()
    );
    assert_eq!(
        call("state", json!({"action": "load", "file": "s.json"})).works_on(),
        WorksOn::Tab
    );
}

#[test]
fn deadlines_follow_the_entry_and_the_call() {
    use std::time::Duration;
    let (navigation, script) = (Duration::from_secs(30), Duration::from_secs(10));
    let own = |name: &str, arguments: Value| call(name, arguments).own_wait(navigation, script);
    assert_eq!(own("open", json!({"url": "a.test"})), Some(navigation));
    assert_eq!(own("back", json!({})), Some(navigation));
    assert_eq!(own("eval", json!({"js": "1"})), Some(script));
    assert_eq!(
        own("wait", json!({"ms": 2500})),
        Some(Duration::from_millis(2500))
    );
    assert_eq!(
        own("wait", json!({"text": "x"})),
        Some(Duration::from_secs(10))
    );
    assert_eq!(own("click", json!({"ref": "e1"})), None);
}

#[test]
fn every_entry_names_arguments_its_tool_has() {
    for entry in entries() {
        let schema = &tool(entry.name).expect("a tool").parameters["properties"];
        if let Some(when) = entry.when {
            let property = &schema[when.argument];
            assert!(property.is_object(), "{}: {}", entry.name, when.argument);
            match when.value {
                Literal::Bool(_) => assert_eq!(property["type"], "boolean"),
                Literal::Text(value) => assert!(
                    property["enum"]
                        .as_array()
                        .is_some_and(|values| values.contains(&json!(value))),
                    "{}: {value}",
                    entry.name
                ),
            }
        }
        if let Deadline::Argument { argument, .. } = entry.deadline {
            assert_eq!(schema[argument]["type"], "integer", "{}", entry.name);
        }
        assert!(!entry.shell.spelling.about.is_empty(), "{}", entry.name);
        assert!(!entry.shell.spelling.examples.is_empty(), "{}", entry.name);
    }
}

/// A call of `name` with every argument its schema has: each element
/// argument the entry names a locator, the rest plain values.
fn with_every_argument(name: &str, elements: &[&str]) -> Command {
    fn plain(key: &str, schema: &Value, elements: &[&str], path: &str) -> Value {
        if elements.contains(&path) {
            return json!("css=#x");
        }
        if let Some(values) = schema["enum"].as_array() {
            return values[values.len() - 1].clone();
        }
        match schema["type"].as_str() {
            Some("boolean") => json!(true),
            Some("integer") => json!(3),
            Some("number") => json!(2.5),
            Some("array") => {
                json!([plain(key, &schema["items"], elements, &format!("{path}[]"))])
            }
            Some("object") => Value::Object(
                schema["properties"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| (k.clone(), plain(k, v, elements, &format!("{path}.{k}"))))
                    .collect(),
            ),
            _ => match key {
                "ref" | "from" | "to" | "scope" | "after" => json!("e7"),
                "tab" => json!("t2"),
                _ => json!("x"),
            },
        }
    }
    let schema = &tool(name).expect("a tool").parameters;
    let arguments: serde_json::Map<String, Value> = schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), plain(k, v, elements, k)))
        .collect();
    call(name, Value::Object(arguments))
}

#[test]
fn each_entry_names_the_element_arguments_the_session_resolves() {
    for entry in entries() {
        let command = with_every_argument(entry.name, entry.elements);
        let targets = command.targets();
        assert_eq!(targets.len(), entry.elements.len(), "{}", entry.name);
        assert!(
            targets.iter().all(|t| t.locator().is_some()),
            "{}: an element argument the entry does not name",
            entry.name
        );
        // The shell spells each of them as an element.
        use crate::vocabulary::shell::{Fills, Kind};
        let spelling = &entry.shell.spelling;
        let fills = spelling
            .words
            .iter()
            .map(|w| w.fills)
            .chain(spelling.flags.iter().map(|f| f.fills));
        for fill in fills {
            let slots: Vec<(&str, Kind)> = match fill {
                Fills::Argument(a, kind) => vec![(a, kind)],
                Fills::InOrder(slots) | Fills::AnyOrder(slots) => {
                    slots.iter().map(|s| (s.argument, s.kind)).collect()
                }
                Fills::ByValue { cases, .. } => cases
                    .iter()
                    .flat_map(|c| c.slots)
                    .map(|s| (s.argument, s.kind))
                    .collect(),
                Fills::Arguments(..) | Fills::Sets(..) | Fills::Omits(_) | Fills::Shell(_) => {
                    Vec::new()
                }
            };
            for (argument, kind) in slots {
                assert_eq!(
                    kind == Kind::Element,
                    entry.elements.contains(&argument),
                    "{}: {argument}",
                    entry.name
                );
            }
        }
    }
}
