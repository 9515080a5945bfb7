//! The tool catalog against the command parser: both come from the one
//! command list, so every schema describes exactly what parses. No browser
//! is needed.

use rove_commands::{Command, tools};
use serde_json::{Map, Value, json};

/// A value the schema allows for an argument.
fn sample(name: &str, schema: &Value) -> Value {
    if let Some(values) = schema["enum"].as_array() {
        return values[values.len() - 1].clone();
    }
    match schema["type"].as_str() {
        Some("string") => match name {
            "ref" | "scope" | "after" | "from" | "to" => json!("e7"),
            "tab" => json!("t2"),
            _ => json!("x"),
        },
        Some("boolean") => json!(true),
        Some("integer") => json!(3),
        Some("number") => json!(2.5),
        Some("array") => json!([sample(name, &schema["items"])]),
        Some("object") => Value::Object(every_argument(schema)),
        other => panic!("{name}: type {other:?}"),
    }
}

fn every_argument(schema: &Value) -> Map<String, Value> {
    schema["properties"]
        .as_object()
        .map(|props| {
            props
                .iter()
                .map(|(k, v)| (k.clone(), sample(k, v)))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_call_with_every_argument_of_its_schema_parses_and_keeps_them_all() {
    for tool in tools() {
        let arguments = Value::Object(every_argument(&tool.parameters));
        let command = Command::from_tool_call(tool.name, Some(&arguments))
            .unwrap_or_else(|e| panic!("{}: {e} for {arguments}", tool.name));
        assert_eq!(command.name(), tool.name);
        // Nothing the schema offers is dropped on the way in.
        let back = command.tool_arguments();
        for (key, value) in arguments.as_object().into_iter().flatten() {
            assert_eq!(&back[key], value, "{}.{key}", tool.name);
        }
        // And nothing the command holds is missing from the schema.
        for key in back.as_object().into_iter().flatten().map(|(k, _)| k) {
            assert!(
                tool.parameters["properties"].get(key).is_some(),
                "{}.{key} is accepted but not in the schema",
                tool.name
            );
        }
    }
}

#[test]
fn a_call_with_only_the_required_arguments_parses() {
    for tool in tools() {
        let mut arguments = Map::new();
        for name in tool.parameters["required"].as_array().into_iter().flatten() {
            let name = name.as_str().expect("name");
            arguments.insert(
                name.into(),
                sample(name, &tool.parameters["properties"][name]),
            );
        }
        Command::from_tool_call(tool.name, Some(&Value::Object(arguments)))
            .unwrap_or_else(|e| panic!("{}: {e}", tool.name));
    }
}

#[test]
fn calls_outside_the_schema_are_refused_with_what_is_wrong() {
    let refused = |name: &str, args: Value| {
        Command::from_tool_call(name, Some(&args))
            .expect_err("refused")
            .to_string()
    };
    assert!(
        refused("click", json!({"ref": "e1", "force": true})).contains("unknown field `force`")
    );
    assert!(refused("click", json!({})).contains("missing field `ref`"));
    assert!(refused("click", json!({"ref": "x1"})).contains("\"x1\" is not a ref"));
    assert!(refused("tab", json!({"action": "switch", "tab": "e2"})).contains("is not a tab id"));
    assert!(refused("snapshot", json!({"mode": "everything"})).contains("unknown variant"));
    assert!(refused("click", json!(["e1"])).contains("must be a JSON object"));
    assert!(
        refused("click", json!({"ref": "e1", "command": "eval"}))
            .contains("unknown field `command`")
    );
    assert!(refused("explode", json!({})).contains("no such tool"));
    assert!(refused("back", json!({"steps": 2})).contains("unknown field `steps`"));
}

#[test]
fn a_null_argument_is_left_out_and_no_arguments_is_an_empty_object() {
    let command =
        Command::from_tool_call("wait", Some(&json!({"text": null, "ms": 50}))).expect("parses");
    assert_eq!(command.tool_arguments()["ms"], 50);
    assert!(command.tool_arguments()["text"].is_null());
    assert_eq!(
        Command::from_tool_call("back", None).expect("parses"),
        Command::Back
    );
}

#[test]
fn annotations_say_which_tools_only_look() {
    let read_only: Vec<&str> = tools()
        .iter()
        .filter(|t| t.annotations.read_only_hint)
        .map(|t| t.name)
        .collect();
    assert_eq!(
        read_only,
        [
            "snapshot",
            "find",
            "screenshot",
            "read",
            "wait",
            "console",
            "pdf",
            "get"
        ]
    );
    let click = rove_commands::tool("click").expect("click");
    assert!(click.annotations.destructive_hint && !click.annotations.idempotent_hint);
    for tool in tools() {
        assert!(
            !tool.title.is_empty() && !tool.description.is_empty(),
            "{}",
            tool.name
        );
    }
}

#[test]
fn the_commands_doc_names_every_tool_and_every_argument() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/commands.md"
    ))
    .expect("docs/commands.md");
    let rows: Vec<&str> = doc.lines().filter(|l| l.starts_with("| `")).collect();
    let mut missing = Vec::new();
    for tool in tools() {
        let name = format!("`{}`", tool.name);
        let Some(row) = rows
            .iter()
            .find(|r| r.split('|').nth(1).is_some_and(|cell| cell.contains(&name)))
        else {
            missing.push(format!("no row for {name}"));
            continue;
        };
        let arguments = row.split('|').nth(2).unwrap_or_default();
        for arg in tool.parameters["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            if !arguments.contains(&format!("`{arg}`")) {
                missing.push(format!("{}: `{arg}`", tool.name));
            }
        }
    }
    assert!(missing.is_empty(), "docs/commands.md lacks: {missing:#?}");
}

