//! The tools of the MCP server: the vocabulary's catalog
//! (`rove_commands::tools`) as rmcp sees it. The whole `tools/list` stays
//! small (a snapshot test holds it; `docs/benchmarks.md` counts its tokens).

use std::sync::{Arc, OnceLock};

use rmcp::model::Tool;
use serde_json::Value;

/// Every tool, built once.
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
                Tool::new(t.name, t.description, Arc::new(schema))
            })
            .collect()
    })
}
