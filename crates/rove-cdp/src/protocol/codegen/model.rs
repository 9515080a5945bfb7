//! What the generator makes of Chromium's protocol definition: for each
//! domain rove uses, the commands, events and types the allowlist names, and
//! the types they need, resolved to Rust types.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::names;

/// The allowlist (`crates/rove-cdp/protocol/uses.txt`).
#[derive(Debug, Default)]
pub(super) struct Allowlist {
    /// `devtools-protocol 0.0.…`: where the definition came from.
    pub source: String,
    /// `Domain.method`, `Domain.event` or `Domain.Type`, as written.
    pub names: BTreeSet<String>,
    /// `Domain.Type` → a Rust type rove already has.
    pub overrides: BTreeMap<String, String>,
}

impl Allowlist {
    pub(super) fn parse(text: &str) -> Result<Self, String> {
        let mut list = Allowlist::default();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            if let Some(source) = line.strip_prefix("source ") {
                list.source = source.trim().to_owned();
            } else if let Some(rest) = line.strip_prefix("type ") {
                let (name, rust) = rest
                    .split_once('=')
                    .ok_or_else(|| format!("line {}: `type Domain.Type = rust::Path`", n + 1))?;
                list.overrides
                    .insert(name.trim().to_owned(), rust.trim().to_owned());
            } else if line.contains('.') && !line.contains(' ') {
                list.names.insert(line.to_owned());
            } else {
                return Err(format!("line {}: cannot read `{line}`", n + 1));
            }
        }
        if list.source.is_empty() {
            return Err("the allowlist names no `source`".to_owned());
        }
        Ok(list)
    }
}

/// One field of a struct (a type's property, a command's parameter or
/// return value, an event's parameter).
#[derive(Debug, Clone)]
pub(super) struct Field {
    pub json: String,
    pub rust: String,
    pub ty: String,
    pub optional: bool,
    pub doc: String,
    /// The struct this field holds directly (not in a list), to box cycles.
    pub holds: Option<String>,
    pub boxed: bool,
}

/// A generated struct.
#[derive(Debug, Clone, Default)]
pub(super) struct Struct {
    pub name: String,
    pub doc: String,
    pub fields: Vec<Field>,
}

/// A generated string enum.
#[derive(Debug, Clone)]
pub(super) struct Enum {
    pub name: String,
    pub doc: String,
    pub values: Vec<String>,
}

/// A generated command: its parameters and its answer.
#[derive(Debug, Clone)]
pub(super) struct Command {
    pub method: String,
    pub params: Struct,
    /// `None` when the command answers nothing.
    pub answer: Option<Struct>,
}

/// A generated event.
#[derive(Debug, Clone)]
pub(super) struct Event {
    pub method: String,
    pub params: Struct,
}

/// Everything generated for one domain.
#[derive(Debug, Default)]
pub(super) struct Domain {
    pub name: String,
    pub doc: String,
    pub aliases: BTreeMap<String, (String, String)>,
    pub enums: BTreeMap<String, Enum>,
    pub structs: BTreeMap<String, Struct>,
    pub commands: Vec<Command>,
    pub events: Vec<Event>,
}

/// The protocol definition, by domain.
pub(super) struct Spec {
    domains: BTreeMap<String, Value>,
}

impl Spec {
    pub(super) fn parse(files: &[&str]) -> Result<Self, String> {
        let mut domains = BTreeMap::new();
        for text in files {
            let json: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
            for domain in json["domains"].as_array().into_iter().flatten() {
                let name = domain["domain"].as_str().unwrap_or_default().to_owned();
                domains.insert(name, domain.clone());
            }
        }
        Ok(Spec { domains })
    }

    fn find<'a>(&'a self, domain: &str, list: &str, key: &str, name: &str) -> Option<&'a Value> {
        self.domains.get(domain)?[list]
            .as_array()?
            .iter()
            .find(|item| item[key] == name)
    }
}

/// Builds every domain the allowlist reaches.
pub(super) fn build(spec: &Spec, allow: &Allowlist) -> Result<BTreeMap<String, Domain>, String> {
    let mut builder = Builder {
        spec,
        allow,
        domains: BTreeMap::new(),
        pending: Vec::new(),
    };
    for name in &allow.names {
        let (domain, item) = name
            .split_once('.')
            .ok_or_else(|| format!("`{name}` is not Domain.item"))?;
        if let Some(command) = spec.find(domain, "commands", "name", item) {
            builder.command(domain, command);
        } else if let Some(event) = spec.find(domain, "events", "name", item) {
            builder.event(domain, event);
        } else if spec.find(domain, "types", "id", item).is_some() {
            builder.pending.push((domain.to_owned(), item.to_owned()));
        } else {
            return Err(format!("`{name}` is in no domain of {}", allow.source));
        }
    }
    while let Some((domain, id)) = builder.pending.pop() {
        builder.named_type(&domain, &id);
    }
    let mut domains = builder.domains;
    box_cycles(&mut domains);
    check_names(&domains)?;
    Ok(domains)
}

