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
//!   leaves out, which rove reads as absent. That rewrite makes a tool with
//!   many optional arguments much longer, so only tools whose arguments are
//!   all required go strict ([`for_openai`]).
//!
//! The tool definitions are read on every request, so what no provider
//! enforces is left off the wire ([`lean`]): `additionalProperties: false`
//! binds only a strict decoder.

use serde_json::{Map, Value, json};

/// The schema for a Gemini function declaration; `None` when the tool takes
/// no arguments (Gemini refuses an object without properties).
pub(crate) fn for_gemini(schema: &Value) -> Option<Value> {
    if takes_nothing(schema) {
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

/// A tool's schema for OpenAI's own API, and whether it goes in strict
/// mode. Strict only when the tool has arguments and every one of them is
/// required: then strict mode costs no more than its flag. A tool with
/// optional arguments would have each of them rewritten as a required
/// nullable one (a `click` with only a ref grows by half), on every
/// request, for a guarantee OpenAI does not keep anyway once a turn
/// calls several tools (parallel calls are not held to strict schemas),
/// which rove's batches do. Without strict mode rove still parses every
/// call into the vocabulary and answers a wrong one with the tool's shape.
pub(crate) fn for_openai(schema: &Value) -> (Value, bool) {
    let has_arguments = schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    if has_arguments && all_required(schema) {
        (for_openai_strict(schema), true)
    } else {
        (lean(schema), false)
    }
}

/// Whether the schema is of an object without properties (a tool that
/// takes no arguments).
pub(crate) fn takes_nothing(schema: &Value) -> bool {
    schema.get("type") == Some(&json!("object"))
        && schema
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
}

/// Whether every property, at every depth, is required.
fn all_required(schema: &Value) -> bool {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let props_ok = schema
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(|props| {
            props
                .iter()
                .all(|(name, prop)| required.contains(&name.as_str()) && all_required(prop))
        });
    props_ok && schema.get("items").is_none_or(all_required)
}

/// The schema as a provider that does not hold the model to it reads it:
/// without `additionalProperties`, which only a strict decoder enforces
/// (rove refuses an unknown argument itself, in the tool's terms).
pub(crate) fn lean(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "additionalProperties")
                .map(|(k, v)| {
                    let v = match k.as_str() {
                        "properties" => properties(v, lean),
                        "items" => lean(v),
                        _ => v.clone(),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
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
    fn only_tools_whose_arguments_are_all_required_go_strict() {
        let click = json!({
            "type": "object",
            "properties": {"ref": {"type": "string"}, "double": {"type": "boolean"}},
            "required": ["ref"],
            "additionalProperties": false
        });
        let (schema, strict) = for_openai(&click);
        assert!(!strict);
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {"ref": {"type": "string"}, "double": {"type": "boolean"}}, "required": ["ref"]})
        );
        let hover = json!({
            "type": "object",
            "properties": {"ref": {"type": "string"}},
            "required": ["ref"],
            "additionalProperties": false
        });
        assert_eq!(for_openai(&hover), (hover.clone(), true));
        let back = json!({"type": "object", "properties": {}, "additionalProperties": false});
        assert_eq!(
            for_openai(&back),
            (json!({"type": "object", "properties": {}}), false)
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
