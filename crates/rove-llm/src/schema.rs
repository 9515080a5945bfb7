//! Tool schemas as each provider accepts them. rove's tools come with
//! schemas in a portable subset of JSON Schema (one type per schema, string
//! enums with their type, closed objects, optional arguments simply not
//! required); two providers want something else:
//!
//! - Gemini's function declarations take an OpenAPI-style schema that
//!   refuses `additionalProperties` and an object with no properties (a tool
//!   without arguments leaves `parameters` out).
//! - OpenAI's strict mode wants every property listed in `required`, so an
//!   optional argument becomes nullable (`"type": ["string", "null"]`, and
//!   `null` among an enum's values); the model then sends null for what it
//!   leaves out, which rove reads as absent.

use serde_json::{Map, Value, json};

/// The schema for a Gemini function declaration; `None` when the tool takes
/// no arguments (Gemini refuses an object without properties).
pub(crate) fn for_gemini(schema: &Value) -> Option<Value> {
    let empty = schema
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    if schema.get("type") == Some(&json!("object")) && empty {
        return None;
    }
    Some(gemini_node(schema))
}

fn gemini_node(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out: Map<String, Value> = map
                .iter()
                .filter(|(k, _)| k.as_str() != "additionalProperties")
                .map(|(k, v)| {
                    let v = if k == "properties" {
                        properties(v, gemini_node)
                    } else {
                        gemini_node(v)
                    };
                    (k.clone(), v)
                })
                .collect();
            if out.contains_key("enum") && !out.contains_key("type") {
                out.insert("type".into(), json!("string"));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(gemini_node).collect()),
        other => other.clone(),
    }
}

/// The schema for OpenAI's strict mode.
pub(crate) fn for_openai_strict(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = map.clone();
    if let Some(Value::Object(props)) = map.get("properties") {
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut strict = Map::new();
        for (name, prop) in props {
            let mut prop = for_openai_strict(prop);
            if !required.contains(&name.as_str()) {
                nullable(&mut prop);
            }
            strict.insert(name.clone(), prop);
        }
        out.insert(
            "required".into(),
            Value::Array(props.keys().map(|k| json!(k)).collect()),
        );
        out.insert("properties".into(), Value::Object(strict));
        out.insert("additionalProperties".into(), json!(false));
    }
    if let Some(items) = map.get("items") {
        out.insert("items".into(), for_openai_strict(items));
    }
    Value::Object(out)
}

/// Lets a schema also take null.
fn nullable(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::String(t)) = map.get("type").cloned() {
        map.insert("type".into(), json!([t, "null"]));
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.push(Value::Null);
    }
}

fn properties(props: &Value, each: fn(&Value) -> Value) -> Value {
    match props {
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), each(v))).collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_mode_lists_every_property_and_makes_optional_ones_nullable() {
        let schema = json!({
            "type": "object",
            "properties": {
                "ref": {"type": "string"},
                "button": {"type": "string", "enum": ["left", "right"]}
            },
            "required": ["ref"],
            "additionalProperties": false
        });
        let strict = for_openai_strict(&schema);
        assert_eq!(strict["required"], json!(["button", "ref"]));
        assert_eq!(strict["properties"]["ref"]["type"], json!("string"));
        assert_eq!(
            strict["properties"]["button"],
            json!({"type": ["string", "null"], "enum": ["left", "right", null]})
        );
    }

    #[test]
    fn gemini_gets_no_additional_properties_and_no_empty_objects() {
        let none = json!({"type": "object", "properties": {}, "additionalProperties": false});
        assert_eq!(for_gemini(&none), None);
        let some = json!({
            "type": "object",
            "properties": {"clip": {"type": "object", "properties": {"x": {"type": "number"}}, "additionalProperties": false}},
            "additionalProperties": false
        });
        let gemini = for_gemini(&some).expect("has properties");
        assert!(!gemini.to_string().contains("additionalProperties"));
    }
}