struct Builder<'a> {
    spec: &'a Spec,
    allow: &'a Allowlist,
    domains: BTreeMap<String, Domain>,
    pending: Vec<(String, String)>,
}

impl Builder<'_> {
    fn domain(&mut self, name: &str) -> &mut Domain {
        let doc = self
            .spec
            .domains
            .get(name)
            .and_then(|d| d["description"].as_str())
            .unwrap_or_default()
            .to_owned();
        self.domains
            .entry(name.to_owned())
            .or_insert_with(|| Domain {
                name: name.to_owned(),
                doc,
                ..Domain::default()
            })
    }

    fn command(&mut self, domain: &str, command: &Value) {
        let name = command["name"].as_str().unwrap_or_default();
        let rust = names::pascal_first(name);
        let method = format!("{domain}.{name}");
        let params = self.fields(domain, &rust, &command["parameters"]);
        let returns = command["returns"].as_array().is_some_and(|r| !r.is_empty());
        let answer = returns.then(|| Struct {
            name: format!("{rust}Result"),
            doc: format!("The answer of [`{rust}`]."),
            fields: self.fields(domain, &format!("{rust}Result"), &command["returns"]),
        });
        let params = Struct {
            name: rust,
            doc: with_method(&method, command),
            fields: params,
        };
        self.domain(domain).commands.push(Command {
            method,
            params,
            answer,
        });
    }

    fn event(&mut self, domain: &str, event: &Value) {
        let name = event["name"].as_str().unwrap_or_default();
        let rust = names::pascal_first(name);
        let method = format!("{domain}.{name}");
        let fields = self.fields(domain, &rust, &event["parameters"]);
        let params = Struct {
            name: rust,
            doc: with_method(&method, event),
            fields,
        };
        self.domain(domain).events.push(Event { method, params });
    }

    fn fields(&mut self, domain: &str, owner: &str, list: &Value) -> Vec<Field> {
        let mut fields = Vec::new();
        for prop in list.as_array().into_iter().flatten() {
            let json = prop["name"].as_str().unwrap_or_default().to_owned();
            let rust = names::field(&json);
            let (ty, holds) = self.rust_type(domain, owner, &json, prop);
            fields.push(Field {
                rust,
                ty,
                optional: prop["optional"].as_bool().unwrap_or(false),
                doc: describe(prop),
                holds,
                boxed: false,
                json,
            });
        }
        fields
    }

    /// The Rust type of a property, and the struct it holds directly (if
    /// any, as `Domain.Type`).
    fn rust_type(
        &mut self,
        domain: &str,
        owner: &str,
        field: &str,
        prop: &Value,
    ) -> (String, Option<String>) {
        if let Some(reference) = prop["$ref"].as_str() {
            let (ref_domain, id) = match reference.split_once('.') {
                Some((d, id)) => (d.to_owned(), id.to_owned()),
                None => (domain.to_owned(), reference.to_owned()),
            };
            return self.reference(domain, &ref_domain, &id);
        }
        let kind = prop["type"].as_str().unwrap_or("any");
        let ty = match kind {
            "string" if prop["enum"].is_array() => {
                let name = format!("{owner}{}", names::pascal_first(field));
                let values = strings(&prop["enum"]);
                self.domain(domain).enums.insert(
                    name.clone(),
                    Enum {
                        name: name.clone(),
                        doc: format!("The values of `{field}` in `{owner}`."),
                        values,
                    },
                );
                return (format!("super::{name}"), None);
            }
            "string" | "binary" => "String".to_owned(),
            "integer" => "i64".to_owned(),
            "number" => "f64".to_owned(),
            "boolean" => "bool".to_owned(),
            "array" => {
                let (item, _) = self.rust_type(domain, owner, field, &prop["items"]);
                format!("Vec<{item}>")
            }
            _ => "serde_json::Value".to_owned(),
        };
        (ty, None)
    }

    /// A reference from `from` to `domain.id`: a path to the generated
    /// type, or `serde_json::Value` for an object or enum rove does not list.
    fn reference(&mut self, from: &str, domain: &str, id: &str) -> (String, Option<String>) {
        let full = format!("{domain}.{id}");
        let path = if domain == from {
            format!("super::{id}")
        } else {
            format!("crate::protocol::{}::{id}", names::snake(domain))
        };
        let Some(def) = self.spec.find(domain, "types", "id", id) else {
            return ("serde_json::Value".to_owned(), None);
        };
        let kind = def["type"].as_str().unwrap_or("any");
        let listed = self.allow.names.contains(&full) || self.allow.overrides.contains_key(&full);
        let is_struct = kind == "object" && def["properties"].is_array();
        let plain = !def["enum"].is_array() && !is_struct;
        if !(listed || plain) {
            return ("serde_json::Value".to_owned(), None);
        }
        self.pending.push((domain.to_owned(), id.to_owned()));
        let holds = is_struct.then_some(full);
        (path, holds)
    }

    /// Emits the named type `domain.id` (once).
    fn named_type(&mut self, domain: &str, id: &str) {
        let d = self.domain(domain);
        if d.aliases.contains_key(id) || d.enums.contains_key(id) || d.structs.contains_key(id) {
            return;
        }
        let Some(def) = self.spec.find(domain, "types", "id", id) else {
            return;
        };
        let doc = describe(def);
        if let Some(rust) = self.allow.overrides.get(&format!("{domain}.{id}")) {
            let rust = rust.clone();
            self.domain(domain)
                .aliases
                .insert(id.to_owned(), (doc, rust));
            return;
        }
        let kind = def["type"].as_str().unwrap_or("any");
        if kind == "string" && def["enum"].is_array() {
            let values = strings(&def["enum"]);
            let e = Enum {
                name: id.to_owned(),
                doc,
                values,
            };
            self.domain(domain).enums.insert(id.to_owned(), e);
        } else if kind == "object" && def["properties"].is_array() {
            // Inserted first so that a type holding itself stops here.
            let placeholder = Struct {
                name: id.to_owned(),
                doc: doc.clone(),
                fields: Vec::new(),
            };
            self.domain(domain)
                .structs
                .insert(id.to_owned(), placeholder);
            let fields = self.fields(domain, id, &def["properties"]);
            if let Some(s) = self.domain(domain).structs.get_mut(id) {
                s.fields = fields;
            }
        } else {
            let (rust, _) = self.rust_type(domain, id, "item", def);
            self.domain(domain)
                .aliases
                .insert(id.to_owned(), (doc, rust));
        }
    }
}

