//! The commands that run an agent: `rove run` and `rove replay`
//! (`agent.rs`), `rove test` (`test.rs`, its progress lines in
//! `progress.rs`), the models they resolve (`models.rs`) and the judge's
//! (`judging.rs`).

pub(crate) mod agent;
pub(crate) mod judging;
pub(crate) mod models;
pub(crate) mod progress;
pub(crate) mod test;
