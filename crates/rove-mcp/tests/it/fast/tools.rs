//! The tool list an MCP host loads into every conversation: held by a
//! snapshot (a change to it is a deliberate change to what every model
//! reads), kept small, and in step with the command vocabulary.

use serde_json::Value;

#[test]
fn tools_list_is_held_by_a_snapshot() {
    let tools = rove_mcp::tools_json();
    let pretty = serde_json::to_string_pretty(&tools).expect("serializes");
    insta::assert_snapshot!(pretty);
}

#[test]
fn tools_list_stays_within_2000_tokens() {
    // Counted as docs/benchmarks.md counts it: o200k tokens of the compact
    // JSON a host receives.
    let json = rove_mcp::tools_json().to_string();
    let bpe = tiktoken_rs::o200k_base().expect("tokenizer");
    let tokens = bpe.encode_with_special_tokens(&json).len();
    assert!(tokens <= 2_000, "tools/list grew to {tokens} tokens");
}

#[test]
fn every_tool_is_a_command_of_the_vocabulary() {
    let tools = rove_mcp::tools_json_within(rove_commands::Caps::all());
    for tool in tools["tools"].as_array().expect("tools") {
        let name = tool["name"].as_str().expect("name");
        let description = tool["description"].as_str().expect("description");
        assert!(
            !description.is_empty() && description.len() < 160,
            "{name}: {description}"
        );
        // The required arguments alone make a valid command of that name.
        let mut args = serde_json::Map::new();
        args.insert("command".into(), Value::String(name.into()));
        for required in tool["inputSchema"]["required"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let key = required.as_str().expect("name");
            let property = &tool["inputSchema"]["properties"][key];
            let kind = &property["type"];
            let value = match kind.as_str() {
                // A choice takes one of its values.
                _ if property["enum"].is_array() => property["enum"][0].clone(),
                Some("boolean") => Value::Bool(true),
                // A list of objects (fill-form's fields) takes one with
                // its required members.
                Some("array") if property["items"]["type"] == "object" => {
                    Value::Array(vec![required_only(&property["items"])])
                }
                Some("array") => Value::Array(vec![Value::String("x".into())]),
                _ => Value::String("e1".into()),
            };
            args.insert(key.into(), value);
        }
        let parsed: Result<rove_commands::Command, _> = serde_json::from_value(Value::Object(args));
        let command = parsed.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(command.name(), name);
    }
}

/// An object with only its required members, each a ref-like string.
fn required_only(schema: &Value) -> Value {
    let members = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|k| (k.to_owned(), Value::String("e1".into())))
        .collect();
    Value::Object(members)
}

#[test]
fn capability_groups_add_their_tools_and_the_default_lists_only_core() {
    let names = |tools: &Value| -> Vec<String> {
        tools["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|t| t["name"].as_str().expect("name").to_owned())
            .collect()
    };
    let core = names(&rove_mcp::tools_json());
    let every = names(&rove_mcp::tools_json_within(rove_commands::Caps::all()));
    // `--caps all` lists every command of the vocabulary, the default only
    // the core group's, and the opt-in tools are not in it.
    assert_eq!(every.len(), rove_commands::tools().len());
    let core_count = rove_commands::tools()
        .iter()
        .filter(|t| t.capability == rove_commands::Capability::Core)
        .count();
    assert_eq!(core.len(), core_count);
    assert!(every.len() > core.len());
    assert!(!core.contains(&"console".to_owned()));
    assert!(every.contains(&"console".to_owned()));
    let devtools: rove_commands::Caps = "devtools".parse().expect("a group");
    let with_devtools = names(&rove_mcp::tools_json_within(devtools));
    assert_eq!(with_devtools.len(), core.len() + 1);
    let emulation: rove_commands::Caps = "emulation,pdf".parse().expect("two groups");
    let with_emulation = names(&rove_mcp::tools_json_within(emulation));
    assert_eq!(with_emulation.len(), core.len() + 2);
    assert!(
        with_emulation.contains(&"set".to_owned()) && with_emulation.contains(&"pdf".to_owned())
    );
    assert!(!core.contains(&"set".to_owned()) && !core.contains(&"pdf".to_owned()));
    let vision: rove_commands::Caps = "vision".parse().expect("a group");
    let with_vision = names(&rove_mcp::tools_json_within(vision));
    assert_eq!(with_vision.len(), core.len() + 1);
    assert!(with_vision.contains(&"mouse".to_owned()) && !core.contains(&"mouse".to_owned()));
    // click --at is the shell's: the default click takes no coordinates.
    let listed = rove_mcp::tools_json();
    let click = &listed["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == "click")
        .expect("click")["inputSchema"]["properties"];
    assert!(
        click.get("x").is_none() && click.get("at").is_none(),
        "{click}"
    );
}

#[test]
fn tools_list_with_every_group_is_counted_and_bounded() {
    // The opt-in groups cost tokens only for the hosts that ask for them;
    // still, `--caps all` must stay a list a model can carry.
    let json = rove_mcp::tools_json_within(rove_commands::Caps::all()).to_string();
    let bpe = tiktoken_rs::o200k_base().expect("tokenizer");
    let tokens = bpe.encode_with_special_tokens(&json).len();
    assert!(
        tokens <= 3_750,
        "tools/list with every group grew to {tokens} tokens"
    );
}