/// Boxes each field that holds, directly, a struct that holds its owner
/// (a type that contains itself would have no size).
fn box_cycles(domains: &mut BTreeMap<String, Domain>) {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for d in domains.values() {
        for s in d.structs.values() {
            let from = format!("{}.{}", d.name, s.name);
            let to = s.fields.iter().filter_map(|f| f.holds.clone());
            edges.entry(from).or_default().extend(to);
        }
    }
    let reaches = |start: &str, goal: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start.to_owned()];
        while let Some(node) = stack.pop() {
            if node == goal {
                return true;
            }
            if seen.insert(node.clone()) {
                stack.extend(edges.get(&node).into_iter().flatten().cloned());
            }
        }
        false
    };
    for d in domains.values_mut() {
        for s in d.structs.values_mut() {
            let owner = format!("{}.{}", d.name, s.name);
            for f in &mut s.fields {
                if let Some(target) = &f.holds {
                    f.boxed = reaches(target, &owner);
                }
            }
        }
    }
}

/// Fails when two generated items of one domain would share a name.
fn check_names(domains: &BTreeMap<String, Domain>) -> Result<(), String> {
    for d in domains.values() {
        let mut seen = BTreeSet::new();
        let commands = d.commands.iter().flat_map(|c| {
            std::iter::once(c.params.name.clone()).chain(c.answer.as_ref().map(|a| a.name.clone()))
        });
        let all = d
            .aliases
            .keys()
            .chain(d.enums.keys())
            .chain(d.structs.keys())
            .cloned()
            .chain(commands)
            .chain(d.events.iter().map(|e| e.params.name.clone()));
        for name in all {
            if !seen.insert(name.clone()) {
                return Err(format!("two items of {} are called {name}", d.name));
            }
        }
    }
    Ok(())
}

fn strings(list: &Value) -> Vec<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// A definition's description, with its status when it is not stable.
fn describe(def: &Value) -> String {
    let mut doc = def["description"].as_str().unwrap_or_default().to_owned();
    if def["deprecated"].as_bool() == Some(true) {
        doc.push_str("\n\nDeprecated.");
    } else if def["experimental"].as_bool() == Some(true) {
        doc.push_str("\n\nExperimental.");
    }
    doc
}

fn with_method(method: &str, def: &Value) -> String {
    let doc = describe(def);
    if doc.is_empty() {
        format!("`{method}`.")
    } else {
        format!("`{method}`: {doc}")
    }
}
