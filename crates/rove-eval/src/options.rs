//! How a suite runs: `rove test`'s flags as the runner and the plan read
//! them, `--shard` among them.

use std::path::PathBuf;

use rove_agent::AgentConfig;
use rove_base::limits;
use rove_commands::SessionConfig;
use rove_llm::PriceTable;

use crate::EvalError;
use crate::traces::Traces;

/// How a suite runs.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Attempts at once (at least 1).
    pub jobs: usize,
    /// Attempts per task, over each task's own `repeat`.
    pub repeat: Option<u32>,
    /// Only this slice of the attempts.
    pub shard: Option<Shard>,
    /// Only tasks with one of these tags (none: every task).
    pub tags: Vec<String>,
    /// Every attempt's session starts from this (a task's
    /// `allowed_domains` and `secrets` are put in; numbering starts anew).
    pub session: SessionConfig,
    /// Every attempt's agent starts from this (a task's `max_steps` is put
    /// in).
    pub agent: AgentConfig,
    /// Where each attempt's history goes (`attempts/` under it); none
    /// writes none.
    pub out: Option<PathBuf>,
    /// For each attempt's cost.
    pub prices: PriceTable,
    /// A second model that judges each attempt whose run ended; `None`
    /// judges none.
    pub judge: Option<rove_agent::Judge>,
    /// Which attempts keep a trace under `out`'s `traces/` (none without
    /// `out`). The agent's `trace_screenshots` adds screenshots after
    /// actions.
    pub traces: Traces,
    /// The most screenshot bytes one trace inlines.
    pub trace_budget: usize,
    /// Whether a kept trace also records the page's screencast (`frame`
    /// lines before each step, within the default caps).
    pub screencast: bool,
}

/// `--shard I/N`: the I-th of N slices (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1 ..= count.
    pub index: u32,
    /// How many slices.
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = EvalError;
    fn from_str(s: &str) -> Result<Shard, EvalError> {
        let bad = || {
            EvalError::Options(format!(
                "--shard {s:?}: give I/N with 1 ≤ I ≤ N ≤ {}, as 2/4",
                limits::SHARDS_MAX
            ))
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count || count > limits::SHARDS_MAX {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
