//! What tokens cost: a table kept in the repo (`prices.json`), overridable
//! by a file of the same shape.

use std::collections::HashMap;

use serde::Deserialize;

use crate::{LlmError, Usage};

/// USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Price {
    /// Prompt tokens not served from cache.
    pub input: f64,
    /// Generated tokens.
    pub output: f64,
    /// Prompt tokens served from cache.
    #[serde(default)]
    pub cached: f64,
}

/// Prices by `provider:model`.
#[derive(Debug, Clone, Default)]
pub struct PriceTable {
    prices: HashMap<String, Price>,
}

impl PriceTable {
    /// The table kept in the repo.
    pub fn builtin() -> PriceTable {
        let mut table = PriceTable::default();
        // The file is part of the crate; a mistake in it is a test failure.
        let _ = table.merge(include_str!("prices.json"));
        table
    }

    /// The built-in table with `path`'s entries over it.
    pub fn with_file(path: &std::path::Path) -> Result<PriceTable, LlmError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| LlmError::Config(format!("reading {}: {e}", path.display())))?;
        let mut table = PriceTable::builtin();
        table.merge(&text)?;
        Ok(table)
    }

    fn merge(&mut self, json: &str) -> Result<(), LlmError> {
        let raw: HashMap<String, serde_json::Value> = serde_json::from_str(json)
            .map_err(|e| LlmError::Config(format!("a price table is not JSON: {e}")))?;
        for (model, value) in raw {
            if model.starts_with('_') {
                continue;
            }
            let price: Price = serde_json::from_value(value)
                .map_err(|e| LlmError::Config(format!("price of {model}: {e}")))?;
            self.prices.insert(model, price);
        }
        Ok(())
    }

    /// The cost of `usage` on `provider:model`; local providers cost
    /// nothing; an unknown model has no known cost.
    pub fn cost(&self, provider: &str, model: &str, usage: &Usage) -> Option<f64> {
        if provider == "ollama" {
            return Some(0.0);
        }
        let price = self.prices.get(&format!("{provider}:{model}"))?;
        let fresh = usage.input.saturating_sub(usage.cached) as f64;
        Some(
            (fresh * price.input
                + usage.cached as f64 * price.cached
                + usage.output as f64 * price.output)
                / 1_000_000.0,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_table_parses_and_prices_usage() {
        let table = PriceTable::builtin();
        let usage = Usage {
            input: 1_000_000,
            output: 1_000_000,
            cached: 500_000,
        };
        let cost = table.cost("openai", "gpt-5-mini", &usage).expect("priced");
        assert!(
            (cost - (0.5 * 0.25 + 0.5 * 0.025 + 2.0)).abs() < 1e-9,
            "{cost}"
        );
        assert_eq!(table.cost("ollama", "qwen3:8b", &usage), Some(0.0));
        assert_eq!(table.cost("openai", "unknown-model", &usage), None);
        // Every provider has prices of its own.
        for (provider, model) in [
            ("azure", "gpt-5-mini"),
            ("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
            ("vertex", "gemini-2.5-flash"),
            ("gemini", "gemini-2.5-flash"),
            ("mistral", "mistral-medium-latest"),
        ] {
            assert!(
                table.cost(provider, model, &usage).is_some_and(|c| c > 0.0),
                "{provider}:{model}"
            );
        }
    }
}
