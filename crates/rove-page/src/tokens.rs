//! A fast, conservative token estimate for budgets.
//!
//! Budgets are enforced while rendering, line by line, so the estimate must be
//! cheap and must not undercount. Measured against the o200k encoding on
//! rove's own views of the benchmark pages (docs/benchmarks.md): short lines
//! of refs and names run 2.9–3.0 bytes per token, documentation text about
//! 3.8. One token per 3 bytes plus one per line stays at or above the real
//! count on every page measured.

/// Estimated o200k tokens of `text`.
pub fn estimate(text: &str) -> usize {
    text.len().div_ceil(3) + text.bytes().filter(|b| *b == b'\n').count() + 1
}
