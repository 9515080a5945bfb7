//! The commands that run an agent: `rove run` and `rove replay`
//! (`agent.rs`, its inputs checked in `inputs.rs`, its history and trace
//! files in `run_files.rs`, `--steer` in `steer.rs`), `rove test`
//! (`test.rs`, its progress lines in `progress.rs`, its videos in
//! `video.rs`), the models they
//! resolve (`models.rs`) and the judge's (`judging.rs`).

pub(crate) mod agent;
pub(crate) mod inputs;
pub(crate) mod judging;
pub(crate) mod models;
pub(crate) mod progress;
pub(crate) mod run_files;
pub(crate) mod steer;
pub(crate) mod test;
pub(crate) mod video;
