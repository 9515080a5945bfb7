//! `rove-eval`: the library behind `rove test`. Task suites in YAML
//! (browser-use's format, read unchanged, plus rove's fields), attempts run
//! by the agent, each in a browser context of its own, several at once;
//! checks on real side effects (the final page, a server's state, a
//! download, the answer) run afterwards without any model; results with
//! pass rates and their 95 % Wilson intervals, as JSON and JUnit XML; two
//! runs compared task by task.
//!
//! Statuses are strict on purpose: `passed` needs the agent's reported
//! success AND every check AND, with a judge, its pass; a task with no
//! check and no judge is `self-reported`, never a pass; a judge that could
//! not say makes it `unjudged`, never a pass or a fail; a task that could
//! not run is `skipped`, never a pass.

#![forbid(unsafe_code)]

mod attempt;
mod compare;
mod farm;
mod grade;
mod html;
mod junit;
mod options;
mod plan;
mod results;
mod runner;
mod stats;
mod task;
mod task_depth;
mod traces;
mod verify;

use std::path::PathBuf;

pub use attempt::{AttemptResult, Status};
pub use compare::{Change, Comparison, compare};
pub use farm::Farm;
pub use html::report_html;
pub use junit::junit_xml;
pub use options::{RunOptions, Shard};
pub use plan::Plan;
pub use results::{SuiteResults, TaskSummary, Totals, summarize};
pub use runner::{Browsers, run_suite, run_suite_without_browser};
pub use stats::{median, wilson};
pub use task::{
    Check, DEFAULT_MAX_STEPS, FileCheck, HttpCheck, ScopedSecret, SecretSource, Task, TaskSpec,
    TextCheck, load, parse, substitute,
};
pub use traces::Traces;
pub use verify::{CheckResult, Final, run_checks};

/// Why a suite could not be read.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A file could not be read.
    #[error("{}: {message}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A file is not YAML of the task format.
    #[error("{}{}: {message}", path.display(), at(*line, *column))]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based, when known.
        line: Option<usize>,
        /// 1-based, when known.
        column: Option<usize>,
        /// The parser's message (it names the field).
        message: String,
    },
    /// A task's fields parsed but a value is wrong.
    #[error("{}{}: {field}: {message}", path.display(), at(*line, None))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The line of the task's name, when found.
        line: Option<usize>,
        /// The field, as `verify[2].url`.
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// A command-line value is wrong (`--shard 3/2`).
    #[error("{0}")]
    Options(String),
}

/// `:3:5`, `:3` or nothing.
fn at(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}