#[test]
fn a_tool_outside_the_enabled_groups_is_refused_naming_the_flag() {
    use rove_commands::{Caps, CommandError};
    use rove_errors::Classify;
    let e = Command::from_tool_call_within("console", None, Caps::default())
        .expect_err("console is not in the core group");
    assert!(matches!(e, CommandError::NotOffered { .. }), "{e:?}");
    assert_eq!(e.code().as_str(), "COMMAND_REJECTED");
    let report = e.report();
    assert!(report.hint.contains("--caps devtools"), "{}", report.hint);
    assert_eq!(
        report.facts.expect("facts")["flag"],
        json!("--caps devtools")
    );
    // Enabled, it parses; a core tool parses with the default.
    let devtools: Caps = "devtools".parse().expect("a group");
    assert!(Command::from_tool_call_within("console", None, devtools).is_ok());
    assert!(Command::from_tool_call_within("back", None, Caps::default()).is_ok());
}

#[test]
fn mouse_is_offered_with_vision_and_fill_form_with_forms_never_by_default() {
    use rove_commands::{Caps, tools_within};
    let names = |caps: Caps| -> Vec<&str> { tools_within(caps).map(|t| t.name).collect() };
    let default = names(Caps::default());
    assert!(!default.contains(&"mouse") && !default.contains(&"fill-form"));
    let vision = names("vision".parse().expect("a group"));
    assert!(vision.contains(&"mouse") && !vision.contains(&"fill-form"));
    let forms = names("forms".parse().expect("a group"));
    assert!(forms.contains(&"fill-form") && !forms.contains(&"mouse"));
    let all = names(Caps::all());
    assert!(all.contains(&"mouse") && all.contains(&"fill-form"));
    // Outside its group, a call names the flag that offers it.
    let e = Command::from_tool_call_within(
        "mouse",
        Some(&json!({"action": "click", "x": 1, "y": 2})),
        Caps::default(),
    )
    .expect_err("not offered by default");
    assert!(
        e.report().hint.contains("--caps vision"),
        "{}",
        e.report().hint
    );
    // A checkbox's value parses from JSON true as from the word.
    let form = Command::from_tool_call(
        "fill-form",
        Some(&json!({"fields": [{"ref": "e3", "value": true}, {"ref": "e4", "value": "Peru"}]})),
    )
    .expect("parses");
    assert_eq!(
        form.tool_arguments()["fields"],
        json!([{"ref": "e3", "value": true}, {"ref": "e4", "value": "Peru"}])
    );
}
