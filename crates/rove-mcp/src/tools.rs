//! The tools of the MCP server: the vocabulary's catalog
//! (`rove_commands::tools`) as rmcp sees it. The whole `tools/list` stays
//! small (a snapshot test holds it; `docs/benchmarks.md` counts its tokens).
//! Each tool carries MCP's annotations: a title and the hints that differ
//! from the spec's defaults. A server lists only the tools of the
//! capability groups it was started with ([`within`]).

use std::sync::{Arc, OnceLock};

use rmcp::model::{Tool, ToolAnnotations};
use serde_json::Value;

/// The tools of the groups in `caps`, in the vocabulary's order.
pub fn within(caps: rove_commands::Caps) -> Vec<Tool> {
    rove_commands::tools()
        .iter()
        .zip(all())
        .filter(|(t, _)| caps.contains(t.capability))
        .map(|(_, tool)| tool.clone())
        .collect()
}

/// Every tool of every group, built once.
pub fn all() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        rove_commands::tools()
            .iter()
            .map(|t| {
                let schema = match &t.parameters {
                    Value::Object(map) => map.clone(),
                    _ => serde_json::Map::new(),
                };
                let hints = &t.annotations;
                // A hint equal to the spec's default (not read-only,
                // destructive, not idempotent, open world) means the same
                // when left out, and every byte here is in every
                // conversation; the destructive and idempotent hints mean
                // nothing for a read-only tool.
                let mut annotations = ToolAnnotations::with_title(t.title);
                if hints.read_only_hint {
                    annotations.read_only_hint = Some(true);
                } else {
                    annotations.destructive_hint = (!hints.destructive_hint).then_some(false);
                    annotations.idempotent_hint = hints.idempotent_hint.then_some(true);
                }
                annotations.open_world_hint = (!hints.open_world_hint).then_some(false);
                Tool::new(t.name, t.description, Arc::new(schema)).annotate(annotations)
            })
            .collect()
    })
}
