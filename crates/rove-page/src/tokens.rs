//! A fast, conservative token estimate for budgets.
//!
//! Budgets are enforced while rendering, line by line, so the estimate must be
//! cheap and must not undercount. Calibrated against the o200k encoding on
//! rove's own views (see docs/benchmarks.md): view text averages 3.6–4.4 bytes
//! per token; counting one token per 3 bytes, plus one per line, stays above
//! the real count.

/// Estimated o200k tokens of `text`.
pub fn estimate(text: &str) -> usize {
    text.len().div_ceil(3) + 1
}
