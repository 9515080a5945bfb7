//! The portable JSON Schema of an argument type: derived by `schemars`,
//! then reduced to the subset every host accepts (see `catalog.rs`).

use schemars::JsonSchema;
use serde_json::{Map, Value, json};

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
