//! What tokens cost: a table kept in the repo (`prices.json`), overridable
//! by a file of the same shape.

use std::collections::HashMap;

use serde::Deserialize;

use crate::{LlmError, Spend, Usage};

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

    /// The built-in table with `path`'s entries over it. Every error names
    /// the file; a price below zero is refused (JSON has no NaN or
    /// infinity to give).
    pub fn with_file(path: &std::path::Path) -> Result<PriceTable, LlmError> {
        let text = rove_base::user_file::read_text(path, rove_base::limits::PRICES_FILE_BYTES)
            .map_err(|e| LlmError::Config(format!("reading the price table {e}")))?;
        let mut table = PriceTable::builtin();
        table.merge(&text).map_err(|message| {
            LlmError::Config(format!("the price table {}: {message}", path.display()))
        })?;
        Ok(table)
    }

    fn merge(&mut self, json: &str) -> Result<(), String> {
        let raw: HashMap<String, serde_json::Value> =
            serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
        for (model, value) in raw {
            if model.starts_with('_') {
                continue;
            }
            let price: Price =
                serde_json::from_value(value).map_err(|e| format!("price of {model}: {e}"))?;
            for (field, usd) in [
                ("input", price.input),
                ("output", price.output),
                ("cached", price.cached),
            ] {
                if !(usd.is_finite() && usd >= 0.0) {
                    return Err(format!(
                        "price of {model}: {field} is {usd}; give USD per million tokens, 0 or more"
                    ));
                }
            }
            self.prices.insert(model, price);
        }
        Ok(())
    }

    /// The cost of what each model of `spend` spent, at its own price;
    /// unknown when any model's price is.
    pub fn cost_of(&self, spend: &Spend) -> Option<f64> {
        let mut cost = 0.0;
        for (name, usage) in spend.by_model() {
            let (provider, model) = name.split_once(':')?;
            cost += self.cost(provider, model, usage)?;
        }
        Some(cost)
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

    #[test]
    fn a_spend_over_two_models_is_priced_at_each_ones_rate() {
        let table = PriceTable::builtin();
        let million = Usage {
            input: 1_000_000,
            output: 0,
            cached: 0,
        };
        let mut spend = Spend::default();
        spend.add("openai:gpt-5-mini", million);
        spend.add("openai:gpt-5", million);
        spend.add("openai:gpt-5-mini", million);
        assert_eq!(spend.total().input, 3_000_000);
        let mini = table
            .cost("openai", "gpt-5-mini", &million)
            .expect("priced");
        let full = table.cost("openai", "gpt-5", &million).expect("priced");
        assert!(full > mini, "the check needs two prices");
        let cost = table.cost_of(&spend).expect("priced");
        assert!((cost - (2.0 * mini + full)).abs() < 1e-9, "{cost}");
        spend.add("openai:unknown-model", million);
        assert_eq!(table.cost_of(&spend), None, "one unknown price: unknown");
        spend = Spend::default();
        spend.add("ollama:qwen3:8b", million);
        assert_eq!(table.cost_of(&spend), Some(0.0));
    }

    #[test]
    fn a_price_file_names_itself_in_errors_and_refuses_negative_prices() {
        let path = std::env::temp_dir().join(format!("rove-prices-{}.json", std::process::id()));
        std::fs::write(&path, r#"{"openai:x": {"input": -1, "output": 2}}"#).expect("write");
        let message = PriceTable::with_file(&path)
            .expect_err("negative")
            .to_string();
        assert!(
            message.contains(&path.display().to_string()) && message.contains("input is -1"),
            "{message}"
        );
        std::fs::write(&path, "{oops").expect("write");
        let message = PriceTable::with_file(&path)
            .expect_err("not JSON")
            .to_string();
        assert!(message.contains(&path.display().to_string()), "{message}");
        std::fs::write(&path, r#"{"openai:x": {"input": 1e999, "output": 2}}"#).expect("write");
        assert!(
            PriceTable::with_file(&path).is_err(),
            "an overflowing price"
        );
        std::fs::write(&path, r#"{"openai:x": {"input": 0.5, "output": 2}}"#).expect("write");
        let table = PriceTable::with_file(&path).expect("a good table");
        assert!(table.prices.contains_key("openai:x"));
        std::fs::remove_file(&path).expect("cleanup");
        let missing = PriceTable::with_file(&path).expect_err("gone").to_string();
        assert!(missing.contains(&path.display().to_string()), "{missing}");
    }
}
